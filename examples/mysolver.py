#!/usr/bin/env python3
"""A program of your own to cross-check: it decides one n-queens instance.

    ./mysolver.py INSTANCE.json

It reads an instance in cpqueens' JSON form (0-based ``[row, column]`` pairs)::

    {"n": 5, "blocks": [[0, 0], [1, 3]], "queens": [[2, 2]]}

and answers the way the solver competitions print: ``s SATISFIABLE`` and a ``v``
line with the column of each row's queen (0-based), or ``s UNSATISFIABLE``. It uses
nothing but Python's standard library, so it stands for a solver in any language:

    cp examples/mysolver.py mysolver && chmod +x mysolver
    cpqueens crosscheck --instance b20.param --command "./mysolver {instance}" --reference stack

The search places a queen a row at a time, the row with the fewest free squares
first, with bit masks of the columns and diagonals taken.
"""

import json
import sys


def free_squares(n, blocked, given, row, columns, sums, differences):
    """The columns of ``row`` where a queen may stand, as a bit mask."""
    if row in given:
        column = given[row]
        taken = columns >> column & 1 or sums >> (row + column) & 1
        taken = taken or differences >> (row - column + n - 1) & 1
        return 0 if taken else 1 << column
    mask = ((1 << n) - 1) & ~blocked[row] & ~columns
    free = 0
    while mask:
        bit = mask & -mask
        mask ^= bit
        column = bit.bit_length() - 1
        if not (sums >> (row + column) & 1 or differences >> (row - column + n - 1) & 1):
            free |= bit
    return free


def solve(n, blocked, given):
    """One solution (a list of columns) or None."""
    placed = [None] * n

    def search(rows, columns, sums, differences):
        if not rows:
            return True
        options = [
            (free_squares(n, blocked, given, row, columns, sums, differences), row) for row in rows
        ]
        free, row = min(options, key=lambda option: option[0].bit_count())
        rest = [other for other in rows if other != row]
        while free:
            bit = free & -free
            free ^= bit
            column = bit.bit_length() - 1
            placed[row] = column
            if search(
                rest,
                columns | bit,
                sums | 1 << (row + column),
                differences | 1 << (row - column + n - 1),
            ):
                return True
        return False

    return placed if search(list(range(n)), 0, 0, 0) else None


def main(path):
    with open(path, encoding="utf-8") as file:
        instance = json.load(file)
    n = instance["n"]
    blocked = [0] * n
    for row, column in instance.get("blocks", []):
        blocked[row] |= 1 << column
    given = {row: column for row, column in instance.get("queens", [])}
    sys.setrecursionlimit(max(1000, 4 * n))
    solution = solve(n, blocked, given)
    if solution is None:
        print("s UNSATISFIABLE")
    else:
        print("s SATISFIABLE")
        print("v " + " ".join(map(str, solution)))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: mysolver INSTANCE.json")
    main(sys.argv[1])
