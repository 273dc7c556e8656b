#!/usr/bin/env python3
"""A solver with a bug, for a bug hunt: it lists every solution of an instance, and
breaks symmetry with a mirror even when squares are blocked.

    python examples/mirror_solver.py INSTANCE.json
    python examples/mirror_solver.py INSTANCE.param

It reads an instance in cpqueens' JSON form (0-based ``[row, column]`` pairs) or as
an Essence' parameter file (1-based, CSPLib's form), and prints each solution on a
line as a JSON list of the columns of the rows, from 0 (``[1, 3, 0, 2]``); nothing
when there is none.

The shortcut: on a board with no queen given, only the left half of the first row is
searched and each solution found is printed with its mirror image, which is a solution
too when the board is the same in the mirror. With a square blocked it need not be.
Hunt it with:

    cpqueens fuzz --command "python examples/mirror_solver.py {instance}" --budget 60s -o bugs/
"""

import json
import re
import sys


def read(path):
    """The size, the given queens (row -> column) and the blocked squares, from 0."""
    with open(path) as handle:
        text = handle.read()
    if path.endswith(".param"):
        return read_param(text)
    data = json.loads(text)
    queens = {row: column for row, column in data.get("queens", [])}
    return data["n"], queens, {(row, column) for row, column in data.get("blocks", [])}


def read_param(text):
    """An Essence' parameter file (``letting n be 8``, ``letting queens be [[1, 2]]``,
    ``letting blocks be [[3, 4]]``), its squares 1-based."""

    def pairs(name):
        found = re.search(rf"letting\s+{name}\s+(?:be|=)\s+\[(.*?)\]\s*(?:\n|$)", text, re.S)
        numbers = [int(x) for x in re.findall(r"-?\d+", found.group(1))] if found else []
        return [(numbers[i] - 1, numbers[i + 1] - 1) for i in range(0, len(numbers), 2)]

    n = int(re.search(r"letting\s+n\s+(?:be|=)\s+(\d+)", text).group(1))
    return n, dict(pairs("queens")), set(pairs("blocks"))


def solutions(n, queens, blocked):
    """Every solution, backtracking row by row, the given queens held to."""
    found = []
    board = []
    mirrored = not queens  # the shortcut: the bug is that blocked squares do not stop it
    first_row = range((n + 1) // 2) if mirrored else range(n)

    def fits(row, column):
        if (row, column) in blocked:
            return False
        placed = [*enumerate(board), *((r, c) for r, c in queens.items() if r > row)]
        return all(c != column and abs(c - column) != row - r for r, c in placed if r != row)

    def place(row):
        if row == n:
            found.append(list(board))
            return
        columns = [queens[row]] if row in queens else (first_row if row == 0 else range(n))
        for column in columns:
            if fits(row, column):
                board.append(column)
                place(row + 1)
                board.pop()

    place(0)
    if mirrored:
        found += [[n - 1 - c for c in s] for s in found if 2 * s[0] + 1 != n]
    return found


def main():
    n, queens, blocked = read(sys.argv[1])
    for board in solutions(n, queens, blocked):
        print(json.dumps(board))


if __name__ == "__main__":
    main()
