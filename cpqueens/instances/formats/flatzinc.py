"""FlatZinc (``.fzn``), the form every FlatZinc solver runs directly (write-only).

One variable a row, ``q_<row>``, holds the column of that row's queen; rows and
columns count from **0**, as in cpqueens and its MiniZinc model. The output array
``q`` (``output_array([1..n])``: a FlatZinc array counts its places from 1) lists
them in row order, so a solver prints each solution as
``q = array1d(1..n, [c0, c1, ...]);`` with 0-based columns, which
:func:`cpqueens.read_flatzinc_output` reads back.

Only the builtins every FlatZinc solver has are used, in the form MiniZinc's
standard library gives ``alldifferent`` over ``q[i]``, ``q[i] + i`` and ``q[i] - i``:

* two rows' queens in different columns: ``int_ne(q_i, q_j)``;
* and on different diagonals: ``int_lin_ne(diff, [q_i, q_j], d)`` for
  ``d = j - i`` and ``d = i - j``, with ``diff = [1, -1]`` (``q_i - q_j != d``);
* a given queen: its variable's domain is its one column;
* a blocked square: ``int_ne(q_r, c)``.

Two given queens that do not attack each other need no constraint between them and
get none, so that a completion instance with most queens given (Gent's reduction of
Excluded Diagonals gives boards of thousands of rows with a few free) stays small.

>>> from cpqueens import Instance
>>> print(format_flatzinc(Instance(3, fixed={0: 1}, blocked=[(2, 0)])), end="")
% 3-queens: 1 blocked square, 1 given queen
% q_r is the column of row r's queen; rows and columns count from 0.
% A solution prints as q = array1d(1..3, [c0, c1, ...]); with the columns from 0.
array [1..2] of int: diff = [1, -1];
var 1..1: q_0;
var 0..2: q_1;
var 0..2: q_2;
array [1..3] of var int: q :: output_array([1..3]) = [q_0, q_1, q_2];
constraint int_ne(q_2, 0);
constraint int_ne(q_0, q_1);
constraint int_lin_ne(diff, [q_0, q_1], 1);
constraint int_lin_ne(diff, [q_0, q_1], -1);
constraint int_ne(q_0, q_2);
constraint int_lin_ne(diff, [q_0, q_2], 2);
constraint int_lin_ne(diff, [q_0, q_2], -2);
constraint int_ne(q_1, q_2);
constraint int_lin_ne(diff, [q_1, q_2], 1);
constraint int_lin_ne(diff, [q_1, q_2], -1);
solve satisfy;
"""

from __future__ import annotations

import bisect

from ...errors import InvalidInputError
from ..instance import Instance, describe

#: The most constraints a ``.fzn`` file is written with (three a pair of rows, one a
#: blocked square): about 90 MB of text, a plain board of n = 1,150. Boards with most
#: queens given go much further.
MAX_FZN_CONSTRAINTS = 2_000_000


def flatzinc_constraints(instance: Instance) -> int:
    """How many constraints :func:`format_flatzinc` writes for ``instance``, counted
    without writing them.

    >>> flatzinc_constraints(Instance(8)), flatzinc_constraints(Instance(8, fixed={0: 0, 1: 2}))
    (84, 81)
    """
    given = len(instance.fixed)
    free = instance.n - given
    attacking = sum(len(rows) * (len(rows) - 1) // 2 for rows in _shared_lines(instance.fixed))
    pairs = free * (free - 1) // 2 + free * given + attacking
    return 3 * pairs + len(instance.blocked)


def format_flatzinc(instance: Instance) -> str:
    """The instance as a FlatZinc model: its solutions are the instance's, printed as
    ``q = array1d(1..n, [...]);`` with 0-based columns.

    Raises
    ------
    InvalidInputError
        When the file would hold more than :data:`MAX_FZN_CONSTRAINTS` constraints.
    """
    n = instance.n
    total = flatzinc_constraints(instance)
    if total > MAX_FZN_CONSTRAINTS:
        raise InvalidInputError(
            f"{describe(instance)} needs {total:,} FlatZinc constraints (three a pair of "
            f"rows not both given); a .fzn file is written with at most "
            f"{MAX_FZN_CONSTRAINTS:,}"
        )
    given = instance.fixed_rows
    free = [row for row in range(n) if row not in given]
    partners: dict[int, set[int]] = {}
    for rows in _shared_lines(instance.fixed):
        for index, first in enumerate(rows):
            partners.setdefault(first, set()).update(rows[index + 1 :])
    names = [f"q_{row}" for row in range(n)]
    lines = [
        f"% {describe(instance)}",
        "% q_r is the column of row r's queen; rows and columns count from 0.",
        f"% A solution prints as q = array1d(1..{n}, [c0, c1, ...]); with the columns from 0.",
        "array [1..2] of int: diff = [1, -1];",
    ]
    for row, name in enumerate(names):
        low, high = (given[row], given[row]) if row in given else (0, n - 1)
        lines.append(f"var {low}..{high}: {name};")
    lines.append(f"array [1..{n}] of var int: q :: output_array([1..{n}]) = [{', '.join(names)}];")
    lines.extend(f"constraint int_ne({names[row]}, {column});" for row, column in instance.blocked)
    for first in range(n):
        if first in given:
            # Another given queen's row only when the two attack each other.
            later = sorted({*free[bisect.bisect_right(free, first) :], *partners.get(first, ())})
        else:
            later = range(first + 1, n)
        for second in later:
            pair = f"[{names[first]}, {names[second]}]"
            gap = second - first
            lines.append(f"constraint int_ne({names[first]}, {names[second]});")
            lines.append(f"constraint int_lin_ne(diff, {pair}, {gap});")
            lines.append(f"constraint int_lin_ne(diff, {pair}, {-gap});")
    lines.append("solve satisfy;")
    return "\n".join(lines) + "\n"


def _shared_lines(given: tuple[tuple[int, int], ...]) -> list[list[int]]:
    """The rows of the given queens that share a column or a diagonal, one sorted
    list a line held by two queens or more: such queens attack each other (the
    instance has no solution, and the file says so through their constraints).

    >>> _shared_lines(((0, 0), (1, 1), (3, 2), (4, 0)))
    [[0, 4], [0, 1]]
    """
    families: list[dict[int, list[int]]] = [{}, {}, {}]
    for row, column in given:
        for family, key in zip(families, (column, row + column, row - column), strict=True):
            family.setdefault(key, []).append(row)
    return [rows for family in families for rows in family.values() if len(rows) > 1]
