"""Non-recursive backtracking over an array used as a stack, with bit masks.

The non-recursive article (八皇后问题的非递归算法实现, C++, ``struct Node``; see the
source articles in docs/backends.md) keeps one stack entry per level: the empty
board and then one per placed line, so at most n + 1 entries. Each entry holds bit masks of
the occupied columns (``gMask``), of both diagonal families (``eFlag`` for j - i,
``xFlag`` for j + i, one bit per diagonal), of the squares of the next line already
pushed from this level (``cMask``) and the level itself (``lay``). The search never
recurses, so it works at any n. Python integers are unbounded, so the masks grow with n.

Which squares ``cMask`` remembers is option ``tried``:

``"pushed"`` (the default: what the article's code does)
    A square's bit is set only when a queen is pushed on it (``t->cMask|=tt; top++;``).
    Coming back to a level, the loop starts again from the first column and tests that
    line's unsafe squares again. n=8: 2,056 nodes, 21,920 attempts.
``"tested"`` (what the article's text says it wants: "avoid recomputing on backtrack")
    Every square tested is marked, so no square of a line is tested twice from the same
    level, and the attempts are those of the other backtrackers: n=8: 2,056 nodes,
    15,720 attempts.

Departure from the article: its outer loop places the first line's queen without a
test (``for(int i=0;i<8;i++)``, then the stack search below it), which would give
21,912 attempts at n=8. Here the first line is searched like every other line, from
the empty board at the bottom of the stack, so its n squares count as tested (21,920):
one loop handles every line, fixed queens included (a fixed line is searched with
every other square already marked), and the figures stay comparable with the other
backends, whose first line is tested too.

Blocked squares (blocked n-queens) are an extension, not in the article. They enter
the same way as fixed queens: a line's ``cMask`` starts with its blocked squares
already set, so the loop skips them as squares it has already dealt with. They are
never tested, so never attempts and never nodes, under either ``tried``; and the
order stays lexicographic. Setting them in the occupied-columns mask instead would
have them tested (and counted) at every visit, and would block their whole column.

>>> import cpqueens
>>> r = cpqueens.solve(4, backend="stack", blocked=[(0, 1)], tried="tested")
>>> r.solutions, r.stats["nodes"], r.stats["attempts"]
(((2, 0, 3, 1),), 12, 47)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..board import Solution
from .base import Backend
from .problem import Problem
from .run import SearchRun, check_interval

TRIED = ("pushed", "tested")


class StackBackend(Backend):
    """Explicit-stack backtracking with column, diagonal and tried-square masks (non-recursive).

    Options: ``tried="pushed"`` (default, the article's code) or ``"tested"``.

    >>> import cpqueens
    >>> cpqueens.solve(8, backend="stack").stats["attempts"]
    21920
    >>> cpqueens.solve(8, backend="stack", tried="tested").stats["attempts"]
    15720

    See Also
    --------
    RecursiveBackend : the same search written recursively (Queen8, getAccessRows).
    """

    name = "stack"
    # The largest board taken: its stack holds four n-bit masks a row.
    max_n = 20_000
    summary = "non-recursive backtracking on an array stack with bit masks"
    source = "the non-recursive article (C++ struct Node, an array as the stack)"
    options = ("tried",)
    neutral_options = (("tried", TRIED),)
    supports_blocked = True

    def check_options(self, options: dict[str, Any]) -> None:
        self.choice(options, "tried", TRIED)

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        n, fixed = problem.n, problem.fixed
        # Read the clock more often as a node's work grows with the board.
        interval = check_interval(n)
        mark_tested = self.choice(problem.options, "tried", TRIED) == "tested"
        everything = (1 << n) - 1
        # Per line, its blocked squares (all 0 on a plain board), and 0 past the last line.
        blocked = [*problem.blocked_masks(), 0]

        # One entry per level: [columns, diagonals j-i, anti-diagonals j+i, tried, column].
        # Level k is the state with k queens placed; its "tried" mask lists the squares
        # of line k that the loop skips. A fixed line starts with every other square
        # tried, a line with blocked squares with those.
        def fresh_tried(line: int) -> int:
            if line >= n or fixed[line] is None:
                return blocked[line]
            return everything & ~(1 << fixed[line])

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
                    attempts += 1
                    if mark_tested:
                        tried |= bit
                        top[3] = tried
                    diagonal = 1 << (column - line + n - 1)
                    anti_diagonal = 1 << (column + line)
                    if occupied & bit or diagonals & diagonal or anti_diagonals & anti_diagonal:
                        continue
                    top[3] = tried | bit
                    nodes += 1
                    if nodes % interval == 0:
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
