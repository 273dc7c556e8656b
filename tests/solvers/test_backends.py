"""Every registered backend against the published counts, a brute-force reference, each other."""

import functools

import pytest
from known_counts import A000170, A002562
from reference import brute_force

import cpqueens
from cpqueens.board import is_valid
from cpqueens.solvers import REGISTRY

DETERMINISTIC = [name for name, b in REGISTRY.items() if b.enumerates and b.lexicographic]


@pytest.mark.parametrize("n", range(1, 11))
def test_count_matches_oeis(backend, n):
    assert cpqueens.count(n, backend=backend) == A000170[n]


@pytest.mark.slow
@pytest.mark.parametrize("n", range(1, 9))
def test_solution_set_matches_brute_force(enumerating_backend, n):
    result = cpqueens.solve(n, backend=enumerating_backend)
    assert result.complete
    assert len(result.solutions) == len(set(result.solutions)) == result.count
    assert set(result.solutions) == brute_force(n)


@functools.cache
def stack_solutions(n):
    return frozenset(cpqueens.solve(n, backend="stack").solutions)


@pytest.mark.parametrize("n", [9, 10])
def test_solution_sets_agree_across_backends(enumerating_backend, n):
    found = cpqueens.solve(n, backend=enumerating_backend).solutions
    assert len(found) == len(set(found)), f"{enumerating_backend} repeated a solution"
    assert set(found) == stack_solutions(n), f"{enumerating_backend} disagrees with stack"
    assert all(is_valid(s, n) for s in found)


@pytest.mark.parametrize("name", DETERMINISTIC)
def test_deterministic_backends_are_lexicographic(name):
    found = cpqueens.solve(8, backend=name).solutions
    assert list(found) == sorted(found)
    assert cpqueens.solve(8, backend=name, limit=1).solutions[0] == (0, 4, 7, 5, 2, 6, 1, 3)


@pytest.mark.slow
@pytest.mark.parametrize(
    "fixed", [{0: 0}, {3: 5}, {0: 2, 7: 4}, {1: 1, 2: 2}, {0: 3, 1: 5, 2: 7}, {4: 4}]
)
def test_fixed_queens_match_filtered_reference(enumerating_backend, fixed):
    result = cpqueens.solve(8, backend=enumerating_backend, fixed=fixed)
    assert set(result.solutions) == brute_force(8, fixed)
    assert result.fixed == fixed


def test_conflicting_fixed_queens_have_no_solution(backend):
    assert cpqueens.count(6, backend=backend, fixed={0: 0, 1: 1}) == 0
    assert cpqueens.count(6, backend=backend, fixed={0: 0, 5: 0}) == 0


@pytest.mark.parametrize("limit", [1, 5, 92, 200])
def test_limit(enumerating_backend, limit):
    result = cpqueens.solve(8, backend=enumerating_backend, limit=limit)
    assert result.count == len(result.solutions) == min(limit, 92)
    assert result.complete == (limit > 92)
    assert all(is_valid(s) for s in result.solutions)


def test_solutions_is_lazy_and_matches_solve(enumerating_backend):
    iterator = cpqueens.solutions(8, backend=enumerating_backend)
    first = next(iterator)
    assert is_valid(first)
    rest = list(iterator)
    assert len(rest) == 91 and first not in rest


@pytest.mark.parametrize("n", [8, 10])
def test_unique_counts_match_oeis(enumerating_backend, n):
    assert cpqueens.count(n, backend=enumerating_backend, unique=True) == A002562[n]


@pytest.mark.parametrize("n", [2, 3])
def test_no_solution_sizes(backend, n):
    result = cpqueens.solve(n, backend=backend)
    assert result.count == 0 and result.solutions == () and result.complete


def test_result_shape(backend):
    result = cpqueens.solve(6, backend=backend)
    assert result.n == 6 and result.backend == backend
    assert result.count == 4 and result.elapsed >= 0
    with pytest.raises(AttributeError):
        result.count = 5
    with pytest.raises(TypeError):
        result.stats["nodes"] = 0


@pytest.mark.slow
def test_time_limit_stops_early(backend):
    info = REGISTRY[backend]
    if not info.supports_time_limit:
        pytest.skip(f"by design: {backend} has no time limit")
    cpqueens.count(4, backend=backend)  # one-off costs (a compile, a model build) are not timed
    # n=20: large enough that even a compiled counter cannot finish inside the limit.
    result = cpqueens.solve(20, backend=backend, time_limit=0.05)
    assert not result.complete
    assert result.stats["timed_out"]
    assert result.elapsed < 5
    assert all(is_valid(s) for s in result.solutions)
    with pytest.raises(cpqueens.SearchTimeoutError) as caught:
        cpqueens.count(20, backend=backend, time_limit=0.05)
    assert 0 <= caught.value.partial < A000170[20]
