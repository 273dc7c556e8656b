"""Blocked squares on the article backends: recursive, stack, tree and random.

Solutions are checked against a brute force over every permutation; nodes and
attempts against counts made level by level from their definitions (a node is a
consistent partial board, an attempt a candidate square tested), which share no
code with the backends.
"""

import hashlib
import itertools
import random
import time
from functools import cache

import pytest

import cpqueens
from cpqueens.solvers import REGISTRY

ARTICLES = ["recursive", "stack", "tree", "random"]
LEXICOGRAPHIC = ["recursive", "stack", "tree"]


@cache
def brute_force(n, fixed, blocked):
    """Every solution, in lexicographic order: permutations kept by the rules alone.

    ``fixed`` is a tuple of (row, column) pairs, ``blocked`` a frozenset of squares.
    """
    return [
        p
        for p in itertools.permutations(range(n))
        if all(p[r] == c for r, c in fixed)
        and not any((r, c) in blocked for r, c in enumerate(p))
        and len({r + c for r, c in enumerate(p)}) == n
        and len({r - c for r, c in enumerate(p)}) == n
    ]


def random_instance(seed, smallest=1):
    """``smallest`` <= n <= 8, 0..n*n/3 blocked squares, 0..2 fixed queens on open squares.

    The fixed queens do not attack each other (that case has no solution, and is the
    brute force's as much as the backends'), so more instances have solutions.
    """
    rng = random.Random(seed)
    n = rng.randint(smallest, 8)
    squares = [(r, c) for r in range(n) for c in range(n)]
    blocked = frozenset(rng.sample(squares, rng.randint(0, n * n // 3)))
    fixed = {}
    for row in rng.sample(range(n), min(n, rng.randint(0, 2))):
        open_columns = [
            c
            for c in range(n)
            if (row, c) not in blocked
            and all(c != q and abs(c - q) != abs(row - r) for r, q in fixed.items())
        ]
        if open_columns:
            fixed[row] = rng.choice(open_columns)
    return n, fixed, blocked


# Thirty of every size, and ten of the larger sizes, where more instances with both
# fixed queens and blocked squares still have solutions.
INSTANCES = [random_instance(seed) for seed in range(30)]
INSTANCES += [random_instance(seed, smallest=6) for seed in range(100, 110)]


def reference(n, fixed, blocked):
    return brute_force(n, tuple(sorted(fixed.items())), frozenset(blocked))


def test_the_instances_are_not_all_empty():
    # Enough of them must have solutions for the comparison to say something.
    counts = [len(reference(*instance)) for instance in INSTANCES]
    assert sum(1 for c in counts if c) >= 10
    assert any(
        fixed and blocked and count
        for (_, fixed, blocked), count in zip(INSTANCES, counts, strict=True)
    )


def test_the_article_backends_take_blocked_squares():
    listed = {info.name: info.blocked for info in cpqueens.backends()}
    assert all(listed[name] and REGISTRY[name].supports_blocked for name in ARTICLES)


@pytest.mark.parametrize("index", range(len(INSTANCES)))
@pytest.mark.parametrize("name", LEXICOGRAPHIC)
def test_solutions_match_the_brute_force_in_order(name, index):
    n, fixed, blocked = INSTANCES[index]
    expected = reference(n, fixed, blocked)
    result = cpqueens.solve(n, backend=name, fixed=fixed or None, blocked=blocked)
    assert list(result.solutions) == expected
    assert result.complete
    assert result.satisfiable is bool(expected)
    assert cpqueens.count(n, backend=name, fixed=fixed or None, blocked=blocked) == len(expected)


@pytest.mark.parametrize("index", range(len(INSTANCES)))
@pytest.mark.parametrize("seed", [0, 1])
def test_random_finds_the_brute_force_solutions_once_each(seed, index):
    n, fixed, blocked = INSTANCES[index]
    expected = reference(n, fixed, blocked)
    found = cpqueens.solve(n, backend="random", seed=seed, fixed=fixed or None, blocked=blocked)
    assert len(found.solutions) == len(set(found.solutions))
    assert sorted(found.solutions) == expected
    assert found.complete


def effort(n, fixed, blocked):
    """Nodes and attempts from their definitions, building the consistent boards level by level.

    A row's candidates are its fixed square, or its squares that are not blocked. Each
    consistent partial board of fewer than n queens is expanded once: it tests every
    candidate of the next row (``tested``); the safe ones are its children, the nodes.
    The non-recursive article's stack (``tried="pushed"``) comes back to a board after
    each child and tests again, from the first column, the unsafe candidates before the
    next safe one; the Python random article's walk picks once per child and once more
    to find nothing (a dead end), testing every candidate at each pick.
    """

    def candidates(row):
        return [fixed[row]] if row in fixed else [c for c in range(n) if (row, c) not in blocked]

    def safe(board, column):
        row = len(board)
        return all(c != column and abs(c - column) != row - r for r, c in enumerate(board))

    figures = dict(nodes=0, tested=0, pushed=0, random=0, dead_ends=0)
    level = [()]
    for row in range(n):
        below = []
        for board in level:
            squares = candidates(row)
            children = [c for c in squares if safe(board, c)]
            unsafe = [c for c in squares if c not in children]
            figures["tested"] += len(squares)
            figures["pushed"] += len(children) + len(unsafe)
            figures["pushed"] += sum(1 for child in children for u in unsafe if u < child)
            figures["random"] += (len(children) + 1) * len(squares)
            figures["dead_ends"] += 1
            below += [(*board, c) for c in children]
        figures["nodes"] += len(below)
        level = below
    return figures


def test_the_effort_count_gives_the_articles_figures_on_the_plain_board():
    figures = effort(8, {}, frozenset())
    assert (figures["nodes"], figures["tested"], figures["pushed"]) == (2056, 15720, 21920)
    assert figures["random"] == 8 * (figures["nodes"] + figures["dead_ends"])


SMALL = [
    (4, {}, frozenset({(0, 1)})),
    (5, {}, frozenset({(0, 0), (1, 3), (2, 2), (4, 4)})),
    (6, {2: 0}, frozenset({(0, 1), (0, 4), (3, 3), (5, 2)})),
    (6, {}, frozenset({(1, c) for c in range(6)})),  # a row with no open square
    *[instance for instance in INSTANCES if instance[0] >= 5][:4],
]


@pytest.mark.parametrize("instance", SMALL, ids=lambda i: f"n{i[0]}-b{len(i[2])}-f{len(i[1])}")
def test_blocked_squares_are_never_attempts_nor_nodes(instance):
    n, fixed, blocked = instance
    figures = effort(n, fixed, blocked)
    fixed = fixed or None
    for name in ("recursive", "tree"):
        stats = cpqueens.solve(n, backend=name, fixed=fixed, blocked=blocked).stats
        assert (stats["nodes"], stats["attempts"]) == (figures["nodes"], figures["tested"]), name
    for tried in ("tested", "pushed"):
        stats = cpqueens.solve(n, backend="stack", fixed=fixed, blocked=blocked, tried=tried).stats
        assert (stats["nodes"], stats["attempts"]) == (figures["nodes"], figures[tried]), tried
    for seed in (0, 5):
        stats = cpqueens.solve(n, backend="random", seed=seed, fixed=fixed, blocked=blocked).stats
        found = (stats["nodes"], stats["attempts"], stats["dead_ends"])
        assert found == (figures["nodes"], figures["random"], figures["dead_ends"])


def test_the_tree_figures_of_a_small_blocked_board():
    # n=4 with (0, 1) blocked: the root tries 3 squares, each of the 11 nodes above
    # the last row tries 4; the one node on the last row is the solution's last queen.
    stats = cpqueens.solve(4, backend="tree", blocked=[(0, 1)]).stats
    assert (stats["nodes"], stats["attempts"]) == (12, 3 + 11 * 4)


@pytest.mark.parametrize("name", ARTICLES)
def test_a_fully_blocked_row_has_no_solution(name):
    result = cpqueens.solve(6, backend=name, blocked=[(3, c) for c in range(6)])
    assert result.solutions == () and result.complete and result.satisfiable is False
    assert cpqueens.solve(1, backend=name, blocked=[(0, 0)]).satisfiable is False


@pytest.mark.parametrize("name", ARTICLES)
def test_a_fixed_queen_among_blocked_squares_of_its_row(name):
    blocked = [(0, c) for c in range(8) if c != 3]
    result = cpqueens.solve(8, backend=name, fixed={0: 3}, blocked=blocked)
    assert sorted(result.solutions) == reference(8, {0: 3}, frozenset(blocked))
    assert sorted(result.solutions) == sorted(s for s in cpqueens.solutions(8) if s[0] == 3)


@pytest.mark.parametrize("name", ARTICLES)
def test_an_instance_carries_its_blocked_squares(name):
    instance = cpqueens.Instance(7, fixed={1: 4}, blocked=[(0, 0), (2, 6), (3, 3)])
    found = cpqueens.solve(instance, backend=name)
    expected = reference(7, {1: 4}, frozenset({(0, 0), (2, 6), (3, 3)}))
    assert sorted(found.solutions) == expected and expected


@pytest.mark.slow
@pytest.mark.parametrize("name", ARTICLES)
def test_time_limit_holds_with_blocked_squares(name):
    # Every solution of n=30 takes far longer than the limit, blocked squares or not.
    blocked = [(r, (3 * r) % 30) for r in range(0, 30, 2)]
    start = time.perf_counter()
    result = cpqueens.solve(30, backend=name, blocked=blocked, time_limit=0.3)
    assert time.perf_counter() - start < 0.3 + 2.0
    assert not result.complete and result.stats["timed_out"]
    assert result.satisfiable is not False
    assert all((r, c) not in set(blocked) for s in result.solutions for r, c in enumerate(s))


def test_random_plain_walks_are_those_of_before():
    # Fingerprints of the walks before blocked squares existed: a seed's order must not move.
    def fingerprint(n, seed, fixed=None):
        result = cpqueens.solve(n, backend="random", seed=seed, fixed=fixed)
        digest = hashlib.sha256(repr(result.solutions).encode()).hexdigest()[:16]
        stats = result.stats
        return result.solutions[0], stats["nodes"], stats["attempts"], digest

    assert fingerprint(8, 0) == ((6, 3, 1, 4, 7, 0, 2, 5), 2056, 32168, "e4d5258625046db3")
    assert fingerprint(8, 7) == ((2, 0, 6, 4, 7, 1, 3, 5), 2056, 32168, "1edb68fbcd325354")
    assert fingerprint(9, 1, {2: 4}) == (
        (1, 8, 4, 2, 7, 3, 6, 0, 5),
        907,
        15353,
        "073bc333d19c2a67",
    )


def test_random_with_blocked_squares_is_reproducible_and_varies_with_seed():
    blocked = [(0, 0), (1, 5), (4, 4), (7, 2), (9, 9)]
    a = cpqueens.solve(10, backend="random", seed=11, blocked=blocked).solutions
    b = cpqueens.solve(10, backend="random", seed=11, blocked=blocked).solutions
    assert a == b and tuple(sorted(a)) == cpqueens.solve(10, blocked=blocked).solutions
    firsts = {
        cpqueens.solve(10, backend="random", seed=s, blocked=blocked, limit=1).solution
        for s in range(20)
    }
    assert len(firsts) > 5
    assert all(s[0] != 0 and s[4] != 4 for s in firsts)
