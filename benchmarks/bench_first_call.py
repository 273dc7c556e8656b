"""First call against second call of every compiled backend, in fresh processes.

Run from the repository root:

    PYTHONPATH=. python benchmarks/bench_first_call.py              # 3 processes a case
    PYTHONPATH=. python benchmarks/bench_first_call.py --repeat 5 --backends qs,minconflicts
    PYTHONPATH=. python benchmarks/bench_first_call.py --local-n 100000 --exhaustive-n 12

The backends are those of the registry marked ``compiled`` (numba kernels) and
available here. For each one, a fresh Python process imports cpqueens and makes the
same call twice, timing the import and each call: ``solve(N, limit=1, seed=1)`` with
N = ``--local-n`` (default 10**6, the README's call) for a local search, N =
``--exhaustive-n`` (default 16) for a backend that searches the whole space. That is
done ``--repeat`` times (default 3) with each of two caches:

* **cold**: an empty ``NUMBA_CACHE_DIR`` of its own, as on the first call after
  installing: the first call compiles every kernel the backend has;
* **warm**: a ``NUMBA_CACHE_DIR`` that one unmeasured process filled beforehand, as on
  every later call: the first call loads the kernels from it.

The medians are printed per backend and cache, with the first call's extra cost over
the second (what compiling or loading the kernels adds). A child that does not answer
within ``--child-timeout`` seconds is stopped and reported.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cpqueens.solvers import REGISTRY

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, sys, time
started = time.perf_counter()
import cpqueens
imported = time.perf_counter()
name, n, seeded = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
extra = {"seed": 1} if seeded else {}
times = []
for _ in range(2):
    began = time.perf_counter()
    result = cpqueens.solve(n, backend=name, limit=1, **extra)
    times.append(time.perf_counter() - began)
    assert result.count == 1, result
print(json.dumps({"import": imported - started, "first": times[0], "second": times[1]}))
"""


def run_child(name: str, n: int, seeded: bool, cache: Path, timeout: float) -> dict[str, float]:
    """One fresh process: its import, first and second call times (seconds)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_CACHE_DIR=str(cache))
    args = [sys.executable, "-c", CHILD, name, str(n), "1" if seeded else "0"]
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"{name}: child exited with {done.returncode}: {done.stderr[-500:]}")
    return json.loads(done.stdout.splitlines()[-1])


def measure(name: str, n: int, seeded: bool, repeat: int, timeout: float) -> dict[str, list]:
    """Per cache ("cold", "warm"): the children's measurements, ``repeat`` of each."""
    runs: dict[str, list] = {"cold": [], "warm": []}
    with tempfile.TemporaryDirectory(prefix="bench-first-call-") as scratch:
        for i in range(repeat):
            runs["cold"].append(run_child(name, n, seeded, Path(scratch, f"cold-{i}"), timeout))
        warm = Path(scratch, "warm")
        run_child(name, n, seeded, warm, timeout)  # fills the cache, unmeasured
        for _ in range(repeat):
            runs["warm"].append(run_child(name, n, seeded, warm, timeout))
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="fresh processes a case (>= 3)")
    parser.add_argument("--local-n", type=int, default=10**6, help="n for a local search")
    parser.add_argument("--exhaustive-n", type=int, default=16, help="n for the others")
    parser.add_argument("--backends", help="comma-separated names (default: every compiled one)")
    parser.add_argument("--child-timeout", type=float, default=300.0, help="seconds a process")
    args = parser.parse_args()

    compiled = [name for name, backend in REGISTRY.items() if backend.compiled]
    names = args.backends.split(",") if args.backends else compiled
    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} at the start")
    started = time.perf_counter()
    rows = []
    for name in names:
        backend = REGISTRY[name]
        if name not in compiled:
            print(f"{name}: skipped, not a compiled backend")
            continue
        if not backend.is_available():
            print(f"{name}: skipped, not available (needs {backend.install_hint})")
            continue
        n = args.exhaustive_n if backend.exhaustive else args.local_n
        try:
            runs = measure(name, n, backend.randomized, args.repeat, args.child_timeout)
        except (RuntimeError, subprocess.TimeoutExpired) as error:
            print(f"{name}: {error}")
            continue
        for cache, children in runs.items():
            median = {key: statistics.median(c[key] for c in children) for key in children[0]}
            extra = statistics.median(c["first"] - c["second"] for c in children)
            rows.append((name, n, cache, median, extra))
            print(f"{name} ({cache}): first call {median['first']:.2f} s", flush=True)
    print(
        f"{time.perf_counter() - started:.0f} s in all; load {os.getloadavg()[0]:.2f} at the end\n"
    )

    print(f"Medians of {args.repeat} fresh processes, seconds:\n")
    print("| backend | n | cache | import | first call | second call | first - second |")
    print("|---|--:|---|--:|--:|--:|--:|")
    for name, n, cache, median, extra in rows:
        print(
            f"| {name} | {n:,} | {cache} | {median['import']:.2f} | {median['first']:.2f} "
            f"| {median['second']:.3f} | {extra:.2f} |"
        )


if __name__ == "__main__":
    main()
