"""Property-based checks: random completion problems against the brute-force reference."""

import pytest
from backend_sets import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import brute_force

import cpqueens
from cpqueens.board import is_valid


@st.composite
def completion_problems(draw):
    n = draw(st.integers(min_value=1, max_value=7))
    rows = draw(st.lists(st.integers(0, n - 1), unique=True, max_size=min(n, 3)))
    fixed = {row: draw(st.integers(0, n - 1)) for row in rows}
    return n, fixed


@pytest.mark.slow
def test_completion_problems_match_brute_force(enumerating_backend):
    @settings(max_examples=examples(enumerating_backend, 40), deadline=None)
    @given(problem=completion_problems())
    def check(problem):
        n, fixed = problem
        found = cpqueens.solve(n, backend=enumerating_backend, fixed=fixed).solutions
        assert len(found) == len(set(found))
        assert set(found) == brute_force(n, fixed)
        assert all(is_valid(s, n) for s in found)

    check()


@pytest.mark.slow
def test_limit_takes_a_prefix_for_lexicographic_backends(enumerating_backend):
    backend = cpqueens.solvers.REGISTRY[enumerating_backend]

    @settings(max_examples=examples(enumerating_backend, 25), deadline=None)
    @given(n=st.integers(min_value=1, max_value=9), limit=st.integers(min_value=1, max_value=400))
    def check(n, limit):
        limited = cpqueens.solve(n, backend=enumerating_backend, limit=limit).solutions
        every = cpqueens.solve(n, backend=enumerating_backend).solutions
        assert len(limited) == min(limit, len(every))
        if backend.lexicographic:
            assert limited == every[: len(limited)]
        else:
            assert set(limited) <= set(every)

    check()
