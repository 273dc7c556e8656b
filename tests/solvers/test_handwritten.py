"""Behaviour specific to the backtrackers of the articles."""

import pytest

import cpqueens
from cpqueens.board import is_valid
from cpqueens.solvers.guards import MAX_RECURSION_DEPTH

BACKTRACKERS = ["recursive", "stack", "tree", "random"]


def test_tree_reproduces_article_001_figures():
    result = cpqueens.solve(8, backend="tree")
    assert (result.count, result.stats["nodes"], result.stats["attempts"]) == (92, 2056, 15720)


@pytest.mark.slow
@pytest.mark.parametrize("n", range(1, 11))
def test_backtrackers_count_the_same_nodes(n):
    stats = {name: cpqueens.solve(n, backend=name).stats for name in BACKTRACKERS}
    assert len({s["nodes"] for s in stats.values()}) == 1
    tested = cpqueens.solve(n, backend="stack", tried="tested").stats
    assert tested["nodes"] == stats["stack"]["nodes"]
    deterministic = {stats[name]["attempts"] for name in ("recursive", "tree")}
    deterministic.add(tested["attempts"])
    assert len(deterministic) == 1
    # attempts = n x expanded nodes: every node above the last row, plus the root.
    expanded = stats["tree"]["nodes"] - cpqueens.count(n) + 1
    assert stats["tree"]["attempts"] == n * expanded


def test_fixed_rows_have_one_candidate():
    free = cpqueens.solve(6, backend="tree").stats["attempts"]
    pinned = cpqueens.solve(6, backend="tree", fixed={0: 1}).stats["attempts"]
    assert pinned < free
    assert cpqueens.solve(6, backend="recursive", fixed={0: 1}).stats["attempts"] == pinned
    stack = cpqueens.solve(6, backend="stack", fixed={0: 1}, tried="tested").stats["attempts"]
    assert stack == pinned


def article_002_attempts(n, fixed=None):
    """The non-recursive article's loop, transcribed with a list of placed queens instead of masks.

    Like the article's C code, a square of a level is remembered only once a queen is
    pushed on it, so unsafe squares are tested again each time the search comes back.
    Unlike its outer loop, the first line is searched like the others (n more tests).
    Returns (solutions, nodes, attempts).
    """
    fixed = fixed or {}

    def attacked(queens, line, column):
        return any(c == column or abs(c - column) == line - r for r, c in enumerate(queens))

    queens, pushed = [], [set()]  # pushed[k]: squares of line k pushed from level k
    solutions = nodes = attempts = 0
    while pushed:
        line = len(queens)
        if line == n:
            solutions += 1
            queens.pop()
            pushed.pop()
            continue
        candidates = [fixed[line]] if line in fixed else range(n)
        for column in candidates:
            if column in pushed[-1]:
                continue
            attempts += 1
            if attacked(queens, line, column):
                continue
            pushed[-1].add(column)
            queens.append(column)
            pushed.append(set())
            nodes += 1
            break
        else:
            pushed.pop()
            if queens:
                queens.pop()
    return solutions, nodes, attempts


def test_stack_reproduces_article_002_figures():
    result = cpqueens.solve(8, backend="stack")
    assert (result.count, result.stats["nodes"], result.stats["attempts"]) == (92, 2056, 21920)
    # The article's outer loop places the first line untested: 8 tests fewer.
    assert article_002_attempts(8)[2] - 8 == 21912


@pytest.mark.parametrize("fixed", [None, {0: 1}, {2: 3, 5: 0}, {1: 1, 0: 0}])
@pytest.mark.parametrize("n", range(1, 10))
def test_stack_counts_like_article_002(n, fixed):
    fixed = {r: c for r, c in (fixed or {}).items() if r < n and c < n} or None
    result = cpqueens.solve(n, backend="stack", fixed=fixed)
    stats = result.stats
    assert (result.count, stats["nodes"], stats["attempts"]) == article_002_attempts(n, fixed)


def test_stack_tried_option_is_checked():
    with pytest.raises(cpqueens.InvalidInputError, match=r"pushed, tested.*'all'"):
        cpqueens.solve(6, backend="stack", tried="all")


@pytest.mark.parametrize("n", [1, 2, 3, 4, 6, 8])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_attempts_are_safety_tests(n, seed):
    stats = cpqueens.solve(n, backend="random", seed=seed).stats
    # Every pick tests each square of its row, excluded or not (the Python random article's order).
    assert stats["attempts"] == n * (stats["nodes"] + stats["dead_ends"])
    assert stats["nodes"] == cpqueens.solve(n, backend="recursive").stats["nodes"]


@pytest.mark.parametrize("n", [2, 3])
def test_random_ends_on_boards_without_solutions(n):
    # The article never applies the first row's exclusions and loops forever here.
    assert cpqueens.solve(n, backend="random", seed=0, time_limit=5).complete


def test_random_is_reproducible_by_seed():
    a = cpqueens.solve(8, backend="random", seed=7).solutions
    b = cpqueens.solve(8, backend="random", seed=7).solutions
    assert a == b and len(a) == 92


def test_random_first_solution_varies_with_seed():
    firsts = {cpqueens.solve(10, backend="random", seed=s, limit=1).solutions[0] for s in range(20)}
    assert len(firsts) > 5
    assert all(is_valid(s) for s in firsts)


def test_random_order_is_not_lexicographic():
    found = cpqueens.solve(8, backend="random", seed=1).solutions
    assert list(found) != sorted(found)


@pytest.mark.parametrize("name", ["recursive", "tree"])
def test_recursion_too_deep_names_the_stack_backend(name):
    with pytest.raises(cpqueens.InvalidInputError, match="stack"):
        cpqueens.solve(MAX_RECURSION_DEPTH + 1, backend=name, limit=1)


def explicit_solution(n):
    """A textbook construction for n % 6 not in (2, 3): even columns, then odd ones (1-based)."""
    assert n % 6 not in (2, 3)
    return tuple([c - 1 for c in range(2, n + 1, 2)] + [c - 1 for c in range(1, n + 1, 2)])


@pytest.mark.parametrize("name", BACKTRACKERS)
def test_backtrackers_go_deeper_than_the_default_recursion_limit(name):
    n = 1200
    known = explicit_solution(n)
    assert is_valid(known)
    fixed = {row: col for row, col in enumerate(known) if row < n - 2}
    assert cpqueens.solve(n, backend=name, fixed=fixed).solutions == (known,)


@pytest.mark.slow
def test_stack_finds_a_first_solution_at_larger_n():
    result = cpqueens.solve(20, backend="stack", limit=1)
    assert is_valid(result.solutions[0])
    assert result.solutions[0] == min(result.solutions)
