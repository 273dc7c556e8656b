"""One instance of the problem: a board size, queens given in advance, squares blocked.

Plain n-queens, n-queens completion (queens given) and blocked n-queens (squares no
queen may occupy) are all an :class:`Instance`; the front functions take one in place
of ``n``. Completion and blocked n-queens are NP-complete (Gent, Jefferson and
Nightingale, "Complexity of n-Queens Completion", JAIR 59, 2017), and so is their
Excluded Diagonals problem (CSPLib problem 79), a blocked instance whose blocked
squares are whole diagonals: an :class:`Instance` made with ``diagonals=`` keeps them.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from ..arguments import (
    Square,
    check_blocked,
    check_fixed_pairs,
    check_fixed_squares,
    check_int,
    check_n,
)
from ..board import rows_named
from ..columns import COMPACT_N
from ..display.numbers import plural
from ..errors import InvalidInputError, InvalidTypeError

#: An excluded diagonal as CSPLib problem 79's files write it, ``(k, kind)``: kind 1 is
#: the sum diagonal row + column = k, kind 0 the difference diagonal row - column =
#: k - (n - 1); k runs over 0..2n-2 either way (rows and columns from 0).
Diagonal = tuple[int, int]
#: The most squares the excluded diagonals of one instance may cover (a whole board of
#: n = 2,000): the squares are made, and a file of a few lines may name huge diagonals.
MAX_EXCLUDED_SQUARES = 4_000_000


#: The widest repr that lists the squares; a longer one counts them instead.
REPR_WIDTH = 100
#: The most characters of a name a counted repr shows (its tail).
_NAME_WIDTH = 40


@dataclass(frozen=True, init=False)
class Instance:
    """A board of size ``n`` with queens given in advance and squares blocked.

    Parameters
    ----------
    n : int
        Board size.
    fixed : mapping of row -> column, or iterable of (row, column) pairs, optional
        Queens given in advance (0-based), at most one per row.
    blocked : iterable of (row, column) pairs, optional
        Squares no queen may occupy (0-based); a square given twice is blocked once.
    name : str, optional
        A label, e.g. the file the instance came from.
    diagonals : iterable of (k, kind) pairs, optional
        An Excluded Diagonals instance (CSPLib problem 79): the diagonals no queen may
        stand on, in the file's order (see :data:`Diagonal`). Its blocked squares are
        theirs (``blocked=`` may only repeat them) and no queen is given.

    Notes
    -----
    Instances are frozen and hashable, equal when their board, queens and blocked
    squares are (the name aside): an Excluded Diagonals instance equals the blocked
    instance of the same squares, for it is the same problem; ``diagonals`` only says
    how it is written (as a problem 79 file, or JSON with its ``diagonals``). ``fixed``
    and ``blocked`` are kept sorted, ``diagonals`` in order (None for any other instance).

    Examples
    --------
    >>> import cpqueens
    >>> inst = cpqueens.Instance(5, fixed={0: 0}, blocked=[(2, 4), (1, 2)])
    >>> inst
    Instance(n=5, fixed=((0, 0),), blocked=((1, 2), (2, 4)))
    >>> cpqueens.solve(inst, backend="cpsat").solutions
    ((0, 3, 1, 4, 2),)
    >>> inst == cpqueens.Instance(5, fixed=[(0, 0)], blocked=[(2, 4), (1, 2)], name="x")
    True
    >>> diag = cpqueens.Instance(3, diagonals=[(1, 1), (4, 0)])
    >>> diag, diag.blocked
    (Instance(n=3, diagonals=((1, 1), (4, 0))), ((0, 1), (1, 0), (2, 0)))
    >>> diag == cpqueens.Instance(3, blocked=[(0, 1), (1, 0), (2, 0)])
    True

    The repr names every square while they fit a line, and counts them past that;
    ``fixed``, ``blocked`` and ``diagonals`` hold them all:

    >>> big = cpqueens.random_blocked(30, 225, seed=1)
    >>> big
    Instance(n=30, 225 blocked squares)
    >>> len(big.blocked), big.blocked[:2]
    (225, ((0, 2), (0, 5)))
    """

    n: int
    fixed: tuple[Square, ...]
    blocked: tuple[Square, ...]
    name: str | None
    diagonals: tuple[Diagonal, ...] | None = None

    def __init__(
        self,
        n: int,
        fixed: Mapping[int, int] | Iterable[Square] | None = None,
        blocked: Iterable[Square] | None = None,
        name: str | None = None,
        *,
        diagonals: Iterable[Diagonal] | None = None,
    ):
        n = check_n(n)
        # Nothing of size n is made: an instance of n=10**9 with no queen given is small.
        queens = check_fixed_pairs(_as_mapping(fixed, n), n)
        squares = check_blocked(blocked, n)
        if diagonals is not None:
            diagonals = check_diagonals(diagonals, n)
            squares = _excluded(n, diagonals, queens, squares if blocked is not None else None)
        check_fixed_squares(queens, squares)
        if name is not None and not isinstance(name, str):
            raise InvalidTypeError(f"name must be a str, got {type(name).__name__}")
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "fixed", queens)
        object.__setattr__(self, "blocked", tuple(sorted(squares)))
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "diagonals", diagonals)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Instance):
            return NotImplemented
        return (self.n, self.fixed, self.blocked) == (other.n, other.fixed, other.blocked)

    def __hash__(self) -> int:
        return hash((self.n, self.fixed, self.blocked))

    def __repr__(self) -> str:
        # Every square while they fit a line; past that, their counts, so that a
        # generated instance of hundreds of blocked squares still reads in one line
        # (the fields hold every square).
        parts = [f"n={self.n}"]
        if self.fixed:
            parts.append(f"fixed={self.fixed!r}")
        if self.diagonals is not None:  # its blocked squares are the diagonals'
            parts.append(f"diagonals={self.diagonals!r}")
        elif self.blocked:
            parts.append(f"blocked={self.blocked!r}")
        if self.name is not None:
            parts.append(f"name={self.name!r}")
        text = f"Instance({', '.join(parts)})"
        return text if len(text) <= REPR_WIDTH else self._short_repr()

    def _short_repr(self) -> str:
        """The repr with counts in place of the squares, and a long name's tail."""
        parts = [f"n={self.n:,}"]
        if self.fixed:
            parts.append(plural(len(self.fixed), "fixed queen"))
        if self.diagonals is not None:
            diagonals = plural(len(self.diagonals), "excluded diagonal")
            parts.append(f"{diagonals} ({plural(len(self.blocked), 'square')})")
        elif self.blocked:
            parts.append(plural(len(self.blocked), "blocked square"))
        if self.name is not None:
            # A file's name says most in its tail.
            name = self.name if len(self.name) <= _NAME_WIDTH else "..." + self.name[-_NAME_WIDTH:]
            parts.append(f"name={name!r}")
        return f"Instance({', '.join(parts)})"

    def renamed(self, name: str | None) -> Instance:
        """The same instance under another name, not checked again (it was, once).

        >>> Instance(4, blocked=[(0, 0)]).renamed("corner")
        Instance(n=4, blocked=((0, 0),), name='corner')
        """
        if name is not None and not isinstance(name, str):
            raise InvalidTypeError(f"name must be a str, got {type(name).__name__}")
        copy = object.__new__(Instance)
        for field in ("n", "fixed", "blocked", "diagonals"):
            object.__setattr__(copy, field, getattr(self, field))
        object.__setattr__(copy, "name", name)
        return copy

    @property
    def fixed_rows(self) -> dict[int, int]:
        """The given queens as ``{row: column}``, the form ``fixed=`` takes."""
        return dict(self.fixed)

    @property
    def plain(self) -> bool:
        """True when nothing is given or blocked: the whole n-queens problem."""
        return not (self.fixed or self.blocked)

    def fixed_per_row(self) -> tuple[int | None, ...]:
        """The given queens as one entry a row (None where no queen is given): the
        form the backends take. Of length n, so made only for boards a backend accepts."""
        if not self.fixed:
            # No row given: a tuple of n Nones, or past COMPACT_N rows a sequence that
            # reads like one in no memory (a tuple of 10^8 Nones is 800 MB).
            return (None,) * self.n if self.n <= COMPACT_N else FreeRows(self.n)
        per_row: list[int | None] = [None] * self.n
        for row, column in self.fixed:
            per_row[row] = column
        return tuple(per_row)

    @property
    def blocked_set(self) -> frozenset[Square]:
        """The blocked squares as a set."""
        return frozenset(self.blocked)


def as_instance(
    n: int | Instance,
    fixed: Mapping[int, int] | Iterable[Square] | None = None,
    blocked: Iterable[Square] | None = None,
    *,
    largest: Callable[[int], None] | None = None,
) -> Instance:
    """The door every front function goes through: a board size with the keyword
    ``fixed=``/``blocked=``, or an :class:`Instance`, as one checked :class:`Instance`.

    ``largest`` is the caller's own size check (a backend's, the decision tree's):
    it sees the board size before anything else is looked at, so a board the
    caller cannot take is refused in the caller's words.

    >>> as_instance(6, fixed={0: 1}) == Instance(6, fixed=[(0, 1)])
    True
    >>> as_instance(Instance(6), blocked=[(0, 0)])
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: give the fixed queens and blocked squares in the \
Instance or as arguments, not both
    """
    if isinstance(n, Instance):
        if fixed is not None or blocked is not None:
            raise InvalidInputError(
                "give the fixed queens and blocked squares in the Instance or as "
                "arguments, not both"
            )
        if largest is not None:
            largest(n.n)
        return n
    if largest is not None:
        largest(check_int(n, "n", 1))
    return Instance(n, fixed=fixed, blocked=blocked)


def _as_mapping(
    fixed: Mapping[int, int] | Iterable[Square] | None, n: int
) -> Mapping[int, int] | None:
    """Given queens as ``{row: column}``: a mapping as it is, pairs turned into one."""
    if fixed is None or isinstance(fixed, Mapping):
        return fixed
    if isinstance(fixed, (str, bytes)) or not isinstance(fixed, Iterable):
        raise InvalidTypeError(
            "fixed must be a mapping of row -> column or (row, column) pairs, got "
            f"{type(fixed).__name__}"
        )
    rows: dict[int, int] = {}
    for row, column in (_pair(item) for item in fixed):
        if row in rows and rows[row] != column:
            raise InvalidInputError(
                f"two queens given on {rows_named(row)}, in columns {rows[row]} and {column}; "
                "at most one queen a row"
            )
        rows[row] = column
    return rows


def _pair(item: object) -> tuple[object, object]:
    try:
        row, column = item  # type: ignore[misc]
    except (TypeError, ValueError):
        raise InvalidTypeError(
            f"a fixed queen must be a (row, column) pair, got {item!r}"
        ) from None
    return row, column


def check_diagonals(diagonals: Iterable[Diagonal], n: int) -> tuple[Diagonal, ...]:
    """The excluded diagonals of an ``n``-board, checked: ``(k, kind)`` pairs of whole
    numbers, kind 1 (sum) or 0 (difference), k in 0..2n-2, none twice, covering at
    most :data:`MAX_EXCLUDED_SQUARES` squares in all.

    >>> check_diagonals([[3, 1], (0, 0)], 4)
    ((3, 1), (0, 0))
    >>> check_diagonals([(7, 1)], 4)
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: diagonal (7, 1) is off the board: k runs over \
0..6 on a 4-board
    """
    if isinstance(diagonals, (str, bytes, Mapping)) or not isinstance(diagonals, Iterable):
        raise InvalidTypeError(f"diagonals must be (k, kind) pairs, got {type(diagonals).__name__}")
    checked: list[Diagonal] = []
    seen: set[Diagonal] = set()
    covered = 0
    for item in diagonals:
        try:
            k, kind = item  # type: ignore[misc]
        except (TypeError, ValueError):
            raise InvalidTypeError(f"a diagonal must be a (k, kind) pair, got {item!r}") from None
        pair = (check_int(k, "a diagonal's k"), check_int(kind, "a diagonal's kind"))
        if pair[1] not in (0, 1):
            raise InvalidInputError(
                f"diagonal {pair} has kind {pair[1]}: 1 is a sum diagonal (row + column = k), "
                "0 a difference diagonal (row - column = k - (n - 1))"
            )
        if not 0 <= pair[0] <= 2 * n - 2:
            raise InvalidInputError(
                f"diagonal {pair} is off the board: k runs over 0..{2 * n - 2} on a {n}-board"
            )
        if pair in seen:
            raise InvalidInputError(f"diagonal {pair} is excluded twice")
        seen.add(pair)
        covered += n - abs(pair[0] - (n - 1))
        if covered > MAX_EXCLUDED_SQUARES:
            raise InvalidInputError(
                f"the excluded diagonals cover more than {MAX_EXCLUDED_SQUARES:,} squares, "
                "more than any backend takes as blocked squares"
            )
        checked.append(pair)
    return tuple(checked)


def diagonal_squares(n: int, diagonal: Diagonal) -> Iterator[Square]:
    """The squares of one diagonal of an ``n``-board, row by row.

    >>> list(diagonal_squares(4, (2, 1))), list(diagonal_squares(4, (4, 0)))
    ([(0, 2), (1, 1), (2, 0)], [(1, 0), (2, 1), (3, 2)])
    """
    k, kind = diagonal
    if kind == 1:  # row + column = k
        for row in range(max(0, k - n + 1), min(k, n - 1) + 1):
            yield row, k - row
    else:  # row - column = k - (n - 1)
        shift = k - (n - 1)
        for row in range(max(0, shift), min(n - 1, n - 1 + shift) + 1):
            yield row, row - shift


def _excluded(
    n: int,
    diagonals: tuple[Diagonal, ...],
    queens: tuple[Square, ...],
    blocked: frozenset[Square] | None,
) -> frozenset[Square]:
    """The blocked squares of an Excluded Diagonals instance: its diagonals' squares,
    which ``blocked`` (when given) must repeat; no queen is given in that problem."""
    if queens:
        raise InvalidInputError(
            "an Excluded Diagonals instance gives no queen: give diagonals= without fixed="
        )
    squares = frozenset(square for line in diagonals for square in diagonal_squares(n, line))
    if blocked is not None and blocked != squares:
        raise InvalidInputError(
            "the blocked squares of an Excluded Diagonals instance are its diagonals' "
            f"squares: blocked= gives {len(blocked)} squares, the diagonals cover "
            f"{len(squares)}; give diagonals= alone"
        )
    return squares


class FreeRows(Sequence[None]):
    """``n`` rows without a given queen: reads like the tuple ``(None,) * n`` (length,
    indexing, iteration, ``count``, equality and hash) and holds nothing.

    >>> rows = FreeRows(3)
    >>> len(rows), rows[2], list(rows), rows.count(None), rows == (None, None, None)
    (3, None, [None, None, None], 3, True)
    """

    __slots__ = ("_n",)

    def __init__(self, n: int) -> None:
        self._n = n

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, index):  # type: ignore[no-untyped-def]
        if isinstance(index, slice):
            return (None,) * len(range(self._n)[index])
        range(self._n)[index]  # an IndexError or TypeError as a tuple would raise
        return None

    def __iter__(self) -> Iterator[None]:
        return itertools.repeat(None, self._n)

    def count(self, value: object) -> int:
        return self._n if value is None else 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FreeRows):
            return other._n == self._n
        if isinstance(other, tuple):
            return len(other) == self._n and other.count(None) == self._n
        return NotImplemented

    def __hash__(self) -> int:
        return hash((None,) * self._n)

    def __repr__(self) -> str:
        return f"FreeRows({self._n})"


def describe(instance: Instance) -> str:
    """A few words on an instance, for the comment at the top of a file it is written to.

    >>> from cpqueens import Instance
    >>> describe(Instance(5, blocked=[(0, 0)]))
    '5-queens: 1 blocked square, 0 given queens'
    """
    blocked, fixed = len(instance.blocked), len(instance.fixed)
    return (
        f"{instance.n}-queens: {blocked} blocked square{'' if blocked == 1 else 's'}, "
        f"{fixed} given queen{'' if fixed == 1 else 's'}"
    )
