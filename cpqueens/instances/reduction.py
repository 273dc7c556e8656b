"""From Excluded Diagonals to n-queens completion: the reduction of Gent, Jefferson
and Nightingale ("Complexity of n-Queens Completion", JAIR 59, 2017, section 4).

An Excluded Diagonals instance (an n-board, d diagonals no queen may stand on) becomes
a completion instance on a far larger board, nearly every queen given, with as many
solutions: the n queens still to place stand on the rows left free, and search there
is search in the small problem. It goes in two steps, each a board of queens:

1. *Placed queens with chosen rows and columns* on a board of N3 = 7n - 3: each
   excluded diagonal becomes one queen that takes that diagonal away (a difference
   diagonal row - column = t a queen on (6n - 3 - t, 3n - 1 - 2t), a sum diagonal
   row + column = s a queen on (2n - 2 - s, n + 2s)), and the n queens to place
   go in rows 0..n-1 and columns 3n - 2 .. 4n - 3; m = n + d lines of each kind
   are in use.
2. *Completion*: a board of 19 P + m, where P, the size of a block, is 2 N3 + 1 when
   N3 mod 3 = 2 and 2 N3 - 1 otherwise (odd and no multiple of 3, so that the
   queens (i, 2i mod P) solve a P-board). The board is a grid of blocks laid out as
   a solution of 19 queens: 17 blocks hold that whole P-board solution, two blocks
   hold what is left of it (and of its mirror image) once the lines in use are taken
   out, and two thin blocks, m lines each, pin the lines in use (the i-th in
   increasing order, c, faces a queen at 2c). The queens of step 1 stay where they
   are; the n lines of step 1 left free are the only free ones.

The instance is the same one Gent's ``queens-diag-transform.py`` prints (CSPLib
problem 79), a board of 2,543 for a 10-board with 6 diagonals excluded; its pairs,
printed ``[a, b]``, are read as (row, column), as his ``letting init`` files are.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import InvalidInputError, InvalidTypeError
from .instance import Instance

Square = tuple[int, int]

#: The 19-queens solution, block by block: the two blocks from which the rows and
#: the columns in use are taken out (the solution of a P-board, and its mirror
#: image), the two thin blocks of the lines in use, and the 17 whole blocks.
_FIRST_COLUMN_BLOCK = (0, 8)
_FIRST_ROW_BLOCK = (17, 0)
_USED_COLUMNS_BLOCK = (19, 8)
_USED_ROWS_BLOCK = (17, 19)
_WHOLE_BLOCKS = (
    (1, 12), (2, 17), (3, 7), (4, 10), (5, 15), (6, 1), (7, 16), (8, 13), (9, 2),
    (10, 6), (11, 18), (12, 3), (13, 5), (14, 11), (15, 9), (16, 14), (18, 4),
)  # fmt: skip


def diagonals_to_completion(instance: Instance) -> Instance:
    """The n-queens completion instance of an Excluded Diagonals instance: as many
    solutions, the same answer, n queens left to place on a board of about 266 n.

    Parameters
    ----------
    instance : Instance
        An Excluded Diagonals instance: read with ``read_instance(path, diagonals=D)``
        or made with ``Instance(n, diagonals=...)``.

    Returns
    -------
    Instance
        The completion instance Gent's ``queens-diag-transform.py`` prints, named after
        the instance (``-completion`` added).

    Examples
    --------
    >>> import cpqueens
    >>> small = cpqueens.Instance(4, diagonals=[(2, 0)])
    >>> big = cpqueens.diagonals_to_completion(small)
    >>> big.n, len(big.fixed), big.n - len(big.fixed)
    (936, 932, 4)
    >>> decide = lambda inst: cpqueens.solve(inst, backend="propagate", limit=1).satisfiable
    >>> decide(small), decide(big)
    (False, False)
    """
    if not isinstance(instance, Instance):
        raise InvalidTypeError(f"instance must be an Instance, got {type(instance).__name__}")
    if instance.diagonals is None:
        raise InvalidInputError(
            "the reduction takes an Excluded Diagonals instance (read_instance(path, "
            "diagonals=D), or Instance(n, diagonals=...)); this instance has no diagonals"
        )
    n = instance.n
    placed = _excluding_queens(n, instance.diagonals)
    size, queens = _completion(7 * n - 3, placed, columns=range(3 * n - 2, 4 * n - 2))
    name = None if instance.name is None else f"{instance.name}-completion"
    return Instance(size, fixed=_checked(size, queens), name=name)


def _excluding_queens(n: int, diagonals: Iterable[tuple[int, int]]) -> list[Square]:
    """Step 1: one queen a diagonal, the differences first, each kind in its order."""
    differences = [k - (n - 1) for k, kind in diagonals if kind == 0]
    sums = [k for k, kind in diagonals if kind == 1]
    return [(6 * n - 3 - t, 3 * n - 1 - 2 * t) for t in differences] + [
        (2 * n - 2 - s, n + 2 * s) for s in sums
    ]


def _completion(small: int, placed: list[Square], columns: range) -> tuple[int, list[Square]]:
    """Step 2: the board of ``small`` with its queens ``placed`` and the lines in use
    (the first coordinate's: ``columns`` and the placed queens'; the second's: 0..n-1
    and theirs) as a completion instance on a board of blocks."""
    used_first = [*columns, *(a for a, _ in placed)]
    used_second = [*range(len(columns)), *(b for _, b in placed)]
    m = len(used_first)
    block = 2 * small + 1 if small % 3 == 2 else 2 * small - 1  # prime to 6
    solution = [(i, 2 * i % block) for i in range(block)]
    mirror = [(b, a) for a, b in solution]
    taken_first, taken_second = set(used_first), set(used_second)
    queens = list(placed)
    queens += _shifted(
        block, _USED_COLUMNS_BLOCK, [(i, 2 * c) for i, c in enumerate(sorted(used_first))]
    )
    queens += _shifted(
        block, _USED_ROWS_BLOCK, [(2 * r, i) for i, r in enumerate(sorted(used_second))]
    )
    queens += [q for q in _shifted(block, _FIRST_COLUMN_BLOCK, solution) if q[0] not in taken_first]
    queens += [q for q in _shifted(block, _FIRST_ROW_BLOCK, mirror) if q[1] not in taken_second]
    for corner in _WHOLE_BLOCKS:
        queens += _shifted(block, corner, solution)
    return 19 * block + m, queens


def _shifted(block: int, corner: Square, squares: list[Square]) -> list[Square]:
    """``squares`` moved into the block at ``corner`` of a grid of ``block``-blocks."""
    top, left = corner[0] * block, corner[1] * block
    return [(top + a, left + b) for a, b in squares]


def _checked(size: int, queens: list[Square]) -> list[Square]:
    """The queens of the construction, none attacking another (a fault of this module
    otherwise, never of the instance)."""
    lines = [{a for a, _ in queens}, {b for _, b in queens}]
    lines += [{a + b for a, b in queens}, {a - b for a, b in queens}]
    if any(len(line) != len(queens) for line in lines) or size < len(queens):
        raise AssertionError("the reduction placed two queens on one line")
    return queens
