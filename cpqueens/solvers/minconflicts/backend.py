"""The ``minconflicts`` backend: the min-conflicts heuristic, compiled with numba.

The search itself is compiled (:mod:`.kernels`); this module builds the board's
arrays and drives the search in chunks: each kernel call returns after a budget of
squares looked at (a few milliseconds of work), so the clock is read between two
calls and Ctrl-C reaches the caller at once.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

from ...board import Solution
from ...columns import Columns
from ...errors import UnsupportedOptionError
from ..base import Backend
from ..guards import check_option_int, check_solution
from ..problem import Problem
from ..run import SearchRun

#: Squares looked at per kernel call: a few milliseconds of compiled work.
WORK_PER_CALL = 1 << 16
#: Boards up to this size look at every square of the row at each move, as in the
#: published method; larger boards look at a sample (see the class docstring).
SCAN_ALL_UP_TO = 1024
#: Random columns looked at per move on a larger board.
SAMPLES = 64
#: Columns left empty that each move looks at as well (plus the queen's own).
EMPTY_LOOKED_AT = 8
#: Random free columns the initial placement tries per row before it takes the best.
INIT_TRIES = 64
#: Restarts in a row that bring no new solution before the search gives up.
DEFAULT_MAX_RESTARTS = 1000


def default_max_moves(n: int) -> int:
    """Moves of one try before it restarts: ``max(1000, 2 n)``.

    >>> default_max_moves(8), default_max_moves(10**6)
    (1000, 2000000)
    """
    return max(1000, 2 * n)


class MinConflictsBackend(Backend):
    """Min-conflicts local search (Minton, Johnston, Philips and Laird, 1990, 1992).

    One queen per row. The initial placement is greedy, row by row: each row takes,
    among the columns no queen holds yet, the first of up to 64 random ones whose
    diagonals are free, else the one of those 64 with the fewest diagonal conflicts
    (every free column when 64 or fewer are left; ties at random). That keeps the
    placement O(n) at any size, where the published greedy placement looks at every
    square of the row. Then each move draws a queen in conflict at random and puts
    it on the square of its row with the fewest conflicts, ties at random. On boards
    up to 1024 rows the move looks at every square of the row, as published; on
    larger ones it looks at 64 random columns, the queen's own column and up to 8 of
    the columns left empty (on a nearly solved board the only squares that can be
    free of conflicts), so a move costs O(1) instead of O(n). Conflicts are counted
    per column and per diagonal, so a square costs O(1) to evaluate.

    A try that has not solved the board after ``max_moves`` moves (default
    ``max(1000, 2 n)``) restarts from a new initial placement; so does every try
    that finds a solution, for the next one. ``limit=k`` gives k distinct
    solutions (a repeat is dropped and counts as a restart without a new solution).
    After ``max_restarts`` restarts in a row without a new solution (default 1000)
    the search gives up.

    A local search never proves that there is no solution: a run that stops at its
    time limit, at ``max_restarts`` or before ``limit`` solutions has
    ``complete=False`` and, without a solution, ``satisfiable=None`` (also for
    n = 2 and 3). It lists solutions; it cannot list all of them, so a call without
    ``limit`` is refused. Fixed queens never move, and no queen goes on a blocked
    square. ``seed`` makes a run reproducible.

    ``stats``: ``moves`` (in all tries), ``restarts``, ``initial_conflicts`` (free
    queens in conflict after the last try's initial placement), ``tries``.

    Examples
    --------
    >>> import cpqueens
    >>> r = cpqueens.solve(1000, backend="minconflicts", limit=1, seed=1)
    >>> r.satisfiable, cpqueens.is_valid(r.solution)
    (True, True)
    >>> r = cpqueens.solve(8, backend="minconflicts", limit=5, seed=2, fixed={0: 0})
    >>> len(set(r.solutions)), all(s[0] == 0 for s in r.solutions), r.complete
    (4, True, False)

    (There are only four; the search gave up after 1000 restarts without a new one.)
    >>> r = cpqueens.solve(3, backend="minconflicts", limit=1, seed=0)
    >>> r.count, r.complete, r.satisfiable
    (0, False, None)
    """

    name = "minconflicts"
    summary = "min-conflicts local search: one queen per row, compiled (finds, never proves)"
    source = "Minton, Johnston, Philips and Laird, AAAI 1990; Artificial Intelligence 58 (1992)"
    requires = "numba"
    install_hint = "numba"
    supports_blocked = True
    randomized = True
    lexicographic = False
    #: A local search: it finds solutions and never proves that there is none.
    exhaustive = False
    # About 66 bytes a row: 6.6 GB at the largest board.
    max_n = 10**8
    options = ("max_moves", "max_restarts")
    compiled = True

    def load_kernels(self) -> None:
        from . import kernels

        # The search's own arrays, on a board of four rows: the types it passes.
        board = _Board(Problem(4, (None,) * 4, seed=0), kernels)
        board.reset()
        board.advance(default_max_moves(4))

    def check_problem(self, problem: Problem) -> None:
        super().check_problem(problem)
        if problem.limit is None:
            raise UnsupportedOptionError(
                "minconflicts finds solutions, it does not list them all: give limit=k"
            )

    def check_options(self, options: dict[str, Any]) -> None:
        for key in self.options:
            if options.get(key) is not None:
                check_option_int(self.name, key, options[key], 1)

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        n = problem.n
        stats = run.stats
        stats.update(moves=0, restarts=0, tries=0, initial_conflicts=None)
        if not _may_have_a_solution(problem):
            run.complete = False
            return
        with run.clock_stopped():
            self.load_kernels()
        from . import kernels

        board = _Board(problem, kernels)
        max_moves = problem.options.get("max_moves") or default_max_moves(n)
        max_restarts = problem.options.get("max_restarts") or DEFAULT_MAX_RESTARTS
        seen: set[Solution | bytes] = set()
        stale = 0  # restarts in a row without a new solution
        moves = 0  # in the tries before this one
        try:
            while True:
                board.reset()
                stats["tries"] += 1
                status = kernels.WORKING
                while status == kernels.WORKING:
                    status = board.advance(max_moves)
                    run.check_time()
                moves += int(board.st[kernels.MOVES])
                board.st[kernels.MOVES] = 0
                if status == kernels.SOLVED:
                    # A copy: the next try starts from this array. A huge board stays
                    # an array (Columns), its digest the key of the set.
                    solution = check_solution(board.q.copy(), problem, self.name)
                    # One solution asked for needs no memory of the ones before.
                    if problem.limit == 1:
                        yield solution
                        return
                    key = solution.key() if isinstance(solution, Columns) else solution
                    if key not in seen:
                        seen.add(key)
                        stale = 0
                        yield solution
                        if problem.limit is not None and len(seen) >= problem.limit:
                            return
                        stats["restarts"] += 1
                        continue
                stale += 1
                if stale >= max_restarts:
                    run.complete = False
                    return
                stats["restarts"] += 1
        finally:
            stats["moves"] = moves + int(board.st[kernels.MOVES])
            left = int(board.st[kernels.INITIAL_CONFLICTS])
            stats["initial_conflicts"] = None if left < 0 else left


def _has_fixed(problem: Problem) -> bool:
    """Problem.has_fixed at C speed (it matters at millions of rows)."""
    return problem.fixed.count(None) != problem.n


def _may_have_a_solution(problem: Problem) -> bool:
    """False when a quick look shows the search could only spin: fixed queens that
    attack each other, or a free row with every square blocked.

    >>> _may_have_a_solution(Problem(4, (0, 1, None, None)))
    False
    """
    n = problem.n
    placed = (
        [(r, c) for r, c in enumerate(problem.fixed) if c is not None]
        if _has_fixed(problem)
        else []
    )
    lines: set[tuple[str, int]] = set()
    for r, c in placed:
        keys = (("c", c), ("u", r + c), ("d", r - c))
        if any(key in lines for key in keys):
            return False
        lines.update(keys)
    if problem.blocked:
        per_row = [0] * n
        for r, _ in problem.blocked:
            per_row[r] += 1
        if any(per_row[r] == n and problem.fixed[r] is None for r in range(n)):
            return False
    return True


class _Board:
    """The arrays of one search, and one kernel call at a time on them."""

    def __init__(self, problem: Problem, kernels: Any):
        import numpy as np

        n = problem.n
        self.kernels = kernels
        self.n = n
        self.q = np.zeros(n, dtype=np.int32)  # every row is placed before it is read
        self.cols = np.zeros(n, dtype=np.int64)
        self.ups = np.zeros(2 * n - 1, dtype=np.int64)
        self.downs = np.zeros(2 * n - 1, dtype=np.int64)
        self.fixed = np.full(n, -1, dtype=np.int32)
        if _has_fixed(problem):
            for r, c in enumerate(problem.fixed):
                if c is not None:
                    self.fixed[r] = c
        counts = np.zeros(n + 1, dtype=np.int32)
        squares = sorted(problem.blocked)
        for r, _ in squares:
            counts[r + 1] += 1
        self.bstart = np.cumsum(counts, dtype=np.int32)
        self.bcols = np.array([c for _, c in squares] or [0], dtype=np.int32)
        self.free = np.zeros(n, dtype=np.int32)
        self.todo = np.zeros(n, dtype=np.int32)
        self.listed = np.zeros(n, dtype=np.uint8)
        self.empty = np.zeros(n, dtype=np.int32)
        self.emptied = np.zeros(n, dtype=np.uint8)
        self.extra = np.zeros(1 + EMPTY_LOOKED_AT, dtype=np.int64)
        self.st = np.zeros(8, dtype=np.int64)
        seed = problem.seed if problem.seed is not None else secrets.randbits(63)
        # The generator's state: never zero, the seed's bits mixed (splitmix64).
        self.rng = np.array([_mix(seed)], dtype=np.uint64)
        self.scan_all = n <= SCAN_ALL_UP_TO
        self.used = False  # the arrays are fresh zeros until the first reset

    def reset(self) -> None:
        self.kernels.reset(
            self.n, self.q, self.cols, self.ups, self.downs, self.fixed, self.free,
            self.todo, self.listed, self.empty, self.emptied, self.st, self.used,
        )  # fmt: skip
        self.used = True

    def advance(self, max_moves: int) -> int:
        return self.kernels.advance(
            self.n, self.q, self.cols, self.ups, self.downs, self.fixed, self.bstart,
            self.bcols, self.free, self.todo, self.listed, self.empty, self.emptied,
            self.extra, self.st, self.rng, WORK_PER_CALL, max_moves, INIT_TRIES, SAMPLES,
            self.scan_all,
        )  # fmt: skip


def _mix(seed: int) -> int:
    """A nonzero 64-bit generator state from any integer seed (splitmix64's finaliser).

    >>> _mix(0) != 0 and _mix(0) != _mix(1)
    True
    """
    z = (seed * 0x9E3779B97F4A7C15 + 0x9E3779B97F4A7C15) % (1 << 64)
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % (1 << 64)
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % (1 << 64)
    z ^= z >> 31
    return z or 1
