"""The ``exactcover`` backend: n-queens as exact cover, searched as Knuth's Algorithm X does.

The search itself is compiled (:mod:`.kernels`); this module feeds it the board and
drives it in chunks: each kernel call returns after a budget of nodes (about a few
milliseconds of work), so the generator stays lazy, the clock is read between two
calls, and Ctrl-C reaches the caller at once (numba code does not look at signals
itself; Python raises the pending KeyboardInterrupt as soon as the call returns).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ...board import Solution
from ..base import Backend
from ..problem import Problem
from ..run import SearchRun

if TYPE_CHECKING:  # the kernels import numba: only a search loads them
    from .kernels import Search

#: Work per kernel call, in (nodes x board size x words per mask): a node costs a few
#: steps per word of each open row and column, so a call takes about as long at every
#: n (a few milliseconds), and a time limit is looked at as often on the widest board.
WORK_PER_CALL = 1 << 20
#: Rows of solutions handed over per kernel call; the first calls hand over fewer,
#: so that a decision (``limit=1``) returns as soon as it has its solution.
LARGEST_CHUNK = 4096


class ExactCoverBackend(Backend):
    """Exact cover with the fewest-options row or column first (MRV), on compiled bitsets.

    Rows and columns are the primary items (each covered exactly once), the
    diagonals secondary ones (each at most once), every free square an option
    (Knuth, TAOCP 7.2.2.1). Each node takes the row or column with the fewest
    squares left, tries its squares in order (lowest index first) and backtracks;
    ties go to the row or column nearest the middle (``n // 2``, then
    ``n // 2 - 1``, ``n // 2 + 1``, ...), a row before the column of the same index.
    Blocked squares are options that never exist: never tried, never nodes. A fixed
    queen leaves its row a single option, which the rule takes at once.

    Made for the decision problem (``limit=1``: is there a solution?), where the
    choice of item matters far more than raw speed: choosing among rows only, as
    the row-by-row backtrackers do, took a median of 34 times as many nodes (from
    2 to millions of times) on blocked boards near their hardest density
    (docs/backends.md). It enumerates and counts too, but the solutions come in
    the search's order, not lexicographic.

    Boards up to n = 64 are searched with one machine word per row and per column
    (:mod:`.kernels`), larger ones, up to n = 1,000, with ``ceil(n / 64)`` words a
    mask (:mod:`.wide`): the same search, node for node, in the same order.

    ``stats["nodes"]``: queens placed (options tried), the shared definition;
    ``stats["search_seconds"]``: the time spent in the compiled search, without the
    checks and the set-up around it (what a C program of the same search measures;
    loading the compiled code, which the first search of a process does, comes
    before, off the clock of ``time_limit`` too).

    Examples
    --------
    >>> import cpqueens
    >>> cpqueens.count(8, backend="exactcover")
    92
    >>> r = cpqueens.solve(8, backend="exactcover", limit=1)
    >>> r.solutions, r.stats["nodes"]  # eight queens placed, not one taken back
    (((3, 6, 4, 2, 0, 5, 7, 1),), 8)
    >>> cpqueens.solve(6, backend="exactcover", blocked=[(0, 1), (0, 2)], limit=1).solution
    (3, 0, 4, 1, 5, 2)
    """

    name = "exactcover"
    summary = "exact cover, fewest-options row or column first (Algorithm X), compiled bitsets"
    source = "Knuth, TAOCP 7.2.2.1 (exact cover with secondary items); bitsets in numba"
    requires = "numba"
    install_hint = "numba"
    supports_blocked = True
    lexicographic = False  # the search's order: MRV over rows and columns
    # The largest board taken: a search holds a mask of every row and column at every
    # depth, n ** 3 / 4 bytes in all (250 MB at n = 1000).
    max_n = 1_000
    compiled = True

    def load_kernels(self) -> None:
        from . import kernels, wide

        kernels.warm_up()
        wide.warm_up()

    def start(self, problem: Problem, run: SearchRun) -> Search:
        """The search of ``problem``, its kernel loaded off the clock: one word per mask up
        to n = 64 (:mod:`.kernels`), words past that (:mod:`.wide`), loaded only then."""
        with run.clock_stopped():
            from . import kernels

            kernels.warm_up()
            if problem.n > kernels.MAX_N:
                from . import wide

                wide.warm_up()
        from .wide import new_search

        return new_search(problem.n, allowed_masks(problem))

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        search = self.start(problem, run)
        budget = node_budget(problem.n)
        chunk = 1
        spent = 0.0
        try:
            while not search.finished:
                started = time.perf_counter()
                found = search.next_solutions(chunk, budget)
                spent += time.perf_counter() - started
                yield from map(tuple, found.tolist())
                if len(found) == chunk:
                    chunk = min(2 * chunk, LARGEST_CHUNK)
                run.check_time()
        finally:
            run.stats.update(nodes=search.nodes, search_seconds=spent)

    def count(self, problem: Problem, run: SearchRun) -> int:
        search = self.start(problem, run)
        budget = node_budget(problem.n)
        started = time.perf_counter()
        try:
            while not search.finished:
                search.count_on(budget)
                run.stats["partial_count"] = search.solutions
                run.check_time()
        finally:
            run.stats.update(nodes=search.nodes, search_seconds=time.perf_counter() - started)
        return search.solutions


def allowed_masks(problem: Problem) -> list[int]:
    """Per row, the columns a queen may take (bit ``c``): its fixed one, or every free one.

    >>> from cpqueens.solvers.problem import Problem
    >>> allowed_masks(Problem(4, (None, 2, None, None), blocked=frozenset({(0, 1)})))
    [13, 4, 15, 15]
    """
    full = (1 << problem.n) - 1
    blocked = problem.blocked_masks()
    return [
        full & ~blocked[row] if column is None else 1 << column
        for row, column in enumerate(problem.fixed)
    ]


def node_budget(n: int) -> int:
    """Nodes per kernel call on an n x n board (see :data:`WORK_PER_CALL`).

    >>> node_budget(8), node_budget(64), node_budget(128), node_budget(1000)
    (131072, 16384, 4096, 65)
    """
    words = (n + 63) // 64
    return max(1, WORK_PER_CALL // (n * words))
