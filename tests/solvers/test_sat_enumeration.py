"""The sat backend's enumeration (blocks on two rows, short blocking clauses, calls
under a conflict budget) and the watcher that serves all of cpsat's block runs."""

import threading
import time

import pytest

import cpqueens
from cpqueens.solvers.run import SearchRun
from cpqueens.solvers.stopping import Watcher

SOLVERS = ("cadical195", "glucose4", "minisat22")


@pytest.mark.parametrize("solver", SOLVERS)
def test_every_solution_once(solver):
    pytest.importorskip("pysat")
    for n in range(1, 10):
        found = cpqueens.solve(n, backend="sat", solver=solver).solutions
        assert len(set(found)) == len(found), n
        assert sorted(found) == list(cpqueens.solve(n, backend="recursive").solutions), n


def test_a_plain_board_searches_the_left_half_and_mirrors_it():
    pytest.importorskip("pysat")
    for n in (8, 9):
        result = cpqueens.solve(n, backend="sat")
        found = result.solutions
        # Each block comes with its mirror image right after it.
        mirrored = {tuple(n - 1 - c for c in s) for s in found}
        assert mirrored == set(found)
        half = sum(1 for s in found if s[0] < n // 2 or (n % 2 and s[0] == n // 2 > s[1]))
        assert half * 2 == len(found)
    # Given queens or blocked squares break the board's symmetry: every block searched.
    assert cpqueens.count(8, backend="sat", blocked=[(0, 0)]) == 92 - 4


@pytest.mark.parametrize("solver", SOLVERS)
def test_given_queens_and_blocked_squares_shape_the_blocks(solver):
    pytest.importorskip("pysat")
    cases = [
        {"fixed": {0: 3}},
        {"fixed": {1: 0}},
        {"blocked": [(0, c) for c in range(4)] + [(1, 5)]},
        {"fixed": {5: 2}, "blocked": [(1, 1), (0, 7)]},
        {"blocked": [(1, c) for c in range(8)]},  # row 1 full: no block at all
    ]
    for case in cases:
        ours = cpqueens.solve(8, backend="sat", solver=solver, **case).solutions
        assert ours == cpqueens.solve(8, backend="stack", **case).solutions, case


@pytest.mark.slow
@pytest.mark.parametrize("solver", SOLVERS)
def test_limit_and_time_limit_stop_the_calls_in_the_callers_thread(solver):
    pytest.importorskip("pysat")
    assert cpqueens.solve(11, backend="sat", solver=solver, limit=7).count == 7
    began = time.monotonic()
    result = cpqueens.solve(30, backend="sat", solver=solver, time_limit=0.5)
    assert time.monotonic() - began < 2.0
    assert result.stats["timed_out"] and not result.complete
    assert all(cpqueens.is_valid(s) for s in result.solutions)


def test_a_closed_enumeration_leaves_no_solver_behind():
    pytest.importorskip("pysat")
    found = cpqueens.solutions(11, backend="sat")
    assert cpqueens.is_valid(next(found))
    found.close()


def test_one_watcher_thread_serves_many_calls_and_stops_the_late_one():
    run = SearchRun(0.3)
    stopped = threading.Event()
    before = threading.active_count()
    with Watcher(run, grace=0.05) as watcher:
        for _ in range(20):
            with watcher.call(stopped.set):
                pass
        assert threading.active_count() == before + 1  # one thread for the 20 calls
        with watcher.call(stopped.set):
            assert stopped.wait(2.0)  # a call still running past the deadline is stopped
    assert run.timed_out
    assert threading.active_count() == before
