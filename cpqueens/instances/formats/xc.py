"""Knuth's exact-cover input (``.xc``), as his DLX programs read it on stdin (write-only).

The first line names the items: the primary ones, which every solution covers
exactly once, then ``|``, then the secondary ones, covered at most once. Each
further line is one option, the items it covers; a line that starts with ``|``
is a comment. Item names are one to eight characters, none a ``:`` or ``|``
(Knuth, DLX1, section 1).

For n queens: primary items ``r<row>`` and ``c<column>`` (a queen on every row
and every column), secondary items ``a<row+column>`` and ``b<row-column+n-1>``
(at most one queen a diagonal), and an option ``r c a b`` for each square a
queen may take. A blocked square has no option; a row with a queen given in
advance has one, the given square. Rows and columns count from 0; every
diagonal is listed, even one with no option left.

>>> from cpqueens import Instance
>>> print(format_xc(Instance(2, fixed={0: 1}, blocked=[(1, 1)])), end="")
| 2-queens: 1 blocked square, 1 given queen
| items: r<row> c<column> (primary), a<row+column> b<row-column+1> (secondary)
r0 r1 c0 c1 | a0 a1 a2 b0 b1 b2
r0 c1 a1 b0
r1 c0 a1 b2
"""

from __future__ import annotations

from ...errors import InvalidInputError
from ..instance import Instance, describe

#: Knuth's programs take item names of at most eight characters: a diagonal's
#: name, "a" and up to 2n - 2, fits up to this board size.
MAX_XC_N = 5_000_000


def format_xc(instance: Instance) -> str:
    """The instance as an exact-cover problem: one option a square a queen may take."""
    n = instance.n
    if n > MAX_XC_N:
        raise InvalidInputError(
            f"n={n:,} is too large for the .xc format: its item names, up to eight "
            f"characters, go up to n={MAX_XC_N:,}"
        )
    given = instance.fixed_rows
    blocked = instance.blocked_set
    diagonals = range(2 * n - 1)
    lines = [
        f"| {describe(instance)}",
        f"| items: r<row> c<column> (primary), a<row+column> b<row-column+{n - 1}> (secondary)",
        " ".join(
            [
                *(f"r{row}" for row in range(n)),
                *(f"c{column}" for column in range(n)),
                "|",
                *(f"a{k}" for k in diagonals),
                *(f"b{k}" for k in diagonals),
            ]
        ),
    ]
    for row in range(n):
        columns = (given[row],) if row in given else range(n)
        lines.extend(
            f"r{row} c{column} a{row + column} b{row - column + n - 1}"
            for column in columns
            if (row, column) not in blocked
        )
    return "\n".join(lines) + "\n"
