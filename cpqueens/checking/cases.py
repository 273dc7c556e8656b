"""What a cross-check checks: a board size, or an :class:`~cpqueens.Instance`.

A plain size ``n`` is the whole n-queens problem; an instance adds queens given in
advance and blocked squares. These helpers let the rest of the checking family
treat both alike.
"""

from __future__ import annotations

import operator
from typing import Any

from ..board import Solution, is_valid
from ..instances import Instance

#: A board size or an instance.
Case = int | Instance


def as_board(item: Any) -> tuple:
    """A returned board as a tuple, with integer-like columns made plain ints."""
    try:
        columns = tuple(item)
    except TypeError:
        return (item,)

    def plain(column: Any) -> Any:
        try:
            return operator.index(column)
        except TypeError:
            return column

    return tuple(plain(c) for c in columns)


def size_of(case: Case) -> int:
    """The board size of ``case``."""
    return case.n if isinstance(case, Instance) else case


def label_of(case: Case) -> str | None:
    """The label of an instance in a report (its name, else a short description);
    None for a plain size, whose ``n`` says it all."""
    if not isinstance(case, Instance):
        return None
    return case.name or describe(case)


def describe(case: Case) -> str:
    """``n=8`` for a size; ``n=8 with 2 queens given and 5 squares blocked`` for an instance.

    >>> describe(Instance(5, fixed={0: 0}, blocked=[(1, 2)]))
    'n=5 with 1 queen given and 1 square blocked'
    """
    if not isinstance(case, Instance):
        return f"n={case}"
    parts = []
    if case.fixed:
        parts.append(f"{len(case.fixed)} queen{'s' if len(case.fixed) != 1 else ''} given")
    if case.blocked:
        many = len(case.blocked)
        parts.append(f"{many} square{'s' if many != 1 else ''} blocked")
    return f"n={case.n}" + (f" with {' and '.join(parts)}" if parts else "")


def solves(board: Solution, case: Case) -> bool:
    """True when ``board`` is a solution of ``case``: valid, on the given queens,
    off the blocked squares."""
    n = size_of(case)
    if not is_valid(board, n):
        return False
    if not isinstance(case, Instance):
        return True
    blocked = case.blocked_set
    return all(board[row] == column for row, column in case.fixed) and not any(
        (row, column) in blocked for row, column in enumerate(board)
    )


def extra_kind(board: Solution, case: Case) -> str:
    """What is wrong with a valid board that is not one of the reference's solutions:
    ``"wrong fixed"`` (it moves a queen given in advance), ``"wrong blocked"`` (a queen
    on a blocked square) or ``"extra"`` (neither: the reference lacks it).

    >>> inst = Instance(5, fixed={0: 0}, blocked=[(1, 2)])
    >>> extra_kind((1, 3, 0, 2, 4), inst), extra_kind((0, 2, 4, 1, 3), inst)
    ('wrong fixed', 'wrong blocked')
    """
    if isinstance(case, Instance):
        if any(row >= len(board) or board[row] != column for row, column in case.fixed):
            return "wrong fixed"
        blocked = case.blocked_set
        if any((row, column) in blocked for row, column in enumerate(board)):
            return "wrong blocked"
    return "extra"
