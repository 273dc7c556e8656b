"""The explicit construction: one valid solution for every n, huge boards end to end."""

import json
import subprocess
import sys

import numpy as np
import pytest
from timing import Stopwatch

import cpqueens
from cpqueens.board import MAX_RENDER_N, NUMPY_CHECK_N, is_valid, render
from cpqueens.display.svg import MAX_SVG_N, to_svg
from cpqueens.errors import InvalidInputError, SolverError, UnsupportedOptionError
from cpqueens.solvers import REGISTRY
from cpqueens.solvers.construct import construct
from cpqueens.solvers.guards import check_solution
from cpqueens.solvers.problem import Problem


def safe_by_sets(columns, n):
    """n queens, one per row, no two on a column or diagonal: plain Python sets."""
    if len(columns) != n or any(not 0 <= c < n for c in columns):
        return False
    return (
        len(set(columns)) == n
        and len({r + c for r, c in enumerate(columns)}) == n
        and len({r - c for r, c in enumerate(columns)}) == n
    )


def safe_by_sorting(columns, n):
    """The same check for large boards, by sorting (not the counting of board.is_valid)."""
    columns = np.asarray(columns, dtype=np.int64)
    if columns.shape != (n,):
        return False
    rows = np.arange(n, dtype=np.int64)
    return bool(
        np.array_equal(np.sort(columns), rows)
        and np.all(np.diff(np.sort(columns + rows)) > 0)
        and np.all(np.diff(np.sort(columns - rows)) > 0)
    )


def test_every_board_up_to_2000():
    for n in range(1, 2001):
        result = cpqueens.solve(n, backend="construct")
        if n in (2, 3):
            assert result.solutions == () and result.complete and result.satisfiable is False
            continue
        assert result.count == 1 and result.satisfiable is True, n
        assert result.complete == (n == 1), n  # other solutions exist for every n >= 4
        (solution,) = result.solutions
        assert all(type(c) is int for c in solution)
        assert safe_by_sets(solution, n), n


def test_the_sets_check_catches_attacks():
    assert safe_by_sets((1, 3, 0, 2), 4)
    assert not safe_by_sets((0, 1, 3, 2), 4)
    assert safe_by_sets((0, 2, 4, 1, 3), 5)
    assert not safe_by_sets((1, 1, 0, 2), 4)
    assert not safe_by_sorting(np.array([0, 1, 3, 2]), 4)
    assert not safe_by_sorting(np.array([1, 3, 0, 1]), 4)
    assert safe_by_sorting(np.array([1, 3, 0, 2]), 4)


@pytest.mark.parametrize("n", [2001, 10**5 + 2, 10**5 + 3, 10**6])
def test_large_boards_by_sorting(n):
    assert safe_by_sorting(construct(n), n)


def test_published_lists():
    # Hoffman, Loessi and Moore's lists, 1-based: n = 8 (n mod 6 = 2), n = 9 (= 3).
    assert [c + 1 for c in construct(8).tolist()] == [2, 4, 6, 8, 3, 1, 7, 5]
    assert [c + 1 for c in construct(9).tolist()] == [4, 6, 8, 2, 5, 7, 9, 1, 3]
    assert [c + 1 for c in construct(10).tolist()] == [2, 4, 6, 8, 10, 1, 3, 5, 7, 9]
    assert construct(1).tolist() == [0]
    assert construct(2) is None and construct(3) is None


@pytest.mark.slow
@pytest.mark.parametrize("n", [10**6, 10**7])
def test_huge_boards_end_to_end(n):
    with Stopwatch() as clock:
        result = cpqueens.solve(n, backend="construct")
    assert result.count == 1 and result.satisfiable and not result.complete
    assert safe_by_sorting(result.solution, n)
    assert is_valid(result.solution)
    # Generous bounds: nothing quadratic, nothing slow per queen.
    clock.check(0, n / 10**6 * 3 + 2)


def test_limit_still_gives_the_one_solution():
    result = cpqueens.solve(12, backend="construct", limit=5)
    assert result.count == 1 and not result.complete
    assert list(cpqueens.solutions(12, backend="construct")) == [result.solution]


def test_declares_what_it_is():
    backend = REGISTRY["construct"]
    assert backend.enumerates and not backend.exhaustive
    assert not backend.supports_fixed and not backend.supports_blocked
    assert backend.max_n >= 10**7


def test_refuses_what_it_cannot_honour():
    with pytest.raises(UnsupportedOptionError, match="backends that do"):
        cpqueens.solve(8, backend="construct", fixed={0: 1})
    with pytest.raises(UnsupportedOptionError, match="backends that do"):
        cpqueens.solve(8, backend="construct", blocked=[(0, 1)])
    with pytest.raises(UnsupportedOptionError, match="cannot count"):
        cpqueens.count(8, backend="construct")
    with pytest.raises(UnsupportedOptionError, match="exhaustive"):
        cpqueens.count(8, backend="construct", unique=True)
    with pytest.raises(InvalidInputError, match="beyond what backend 'construct'"):
        cpqueens.solve(10**8 + 1, backend="construct")


def test_huge_boards_are_not_drawn():
    solution = cpqueens.solve(10**6, backend="construct").solution
    for draw in (render, to_svg):
        with Stopwatch() as clock, pytest.raises(InvalidInputError, match="too large to draw"):
            draw(solution)
        clock.check(0, 0.5, what=f"{draw.__name__}'s refusal")
    result = cpqueens.solve(max(MAX_RENDER_N, MAX_SVG_N) + 1, backend="construct")
    assert result._repr_svg_() is None
    assert "too large to draw" in result._repr_html_()


# The numpy path of is_valid gives the pure Python path's answers.
BIG = NUMPY_CHECK_N + 2  # n mod 6 = 0 here: the plain evens-then-odds list


def big_solution():
    return construct(BIG)


def test_numpy_check_accepts_every_form_of_a_solution():
    columns = big_solution()
    for form in (columns, columns.tolist(), tuple(columns.tolist()), columns.astype(np.uint32)):
        assert is_valid(form)
        assert is_valid(form, BIG)
    assert is_valid(np.array(columns.tolist(), dtype=object))


def test_numpy_check_finds_each_kind_of_attack():
    columns = big_solution()
    same_column = columns.copy()
    same_column[5] = same_column[6]
    # Rows 0 and 1 swapped: still one queen per column, but (0, 3) and (2, 5) now
    # share a difference r - c; the mirror image shares a sum r + c instead.
    same_difference = columns.copy()
    same_difference[[0, 1]] = same_difference[[1, 0]]
    same_sum = BIG - 1 - same_difference
    for wrong in (same_column, same_difference, same_sum):
        assert not safe_by_sets(wrong.tolist(), BIG)
        assert not is_valid(wrong)
        assert not is_valid(wrong.tolist())
    assert len(set(same_sum.tolist())) == BIG  # only a diagonal is shared
    assert len({r - c for r, c in enumerate(same_sum.tolist())}) == BIG


def test_numpy_check_refuses_what_is_not_a_board():
    columns = big_solution()
    off = columns.copy()
    off[3] = BIG
    negative = columns.copy()
    negative[3] = -1
    with_bool = columns.tolist()
    with_bool[0] = bool(with_bool[0])
    with_float = columns.tolist()
    with_float[0] = float(with_float[0])
    huge = columns.tolist()
    huge[0] = 2**70
    for wrong in (off, negative, off.tolist(), negative.tolist(), with_bool, with_float, huge):
        assert not is_valid(wrong)
    assert not is_valid(columns.astype(float))
    assert not is_valid(columns.astype(bool))
    assert not is_valid(columns, BIG + 1)
    assert not is_valid(columns[:-1], BIG)
    # The pure Python path, for comparison, on a small board.
    assert not is_valid([True, 3, 0, 2]) and not is_valid([1.0, 3, 0, 2])


def test_check_solution_of_a_large_array():
    columns = big_solution()
    free = Problem(BIG, (None,) * BIG)
    checked = check_solution(columns, free, "demo")
    assert checked == tuple(columns.tolist()) and all(type(c) is int for c in checked[:10])
    fixed = [None] * BIG
    fixed[BIG - 1] = int(columns[-1])
    assert check_solution(columns, Problem(BIG, tuple(fixed)), "demo") == checked
    fixed[BIG - 1] += 1
    with pytest.raises(SolverError, match=f"a board of {BIG:,} rows"):
        check_solution(columns, Problem(BIG, tuple(fixed)), "demo")
    blocked = frozenset({(BIG - 1, int(columns[-1]))})
    with pytest.raises(SolverError, match="demo returned a board"):
        check_solution(columns, Problem(BIG, (None,) * BIG, blocked=blocked), "demo")
    other = frozenset({(BIG - 1, int(columns[-1]) + 1)})
    assert check_solution(columns, Problem(BIG, (None,) * BIG, blocked=other), "demo") == checked
    wrong = columns.copy()
    wrong[0] = wrong[1]
    with pytest.raises(SolverError):
        check_solution(wrong, free, "demo")


def test_check_solution_of_a_small_array_gives_plain_ints():
    checked = check_solution(np.array([1, 3, 0, 2]), Problem(4, (None,) * 4), "demo")
    assert checked == (1, 3, 0, 2) and all(type(c) is int for c in checked)
    with pytest.raises(SolverError, match=r"\(0, 1, 2, 3\)"):
        check_solution(np.arange(4), Problem(4, (None,) * 4), "demo")


@pytest.mark.slow
def test_cli_writes_a_million_columns_as_json():
    with Stopwatch() as clock:
        done = subprocess.run(
            [sys.executable, "-m", "cpqueens", "solve", "1000000", "-b", "construct", "--json"],
            capture_output=True,
            text=True,
            check=True,
        )
    record = json.loads(done.stdout)
    assert record["found"] == 1 and record["total"] is None and record["satisfiable"] is True
    assert record["complete"] is False
    (solution,) = record["solutions"]
    assert safe_by_sorting(solution, 10**6)
    clock.check(0, 10.0)
