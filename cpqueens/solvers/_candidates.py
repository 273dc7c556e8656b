"""The squares a row-by-row backtracker tries in each row, fixed queens and blocked squares applied.

Shared by the article backends (``recursive``, ``tree``, ``random``): a fixed row has
its one column, a row with blocked squares its other columns, and every other row
the whole row. Blocked squares are thus never tried, so they are never attempts and
never nodes.
"""

from __future__ import annotations

from collections.abc import Sequence

from .problem import Problem


def row_candidates(problem: Problem) -> list[Sequence[int]]:
    """Per row, the columns to try there, in increasing order.

    Rows that are neither fixed nor blocked share one ``range(n)``, so a plain board
    builds no per-row lists: its search runs as it did before blocked squares existed,
    and a board of thousands of rows costs n references, not n * n columns.

    >>> blocked = frozenset({(0, 1), (2, 0), (2, 3)})
    >>> row_candidates(Problem(4, (None, 2, None, None), blocked=blocked))
    [[0, 2, 3], (2,), [1, 2], range(0, 4)]
    """
    n, fixed = problem.n, problem.fixed
    every = range(n)
    blocked_rows = {row for row, _ in problem.blocked}
    candidates: list[Sequence[int]] = []
    for row in range(n):
        if fixed[row] is not None:
            candidates.append((fixed[row],))
        elif row in blocked_rows:
            candidates.append(problem.allowed_columns(row))
        else:
            candidates.append(every)
    return candidates
