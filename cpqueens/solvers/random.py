"""Row-by-row random choice with per-row exclusion lists (the Python random article).

The Python random article (python求解八皇后问题, ``filter_and_pick_place``; see the
source articles in docs/backends.md) fills the board row by row: it
filters the row's squares against the queens placed so far and its exclusion list,
and picks one of the survivors at random. On a dead end it goes back one row, puts the
square that led there on that row's exclusion list, clears the exclusions of the row
below, and picks again. The article stops at the first solution; cpqueens keeps going
by treating each solution as a dead end, so the same walk enumerates every solution
exactly once, in a random order that ``seed`` makes reproducible.

The order is a randomised depth-first order, not a uniform draw: the walk finishes a
subtree before it leaves it, so solutions sharing a prefix come together, and the
first solution is not drawn uniformly from all of them (a first-row square with few
solutions below it is as likely to be picked as one with many).

Departure from the article, deliberate: the article never filters the first row
(``alternative = row`` when no queen is placed), so ``exclusions[0]`` is never
applied and its walk can pick a dead first square again and again; for n = 2 and
n = 3, which have no solution, it never ends. Here the first row's exclusions are
applied like every other row's, so every walk ends.

Attempts are counted where the article makes a safety test. Every pick tests each
candidate of its row for safety first and only then looks at the exclusion list, as
the article's condition does (``... or column in exclusions``), so each pick costs
one attempt per candidate of the row, excluded or not:
``attempts = sum over picks of the row's candidates``, that is
``n * (nodes + dead ends)`` without fixed queens or blocked squares (a fixed row has
one candidate, a row with blocked squares its unblocked ones).
Nodes are the same as the other backtrackers'; attempts are more, because every pick
filters the whole row again.

Blocked squares (blocked n-queens) are an extension, not in the article. A row's
blocked squares are left out of the squares it filters, so they are never among its
safe squares, never tested (not attempts), never picked (not nodes), and the random
draw is made among the others. On a board without blocked squares every row's
candidates are the whole row, as before, so a seed gives the same walk as it always
has.

>>> import cpqueens
>>> r = cpqueens.solve(5, backend="random", seed=3, blocked=[(0, 0), (2, 2)])
>>> len(r.solutions), all(s[0] != 0 and s[2] != 2 for s in r.solutions)
(6, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

from ..board import Solution
from ._candidates import row_candidates
from .base import Backend
from .problem import Problem
from .run import SearchRun, check_interval


class RandomizedBackend(Backend):
    """Random square per row, exclusion lists on backtrack (the Python random article).

    ``solve(n, "random", limit=1, seed=s)`` gives one random solution; without a
    limit every solution is found, in a randomised depth-first order. ``stats`` holds
    ``nodes``, ``attempts`` and ``dead_ends`` (picks that found no square).

    >>> import cpqueens
    >>> r = cpqueens.solve(6, backend="random", seed=3)
    >>> r.count, r.stats["attempts"] == 6 * (r.stats["nodes"] + r.stats["dead_ends"])
    (4, True)
    """

    name = "random"
    # The largest board taken: every pick tests each square against every queen placed.
    max_n = 20_000
    summary = "random pick per row with per-row exclusion lists, reproducible by seed"
    source = "the Python random article (filter_and_pick_place)"
    randomized = True
    lexicographic = False
    supports_blocked = True

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        n = problem.n
        # Read the clock more often as a node's work grows with the board.
        interval = check_interval(n * n)
        # Each row's candidates: all its squares, its fixed one, or its unblocked ones.
        candidates_of = row_candidates(problem)
        rng = random.Random(problem.seed)
        picked: list[int] = []  # placePicked: the column chosen in each row so far
        exclusions: list[set[int]] = [set() for _ in range(n)]
        nodes = attempts = dead_ends = 0

        def filter_and_pick(row: int) -> bool:
            nonlocal attempts, dead_ends
            alternatives = []
            for column in candidates_of[row]:
                attempts += 1
                safe = all(
                    column != other and abs(column - other) != row - other_row
                    for other_row, other in enumerate(picked)
                )
                if safe and column not in exclusions[row]:
                    alternatives.append(column)
            if not alternatives:
                dead_ends += 1
                return False
            picked.append(alternatives[math.floor(len(alternatives) * rng.random())])
            return True

        def back_up(row: int) -> int:
            # Dead end (or a solution already reported): exclude the square that
            # led here and forget the exclusions of the row below.
            row -= 1
            exclusions[row].add(picked.pop())
            if row + 1 < n:
                exclusions[row + 1].clear()
            return row

        row = 0
        try:
            while row >= 0:
                if row == n:
                    yield tuple(picked)
                    row = back_up(row)
                elif filter_and_pick(row):
                    nodes += 1
                    if nodes % interval == 0:
                        run.check_time()
                    row += 1
                elif row == 0:
                    break
                else:
                    row = back_up(row)
        finally:
            run.stats.update(nodes=nodes, attempts=attempts, dead_ends=dead_ends)
