"""A solver of your own, to check with cpqueens: every solution of n-queens.

    python examples/myqueens.py 8

prints one solution a line, the column of each row's queen counted from 0
(``0 4 7 5 2 6 1 3``), and nothing else: any program that prints its boards in a
form cpqueens reads (grids, column letters, numbers, JSON; see docs/external.md)
can be checked the same way, whatever its language:

    cpqueens crosscheck 1-8 --command "python examples/myqueens.py {n}"

examples/myqueens_bug.py is the same program with one bug planted in it.
"""

import sys


def solutions(n):
    """Every placement of n queens, one a row, that no two attack."""
    columns = []

    def place(row):
        if row == n:
            yield list(columns)
            return
        for column in range(n):
            if all(
                column != other and abs(column - other) != row - earlier
                for earlier, other in enumerate(columns)
            ):
                columns.append(column)
                yield from place(row + 1)
                columns.pop()

    yield from place(0)


if __name__ == "__main__":
    for board in solutions(int(sys.argv[1])):
        print(*board)
