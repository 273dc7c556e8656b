"""First calls of the compiled backends: compiling never eats a time limit, the kernels
are loaded from numba's cache in every later process, and loading them once readies
every kernel a search calls.

Each check runs in a fresh Python process with a cache directory of its own
(``NUMBA_CACHE_DIR``): empty for the first process, which compiles every kernel, and
the same directory, now filled, for the second. The answers asked for take the
search milliseconds, under a time limit far shorter than compiling takes, so a clock
that counted the compiling would cut them short.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cpqueens.solvers import REGISTRY

pytest.importorskip("numba")

ROOT = Path(__file__).resolve().parents[2]
COMPILED = [name for name, backend in REGISTRY.items() if backend.compiled]
#: Seconds: well under what compiling any of the backends takes, well over their search.
LIMIT = 0.3

CHILD = """
import json, sys
import cpqueens
from numba.core.dispatcher import Dispatcher
from cpqueens.solvers import REGISTRY

names, limit, variants = sys.argv[1].split(","), float(sys.argv[2]), sys.argv[3] == "1"


def dispatchers(name):
    package = type(REGISTRY[name]).__module__.rpartition(".")[0] + "."
    return [
        value
        for module_name, module in list(sys.modules.items())
        if module_name.startswith(package)
        for value in vars(module).values()
        if isinstance(value, Dispatcher)
    ]


def signatures(name):
    return {(id(d), str(s)) for d in dispatchers(name) for s in d.signatures}


def first_call(backend):
    if backend.exhaustive:  # every solution of 8 queens
        return cpqueens.solve(8, backend=backend.name, time_limit=limit)
    # A local search on 3 queens, where there is none: it gives up after its restarts.
    return cpqueens.solve(
        3, backend=backend.name, limit=1, seed=0, time_limit=limit, max_restarts=20
    )


def other_calls(backend):
    name, one = backend.name, {"workers": 1} if backend.supports_workers else {}
    blocked = {"blocked": [(0, 0), (2, 3)]} if backend.supports_blocked else {}
    if backend.exhaustive:
        cpqueens.solve(12, backend=name, limit=1)
        cpqueens.solve(7, backend=name, fixed={0: 1}, **blocked)
        cpqueens.count(9, backend=name, **one)
        cpqueens.count(9, backend=name, unique=True, **one)
        cpqueens.count(8, backend=name, fixed={1: 3}, time_limit=60, **one)
        cpqueens.count(8, backend=name, time_limit=60, **blocked, **one)
    else:
        cpqueens.solve(8, backend=name, limit=3, seed=1)
        cpqueens.solve(9, backend=name, limit=2, seed=2, fixed={0: 1}, **blocked)
        cpqueens.solve(2000, backend=name, limit=1, seed=3)
        cpqueens.solve(6, backend=name, limit=1, seed=4, fixed={0: 0, 1: 1})


for name in names:
    backend = REGISTRY[name]
    result = first_call(backend)
    row = {
        "name": name,
        "count": result.count,
        "complete": result.complete,
        "satisfiable": result.satisfiable,
        "timed_out": result.stats["timed_out"],
        "cache_misses": sum(sum(d.stats.cache_misses.values()) for d in dispatchers(name)),
    }
    if variants:
        before = signatures(name)
        other_calls(backend)
        row["compiled_later"] = sorted(s for _, s in signatures(name) - before)
    print(json.dumps(row), flush=True)
"""


def first_calls(cache: Path, variants: bool) -> dict[str, dict]:
    """The first call of every compiled backend in one fresh process, by name."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    args = [sys.executable, "-c", CHILD, ",".join(COMPILED), str(LIMIT), "1" if variants else "0"]
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    return {row["name"]: row for row in rows}


@pytest.fixture(scope="module")
def cold_and_warm(tmp_path_factory):
    """The first calls with an empty cache (compiling), then with the cache it left."""
    cache = tmp_path_factory.mktemp("numba-cache")
    return first_calls(cache, variants=False), first_calls(cache, variants=True)


def test_the_compiled_backends_are_those_built_on_numba():
    assert COMPILED
    assert [name for name, b in REGISTRY.items() if b.requires == "numba"] == COMPILED


@pytest.mark.parametrize("which", ["cold", "warm"])
@pytest.mark.parametrize("name", COMPILED)
def test_compiling_does_not_eat_the_time_limit(cold_and_warm, name, which):
    row = cold_and_warm[which == "warm"][name]
    assert not row["timed_out"], row
    if REGISTRY[name].exhaustive:
        assert (row["count"], row["complete"], row["satisfiable"]) == (92, True, True)
    else:
        # No solution, and a local search proves none: it gave up, it did not time out.
        assert (row["count"], row["complete"], row["satisfiable"]) == (0, False, None)


@pytest.mark.parametrize("name", COMPILED)
def test_a_new_process_loads_the_kernels_from_the_cache(cold_and_warm, name):
    cold, warm = cold_and_warm
    assert cold[name]["cache_misses"] > 0  # the empty cache: compiled there
    assert warm[name]["cache_misses"] == 0


@pytest.mark.parametrize("name", COMPILED)
def test_loading_the_kernels_readies_every_kernel_a_search_calls(cold_and_warm, name):
    # Fixed queens, blocked squares, counts, large boards: no kernel is compiled
    # (or loaded) again once the first call has loaded them, so none on the clock.
    assert cold_and_warm[1][name]["compiled_later"] == []
