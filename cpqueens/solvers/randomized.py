"""Row-by-row random choice with per-row exclusion lists (article 003).

Article 003 (Python) fills the board row by row: it filters the row's squares
against the queens placed so far and its exclusion list, and picks one of the
survivors at random. On a dead end it goes back one row, puts the square that led
there on that row's exclusion list, clears the exclusions of the row below, and
picks again. The article stops at the first solution; cpqueens keeps going by
treating each solution as a dead end, so the same walk enumerates every solution
exactly once, in a random order that ``seed`` makes reproducible.

Every pick filters the whole row again, as in the article, so the attempts counter
is higher than the other backtrackers' while the nodes counter is the same.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

from ..board import Solution
from .base import TIME_CHECK_INTERVAL, Backend, Problem, SearchRun


class RandomizedBackend(Backend):
    """Random square per row, exclusion lists on backtrack (article 003).

    ``solve(n, "random", limit=1, seed=s)`` gives one random solution; without a
    limit every solution is found, in random order.
    """

    name = "random"
    summary = "random pick per row with per-row exclusion lists, reproducible by seed"
    source = "article 003 (filter_and_pick_place)"
    randomized = True
    lexicographic = False

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        n, fixed = problem.n, problem.fixed
        rng = random.Random(problem.seed)
        picked: list[int] = []  # placePicked: the column chosen in each row so far
        exclusions: list[set[int]] = [set() for _ in range(n)]
        nodes = attempts = 0

        def filter_and_pick(row: int) -> bool:
            nonlocal attempts
            candidates = range(n) if fixed[row] is None else (fixed[row],)
            alternatives = []
            for column in candidates:
                attempts += 1
                if column in exclusions[row]:
                    continue
                if all(
                    column != other and abs(column - other) != row - other_row
                    for other_row, other in enumerate(picked)
                ):
                    alternatives.append(column)
            if not alternatives:
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
                    if nodes % TIME_CHECK_INTERVAL == 0:
                        run.check_time()
                    row += 1
                elif row == 0:
                    break
                else:
                    row = back_up(row)
        finally:
            run.stats.update(nodes=nodes, attempts=attempts)
