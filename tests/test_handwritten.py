"""Behaviour specific to the backtrackers of the articles."""

import pytest

import cpqueens
from cpqueens.board import is_valid
from cpqueens.solvers.base import MAX_RECURSION_DEPTH

BACKTRACKERS = ["recursive", "stack", "tree", "random"]


def test_tree_reproduces_article_001_figures():
    result = cpqueens.solve(8, backend="tree")
    assert (result.count, result.stats["nodes"], result.stats["attempts"]) == (92, 2056, 15720)


@pytest.mark.parametrize("n", range(1, 11))
def test_backtrackers_count_the_same_nodes(n):
    stats = {name: cpqueens.solve(n, backend=name).stats for name in BACKTRACKERS}
    assert len({s["nodes"] for s in stats.values()}) == 1
    deterministic = {stats[name]["attempts"] for name in ("recursive", "stack", "tree")}
    assert len(deterministic) == 1
    # attempts = n x expanded nodes: every node above the last row, plus the root.
    expanded = stats["tree"]["nodes"] - cpqueens.count(n) + 1
    assert stats["tree"]["attempts"] == n * expanded


def test_fixed_rows_have_one_candidate():
    free = cpqueens.solve(6, backend="tree").stats["attempts"]
    pinned = cpqueens.solve(6, backend="tree", fixed={0: 1}).stats["attempts"]
    assert pinned < free
    for name in ("recursive", "stack"):
        assert cpqueens.solve(6, backend=name, fixed={0: 1}).stats["attempts"] == pinned


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


def test_stack_finds_a_first_solution_at_larger_n():
    result = cpqueens.solve(20, backend="stack", limit=1)
    assert is_valid(result.solutions[0])
    assert result.solutions[0] == min(result.solutions)
