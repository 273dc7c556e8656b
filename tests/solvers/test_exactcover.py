"""The ``exactcover`` backend against a brute force, the published counts and an independent
pure-Python version of its search (same rule, same node counts)."""

import random
from functools import cache
from itertools import permutations

import pytest
from interrupting import interrupt_solve
from known_counts import A000170
from timing import Stopwatch

import cpqueens
from cpqueens.instances.generators import random_solution

pytest.importorskip("numba")

BACKEND = "exactcover"


@cache
def queens_solutions(n):
    """Every solution of the plain n-queens problem, by brute force over permutations."""
    return frozenset(
        p
        for p in permutations(range(n))
        if len({r + c for r, c in enumerate(p)}) == n and len({r - c for r, c in enumerate(p)}) == n
    )


def brute_force(n, fixed, blocked):
    """The solutions with the queens ``fixed`` (row -> column) and no queen on ``blocked``."""
    return {
        p
        for p in queens_solutions(n)
        if all(p[r] == c for r, c in fixed.items())
        and not any((r, c) in blocked for r, c in enumerate(p))
    }


def mrv_search(n, fixed=None, blocked=(), first_only=False):
    """The backend's search written plainly: sets of squares, no bits, recursion.

    Each node takes the row or column with the fewest free squares; ties go to the
    item met first in the order row n//2, column n//2, row n//2 - 1, column
    n//2 - 1, row n//2 + 1, ... (a row or column i has place 2|i - n//2| minus 1 when
    i is below the middle); its squares are tried in increasing order. Returns
    (solutions, nodes), a node being a queen placed.
    """
    fixed = fixed or {}

    def place(index):
        return 2 * abs(index - n // 2) - (index < n // 2)

    rank = {
        (kind, i): 2 * place(i) + (kind == "column") for kind in ("row", "column") for i in range(n)
    }
    squares = {
        (r, c) for r in range(n) for c in range(n) if (r, c) not in blocked and fixed.get(r, c) == c
    }
    found, placed, nodes = [], [], 0

    def options(item, free):
        kind, index = item
        return sorted(s for s in free if s[0 if kind == "row" else 1] == index)

    def visit(free, items):
        nonlocal nodes
        if not items:
            found.append(tuple(c for _, c in sorted(placed)))
            return first_only
        item = min(items, key=lambda it: (len(options(it, free)), rank[it]))
        for r, c in options(item, free):
            nodes += 1
            placed.append((r, c))
            rest = {
                (r2, c2) for r2, c2 in free if r2 != r and c2 != c and abs(r2 - r) != abs(c2 - c)
            }
            if visit(rest, items - {("row", r), ("column", c)}):
                return True
            placed.pop()
        return False

    visit(squares, frozenset(rank))
    return found, nodes


def random_instance(rng, n):
    """Blocked squares at a random density and up to two random fixed queens off them."""
    density = rng.choice([0.0, 0.1, 0.25, 0.4])
    blocked = {(r, c) for r in range(n) for c in range(n) if rng.random() < density}
    free = sorted({(r, c) for r in range(n) for c in range(n)} - blocked)
    fixed = {}
    for r, c in rng.sample(free, min(len(free), rng.choice([0, 0, 1, 2]))):
        fixed.setdefault(r, c)
    return fixed, blocked


INSTANCES = [(seed, 1 + seed % 8) for seed in range(48)]


@pytest.mark.parametrize(("seed", "n"), INSTANCES)
def test_solution_sets_match_brute_force(seed, n):
    fixed, blocked = random_instance(random.Random(seed), n)
    result = cpqueens.solve(n, backend=BACKEND, fixed=fixed, blocked=blocked)
    assert result.complete
    assert len(result.solutions) == len(set(result.solutions))
    assert set(result.solutions) == brute_force(n, fixed, blocked)


@pytest.mark.parametrize(("seed", "n"), INSTANCES)
def test_limit_one_decides(seed, n):
    fixed, blocked = random_instance(random.Random(seed), n)
    expected = brute_force(n, fixed, blocked)
    result = cpqueens.solve(n, backend=BACKEND, fixed=fixed, blocked=blocked, limit=1)
    assert result.satisfiable is bool(expected)
    assert set(result.solutions) <= expected and len(result.solutions) == bool(expected)


@pytest.mark.parametrize("n", range(1, 11))
def test_plain_counts_match_oeis(n):
    assert cpqueens.count(n, backend=BACKEND) == A000170[n]


@pytest.mark.parametrize("n", range(1, 9))
def test_nodes_match_the_plain_search(n):
    solutions, nodes = mrv_search(n)
    result = cpqueens.solve(n, backend=BACKEND)
    assert result.stats["nodes"] == nodes
    assert sorted(result.solutions) == sorted(solutions)
    first = cpqueens.solve(n, backend=BACKEND, limit=1)
    assert first.stats["nodes"] == mrv_search(n, first_only=True)[1]


@pytest.mark.parametrize("seed", range(12))
def test_nodes_match_the_plain_search_with_fixed_and_blocked(seed):
    rng = random.Random(1000 + seed)
    n = rng.choice([6, 7, 8, 9])
    fixed, blocked = random_instance(rng, n)
    solutions, nodes = mrv_search(n, fixed, blocked)
    result = cpqueens.solve(n, backend=BACKEND, fixed=fixed, blocked=blocked)
    assert (result.stats["nodes"], sorted(result.solutions)) == (nodes, sorted(solutions))
    decided = cpqueens.solve(n, backend=BACKEND, fixed=fixed, blocked=blocked, limit=1)
    assert decided.stats["nodes"] == mrv_search(n, fixed, blocked, first_only=True)[1]


def test_the_count_searches_as_the_listing_does():
    blocked = {(r, c) for r in range(12) for c in range(12) if (3 * r + 5 * c) % 7 == 0}
    listed = cpqueens.solve(12, backend=BACKEND, blocked=blocked)
    counted = cpqueens.solve(12, backend=BACKEND, blocked=blocked, fixed={5: 2})
    assert cpqueens.count(12, backend=BACKEND, blocked=blocked) == listed.count > 0
    assert cpqueens.count(12, backend=BACKEND, blocked=blocked, fixed={5: 2}) == counted.count
    assert cpqueens.count(12, backend=BACKEND) == A000170[12]


def test_blocked_squares_are_never_nodes():
    # Block every square but one solution's: the search walks straight down it.
    solution = (1, 3, 5, 0, 2, 4)
    blocked = [(r, c) for r in range(6) for c in range(6) if solution[r] != c]
    result = cpqueens.solve(6, backend=BACKEND, blocked=blocked)
    assert result.solutions == (solution,) and result.stats["nodes"] == 6


@pytest.mark.parametrize("n", [64, 128, 130])
def test_the_largest_boards_of_a_word_count_use_every_bit(n):
    # A solution and every other square blocked, so the search places exactly these n
    # queens (n = 64: the last bit of one word; 128: of two words; 130: into a third).
    solution = random_solution(n, random.Random(n))
    blocked = [(r, c) for r in range(n) for c in range(n) if solution[r] != c]
    result = cpqueens.solve(n, backend=BACKEND, blocked=blocked)
    assert result.solutions == (solution,) and result.stats["nodes"] == n


def test_a_board_past_the_largest_is_refused_before_anything_is_built():
    largest = cpqueens.backends()[[b.name for b in cpqueens.backends()].index(BACKEND)].max_n
    assert largest == 1000
    with Stopwatch() as clock, pytest.raises(cpqueens.InvalidInputError, match=r"n <= 1,000"):
        cpqueens.solve(10**6, backend=BACKEND, limit=1)
    clock.check(0, 0.1, what="refusing n = 10**6")


def test_time_limit_holds_on_a_hard_decision():
    # Plain n = 64 is hard for this search: tens of millions of nodes without a solution.
    cpqueens.solve(4, backend=BACKEND)  # load the kernel first: that is not the search
    with Stopwatch() as clock:
        result = cpqueens.solve(64, backend=BACKEND, limit=1, time_limit=0.2)
    clock.check(0.2, 0.8)
    assert result.stats["timed_out"] and result.satisfiable is None
    assert result.stats["nodes"] > 0
    with pytest.raises(cpqueens.SearchTimeoutError):
        cpqueens.count(20, backend=BACKEND, time_limit=0.1)


@pytest.mark.slow
def test_ctrl_c_stops_a_decision():
    with Stopwatch() as clock:
        ended = interrupt_solve(
            'cpqueens.solve(4, backend="exactcover")',
            'cpqueens.solve(64, backend="exactcover", limit=1)',
            after=0.5,
        )
    assert ended.out.strip() == "interrupted", (ended.out, ended.err[-500:])
    clock.check(0, 2.0, seconds=ended.seconds, what="ending after SIGINT")
