"""Huge boards end to end: a solution held as Columns, checked once in vector
operations, written out in pieces (JSON, csv, xcsp, the command line)."""

from __future__ import annotations

import json
import pickle
import random

import numpy as np
import pytest
from click.testing import CliRunner

import cpqueens
from cpqueens.board import _is_valid_numpy, is_valid
from cpqueens.cli import cli
from cpqueens.columns import COMPACT_N, Columns, compact
from cpqueens.display import streaming
from cpqueens.errors import InvalidTypeError, WrongSolutionError
from cpqueens.instances.instance import FreeRows
from cpqueens.reporting.solution_text import format_solutions
from cpqueens.solvers.guards import check_solution
from cpqueens.solvers.problem import Problem

BIG = COMPACT_N + 5  # the smallest sizes past the threshold keep the tests quick


def _construction(n: int) -> tuple[int, ...]:
    """Hoffman, Loessi and Moore's solution for n mod 6 in {0, 4}, in plain Python."""
    assert n % 6 in (0, 4)
    return tuple(range(1, n, 2)) + tuple(range(0, n, 2))


# -- Columns reads like the tuple -------------------------------------------------


@pytest.fixture
def pair():
    rng = random.Random(7)
    values = [rng.randrange(1000) for _ in range(3000)]
    return Columns(np.array(values)), tuple(values)


def test_columns_index_slice_and_iterate_like_the_tuple(pair):
    columns, plain = pair
    assert len(columns) == len(plain)
    for index in (0, 1, 2999, -1, -3000):
        assert columns[index] == plain[index] and type(columns[index]) is int
    for part in (slice(None, 5), slice(10, 2000, 7), slice(None, None, -1), slice(-4, None)):
        assert columns[part] == plain[part]
    assert list(columns) == list(plain)
    assert list(reversed(columns)) == list(reversed(plain))
    with pytest.raises(IndexError):
        columns[3000]
    with pytest.raises(TypeError, match="str"):
        columns["1"]


def test_columns_equal_hash_and_order_as_the_tuple(pair):
    columns, plain = pair
    assert columns == plain and plain == columns and (columns != plain) is False
    assert hash(columns) == hash(plain)
    assert {plain: 1}[columns] == 1
    assert columns != list(plain)  # a tuple is not equal to a list either
    assert columns != plain[:-1] and columns != (*plain[:-1], plain[-1] + 1)
    bigger = (*plain[:100], plain[100] + 1, *plain[101:])
    assert columns < bigger and columns < Columns(bigger) and Columns(bigger) > columns
    assert columns <= plain and columns >= plain and not columns < plain
    assert plain[:-1] < columns and columns > plain[:-1]
    assert sorted([Columns(bigger), columns]) == [plain, bigger]
    assert columns == Columns(list(plain))


def test_columns_membership_count_index(pair):
    columns, plain = pair
    for value in (plain[0], plain[1234], 5000, -1, 2**70):
        assert (value in columns) == (value in plain)
        assert columns.count(value) == plain.count(value)
    assert columns.index(plain[1234]) == plain.index(plain[1234])
    assert columns.index(plain[1234], 100) == plain.index(plain[1234], 100)
    with pytest.raises(ValueError):
        columns.index(5000)


def test_columns_are_read_only_pickle_and_convert(pair):
    columns, plain = pair
    with pytest.raises(ValueError):
        columns.array[0] = 1
    again = pickle.loads(pickle.dumps(columns))
    assert again == plain and isinstance(again, Columns)
    assert np.asarray(columns).tolist() == list(plain)
    assert columns.tolist() == list(plain)
    assert columns.array.dtype == np.int32
    assert columns.key() == Columns(np.array(plain, dtype=np.int64)).key() != Columns([1]).key()
    assert repr(Columns([1, 2, 3])) == "Columns([1, 2, 3])"
    assert "2,992 more" in repr(columns)


@pytest.mark.parametrize("bad", [np.array([1.5, 2.0]), np.zeros((2, 2), dtype=int), ["a"]])
def test_columns_refuse_what_is_no_board(bad):
    with pytest.raises(InvalidTypeError, match="integer columns"):
        Columns(bad)


def test_the_owner_of_an_array_keeps_it_writable():
    board = np.arange(5, dtype=np.int32)
    Columns(board)
    board[0] = 4
    assert board.flags.writeable


def test_compact_keeps_small_boards_tuples():
    assert compact(np.arange(COMPACT_N)) == tuple(range(COMPACT_N))
    assert type(compact(np.arange(COMPACT_N))) is tuple
    assert type(compact(np.arange(COMPACT_N + 1))) is Columns


def test_free_rows_read_like_a_tuple_of_nones():
    rows = FreeRows(4)
    assert rows == (None,) * 4 and rows != (None,) * 3 and rows != (None, None, None, 1)
    assert hash(rows) == hash((None,) * 4)
    assert list(rows) == [None] * 4 and rows[1:3] == (None, None) and rows[-1] is None
    assert rows.count(None) == 4 and rows.count(0) == 0
    with pytest.raises(IndexError):
        rows[4]
    instance = cpqueens.Instance(COMPACT_N + 1)
    assert isinstance(instance.fixed_per_row(), FreeRows)
    assert cpqueens.Instance(8).fixed_per_row() == (None,) * 8


# -- the one check, vectorised ------------------------------------------------------


def _python_valid(board: list[int]) -> bool:
    """The definition, pair by pair (the tests' own check)."""
    n = len(board)
    if any(not 0 <= c < n for c in board):
        return False
    return all(
        board[a] != board[b] and abs(board[a] - board[b]) != b - a
        for a in range(n)
        for b in range(a + 1, n)
    )


def test_vector_check_agrees_with_the_definition():
    rng = random.Random(3)
    for _ in range(400):
        n = rng.randrange(1, 40)
        board = list(rng.choice([_construction(36), _construction(24)]))[:n]
        n = len(board)
        board = [c % n for c in board]
        if rng.random() < 0.5:
            board[rng.randrange(n)] = rng.randrange(-1, n + 1)
        assert _is_valid_numpy(np.array(board), n) == _python_valid(board), board
        assert _is_valid_numpy(Columns(np.array(board)), n) == _python_valid(board)
    assert _is_valid_numpy(np.array(_construction(36)), 36)


def test_qs_kernel_check_agrees_with_the_definition():
    pytest.importorskip("numba")
    from cpqueens.solvers.qs import kernels

    none = np.zeros(0, dtype=np.int32)
    starts, columns = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int32)
    rng = random.Random(5)
    for _ in range(300):
        n = rng.choice([24, 30, 36, 70, 130])
        board = list(_construction(n - n % 6))
        board += list(range(len(board), n))
        i, j = rng.randrange(n), rng.randrange(n)
        if rng.random() < 0.7:
            board[i], board[j] = board[j], board[i]
        array = np.array(board, dtype=np.int32)
        found = kernels.is_solution(array, none, none, starts, columns)
        assert found == _python_valid(board)


def test_a_wrong_huge_board_is_refused_without_a_tuple():
    n = BIG - BIG % 6
    board = np.array(_construction(n), dtype=np.int64)
    problem = Problem(n, FreeRows(n))
    assert check_solution(board, problem, "demo") == _construction(n)
    board[[0, 1]] = board[[1, 0]]
    with pytest.raises(WrongSolutionError, match=f"a board of {n:,} rows"):
        check_solution(board, problem, "demo")
    fixed = Problem(n, (None,) * (n - 1) + (5,))
    with pytest.raises(WrongSolutionError):
        check_solution(np.array(_construction(n)), fixed, "demo")


# -- backends hand back Columns, checked ---------------------------------------------


@pytest.mark.parametrize("backend", ["construct", "qs", "minconflicts"])
def test_large_boards_come_back_compact(backend):
    result = cpqueens.solve(BIG, backend=backend, limit=1)
    solution = result.solution
    assert isinstance(solution, Columns) and len(solution) == BIG
    assert _is_valid_numpy(np.array(solution.tolist()), BIG) and is_valid(solution)
    assert solution == tuple(solution.tolist())
    small = cpqueens.solve(100, backend=backend, limit=1).solution
    assert type(small) is tuple


def test_qs_keeps_several_huge_solutions_apart():
    result = cpqueens.solve(BIG, backend="qs", limit=2, seed=1)
    assert result.count == 2 and result.solutions[0] != result.solutions[1]


# -- written in pieces, never as a list ----------------------------------------------


@pytest.fixture
def no_python_list(monkeypatch):
    """Any listing of a Columns' values in Python ints fails the test."""

    def refuse(self, *args):
        raise AssertionError("a huge board was made a list of Python ints")

    monkeypatch.setattr(Columns, "__iter__", refuse)
    monkeypatch.setattr(Columns, "tolist", refuse)
    monkeypatch.setattr(streaming, "PIECE", 1000)  # several pieces a board


def test_digits_agree_with_str():
    rng = np.random.default_rng(1)
    for high in (1, 10, 11, 999, 1000, 10**7, 2**31 - 1):
        values = rng.integers(0, high, size=5000)
        values[:3] = [0, high - 1, 0]
        assert streaming._digits(values, ",") == ",".join(map(str, values.tolist()))
    assert streaming._digits(np.array([3, -2]), " ") == "3 -2"
    assert streaming._digits(np.zeros(0, dtype=np.int64), ",") == ""


@pytest.fixture(scope="module")
def huge_result():
    return cpqueens.solve(BIG + 1, backend="construct")  # n mod 6 = 4


@pytest.mark.parametrize("fmt", ["json", "csv", "xcsp"])
def test_formats_write_a_huge_board_in_pieces(huge_result, fmt, no_python_list):
    text = format_solutions(huge_result, fmt)
    columns = _construction(huge_result.n)
    if fmt == "json":
        assert json.loads(text)["solutions"] == [list(columns)]
    elif fmt == "csv":
        header, row = text.splitlines()
        assert header.split(",") == ["solution"] + [f"row{r}" for r in range(huge_result.n)]
        assert row.split(",") == ["1"] + [str(c) for c in columns]
    else:
        status, values = text.splitlines()
        assert status == "s SATISFIABLE"
        inside = values.split("<values>")[1].split("</values>")[0]
        assert tuple(map(int, inside.split())) == columns


def test_cli_json_of_a_huge_board(no_python_list):
    n = BIG + 1
    out = CliRunner().invoke(cli, ["solve", str(n), "-b", "construct", "--json"])
    assert out.exit_code == 0, out.output
    record = json.loads(out.stdout)
    assert record["solutions"] == [list(_construction(n))] and record["n"] == n


def test_cli_csv_of_a_huge_board(no_python_list):
    n = BIG + 1
    out = CliRunner().invoke(cli, ["solve", str(n), "-b", "construct", "-f", "csv", "-q"])
    assert out.exit_code == 0, out.output
    assert out.stdout.splitlines()[1] == "1," + ",".join(map(str, _construction(n)))
