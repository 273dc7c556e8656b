"""One instance of the problem: a board size, queens given in advance, squares blocked.

Plain n-queens, n-queens completion (queens given) and blocked n-queens (squares no
queen may occupy) are all an :class:`Instance`; the front functions take one in place
of ``n``. Completion and blocked n-queens are NP-complete (Gent, Jefferson and
Nightingale, "Complexity of n-Queens Completion", JAIR 59, 2017).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from ..arguments import (
    Square,
    check_blocked,
    check_fixed_pairs,
    check_fixed_squares,
    check_int,
    check_n,
)
from ..errors import InvalidInputError, InvalidTypeError


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

    Instances are frozen and hashable, equal when their board, queens and blocked
    squares are (the name aside). ``fixed`` and ``blocked`` are kept sorted.

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
    """

    n: int
    fixed: tuple[Square, ...]
    blocked: tuple[Square, ...]
    name: str | None

    def __init__(
        self,
        n: int,
        fixed: Mapping[int, int] | Iterable[Square] | None = None,
        blocked: Iterable[Square] | None = None,
        name: str | None = None,
    ):
        n = check_n(n)
        # Nothing of size n is made: an instance of n=10**9 with no queen given is small.
        queens = check_fixed_pairs(_as_mapping(fixed, n), n)
        squares = check_blocked(blocked, n)
        check_fixed_squares(queens, squares)
        if name is not None and not isinstance(name, str):
            raise InvalidTypeError(f"name must be a str, got {type(name).__name__}")
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "fixed", queens)
        object.__setattr__(self, "blocked", tuple(sorted(squares)))
        object.__setattr__(self, "name", name)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Instance):
            return NotImplemented
        return (self.n, self.fixed, self.blocked) == (other.n, other.fixed, other.blocked)

    def __hash__(self) -> int:
        return hash((self.n, self.fixed, self.blocked))

    def __repr__(self) -> str:
        parts = [f"n={self.n}"]
        if self.fixed:
            parts.append(f"fixed={self.fixed!r}")
        if self.blocked:
            parts.append(f"blocked={self.blocked!r}")
        if self.name is not None:
            parts.append(f"name={self.name!r}")
        return f"Instance({', '.join(parts)})"

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
                f"two queens given on row {row} (columns {rows[row]} and {column}); "
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
