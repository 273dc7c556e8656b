"""The deliberately wrong solvers of tests/programs/mutants, each with one bug of a kind
real solvers have: each one's smallest failing instance, found here by brute force over
small boards, is the one stated and the cross-check sees it; the correct control passes
on each of them, and the solver they share is right on every board tried."""

from __future__ import annotations

import importlib.util
import itertools
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import pytest

import cpqueens

MUTANTS = Path(__file__).resolve().parents[1] / "programs" / "mutants"
#: Board sizes tried, and the most blocked squares and given queens on one board.
SIZES = range(1, 7)
MOST_SQUARES = 2
#: Seconds a run may take: the hang mutant is stopped after this.
TIMEOUT = 2.0
#: Programs run at once, and how many instances are handed out at a time, in order.
WORKERS = 4
BATCH = 16

#: Each mutant's smallest failing instance, the first it gets wrong in the order of
#: :func:`instances`.
SMALLEST = {
    "diagonal_sign": cpqueens.Instance(2),
    "last_column_blocks": cpqueens.Instance(1, blocked=[(0, 0)]),
    "unchecked_givens": cpqueens.Instance(2, fixed={0: 0, 1: 0}),
    "mirror": cpqueens.Instance(4, blocked=[(0, 1)]),
    "count_overflow": cpqueens.Instance(5),
    "dense_unsat": cpqueens.Instance(4, blocked=[(0, 0), (0, 1)]),
    "last_row_crash": cpqueens.Instance(1, fixed={0: 0}),
    "hang": cpqueens.Instance(4),
}
#: The mutants that print only a count; the others print every solution.
COUNTING = {"count_overflow"}


def instances() -> Iterator[cpqueens.Instance]:
    """Every board of sizes 1 to 6 with at most MOST_SQUARES squares blocked or holding
    a given queen, in a fixed order: by size, then by how many squares, then by the
    squares (row by row) and what each holds (blocked before a queen)."""
    for n in SIZES:
        squares = [(row, column) for row in range(n) for column in range(n)]
        for k in range(MOST_SQUARES + 1):
            for chosen in itertools.combinations(squares, k):
                for kinds in itertools.product("bq", repeat=k):
                    queens = [s for s, kind in zip(chosen, kinds, strict=True) if kind == "q"]
                    if len({row for row, _ in queens}) < len(queens):
                        continue  # two queens given on one row: no instance
                    blocked = [s for s, kind in zip(chosen, kinds, strict=True) if kind == "b"]
                    yield cpqueens.Instance(n, fixed=queens, blocked=blocked)


@cache
def expected(instance: cpqueens.Instance) -> list[tuple[int, ...]]:
    return sorted(cpqueens.solutions(instance, backend="stack"))


def answers_right(name: str, instance: cpqueens.Instance, folder: Path, index: int) -> bool:
    """Whether the program ``name`` answers ``instance`` right: every solution and no
    other (or the right count), exit status 0, within the time allowed."""
    path = folder / f"{name}-{index}.json"
    cpqueens.write_instance(instance, path)
    # -S: the mutants need nothing but the standard library, and start sooner without site.
    argv = [sys.executable, "-S", str(MUTANTS / f"{name}.py"), str(path)]
    try:
        run = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return False
    if run.returncode != 0:
        return False
    right = expected(instance)
    parsed = cpqueens.parse_boards(run.stdout, instance.n)
    if name in COUNTING:
        return not parsed.boards and parsed.count == len(right)
    return not parsed.invalid_lines and parsed.count is None and sorted(parsed.boards) == right


def first_failure(name: str, folder: Path):
    """The first instance, in the order of :func:`instances`, that ``name`` answers
    wrong (None when there is none), and how many were tried."""
    tried = 0
    todo = instances()
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        while batch := list(itertools.islice(todo, BATCH)):
            runs = [
                pool.submit(answers_right, name, instance, folder, tried + index)
                for index, instance in enumerate(batch)
            ]
            for instance, run in zip(batch, runs, strict=True):
                tried += 1
                if not run.result():
                    for later in runs:
                        later.cancel()  # those not started (a hang would wait for each)
                    return instance, tried
    return None, tried


def command(name: str) -> cpqueens.Command:
    return cpqueens.Command(
        [sys.executable, str(MUTANTS / f"{name}.py"), "{instance}"],
        instance_format="json",
        timeout=TIMEOUT,
        name=name,
        expect="count" if name in COUNTING else "all",
    )


def test_every_mutant_has_a_docstring_and_there_are_at_least_eight():
    assert len(SMALLEST) >= 8
    assert {path.stem for path in MUTANTS.glob("*.py")} == {*SMALLEST, "base", "correct"}
    for path in MUTANTS.glob("*.py"):
        assert path.read_text().startswith('"""'), path.name


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SMALLEST))
def test_the_smallest_instance_a_mutant_fails_on_is_the_one_stated(name, tmp_path):
    found, tried = first_failure(name, tmp_path)
    assert found == SMALLEST[name], (name, found, tried)
    # The cross-check sees it too, against the stack backend.
    report = cpqueens.crosscheck([found], [command(name), "stack"])
    assert not report.ok, str(report)


@pytest.mark.slow
def test_the_control_passes_on_every_stated_instance(tmp_path):
    stated = list(SMALLEST.values())
    for index, instance in enumerate(stated):
        assert answers_right("correct", instance, tmp_path, index), instance
    report = cpqueens.crosscheck(stated, [command("correct"), "stack"])
    assert report.ok, str(report)


def test_the_shared_solver_is_right_on_every_board_tried_up_to_n_5():
    """The mutants' solver without their bugs, run here in this process: what each
    mutant gets wrong is its bug, not the solver it is built on."""
    spec = importlib.util.spec_from_file_location("mutants_base", MUTANTS / "base.py")
    base = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(base)
    tried = 0
    for instance in itertools.takewhile(lambda each: each.n <= 5, instances()):
        solver = base.Solver(instance.n, dict(instance.fixed), set(instance.blocked))
        assert sorted(solver.solutions()) == expected(instance), instance
        tried += 1
    assert tried == 3 + 31 + 154 + 489 + 1201


def _parts(instance: cpqueens.Instance) -> int:
    return len(instance.fixed) + len(instance.blocked)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SMALLEST))
def test_the_hunt_finds_each_mutant_within_a_minute_and_shrinks_it_near_the_smallest(name):
    # The hunt does not know the brute force's order: it must land within one size and
    # two squares of the smallest failing instance stated above.
    hunted = cpqueens.Command(
        [sys.executable, "-S", str(MUTANTS / f"{name}.py"), "{instance}"], name=name
    )
    question = "count" if name in COUNTING else "all"
    report = cpqueens.fuzz(hunted, question=question, budget=60, seed=0, max_n=8,
                           time_limit=TIMEOUT, max_failures=1)  # fmt: skip
    # A program that hangs is found as a time-out, kept apart from wrong answers (and
    # not counted by max_failures: its hunt runs its whole budget).
    found_list = report.timeouts if name == "hang" else report.failures
    assert found_list, f"{name}: no failure in {report.tried} instances"
    found = found_list[0]
    assert found.found_after < 60 and found.minimal and not found.flaky
    smallest = SMALLEST[name]
    assert abs(found.instance.n - smallest.n) <= 1, (name, found.instance, smallest)
    assert abs(_parts(found.instance) - _parts(smallest)) <= 2, (name, found.instance, smallest)
    # The shrunk instance still fails: the program answers it (or, for a relation, one of
    # its two instances) wrong when run again, as the cross-check sees.
    shown = [found.instance] + ([found.partner] if found.partner is not None else [])
    assert not cpqueens.crosscheck(shown, [command(name), "stack"]).ok
