"""MiniZinc data files (``.dzn``) for the shipped model ``solvers/minizinc/queens.mzn``, 0-based::

    n = 5;
    fixed = [-1, 2, -1, -1, -1];
    nblocked = 2;
    blocked = array2d(1..2, 1..2, [0, 0, 1, 3]);
    fewest_first = true;

``fixed`` gives each row's column, ``-1`` for a free row; ``blocked`` lists the
blocked squares as rows of a ``nblocked`` x 2 array (``array2d(1..0, 1..2, [])``
when there is none). The file is written in exactly this form, so that
``minizinc queens.mzn file.dzn`` solves the instance; reading takes any layout
of the same statements, ``%`` comments, and leaves ``fixed``, ``nblocked`` and
``fewest_first`` out if need be (a free board, the count of ``blocked``'s rows,
the search order, which is no part of the instance). A row or column n, on the
board were the file numbered from 1, is refused with that reason, never guessed.

>>> from cpqueens import Instance
>>> text = format_dzn(Instance(5, fixed={1: 2}, blocked=[(1, 3), (0, 0)]))
>>> print(text, end="")
n = 5;
fixed = [-1, 2, -1, -1, -1];
nblocked = 2;
blocked = array2d(1..2, 1..2, [0, 0, 1, 3]);
fewest_first = true;
>>> parse_dzn(text, "x.dzn")
Instance(n=5, fixed=((1, 2),), blocked=((0, 0), (1, 3)))
"""

from __future__ import annotations

from dataclasses import dataclass

from ..instance import Instance
from .text import SquareAt, Token, TokenStream, check_queens

#: The names a data file for the model gives.
NAMES = ("n", "fixed", "nblocked", "blocked", "fewest_first")
#: Why a value n is refused, not read: it fits a file numbered from 1.
_ONE_BASED = "a value n says the file may be numbered from 1, so it is refused, not guessed"


def format_dzn(instance: Instance) -> str:
    """The instance as data for ``queens.mzn``; the search takes the fewest columns first."""
    per_row = [-1] * instance.n
    for row, column in instance.fixed:
        per_row[row] = column
    flat = [str(index) for square in instance.blocked for index in square]
    count = len(instance.blocked)
    return (
        f"n = {instance.n};\n"
        f"fixed = [{', '.join(map(str, per_row))}];\n"
        f"nblocked = {count};\n"
        f"blocked = array2d(1..{count}, 1..2, [{', '.join(flat)}]);\n"
        "fewest_first = true;\n"
    )


@dataclass
class _Array:
    """A list of whole numbers, each with its line, and the ranges of an ``arrayNd``."""

    numbers: list[Token]
    ranges: list[tuple[int, int]]
    line: int


def parse_dzn(text: str, source: str = "<text>") -> Instance:
    """Read a MiniZinc data file's text; ``source`` names it in errors."""
    stream = TokenStream(text, source, "%")
    values: dict[str, tuple[Token, object]] = {}
    while stream.peek() is not None:
        name = stream.next("name")
        if name.text not in NAMES:
            raise stream.error(
                name.line, f"unknown name {name.text!r}; a data file gives {', '.join(NAMES)}"
            )
        if name.text in values:
            raise stream.error(name.line, f"{name.text!r} is given twice")
        stream.next("=")
        values[name.text] = (name, _value(stream))
        stream.next(";")
    n = stream.board_size(values.get("n"), "'n = ...;'")
    fixed = _fixed(stream, values.get("fixed"), n)
    blocked = _blocked(stream, values.get("blocked"), values.get("nblocked"), n)
    if "fewest_first" in values and not isinstance(values["fewest_first"][1], bool):
        raise stream.error(values["fewest_first"][0].line, "fewest_first must be true or false")
    check_queens(fixed, blocked, stream.error, base=0)
    return Instance(
        n, fixed=[square for square, _ in fixed], blocked=[square for square, _ in blocked]
    )


def _value(stream: TokenStream) -> object:
    """A whole number, true or false, ``[numbers]`` or ``arrayNd(ranges, [numbers])``."""
    token = stream.peek()
    if token is not None and token.kind == "int":
        return stream.next("int").value
    if token is not None and token.kind == "bool":
        return stream.next("bool").text == "true"
    if token is not None and token.kind == "name" and token.text in ("array1d", "array2d"):
        stream.position += 1
        stream.next("(")
        ranges = []
        for _ in range(int(token.text[5])):
            low = stream.next("int").value
            stream.next("..")
            ranges.append((low, stream.next("int").value))
            stream.next(",")
        array = _list(stream)
        stream.next(")")
        return _Array(array.numbers, ranges, token.line)
    if token is not None and token.kind == "[":
        return _list(stream)
    got = "the end of the file" if token is None else repr(token.text)
    line = stream.last_line if token is None else token.line
    raise stream.error(line, f"a whole number, true, false or an array is expected, got {got}")


def _list(stream: TokenStream) -> _Array:
    """``[number, number, ...]``, a trailing comma allowed."""
    opening = stream.next("[")
    numbers = []
    while stream.peek() is not None and stream.peek().kind != "]":
        numbers.append(stream.next("int"))
        if not stream.accept(","):
            break
    stream.next("]")
    return _Array(numbers, [], opening.line)


def _fixed(stream: TokenStream, given: tuple[Token, object] | None, n: int) -> list[SquareAt]:
    """``fixed``: one entry a row, -1 for a free row, else the column of its queen."""
    if given is None:
        return []
    token, array = given
    if not isinstance(array, _Array) or len(array.ranges) > 1:
        raise stream.error(token.line, "fixed must be a list of whole numbers, one a row")
    if len(array.numbers) != n:
        raise stream.error(
            array.line, f"fixed has {len(array.numbers)} entries; one a row is expected, n={n}"
        )
    queens = []
    for row, entry in enumerate(array.numbers):
        if entry.value == n:
            raise stream.error(
                entry.line,
                f"fixed column {n} of row {row} is off the board: columns run 0..{n - 1} "
                f"in a data file (counted from 0), -1 for a free row; {_ONE_BASED}",
            )
        if not -1 <= entry.value < n:
            raise stream.error(
                entry.line,
                f"fixed column {entry.value} of row {row} is off the board: columns run "
                f"0..{n - 1} (counted from 0), -1 for a free row",
            )
        if entry.value >= 0:
            queens.append(((row, entry.value), entry.line))
    return queens


def _blocked(
    stream: TokenStream,
    given: tuple[Token, object] | None,
    count: tuple[Token, object] | None,
    n: int,
) -> list[SquareAt]:
    """``blocked``: an ``nblocked`` x 2 array of (row, column) squares."""
    if count is not None and (not isinstance(count[1], int) or count[1] < 0):
        raise stream.error(count[0].line, "nblocked must be a whole number, 0 or more")
    if given is None:
        if count is not None and count[1] != 0:
            raise stream.error(count[0].line, f"nblocked = {count[1]} but no blocked array")
        return []
    token, array = given
    if not isinstance(array, _Array) or len(array.ranges) != 2:
        raise stream.error(
            token.line, "blocked must be array2d(1..k, 1..2, [row, column, ...]), k squares"
        )
    (low, high), (first, last) = array.ranges
    rows = max(0, high - low + 1)
    if low != 1 or (first, last) != (1, 2) or len(array.numbers) != 2 * rows:
        raise stream.error(
            array.line,
            f"blocked must be array2d(1..k, 1..2, [...]) with 2k numbers, got "
            f"array2d({low}..{high}, {first}..{last}, ...) with {len(array.numbers)} numbers",
        )
    if count is not None and count[1] != rows:
        raise stream.error(count[0].line, f"nblocked = {count[1]} but blocked has {rows} rows")
    squares = []
    for index in range(0, len(array.numbers), 2):
        row, column = array.numbers[index : index + 2]
        if not (0 <= row.value < n and 0 <= column.value < n):
            one_based = n in (row.value, column.value) and min(row.value, column.value) > 0
            raise stream.error(
                row.line,
                f"blocked square ({row.value}, {column.value}) is off the board: rows and "
                f"columns run 0..{n - 1} in a data file (counted from 0)"
                + (f"; {_ONE_BASED}" if one_based else ""),
            )
        squares.append(((row.value, column.value), row.line))
    return squares
