"""Column-by-column recursive depth-first search (the Queen8 and getAccessRows articles).

The Queen8 article (Java ``Queen8``) and the getAccessRows article (``getAccessRows``
and ``solveEightQueen``; both named in docs/backends.md) fill the board one line at a
time: for the current line they build a boolean array of blocked squares from every
earlier line ``m`` (its queen's own square and the two squares at distance ``N - m``
on either side), then recurse into each square that is not blocked. The articles walk
columns and record rows; cpqueens records the column of each row, which is the same
search on the transposed board, so solutions come out in lexicographic order.

Blocked squares (blocked n-queens) are an extension, not in the articles. The
articles' "blocked" array holds the squares attacked by the queens above; the
problem's blocked squares are a different thing and do not join it: a line's loop
simply never visits them, as it visits only the fixed square of a line whose queen is
given. They are therefore never attempts and never nodes, and the order stays
lexicographic.

>>> import cpqueens
>>> r = cpqueens.solve(4, backend="recursive", blocked=[(0, 1)])
>>> r.solutions, r.stats["nodes"], r.stats["attempts"]
(((2, 0, 3, 1),), 12, 47)
"""

from __future__ import annotations

from collections.abc import Iterator

from ..board import Solution
from ._candidates import row_candidates
from .base import Backend
from .problem import Problem
from .run import SearchRun, check_interval


class RecursiveBackend(Backend):
    """Recursive backtracking with a blocked-squares array per line (Queen8, getAccessRows).

    See Also
    --------
    StackBackend : the same search without recursion (the non-recursive article).
    TreeBackend : the same search over explicit node objects (CodeProject tree).
    """

    name = "recursive"
    summary = "recursive backtracking with a blocked-squares array per row"
    source = "the Queen8 and getAccessRows articles (Java, column by column)"
    recurses = True
    supports_blocked = True

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        n = problem.n
        # Read the clock more often as a node's work grows with the board.
        interval = check_interval(n)
        # Each line's squares to visit: all of them, its fixed one, or its unblocked ones.
        candidates_of = row_candidates(problem)
        columns = [0] * n
        nodes = attempts = 0

        def blocked_columns(row: int) -> list[bool]:
            # getAccessRows: a square is blocked by each earlier queen's column and
            # by the two squares on its diagonals at distance row - m.
            blocked = [False] * n
            for m in range(row):
                column, distance = columns[m], row - m
                blocked[column] = True
                if column - distance >= 0:
                    blocked[column - distance] = True
                if column + distance < n:
                    blocked[column + distance] = True
            return blocked

        def arrange(row: int) -> Iterator[Solution]:
            nonlocal nodes, attempts
            # The articles' "blocked": attacked from above. The problem's blocked
            # squares are not in it; they are missing from candidates_of[row].
            blocked = blocked_columns(row)
            for column in candidates_of[row]:
                attempts += 1
                if blocked[column]:
                    continue
                nodes += 1
                if nodes % interval == 0:
                    run.check_time()
                columns[row] = column
                if row == n - 1:
                    yield tuple(columns)
                else:
                    yield from arrange(row + 1)

        try:
            yield from arrange(0)
        finally:
            run.stats.update(nodes=nodes, attempts=attempts)
