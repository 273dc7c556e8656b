"""The changes of an instance whose effect on the answer is known in advance.

The eight symmetries of the square map an instance (its given queens and blocked
squares) and its solutions alike; blocking a square keeps exactly the solutions
without a queen there; giving a queen keeps exactly the solutions with it. These are
the metamorphic relations of :mod:`.relations`, which need no reference solver.

>>> from cpqueens import Instance
>>> turn = SYMMETRIES[1]
>>> turn.name, map_instance(turn, Instance(4, blocked=[(0, 1)]))
('a quarter turn', Instance(n=4, blocked=((1, 3),)))
>>> map_solution(turn, (1, 3, 0, 2), 4)
(1, 3, 0, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..board import Solution
from ..errors import CPQueensError
from ..instances import Instance

Square = tuple[int, int]


@dataclass(frozen=True)
class Symmetry:
    """One of the eight symmetries of an n x n board, as a map of squares."""

    name: str
    maps: Callable[[int, int, int], Square]  # (row, column, n) -> (row, column)

    def __call__(self, square: Square, n: int) -> Square:
        return self.maps(square[0], square[1], n)


SYMMETRIES = (
    Symmetry("the identity", lambda r, c, n: (r, c)),
    Symmetry("a quarter turn", lambda r, c, n: (c, n - 1 - r)),
    Symmetry("a half turn", lambda r, c, n: (n - 1 - r, n - 1 - c)),
    Symmetry("three quarter turns", lambda r, c, n: (n - 1 - c, r)),
    Symmetry("a left-right mirror", lambda r, c, n: (r, n - 1 - c)),
    Symmetry("an up-down mirror", lambda r, c, n: (n - 1 - r, c)),
    Symmetry("a mirror in the main diagonal", lambda r, c, n: (c, r)),
    Symmetry("a mirror in the other diagonal", lambda r, c, n: (n - 1 - c, n - 1 - r)),
)


def map_instance(symmetry: Symmetry, instance: Instance) -> Instance | None:
    """The instance seen through ``symmetry``; None when it is no instance (two given
    queens of one column land on one row, which an instance cannot hold)."""
    n = instance.n
    fixed = [symmetry(square, n) for square in instance.fixed]
    if len({row for row, _ in fixed}) < len(fixed):
        return None
    return Instance(n, fixed=fixed, blocked=[symmetry(square, n) for square in instance.blocked])


def map_solution(symmetry: Symmetry, board: Solution, n: int) -> Solution:
    """A solution of an instance, as a solution of the instance seen through ``symmetry``."""
    placed = dict(symmetry((row, column), n) for row, column in enumerate(board))
    return tuple(placed[row] for row in range(n))


def map_solutions(symmetry: Symmetry, boards: Iterable[Solution], n: int) -> set[Solution]:
    return {map_solution(symmetry, board, n) for board in boards if _is_board(board, n)}


def _is_board(board: Solution, n: int) -> bool:
    # A mapped board must again be a board; a malformed one is judged elsewhere.
    return (
        len(board) == n
        and all(isinstance(c, int) and 0 <= c < n for c in board)
        and len(set(board)) == n
    )


def with_blocked(instance: Instance, square: Square) -> Instance | None:
    """The instance with one more square blocked (None: it holds a given queen)."""
    if square in instance.fixed:
        return None
    return Instance(instance.n, fixed=instance.fixed, blocked=[*instance.blocked, square])


def without_blocked(instance: Instance, square: Square) -> Instance:
    """The instance with one blocked square freed."""
    kept = [blocked for blocked in instance.blocked if blocked != square]
    return Instance(instance.n, fixed=instance.fixed, blocked=kept)


def with_queen(instance: Instance, square: Square) -> Instance | None:
    """The instance with one more queen given (None: its row holds one, or the square
    is blocked)."""
    row, column = square
    if row in instance.fixed_rows or square in instance.blocked_set:
        return None
    return Instance(instance.n, fixed={**instance.fixed_rows, row: column},
                    blocked=instance.blocked)  # fmt: skip


def rebuilt(n: int, fixed: Iterable[Square], blocked: Iterable[Square]) -> Instance | None:
    """An instance of these parts, or None when they make none (two queens on a row,
    a queen on a blocked square, a square off the board)."""
    try:
        return Instance(n, fixed=list(fixed), blocked=list(blocked))
    except CPQueensError:
        return None
