"""The ``qs`` backend (Sosic and Gu's QS4 local search): valid, distinct, reproducible
solutions; fixed queens and blocked squares respected; limits that hold; no false "none"."""

import random

import pytest
from interrupting import interrupt_solve
from reference import brute_force
from timing import Stopwatch

import cpqueens
from cpqueens import Instance
from cpqueens.board import is_valid
from cpqueens.solvers import REGISTRY

pytest.importorskip("numba")


def respects(solution, n, fixed=None, blocked=()):
    blocked = set(map(tuple, blocked))
    return (
        is_valid(solution, n)
        and all(solution[r] == c for r, c in (fixed or {}).items())
        and not any((r, c) in blocked for r, c in enumerate(solution))
    )


def test_registered_as_a_local_search():
    backend = REGISTRY["qs"]
    assert backend.randomized and backend.supports_fixed and backend.supports_blocked
    assert not backend.exhaustive and not backend.lexicographic
    assert backend.max_n >= 10**8


@pytest.mark.parametrize("n", [1, *range(4, 201)])
def test_a_valid_solution_for_every_n(n):
    result = cpqueens.solve(n, backend="qs", limit=1, seed=n)
    assert result.count == 1 and is_valid(result.solution, n)
    assert result.satisfiable is True and not result.complete
    assert {"swaps", "restarts", "conflicts_left", "attempts"} <= set(result.stats)


@pytest.mark.parametrize("n", [1000, 10**5])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_large_boards(n, seed):
    result = cpqueens.solve(n, backend="qs", limit=1, seed=seed)
    assert is_valid(result.solution, n)
    assert 0 <= result.stats["conflicts_left"] <= n
    # Every collision kept a listed queen: the board never had to be scanned again.
    assert result.stats["rescans"] == 0


@pytest.mark.parametrize("n", [6, 8, 10, 30])
def test_limit_gives_distinct_solutions(n):
    result = cpqueens.solve(n, backend="qs", limit=4, seed=7)
    assert result.count == len(result.solutions) == 4
    assert len(set(result.solutions)) == 4
    assert all(is_valid(s, n) for s in result.solutions)
    if n <= 8:
        assert set(result.solutions) <= brute_force(n)


def test_every_solution_of_a_small_board_in_time():
    # n=6 has exactly four: a limit of four finds them all, a fifth never comes.
    found = cpqueens.solve(6, backend="qs", limit=4, seed=3).solutions
    assert set(found) == brute_force(6)
    count = cpqueens.count(8, backend="qs", limit=20, seed=3)
    assert count == 20


def test_reproducible_by_seed():
    for n in (8, 50, 2000):
        a = cpqueens.solve(n, backend="qs", limit=3, seed=11)
        b = cpqueens.solve(n, backend="qs", limit=3, seed=11)
        assert a.solutions == b.solutions
        assert a.stats["swaps"] == b.stats["swaps"]
    seeds = {cpqueens.solve(200, backend="qs", limit=1, seed=s).solution for s in range(5)}
    assert len(seeds) == 5


def test_interleaved_searches_do_not_disturb_each_other():
    alone = list(cpqueens.solutions(12, backend="qs", limit=5, seed=4))
    first = cpqueens.solutions(12, backend="qs", limit=5, seed=4)
    other = cpqueens.solutions(12, backend="qs", limit=5, seed=5)
    mixed = []
    for a, _ in zip(first, other, strict=False):
        mixed.append(a)
    assert mixed == alone


def test_no_limit_is_refused_at_the_call():
    with pytest.raises(cpqueens.UnsupportedOptionError, match="give limit=k"):
        cpqueens.solve(8, backend="qs")
    with pytest.raises(cpqueens.UnsupportedOptionError, match="give limit=k"):
        cpqueens.solutions(8, backend="qs")
    with pytest.raises(cpqueens.UnsupportedOptionError, match="give limit=k"):
        cpqueens.count(8, backend="qs")


def test_bad_input_is_refused_like_everywhere():
    with pytest.raises(cpqueens.InvalidInputError, match="is beyond what backend"):
        cpqueens.solve(10**9, backend="qs", limit=1)
    with pytest.raises(ValueError, match="limit must be a positive integer"):
        cpqueens.solve(8, backend="qs", limit=0)
    with pytest.raises(ValueError, match="fixed column 8 is off the board"):
        cpqueens.solve(8, backend="qs", limit=1, fixed={0: 8})
    with pytest.raises(cpqueens.InvalidInputError, match="max_restarts"):
        cpqueens.solve(8, backend="qs", limit=1, max_restarts=-1)
    with pytest.raises(cpqueens.InvalidInputError, match="max_restarts"):
        cpqueens.solve(8, backend="qs", limit=1, max_restarts="many")


def random_instance(chooser, n, density, queens):
    squares = [(r, c) for r in range(n) for c in range(n)]
    blocked = chooser.sample(squares, int(density * n * n))
    free = [s for s in squares if s not in set(blocked)]
    fixed = {}
    for row, column in chooser.sample(free, queens):
        fixed.setdefault(row, column)
    return Instance(n, fixed=fixed, blocked=blocked)


@pytest.mark.slow
def test_fixed_and_blocked_on_random_small_instances():
    chooser = random.Random(2024)
    checked = 0
    for index in range(60):
        instance = random_instance(chooser, chooser.randint(4, 8), chooser.random() / 3, 2)
        want = brute_force(instance.n, instance.fixed_rows, instance.blocked)
        limit = max(1, min(len(want), 3))
        # max_restarts bounds the search; the time limit is only a backstop, generous
        # enough that a loaded machine never stops a search that would succeed.
        result = cpqueens.solve(
            instance, backend="qs", limit=limit, seed=index, time_limit=10, max_restarts=2000
        )
        assert len(set(result.solutions)) == len(result.solutions)
        assert set(result.solutions) <= want
        assert result.stats["rescans"] == 0
        if want:
            assert result.count == limit, (instance, result.stats)
            assert result.satisfiable is True
            checked += 1
        else:
            # No solution: a local search can only fail to find one, never prove it.
            assert result.count == 0 and result.satisfiable is None and not result.complete
    assert checked >= 10


@pytest.mark.parametrize("seed", range(4))
def test_generated_blocked_boards(seed):
    # Boards of blocked n-queens from the generator, a third of their squares blocked.
    for n in (20, 40):
        instance = cpqueens.random_blocked(n, n * n // 3, seed=seed)
        result = cpqueens.solve(instance, backend="qs", limit=1, seed=seed, time_limit=5)
        if result.solutions:
            assert respects(result.solution, n, instance.fixed_rows, instance.blocked)
        else:
            assert result.satisfiable is None


def test_fixed_queens_on_a_large_board():
    n = 5000
    chooser = random.Random(5)
    base = cpqueens.solve(n, backend="qs", limit=1, seed=1).solution
    fixed = {row: base[row] for row in chooser.sample(range(n), 100)}
    blocked = [(r, (base[r] + 1) % n) for r in range(0, n, 3)]
    result = cpqueens.solve(n, backend="qs", limit=1, seed=2, fixed=fixed, blocked=blocked)
    assert respects(result.solution, n, fixed, blocked)


def test_fixed_queens_that_attack_each_other_stop_at_once_unanswered():
    result = cpqueens.solve(6, backend="qs", limit=1, fixed={0: 0, 1: 1})
    assert result.count == 0 and result.satisfiable is None and not result.complete
    assert "attack each other" in result.stats["gave_up"]


@pytest.mark.parametrize("n", [2, 3])
def test_no_solution_sizes_are_never_called_unsatisfiable(n):
    result = cpqueens.solve(n, backend="qs", limit=1, max_restarts=50)
    assert result.count == 0 and result.satisfiable is None and not result.complete
    assert "restarts" in result.stats["gave_up"]


@pytest.mark.slow
@pytest.mark.parametrize(
    "instance",
    [
        Instance(3),
        Instance(4, blocked=[(0, 1), (0, 2)]),
        Instance(30, blocked=[(5, c) for c in range(30)]),
    ],
    ids=["n3", "n4-blocked-row", "n30-blocked-row"],
)
def test_time_limit_holds_without_a_solution(instance):
    cpqueens.solve(8, backend="qs", limit=1)  # load the compiled code first
    with Stopwatch() as clock:  # without its limit, it would never end
        result = cpqueens.solve(instance, backend="qs", limit=1, time_limit=0.5, max_restarts=None)
    assert clock.seconds >= 0.45  # not before the limit: it cannot know there is none
    clock.check(0.5, 1.0)
    assert result.count == 0 and result.satisfiable is None and not result.complete
    assert result.stats["timed_out"]


def test_time_limit_holds_on_a_large_board():
    # Without its limit, the search takes about 1 s on a free core, 5 times the limit.
    with Stopwatch() as clock:
        result = cpqueens.solve(3 * 10**6, backend="qs", limit=1, time_limit=0.2)
    clock.check(0.2, 1.0)
    assert result.stats["timed_out"] or result.elapsed <= 0.2, "ran on past its limit"
    assert result.solutions == () or is_valid(result.solution)


@pytest.mark.slow
def test_ctrl_c_reaches_the_caller_between_chunks():
    ended = interrupt_solve(
        'cpqueens.solve(8, backend="qs", limit=1)',
        'cpqueens.solve(3, backend="qs", limit=1, max_restarts=None)',
        after=0.5,
    )
    assert ended.out.strip() == "interrupted", (ended.out, ended.err[-500:])
