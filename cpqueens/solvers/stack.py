"""Non-recursive backtracking over an array used as a stack, with bit masks (article 002).

Article 002 (C++, ``struct Node``) keeps one stack entry per placed line, at most n
deep. Each entry holds bit masks of the occupied columns (``gMask``), of both
diagonal families (``eFlag`` for j - i, ``xFlag`` for j + i, one bit per diagonal),
of the squares already tried at this level (``cMask``, so that backtracking never
tries a square twice) and the level itself (``lay``). The search never recurses, so
it works at any n. Python integers are unbounded, so the masks grow with n.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..board import Solution
from .base import TIME_CHECK_INTERVAL, Backend, Problem, SearchRun


class StackBackend(Backend):
    """Explicit-stack backtracking with column, diagonal and tried-square masks (article 002).

    See Also
    --------
    RecursiveBackend : the same search written recursively (articles 000/004).
    """

    name = "stack"
    summary = "non-recursive backtracking on an array stack with bit masks"
    source = "article 002 (struct Node, non-recursive)"

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        n, fixed = problem.n, problem.fixed
        everything = (1 << n) - 1

        # One entry per level: [columns, diagonals j-i, anti-diagonals j+i, tried, column].
        # Level k is the state with k queens placed; its "tried" mask lists the squares
        # of line k already tested. A fixed line starts with every other square tried.
        def fresh_tried(line: int) -> int:
            return 0 if line >= n or fixed[line] is None else everything & ~(1 << fixed[line])

        stack = [[0, 0, 0, fresh_tried(0), -1]]
        nodes = attempts = 0
        try:
            while stack:
                top = stack[-1]
                line = len(stack) - 1
                if line == n:
                    yield tuple(entry[4] for entry in stack[1:])
                    stack.pop()
                    continue
                occupied, diagonals, anti_diagonals, tried, _ = top
                for column in range(n):
                    bit = 1 << column
                    if tried & bit:
                        continue
                    tried |= bit
                    attempts += 1
                    diagonal = 1 << (column - line + n - 1)
                    anti_diagonal = 1 << (column + line)
                    if occupied & bit or diagonals & diagonal or anti_diagonals & anti_diagonal:
                        continue
                    top[3] = tried
                    nodes += 1
                    if nodes % TIME_CHECK_INTERVAL == 0:
                        run.check_time()
                    stack.append(
                        [
                            occupied | bit,
                            diagonals | diagonal,
                            anti_diagonals | anti_diagonal,
                            fresh_tried(line + 1),
                            column,
                        ]
                    )
                    break
                else:
                    stack.pop()
        finally:
            run.stats.update(nodes=nodes, attempts=attempts)
