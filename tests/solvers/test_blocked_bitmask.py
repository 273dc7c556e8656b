"""Blocked squares in the ``bitmask`` backend: listing and counting against references.

A count with blocked squares (or fixed queens) cannot use the start constellations,
whose weights rest on the board's symmetry; it counts every placement of the first
rows instead. So the counts are checked against two searches written here that
share nothing with the backend: every permutation filtered by the rules (n <= 8),
and a plain backtracking over sets for n = 10..12.
"""

import random
import time
from itertools import permutations

import pytest

import cpqueens
from cpqueens.solvers import REGISTRY

pytest.importorskip("numba")

from cpqueens.solvers.bitmask.backend import LEAST_PREFIXES, subproblems
from cpqueens.solvers.bitmask.tasks import split
from cpqueens.solvers.problem import Problem


def brute_force(n, fixed, blocked):
    """Every permutation that fits the fixed queens and the blocked squares, in order."""
    return sorted(
        p
        for p in permutations(range(n))
        if all(p[r] == c for r, c in fixed.items())
        and not any((r, c) in blocked for r, c in enumerate(p))
        and len({r + c for r, c in enumerate(p)}) == n
        and len({r - c for r, c in enumerate(p)}) == n
    )


def backtracking_count(n, fixed, blocked):
    """Count row by row, a queen's column and diagonals kept in sets (n = 12 in seconds)."""
    options = [
        [fixed[r]] if r in fixed else [c for c in range(n) if (r, c) not in blocked]
        for r in range(n)
    ]
    cols, ups, downs = set(), set(), set()

    def place(row):
        if row == n:
            return 1
        found = 0
        for c in options[row]:
            if c in cols or row + c in ups or row - c in downs:
                continue
            cols.add(c), ups.add(row + c), downs.add(row - c)
            found += place(row + 1)
            cols.remove(c), ups.remove(row + c), downs.remove(row - c)
        return found

    return place(0)


def random_instance(seed, n, most_blocked, most_fixed):
    """Up to ``most_fixed`` queens that attack no other, then up to ``most_blocked`` squares."""
    rng = random.Random(seed)
    fixed = {}
    for row in rng.sample(range(n), rng.randint(0, min(most_fixed, n))):
        column = rng.randrange(n)
        if all(column != c and abs(column - c) != abs(row - r) for r, c in fixed.items()):
            fixed[row] = column
    free = [(r, c) for r in range(n) for c in range(n) if fixed.get(r) != c]
    # Few blocked squares more often than many, which leave no solution on a small board.
    blocked = set(rng.sample(free, round(min(most_blocked, len(free)) * rng.random() ** 2)))
    return n, fixed, blocked


def label(instance):
    n, fixed, blocked = instance
    return f"n{n}-fixed{len(fixed)}-blocked{len(blocked)}"


SMALL = [random_instance(seed, 4 + seed % 5, (4 + seed % 5) ** 2 // 3, 2) for seed in range(36)]
LARGE = [random_instance(100 + seed, 10 + seed % 3, 12, seed % 3) for seed in range(6)]


def test_the_backend_takes_blocked_squares():
    assert REGISTRY["bitmask"].supports_blocked


@pytest.mark.parametrize("instance", SMALL, ids=label)
def test_small_boards_match_brute_force(instance):
    n, fixed, blocked = instance
    expected = brute_force(n, fixed, blocked)
    count = cpqueens.count(n, backend="bitmask", fixed=fixed, blocked=blocked, workers=1)
    assert count == len(expected)
    # Listing keeps its lexicographic order with blocked squares.
    listed = list(cpqueens.solutions(n, backend="bitmask", fixed=fixed, blocked=blocked))
    assert listed == expected


@pytest.mark.slow
@pytest.mark.parametrize("instance", LARGE, ids=label)
def test_larger_boards_match_backtracking(instance):
    n, fixed, blocked = instance
    expected = backtracking_count(n, fixed, blocked)
    assert cpqueens.count(n, backend="bitmask", fixed=fixed, blocked=blocked) == expected
    if REGISTRY["stack"].supports_blocked:  # another enumerating backend, once it can
        assert cpqueens.count(n, backend="stack", fixed=fixed, blocked=blocked) == expected


def test_an_instance_carries_its_blocked_squares():
    n, fixed, blocked = LARGE[1]
    instance = cpqueens.Instance(n, fixed=fixed, blocked=blocked)
    expected = cpqueens.count(n, backend="bitmask", fixed=fixed, blocked=blocked)
    assert cpqueens.count(instance, backend="bitmask") == expected


@pytest.mark.parametrize("instance", LARGE[:3], ids=label)
def test_workers_and_time_limits_do_not_change_the_count(instance):
    n, fixed, blocked = instance
    counts = {
        cpqueens.count(n, backend="bitmask", fixed=fixed, blocked=blocked, **options)
        for options in (
            {"workers": 1},
            {"workers": 2},
            # one worker under a time limit counts in slices of nodes, in this process
            {"workers": 1, "time_limit": 60},
            {"workers": 2, "time_limit": 60},
        )
    }
    assert len(counts) == 1


def test_a_count_splits_into_enough_placements_for_the_pool():
    blocked = frozenset({(0, 0), (1, 5), (6, 6)})
    problem = Problem(n=12, fixed=(None,) * 12, blocked=blocked)
    for tasks in (16, 1000):
        items = subproblems(problem, tasks=tasks)
        prefixes = items["prefixes"].tolist()
        assert len(prefixes) >= max(LEAST_PREFIXES, 4 * tasks)
        # every task gets some, however few rows the board has
        assert len(split(items, 12, tasks)) == tasks
        for prefix in prefixes:  # each one fits the blocked squares and attacks nothing
            assert not any((r, c) in blocked for r, c in enumerate(prefix))
            assert len(set(prefix)) == len({r + c for r, c in enumerate(prefix)}) == len(prefix)
            assert len({r - c for r, c in enumerate(prefix)}) == len(prefix)


def test_blocked_squares_that_leave_no_solution():
    whole_row = [(3, c) for c in range(8)]
    assert cpqueens.count(8, backend="bitmask", blocked=whole_row) == 0
    assert cpqueens.solve(8, backend="bitmask", blocked=whole_row).satisfiable is False
    assert cpqueens.count(1, backend="bitmask", blocked=[(0, 0)]) == 0
    assert cpqueens.count(1, backend="bitmask") == 1


def test_blocked_squares_leave_the_plain_count_alone():
    assert cpqueens.count(8, backend="bitmask", blocked=[]) == 92
    assert cpqueens.count(8, backend="bitmask", blocked=[(0, 0)]) == 92 - 4


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
def test_time_limit_holds_with_blocked_squares(workers):
    cpqueens.count(8, backend="bitmask", blocked=[(0, 0)], workers=1, time_limit=60)  # compile
    blocked = [(0, 0), (5, 7)]
    start = time.monotonic()
    with pytest.raises(cpqueens.SearchTimeoutError) as caught:
        cpqueens.count(20, backend="bitmask", blocked=blocked, workers=workers, time_limit=0.2)
    # n = 20 takes minutes; the count stops near its limit (slack for a busy machine).
    assert time.monotonic() - start < 3
    assert caught.value.partial >= 0
    result = cpqueens.solve(20, backend="bitmask", blocked=blocked, time_limit=0.2)
    assert result.stats["timed_out"] and not result.complete
    assert result.solutions
    assert not any(square in blocked for s in result.solutions for square in enumerate(s))
