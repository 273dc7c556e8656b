"""The question a backend is given: a :class:`Problem`, already checked at the door.

The front functions (:mod:`cpqueens.api`) turn the caller's board size, queens given
in advance, blocked squares and options into one :class:`Problem`; a backend trusts
it and only refuses what it cannot take (:meth:`~cpqueens.solvers.base.Backend.check_problem`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Problem:
    """One n-queens question, already validated.

    ``fixed[r]`` is the column that row ``r`` must use, or None when row ``r`` is free
    (the n-queens completion problem). ``options`` holds backend-specific options that
    the backend declared in :attr:`Backend.options`. ``limit`` is the number of
    solutions the caller will take: the API stops the iteration there itself, so a
    backend may ignore it, but one that searches in bulk (a solver run that returns
    only at its end) can use it to stop early. It is None when every solution is
    wanted, and also with ``unique=True``, where several solutions may count as one.
    """

    n: int
    fixed: tuple[int | None, ...]
    seed: int | None = None
    workers: int | None = None
    limit: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    #: Squares no queen may occupy, ``(row, column)``, 0-based (blocked n-queens).
    blocked: frozenset[tuple[int, int]] = frozenset()

    @property
    def has_fixed(self) -> bool:
        return any(column is not None for column in self.fixed)

    @property
    def has_blocked(self) -> bool:
        return bool(self.blocked)

    def allowed_columns(self, row: int) -> list[int]:
        """The columns of ``row`` a queen may take: its fixed one, or every unblocked one."""
        if self.fixed[row] is not None:
            return [self.fixed[row]]
        mask = self.blocked_masks()[row] if self.blocked else 0
        if not mask:
            return list(range(self.n))
        return [c for c in range(self.n) if not mask >> c & 1]

    def blocked_masks(self) -> list[int]:
        """Per row, a bit mask of its blocked columns (bit ``c`` for column ``c``)."""
        cached = self.__dict__.get("_blocked_masks")
        if cached is None:
            cached = [0] * self.n
            for row, column in self.blocked:
                cached[row] |= 1 << column
            # A frozen dataclass still has a __dict__: the masks are kept for the next row.
            object.__setattr__(self, "_blocked_masks", cached)
        return list(cached)
