"""Check a solver of your own against cpqueens in one line.

Run with ``python examples/check_my_solver.py``. The solver below is a plain
permutation search; change it, break it, and see what crosscheck reports.
"""

from itertools import permutations

import cpqueens


def my_solver(n):
    """Every permutation of the columns whose queens share no diagonal."""
    for columns in permutations(range(n)):
        if (
            len({r + c for r, c in enumerate(columns)})
            == n
            == len({r - c for r, c in enumerate(columns)})
        ):
            yield columns


def my_buggy_solver(n):
    """The same solver with a classic bug: it forgets the last row's diagonals."""
    for columns in permutations(range(n)):
        head = columns[:-1]
        if (
            len({r + c for r, c in enumerate(head)})
            == len({r - c for r, c in enumerate(head)})
            == n - 1
        ):
            yield columns


if __name__ == "__main__":
    report = cpqueens.crosscheck(range(1, 8), [my_solver, my_buggy_solver])
    print(report)
    print("my_solver agrees:", all(r.agrees for r in report.rows if r.backend == "my_solver"))
