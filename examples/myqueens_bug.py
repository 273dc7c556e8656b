"""examples/myqueens.py with a bug planted in it: it never tries the last column.

    cpqueens crosscheck 1-8 --command "python examples/myqueens_bug.py {n}"

Every solution has a queen in the last column, so this program finds none: it
prints nothing, which cpqueens reads as its answer, "no solution". That is right for
n = 2 and 3, which have none, and wrong for n = 1 and from n = 4 on, where cpqueens
lists what is missing.
"""

import sys


def solutions(n):
    """Every placement of n queens, one a row, that no two attack (or so it says)."""
    columns = []

    def place(row):
        if row == n:
            yield list(columns)
            return
        for column in range(n - 1):  # the bug: range(n) is every column
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
