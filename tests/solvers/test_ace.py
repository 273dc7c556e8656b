"""ACE, the XCSP reference solver, as the ``ace`` backend: real runs on small boards
(plain, blocked, completion), their answers and solution sets held against the other
backends, its limits, and no JVM left behind. The registry-wide tests run it too
(test_backends.py and the others); its faults, with a fake Java, are in
test_ace_faults.py.

Every run here starts a JVM (most of a second), so the runs are made once, two at a
time, and the tests look at their results."""

from __future__ import annotations

import functools
import os
import re
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from backend_sets import usable
from reference import brute_force

import cpqueens
from cpqueens import Instance
from cpqueens.solvers import REGISTRY
from cpqueens.solvers.ace import backend as ace_module
from cpqueens.solvers.ace.runtime import ace_jar, jar_version

#: Plain, blocked and completion problems of n = 4..10, with and without solutions.
CASES = {
    "plain 4": Instance(4),
    "plain 6": Instance(6),
    "plain 8": Instance(8),
    "blocked 9": cpqueens.random_blocked(9, 12, seed=3),
    "blocked 10": cpqueens.random_blocked(10, 30, seed=2),
    "blocked 10, none": cpqueens.random_blocked(10, 55, seed=0),
    "completion 9": Instance(9, fixed={0: 2, 5: 6}),
    "completion 10": Instance(10, fixed={1: 3}, blocked=[(0, 0), (4, 4), (9, 2)]),
    "completion 6, none": Instance(6, fixed={0: 0, 1: 2}),
}


#: The cases also asked for one solution only.
DECIDED = ["plain 8", "blocked 10", "blocked 10, none", "completion 10", "completion 6, none"]


@functools.cache
def expected(name: str) -> frozenset:
    """The solutions of case ``name``, as another backend lists them."""
    return frozenset(cpqueens.solve(CASES[name], backend="stack").solutions)


def _every(instance: Instance) -> cpqueens.Result:
    return cpqueens.solve(instance, backend="ace")


def _first(instance: Instance) -> cpqueens.Result:
    return cpqueens.solve(instance, backend="ace", limit=1)


@pytest.fixture(scope="module")
def runs():
    """Every case solved by ACE twice (every solution, and the first one), two at a time."""
    usable("ace")
    jobs = [(name, "all") for name in CASES] + [(name, "first") for name in DECIDED]
    work = {"all": _every, "first": _first}
    with ThreadPoolExecutor(2) as pool:
        done = pool.map(lambda job: work[job[1]](CASES[job[0]]), jobs)
        return dict(zip(jobs, done, strict=True))


@pytest.mark.parametrize("name", list(CASES))
def test_every_solution_is_the_other_backends_set(runs, name):
    result = runs[name, "all"]
    assert result.complete and not result.stats["timed_out"]
    assert len(result.solutions) == len(set(result.solutions))
    assert set(result.solutions) == expected(name)
    assert result.satisfiable is bool(expected(name))


def test_the_reference_is_the_brute_force_on_the_small_cases():
    for name in ("plain 6", "completion 6, none", "blocked 9"):
        instance = CASES[name]
        assert expected(name) == brute_force(instance.n, instance.fixed_rows, instance.blocked)


@pytest.mark.parametrize("name", DECIDED)
def test_the_first_solution_decides(runs, name):
    result = runs[name, "first"]
    assert result.count == (1 if expected(name) else 0)
    assert set(result.solutions) <= expected(name)
    assert result.satisfiable is bool(expected(name))


def test_eight_queens_are_the_92_of_the_other_backends(runs):
    result = runs["plain 8", "all"]
    assert result.count == 92
    assert set(result.solutions) == set(cpqueens.solve(8, backend="stack").solutions)
    assert result.stats["solver"] == f"ACE {jar_version(ace_jar())}"
    assert result.stats["cpu_seconds"] > 0 and result.stats["wrong_decisions"] >= 0


def test_the_crosscheck_holds_ace_against_the_other_backends():
    usable("ace")
    cases = [CASES["completion 9"], CASES["blocked 10, none"]]
    report = cpqueens.crosscheck(cases, ["ace", "stack", "exactcover"], "tree")
    assert report.ok, report
    assert {row.backend for row in report.rows} == {"ace", "stack", "exactcover"}


def test_the_version_is_the_jars():
    usable("ace")
    assert REGISTRY["ace"].solver_version() == f"ACE {jar_version(ace_jar())}"
    assert jar_version(ace_jar()) is not None


def test_a_board_beyond_what_ace_takes_is_refused_before_anything_is_written():
    with pytest.raises(cpqueens.InvalidInputError, match="n <= 1,000"):
        cpqueens.solve(100_000, backend="ace")


def test_at_the_time_limit_the_jvm_is_killed_and_nothing_survives(monkeypatch):
    usable("ace")
    started: list[int] = []
    real = ace_module.LineProcess

    class Watched(real):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            started.append(self.process.pid)

    monkeypatch.setattr(ace_module, "LineProcess", Watched)
    # Every solution of n = 30 (billions): ACE is stopped by the limit, never by the end.
    clock = time.monotonic()
    result = cpqueens.solve(30, backend="ace", time_limit=1.5)
    elapsed = time.monotonic() - clock
    assert result.stats["timed_out"] and not result.complete
    assert elapsed < 1.5 + 0.5 + 1.5  # the grace, and the time to collect it
    assert all(len(s) == 30 for s in result.solutions)
    assert started and not any(_alive(pid) for pid in started)
    assert not any(_parent(pid) in started for pid in _pids())


def _pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def _parent(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            data = stat.read()
    except OSError:
        return None
    return int(data[data.rindex(b")") + 2 :].split()[1])


def _alive(pid: int) -> bool:
    """Whether ``pid`` is still the JVM started on ``instance.xml`` (its number taken
    again by another process does not count)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return b"instance.xml" in cmdline.read()
    except OSError:
        return False


# --- a user's own PyCSP3 model, compiled with the instance's data, solved by ACE ---------

#: PyCSP3 models of n-queens: the data as PyCSP3's own models read them.
MODEL = """from pycsp3 import *

n, queens, blocks = data

{name} = VarArray(size=n, dom=range({base}, n + {base}))

satisfy(
    [{name}[i - {base}] == j for (i, j) in queens],
    [{name}[i - {base}] != j for (i, j) in blocks],
    AllDifferent({name}),
    AllDifferent({name}[i] + i for i in range(n)),
    AllDifferent({name}[i] - i for i in range(n)),{extra}
)
"""
#: The model with its first row's queen left of its last row's: half the solutions.
HALF = "\n    q[0] < q[n - 1],"


def model(folder, name: str, *, array: str = "q", base: int = 0, extra: str = "") -> str:
    path = folder / name
    path.write_text(MODEL.format(name=array, base=base, extra=extra))
    return str(path)


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    usable("ace")
    folder = tmp_path_factory.mktemp("models")
    return {
        "plain": model(folder, "MyQueens.py"),
        "one-based": model(folder, "OneBased.py", array="x", base=1),
        "half": model(folder, "Half.py", extra=HALF),
    }


def test_a_pycsp3_model_gets_the_instance_and_lists_its_solutions(models):
    instance = CASES["completion 10"]
    found = cpqueens.solve(instance, backend="ace", model=models["plain"]).solutions
    assert set(found) == expected("completion 10") and len(found) == len(set(found))
    counted = cpqueens.count(instance, backend="ace", model=models["one-based"], base=1, output="x")
    assert counted == len(expected("completion 10"))


def test_a_model_that_misses_solutions_is_caught_by_the_crosscheck(models):
    def half(instance):
        return cpqueens.solve(instance, backend="ace", model=models["half"]).solutions

    report = cpqueens.crosscheck([Instance(6)], {"Half.py": half}, "tree", question="all")
    (row,) = report.rows
    assert not report.ok and len(row.missing) == 2 and row.count == 2


def test_a_model_that_fails_or_names_another_array_is_an_error_of_one_line(models, tmp_path):
    broken = tmp_path / "Broken.py"
    broken.write_text("from pycsp3 import *\n\nn, queens = data\n")
    with pytest.raises(cpqueens.SolverError, match=r"Broken.py wrote no XCSP3 file.*unpack"):
        cpqueens.solve(6, backend="ace", model=str(broken))
    with pytest.raises(cpqueens.SolverError, match=r"no array q of 6 .*its arrays: x\[6\]"):
        cpqueens.solve(6, backend="ace", model=models["one-based"], base=1)
    with pytest.raises(cpqueens.SolverError, match="not a solution"):
        cpqueens.solve(6, backend="ace", model=models["one-based"], output="x")  # base 0


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"model": "no-such-model.py"}, "no such file"),
        ({"model": "tests/conftest.txt"}, "a .py file"),
        ({"base": 1}, "give it with model="),
        ({"model": "tests/reference.py", "base": 2}, "base must be 0 or 1"),
        ({"model": "tests/reference.py", "output": "q[]"}, "name of an array"),
    ],
)
def test_a_model_option_is_checked_at_the_call(options, said):
    with pytest.raises(cpqueens.InvalidInputError, match=re.escape(said)):
        cpqueens.solutions(6, backend="ace", **options)


def test_ctrl_c_kills_the_jvm_with_the_call(monkeypatch):
    usable("ace")
    from interrupting import interrupt_solve

    mark = f"cpqueens-ace-test-{os.getpid()}-{time.monotonic_ns()}"
    monkeypatch.setenv("CPQUEENS_TEST_MARK", mark)  # inherited by the child and its JVM
    ended = interrupt_solve(
        "cpqueens.count(4, backend='ace')", "cpqueens.solve(30, backend='ace')", after=1.5
    )
    assert ended.out.strip() == "interrupted", (ended.out, ended.err[-500:])
    assert not _marked(mark.encode()), "a process of the interrupted call is still running"


def _marked(mark: bytes) -> list[int]:
    """The processes whose environment holds ``mark``."""
    found = []
    for pid in _pids():
        try:
            with open(f"/proc/{pid}/environ", "rb") as environ:
                if mark in environ.read():
                    found.append(pid)
        except OSError:
            continue
    return found
