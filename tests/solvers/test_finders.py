"""The backends that find solutions without searching the whole space (a construction,
the local searches), taken from the registry: what they return is always valid and
distinct, they never claim a proof they do not have, and the limits hold for them."""

import pytest
from reference import brute_force
from timing import Stopwatch

import cpqueens
from cpqueens.solvers import REGISTRY
from cpqueens.solvers.run import TIME_LIMIT_SLACK

NOISE = 1.0


@pytest.mark.parametrize("n", [1, 4, 5, 6, 8, 9, 12, 25, 64, 101])
def test_what_they_find_is_valid_and_distinct(finder, n):
    result = cpqueens.solve(n, backend=finder, limit=3)
    assert result.count >= 1
    assert len(set(result.solutions)) == len(result.solutions)
    assert all(cpqueens.is_valid(s, n) for s in result.solutions)
    if n <= 8:
        assert set(result.solutions) <= brute_force(n)


@pytest.mark.slow
def test_no_solution_is_never_proved_by_a_local_search(finder):
    backend = REGISTRY[finder]
    for n in (2, 3):
        result = cpqueens.solve(n, backend=finder, limit=1, time_limit=1)
        assert result.count == 0
        if backend.randomized:  # a local search: it cannot know
            assert result.satisfiable is None
        else:  # the construction knows n = 2 and 3 have none
            assert result.satisfiable is False


def test_a_huge_board_is_refused_at_once(finder):
    with Stopwatch() as clock, pytest.raises(cpqueens.InvalidInputError):
        cpqueens.solve(10**9, backend=finder, limit=1)
    clock.check(0, 0.5, what=f"{finder}'s refusal")


@pytest.mark.slow
def test_the_time_limit_holds_on_a_large_board(finder):
    # 8 million queens: a local search needs several times the limit for them (qs
    # about 3 s, minconflicts 9 s on a free core), so it must be the limit that stops it.
    with Stopwatch() as clock:
        result = cpqueens.solve(8_000_000, backend=finder, limit=1, time_limit=1.0)
    clock.check(1.0, TIME_LIMIT_SLACK + NOISE, what=finder)
    if REGISTRY[finder].randomized:
        assert result.stats["timed_out"], f"{finder} was not stopped by its time limit"
    assert result.satisfiable in (True, None)
    if result.solution is not None:
        assert cpqueens.is_valid(result.solution)


def test_they_are_cross_checked_on_the_solution_they_find(finder):
    report = cpqueens.crosscheck(range(1, 9), [finder])
    assert report.ok, str(report)
    assert {row.compared for row in report.rows} == {"some"}


@pytest.mark.slow
def test_they_are_left_out_of_whole_set_cross_checks(finder):
    assert finder not in {row.backend for row in cpqueens.crosscheck(5).rows}
    info = next(i for i in cpqueens.backends() if i.name == finder)
    assert info.exhaustive is False


def test_unique_classes_need_an_exhaustive_backend(finder):
    with pytest.raises(cpqueens.UnsupportedOptionError, match="exhaustive"):
        cpqueens.solve(8, backend=finder, limit=2, unique=True)
