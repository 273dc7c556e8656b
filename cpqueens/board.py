"""A solution as a tuple of columns: validity, symmetry and rendering.

A solution (or any placement) of the n-queens problem is a tuple whose entry ``r``
is the 0-based column of the queen in row ``r``. Two queens (r1, c1) and (r2, c2)
attack each other when they share a row, a column, or a diagonal
(r1 + c1 == r2 + c2 or r1 - c1 == r2 - c2).

Examples
--------
>>> from cpqueens.board import is_valid, canonical, to_letters, render
>>> queens = (0, 4, 7, 5, 2, 6, 1, 3)
>>> is_valid(queens)
True
>>> to_letters(queens)
'aehfcgbd'
>>> print(render((1, 3, 0, 2), style="zero-plus"))
+ 0 + +
+ + + 0
0 + + +
+ + 0 +
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Literal

from .arguments import as_int, check_int
from .columns import COMPACT_N
from .errors import InvalidInputError, InvalidTypeError

Solution = tuple[int, ...]
"""Column of the queen in each row, 0-based.

Examples
--------
>>> import cpqueens
>>> solution = cpqueens.solve(6, backend="stack", limit=1).solutions[0]
>>> solution, cpqueens.is_valid(solution)
((1, 3, 5, 0, 2, 4), True)
>>> print(cpqueens.render(solution))
. Q . . . .
. . . Q . .
. . . . . Q
Q . . . . .
. . Q . . .
. . . . Q .
"""

#: Board styles: (queen mark, empty mark). "zero-plus" is the Queen8 article's print-out,
#: "x-dash" the Python random article's (docs/backends.md names the five articles).
STYLES: dict[str, tuple[str, str]] = {
    "grid": ("Q", "."),
    "zero-plus": ("0", "+"),
    "x-dash": ("x", "-"),
}
BoardStyle = Literal["grid", "zero-plus", "x-dash", "letters"]

_LETTERS = "abcdefghijklmnopqrstuvwxyz"


#: The largest board :func:`render` draws: n=1000 is a million squares, two million
#: characters of text; past that nobody reads the picture and memory runs out.
MAX_RENDER_N = 1000


def check_placement(
    placement: Sequence[int], n: int | None = None, *, whole: bool = False
) -> Solution:
    """Return ``placement`` as a tuple of columns after checking that it fits an n x n board.

    A placement is a sequence (or a 1-D numpy array) of integer columns, one per row
    from the first; ``n`` defaults to its length. Integers of any type are accepted
    (numpy's too) and returned as plain ``int``; bools and floats are not. Every column
    must lie in ``range(n)``, and there may be no more rows than ``n`` (exactly ``n``
    with ``whole=True``). Attacks are allowed: this checks the shape of a board,
    :func:`is_valid` checks the queens.

    >>> check_placement([1, 3, 0, 2])
    (1, 3, 0, 2)
    >>> import numpy
    >>> check_placement(numpy.array([1, 3, 0, 2]), n=numpy.int64(4))
    (1, 3, 0, 2)
    >>> check_placement((0, 0, 5))
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: column 5 in row 2 is off a board of size 3 (rows and \
columns run 0..2)
    """
    rows = _row_count(placement)
    size = _board_size(rows, n)
    # The length is compared before any column is read, so a huge board fails at once.
    if rows > size or (whole and rows != size):
        shown = f" {_columns(placement)}" if rows <= _SHOWN_ROWS else ""
        raise InvalidInputError(
            f"a board of size {size} has {size} row{'s' if size != 1 else ''}, "
            f"got {rows} columns{shown}"
        )
    columns = _columns(placement)
    for row, column in enumerate(columns):
        if not 0 <= column < size:
            raise InvalidInputError(
                f"column {column} in row {row} is off a board of size {size} "
                f"(rows and columns run 0..{size - 1})"
            )
    return columns


def check_drawable(placement: Sequence[int], n: int | None, *, limit: int, drawer: str) -> None:
    """Refuse a board larger than ``limit`` before anything is drawn, looking only at its size.

    Only ``len(placement)`` and ``n`` are read (O(1)), so a board of a million rows is
    refused at once; the columns are checked afterwards by :func:`check_placement`.

    >>> check_drawable(range(5000), None, limit=1000, drawer="render")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: a board of n=5000 is too large to draw (render draws ...
    """
    size = _board_size(_row_count(placement), n)
    if size > limit:
        raise InvalidInputError(
            f"a board of n={size} is too large to draw ({drawer} draws boards up to "
            f"n={limit}); print the columns instead, e.g. `cpqueens solve {size} --json`"
        )


#: A board with more rows than this is not quoted whole in an error message.
_SHOWN_ROWS = 32


def _row_count(placement: object) -> int:
    """How many rows ``placement`` has, after checking (in O(1)) that it is a run of columns.

    A sequence other than a string, or a 1-D array (numpy's ``ndarray`` is no
    ``Sequence``, yet a board of int64 columns is a common thing to hand over).
    """
    if isinstance(placement, Sequence) and not isinstance(placement, str | bytes):
        return len(placement)
    dimensions = getattr(placement, "ndim", None)
    if hasattr(placement, "__array__") and dimensions == 1:
        return len(placement)  # type: ignore[arg-type]
    what = (
        f"a {dimensions}-D array" if hasattr(placement, "__array__") else type(placement).__name__
    )
    raise InvalidTypeError(f"a board must be a sequence of column numbers, one per row, got {what}")


def _board_size(rows: int, n: object) -> int:
    """The size of a board of ``rows`` rows: ``n`` as a plain int, or ``rows`` by default."""
    if n is None:
        if rows < 1:
            raise InvalidInputError("a board needs at least one row, got none")
        return rows
    return check_int(n, "the board size n", 1)


def _columns(placement: Sequence[int]) -> Solution:
    """``placement`` as a tuple of Python ints, or a type error naming what is wrong."""
    _row_count(placement)
    return tuple(
        check_int(column, f"the column in row {row}") for row, column in enumerate(placement)
    )


def _check_permutation(solution: Sequence[int]) -> Solution:
    """A whole board with one queen per column: what the symmetries of the square need."""
    columns = check_placement(solution, whole=True)
    if len(set(columns)) != len(columns):
        repeated = sorted({c for c in columns if columns.count(c) > 1})
        raise InvalidInputError(
            f"symmetries need one queen per row and per column; {columns} repeats "
            f"column{'s' if len(repeated) > 1 else ''} {', '.join(map(str, repeated))}"
        )
    return columns


#: Rows and columns are counted from 0 everywhere (the top row and the left column are
#: 0), as in a solution tuple, ``--fixed R:C`` and ``q[r]``; a message that names a row
#: says so, since a person reading a printed grid counts its lines from 1.
COUNTED_FROM_0 = "counted from 0"


def rows_named(*rows: int) -> str:
    """Rows as a message names them, with how they are counted.

    >>> rows_named(3), rows_named(0, 1)
    ('row 3 (counted from 0)', 'rows 0 and 1 (counted from 0)')
    """
    if len(rows) == 1:
        return f"row {rows[0]} ({COUNTED_FROM_0})"
    return f"rows {', '.join(map(str, rows[:-1]))} and {rows[-1]} ({COUNTED_FROM_0})"


def attacking_pairs(placement: Sequence[int]) -> list[tuple[int, int]]:
    """Return the pairs of rows ``(r1, r2)``, ``r1 < r2``, whose queens attack each other.

    >>> attacking_pairs((0, 1, 3))
    [(0, 1)]
    """
    placement = _columns(placement)
    pairs = []
    for r1, c1 in enumerate(placement):
        for r2 in range(r1 + 1, len(placement)):
            c2 = placement[r2]
            if c1 == c2 or r2 - r1 == abs(c2 - c1):
                pairs.append((r1, r2))
    return pairs


def is_valid(solution: Sequence[int], n: int | None = None) -> bool:
    """Return True when ``solution`` places ``n`` mutually safe queens on an n x n board.

    ``n`` defaults to ``len(solution)``; every column must lie in ``range(n)``. Columns
    and ``n`` may be integers of any type (a numpy array of int64 is a board); a board
    holding anything else (a float, a bool, None) is not valid. A board of more than
    :data:`NUMPY_CHECK_N` rows is checked with numpy, in a few vector operations.

    >>> is_valid((1, 3, 0, 2))
    True
    >>> is_valid((0, 2, 1))
    False
    """
    rows = _row_count(solution)
    size = rows if n is None else check_int(n, "the board size n")
    if rows != size:
        return False
    if size > NUMPY_CHECK_N:
        return _is_valid_numpy(solution, size)
    # Solver backends check every solution they list with this, so the common case
    # (plain ints) runs on C-level set and map; other integer types (numpy's) are
    # turned into ints first, and anything else is no column at all.
    if set(map(type, solution)) - {int}:
        columns = [as_int(c) for c in solution]
        if None in columns:
            return False
        solution = columns  # type: ignore[assignment]
    if size and (min(solution) < 0 or max(solution) >= size):
        return False
    # Distinct columns and distinct diagonals make an O(n) check.
    return (
        len(set(solution)) == size
        and len(set(map(operator.add, solution, range(size)))) == size
        and len(set(map(operator.sub, solution, range(size)))) == size
    )


#: Boards with more rows than this are checked by :func:`is_valid` with numpy: a
#: count per column and per diagonal in a few vector operations, no Python per queen.
NUMPY_CHECK_N = COMPACT_N


def _is_valid_numpy(solution: Sequence[int], size: int) -> bool:
    """:func:`is_valid` for a large board of ``size`` rows, in vector operations.

    A numpy array of integers is read as it is; any other sequence must hold plain
    ints only (a bool or a float is no column, as in the pure Python check), which
    one C-level pass over the types confirms before numpy copies it.

    >>> n = 20_004  # n mod 6 = 0: the odd columns, then the even ones, make a solution
    >>> _is_valid_numpy(list(range(1, n, 2)) + list(range(0, n, 2)), n)
    True
    >>> _is_valid_numpy(list(range(n)), n), _is_valid_numpy([1.0] * n, n)
    (False, False)
    """
    import numpy as np

    from .columns import Columns

    if isinstance(solution, Columns):
        solution = solution.array  # already integer columns, no copy
    if isinstance(solution, np.ndarray) and solution.dtype.kind not in "iu":
        # A bool or float array holds no columns; an object array is looked at whole.
        if solution.dtype.kind != "O":
            return False
        solution = solution.tolist()
    if not isinstance(solution, np.ndarray):
        if set(map(type, solution)) - {int}:
            columns = [as_int(c) for c in solution]
            if None in columns:
                return False
            solution = columns
        try:
            solution = np.array(solution, dtype=np.int64)
        except OverflowError:  # a column beyond int64 is off any board
            return False
    columns = solution
    if columns.min() < 0 or columns.max() >= size:
        return False
    # A piece of rows at a time: each line (column, diagonal, antidiagonal) is
    # flagged once per queen, and n queens flag n distinct lines of each kind exactly
    # when no two share one. The indices of a piece are numpy's own index type (it
    # would convert any other, each time); a piece's temporaries stay a few MB, so a
    # board of 10^8 rows takes its flags (5 bytes a row) and little more.
    taken = [np.zeros(size, dtype=np.bool_), np.zeros(2 * size, dtype=np.bool_)]
    taken.append(np.zeros(2 * size, dtype=np.bool_))
    for start in range(0, size, _PIECE):
        piece = columns[start : start + _PIECE].astype(np.intp)
        rows = np.arange(start, start + len(piece), dtype=np.intp)
        taken[0][piece] = True
        piece += rows
        taken[1][piece] = True  # r + c
        piece -= rows
        piece -= rows
        piece += size - 1
        taken[2][piece] = True  # c - r + n - 1: one flag a line, as r - c + n - 1 is
    return all(np.count_nonzero(flags) == size for flags in taken)


#: Rows checked at a time by :func:`_is_valid_numpy`.
_PIECE = 1 << 18


def _rotate(solution: Solution) -> Solution:
    # Quarter turn clockwise: the queen at (r, c) moves to (c, n-1-r).
    n = len(solution)
    rotated = [0] * n
    for r, c in enumerate(solution):
        rotated[c] = n - 1 - r
    return tuple(rotated)


def _mirror(solution: Solution) -> Solution:
    n = len(solution)
    return tuple(n - 1 - c for c in solution)


def symmetries(solution: Sequence[int]) -> tuple[Solution, ...]:
    """Return the images of ``solution`` under the 8 symmetries of the square.

    The order is: identity, rotations by 90, 180 and 270 degrees, then the mirror
    image (left-right) of each of those. Images may repeat for symmetric solutions.

    >>> len(symmetries((1, 3, 0, 2)))
    8
    >>> sorted(set(symmetries((1, 3, 0, 2))))
    [(1, 3, 0, 2), (2, 0, 3, 1)]
    """
    images = [_check_permutation(solution)]
    for _ in range(3):
        images.append(_rotate(images[-1]))
    return tuple(images + [_mirror(image) for image in images])


def canonical(solution: Sequence[int]) -> Solution:
    """Return the lexicographically smallest of the 8 symmetric images of ``solution``.

    Two solutions are equal up to rotation and reflection exactly when their
    canonical forms are equal.

    >>> canonical((2, 0, 3, 1))
    (1, 3, 0, 2)
    """
    return min(symmetries(solution))


def orbit_size(solution: Sequence[int]) -> int:
    """Return how many distinct solutions are symmetric images of ``solution`` (1, 2, 4 or 8).

    >>> orbit_size((1, 3, 0, 2))
    2
    """
    return len(set(symmetries(solution)))


def to_letters(solution: Sequence[int]) -> str:
    """Write ``solution`` as column letters from the first row to the last (CodeProject tree).

    >>> to_letters((2, 6, 1, 7, 5, 3, 0, 4))
    'cgbhfdae'
    """
    solution = check_placement(solution)
    if len(solution) > len(_LETTERS):
        raise InvalidInputError(
            f"column letters go up to n={len(_LETTERS)}, got a board of size {len(solution)}"
        )
    return "".join(_LETTERS[c] for c in solution)


def from_letters(text: str) -> Solution:
    """Parse column letters (CodeProject tree style, ``"cgbhfdae"``) into a solution tuple.

    The letters must lie within the board, whose size is the number of letters.

    >>> from_letters("cgbhfdae")
    (2, 6, 1, 7, 5, 3, 0, 4)
    """
    if not isinstance(text, str):
        raise InvalidTypeError(f"letters must be a str, got {type(text).__name__}")
    letters = text.strip().lower()
    n = len(letters)
    if not 1 <= n <= len(_LETTERS):
        raise InvalidInputError(f"expected 1 to 26 column letters, got {text!r}")
    allowed = _LETTERS[:n]
    bad = sorted({ch for ch in letters if ch not in allowed})
    if bad:
        raise InvalidInputError(
            f"letters {text!r} contain {''.join(bad)!r}; a board of size {n} "
            f"uses the letters a-{allowed[-1]}"
        )
    return tuple(allowed.index(ch) for ch in letters)


def render(solution: Sequence[int], style: BoardStyle = "grid", n: int | None = None) -> str:
    """Draw ``solution`` as text in one of the articles' styles.

    ``style`` is ``"grid"`` (``Q`` and ``.``), ``"zero-plus"`` (the Queen8 article: ``0``
    for a queen, ``+`` for an empty square), ``"x-dash"`` (the Python random article:
    ``x`` and ``-``), or ``"letters"`` (the CodeProject tree article: one column letter
    per row). ``n`` gives the board
    size for a partial placement; it defaults to ``len(solution)``. Boards larger than
    :data:`MAX_RENDER_N` are refused with an :class:`~cpqueens.errors.InvalidInputError`
    before anything is drawn.

    >>> print(render((1, 3, 0, 2)))
    . Q . .
    . . . Q
    Q . . .
    . . Q .
    >>> render((1, 3, 0, 2), style="letters")
    'bdac'
    >>> print(render((0, 2), n=3))
    Q . .
    . . Q
    . . .
    """
    if style != "letters" and style not in STYLES:
        raise InvalidInputError(
            f"unknown board style {style!r}; choose one of: {', '.join([*STYLES, 'letters'])}"
        )
    check_drawable(solution, n, limit=MAX_RENDER_N, drawer="render")
    if style == "letters":
        return to_letters(check_placement(solution, n, whole=True))
    columns = check_placement(solution, n)
    queen, empty = STYLES[style]
    size = _board_size(len(columns), n)
    rows = []
    for column in columns:
        cells = [empty] * size
        cells[column] = queen
        rows.append(" ".join(cells))
    # A partial placement on a larger board: the rows without a queen yet, empty.
    rows += [" ".join([empty] * size)] * (size - len(columns))
    return "\n".join(rows)
