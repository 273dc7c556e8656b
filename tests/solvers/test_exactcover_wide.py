"""The ``exactcover`` backend past one machine word (n > 64): the multi-word search is the
one-word search node for node, and its answers past n = 64 are other backends'."""

import random

import pytest
from known_counts import A000170
from timing import Stopwatch

import cpqueens
from cpqueens.instances.generators import random_solution

pytest.importorskip("numba")

from cpqueens.solvers.exactcover.backend import allowed_masks
from cpqueens.solvers.exactcover.kernels import Search
from cpqueens.solvers.exactcover.wide import WideSearch, new_search
from cpqueens.solvers.problem import Problem

BACKEND = "exactcover"


def both_ways(instance, most=10**6, budget=1 << 40):
    """(solutions, nodes, finished) of the one-word and the multi-word search of ``instance``."""
    problem = Problem(instance.n, instance.fixed_per_row(), blocked=instance.blocked_set)
    allowed = allowed_masks(problem)
    answers = []
    for kind in (Search, WideSearch):
        search = kind(instance.n, allowed)
        found = search.next_solutions(most, budget)
        answers.append((found.tolist(), search.nodes, search.finished))
    return answers


def hardest(n):
    """Blocked squares near the hardest density (benchmarks/bench_exactcover.py)."""
    return round(n * (n - 6.75 - 0.011 * (n - 28)))


@pytest.mark.parametrize("n", range(1, 11))
def test_every_solution_of_plain_boards_in_the_same_order(n):
    one, wide = both_ways(cpqueens.Instance(n))
    assert one == wide and len(one[0]) == A000170[n]


@pytest.mark.parametrize("seed", range(16))
def test_the_same_tree_on_random_small_boards(seed):
    rng = random.Random(seed)
    n = rng.randint(4, 12)
    blocked = {(r, c) for r in range(n) for c in range(n) if rng.random() < 0.2}
    fixed = {}
    free = sorted({(r, c) for r in range(n) for c in range(n)} - blocked)
    for r, c in rng.sample(free, 2):
        fixed.setdefault(r, c)
    one, wide = both_ways(cpqueens.Instance(n, fixed=fixed, blocked=blocked))
    assert one == wide


@pytest.mark.parametrize(("n", "seed"), [(n, s) for n in (28, 36, 44, 57, 63, 64) for s in (1, 2)])
def test_the_same_nodes_near_the_hardest_density(n, seed):
    # limit=1, cut at a budget of nodes as the backend does: the same first solution
    # (or none) after the same nodes, and the same place when cut.
    instance = cpqueens.random_blocked(n, hardest(n), seed=seed)
    one, wide = both_ways(instance, most=1, budget=200_000)
    assert one == wide


def test_a_search_resumes_the_same_way_chunk_by_chunk():
    instance = cpqueens.random_blocked(40, hardest(40), seed=2)
    problem = Problem(40, (None,) * 40, blocked=instance.blocked_set)
    searches = [kind(40, allowed_masks(problem)) for kind in (Search, WideSearch)]
    while not all(search.finished for search in searches):
        steps = [(search.next_solutions(3, 997).tolist(), search.nodes) for search in searches]
        assert steps[0] == steps[1]


def test_the_dispatch():
    assert type(new_search(64, [(1 << 64) - 1] * 64)) is Search
    assert type(new_search(65, [(1 << 65) - 1] * 65)) is WideSearch
    assert type(new_search(8, [255] * 8, wide=True)) is WideSearch


def two_solution_board(n, seed):
    """Every square blocked but those of two random solutions and 1.5 % of the others."""
    rng = random.Random(seed)
    a, b = random_solution(n, rng), random_solution(n, rng)
    blocked = [
        (r, c) for r in range(n) for c in range(n) if c not in (a[r], b[r]) and rng.random() < 0.985
    ]
    return cpqueens.Instance(n, blocked=blocked)


@pytest.mark.slow
@pytest.mark.parametrize(("n", "seed"), [(65, 1), (80, 2), (127, 3), (129, 4)])
def test_blocked_boards_past_64_list_what_sat_lists(n, seed):
    pytest.importorskip("pysat")
    instance = two_solution_board(n, seed)
    mine = cpqueens.solve(instance, backend=BACKEND, time_limit=60)
    theirs = cpqueens.solve(instance, backend="sat", time_limit=60)
    assert mine.complete and theirs.complete
    assert len(mine.solutions) == len(set(mine.solutions)) >= 2
    assert set(mine.solutions) == set(theirs.solutions)
    assert cpqueens.count(instance, backend=BACKEND) == mine.count
    for solution in mine.solutions:
        assert sorted(solution) == list(range(n))
        assert len({r + c for r, c in enumerate(solution)}) == n
        assert len({r - c for r, c in enumerate(solution)}) == n
        assert not any((r, c) in instance.blocked_set for r, c in enumerate(solution))


@pytest.mark.parametrize(("n", "given"), [(65, 50), (96, 80), (100, 84), (128, 114), (130, 112)])
def test_completions_past_64_list_what_propagate_lists(n, given):
    instance = cpqueens.random_completion(n, given, seed=n, from_solution=True)
    mine = cpqueens.solve(instance, backend=BACKEND)
    theirs = cpqueens.solve(instance, backend="propagate", time_limit=60)
    assert theirs.complete and mine.count >= 1
    assert set(mine.solutions) == set(theirs.solutions)
    assert cpqueens.count(instance, backend=BACKEND) == mine.count
    decided = cpqueens.solve(instance, backend=BACKEND, limit=1)
    assert decided.satisfiable and decided.solutions[0] in set(theirs.solutions)
    assert decided.stats["nodes"] >= n - given and decided.stats["search_seconds"] >= 0


def test_a_completion_with_no_solution_past_64():
    # Three queens given, and the 97 other rows left only 10 columns: no completion.
    blocked = [(r, c) for r in range(3, 100) for c in range(90)]
    unsolvable = cpqueens.Instance(100, fixed={0: 0, 1: 2, 2: 4}, blocked=blocked)
    result = cpqueens.solve(unsolvable, backend=BACKEND, limit=1)
    assert result.complete and not result.satisfiable


@pytest.mark.slow
@pytest.mark.parametrize("n", [128, 400])
def test_a_time_limit_holds_on_a_long_multiword_search(n):
    # Plain boards this large are far beyond this search's reach (millions of nodes at
    # n = 64 already): only the clock ends it.
    cpqueens.solve(n, backend=BACKEND, limit=1, time_limit=0.05)  # kernels loaded
    with Stopwatch() as clock:
        result = cpqueens.solve(n, backend=BACKEND, limit=1, time_limit=0.3)
    clock.check(0.3, 0.8)
    assert result.stats["timed_out"] and result.satisfiable is None
    assert result.stats["nodes"] > 0 and result.stats["search_seconds"] > 0
    with pytest.raises(cpqueens.SearchTimeoutError):
        cpqueens.count(n, backend=BACKEND, time_limit=0.2)
