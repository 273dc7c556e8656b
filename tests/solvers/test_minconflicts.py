"""The min-conflicts backend: valid and distinct solutions, reproducible by seed, fixed
queens and blocked squares respected, limits held, and never a claim of no solution."""

import random

import pytest
from interrupting import interrupt_solve
from reference import brute_force
from timing import Stopwatch

import cpqueens
from cpqueens.board import is_valid
from cpqueens.solvers import REGISTRY
from cpqueens.solvers.run import TIME_LIMIT_SLACK

pytest.importorskip("numba")

NAME = "minconflicts"


def solve(n, **kwargs):
    return cpqueens.solve(n, backend=NAME, **kwargs)


@pytest.mark.parametrize("n", [1, *range(4, 201)])
def test_one_valid_solution_for_every_small_board(n):
    result = solve(n, limit=1, seed=n)
    assert result.count == 1 and result.satisfiable is True
    assert is_valid(result.solution, n)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("n", [1000, 10**5])
def test_valid_on_large_boards(n, seed):
    result = solve(n, limit=1, seed=seed)
    assert is_valid(result.solution, n)
    assert result.stats["initial_conflicts"] >= 0 and result.stats["moves"] >= 0


@pytest.mark.parametrize(("n", "limit"), [(4, 2), (6, 4), (8, 20), (8, 92), (12, 50), (30, 10)])
def test_limit_gives_distinct_solutions(n, limit):
    result = solve(n, limit=limit, seed=7)
    assert result.count == len(result.solutions) == limit
    assert len(set(result.solutions)) == limit
    if n <= 8:
        assert set(result.solutions) <= brute_force(n)
    assert all(is_valid(s, n) for s in result.solutions)
    assert not result.complete


def test_asking_for_more_than_there_are_gives_up_without_claiming_none():
    result = solve(6, limit=5, seed=1, max_restarts=50)
    assert set(result.solutions) == brute_force(6)
    assert not result.complete


def test_reproducible_by_seed():
    for n in (8, 50, 2000):
        first = solve(n, limit=3, seed=11)
        again = solve(n, limit=3, seed=11)
        assert first.solutions == again.solutions
        assert first.stats == again.stats
    different = {solve(30, limit=1, seed=s).solution for s in range(8)}
    assert len(different) > 1


@pytest.mark.slow
@pytest.mark.parametrize("case", range(60))
def test_fixed_and_blocked_squares_are_respected(case):
    chooser = random.Random(case)
    n = chooser.randint(5, 9)
    squares = [(r, c) for r in range(n) for c in range(n)]
    blocked = set(chooser.sample(squares, chooser.randint(0, n * n // 4)))
    free = [s for s in squares if s not in blocked]
    fixed = {}
    for row, column in chooser.sample(free, chooser.randint(0, 2)):
        fixed.setdefault(row, column)
    want = brute_force(n, fixed, sorted(blocked))
    result = solve(n, limit=3, seed=case, fixed=fixed, blocked=sorted(blocked), max_restarts=200)
    assert set(result.solutions) <= want
    assert len(set(result.solutions)) == result.count == min(3, len(want))
    if not want:
        assert result.satisfiable is None and not result.complete


def test_larger_boards_with_fixed_queens_and_blocked_squares():
    n = 3000
    fixed = {0: 5, 17: 1000, 2999: 2998}
    blocked = [(r, (7 * r) % n) for r in range(1, n, 3)]
    result = solve(n, limit=2, seed=4, fixed=fixed, blocked=blocked)
    assert result.count == 2
    for s in result.solutions:
        assert is_valid(s, n)
        assert all(s[r] == c for r, c in fixed.items())
        assert not any(s[r] == c for r, c in blocked)


@pytest.mark.parametrize("n", [2, 3])
def test_no_solution_is_never_claimed(n):
    result = solve(n, limit=1, seed=0)
    assert result.count == 0 and not result.complete and result.satisfiable is None


def test_trivially_impossible_instances_stop_at_once_unknown():
    for kwargs in ({"fixed": {0: 0, 1: 1}}, {"blocked": [(2, c) for c in range(6)]}):
        with Stopwatch() as clock:
            result = solve(6, limit=1, **kwargs)
        assert result.satisfiable is None and not result.complete
        clock.check(0, 1.0, seconds=result.elapsed)


def test_time_limit_holds_on_an_instance_without_solution():
    solve(4, limit=1)  # the compiled code is loaded before the clock runs
    # Rows 0 and 1 may use column 5 only: no solution, and no quick look sees it.
    blocked = [(r, c) for r in (0, 1) for c in range(20) if c != 5]
    with Stopwatch() as clock:  # without its limit, it would never end
        result = solve(20, limit=1, blocked=blocked, time_limit=0.5, max_restarts=10**9)
    clock.check(0.5, TIME_LIMIT_SLACK)
    assert result.count == 0 and result.satisfiable is None
    assert result.stats["timed_out"] and not result.complete


def test_time_limit_holds_on_a_huge_board():
    solve(4, limit=1)
    # The initial placement alone takes longer than the limit: it stops midway (without
    # the limit, the whole search takes about 6 s on a free core).
    with Stopwatch() as clock:
        result = solve(4 * 10**6, limit=1, time_limit=0.2)
    clock.check(0.2, TIME_LIMIT_SLACK)
    assert result.stats["timed_out"] and result.satisfiable is None


@pytest.mark.slow
def test_a_million_queens():
    solve(1000, limit=1)
    with Stopwatch() as clock:
        result = solve(10**6, limit=1, seed=1)
    assert is_valid(result.solution, 10**6)
    clock.check(0, 5.0, seconds=result.elapsed)  # about 1 s on a free core


def test_without_a_limit_it_is_refused_at_the_call():
    message = "minconflicts finds solutions, it does not list them all: give limit=k"
    with pytest.raises(cpqueens.UnsupportedOptionError, match=message):
        solve(8)
    with pytest.raises(cpqueens.UnsupportedOptionError, match=message):
        cpqueens.solutions(8, backend=NAME)
    with pytest.raises(cpqueens.UnsupportedOptionError, match=message):
        cpqueens.count(8, backend=NAME)


@pytest.mark.parametrize("value", [0, -1, 1.5, "10", True])
def test_bad_options_are_refused(value):
    with pytest.raises(cpqueens.InvalidInputError, match="option max_moves must be"):
        solve(8, limit=1, max_moves=value)


def test_declared_abilities_and_size():
    backend = REGISTRY[NAME]
    assert backend.randomized and backend.supports_fixed and backend.supports_blocked
    assert not backend.lexicographic and not backend.exhaustive
    assert backend.largest_n() == 10**8
    with (
        Stopwatch() as clock,
        pytest.raises(cpqueens.InvalidInputError, match="is beyond what backend"),
    ):
        solve(10**9, limit=1)
    clock.check(0, 0.5)


@pytest.mark.slow
def test_ctrl_c_reaches_the_caller():
    with Stopwatch() as clock:
        ended = interrupt_solve(
            f"cpqueens.solve(8, backend={NAME!r}, limit=1)",
            f"cpqueens.solve(3, backend={NAME!r}, limit=1, max_restarts=10**12)",
            after=1.0,
        )
    assert ended.out.strip() == "interrupted", (ended.out, ended.err[-500:])
    clock.check(0, 5.0, seconds=ended.seconds, what="ending after SIGINT")
