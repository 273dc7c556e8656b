"""The ``qs`` backend: Sosic and Gu's conflict-minimising local search, compiled with numba.

The search itself is compiled (:mod:`.kernels`); this module lays out the board
(free rows and columns, diagonal counters holding the fixed queens, blocked squares
row by row) and drives the kernel in chunks of tries, so that the clock is read
between two calls and Ctrl-C reaches the caller at once.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ...board import Solution
from ...columns import Columns, compact
from ...errors import InvalidInputError, SolverError, UnsupportedOptionError
from ..base import Backend
from ..problem import Problem
from ..run import SearchRun

if TYPE_CHECKING:
    import numpy as np

#: Tries per kernel call: a few milliseconds of work, whatever the board.
TRIES_PER_CALL = 1 << 20
#: Rows left to the final phase (QS4's ``c``): at most this many, fewer on small boards.
LAST_ROWS = 50
#: Restarts (step bound reached, or a solution found again) before a run gives up.
DEFAULT_MAX_RESTARTS = 10_000
#: The initial phase stops after this many tries per free row (Sosic and Gu: 3.08).
INITIAL_TRIES_PER_ROW = 3.08


class QSBackend(Backend):
    """Conflict-minimising local search on a permutation (Sosic and Gu's QS4).

    The queens form a permutation of the columns, so rows and columns never
    clash; counters of the diagonals make every test O(1). An initial phase places
    queen after queen unattacked by random swaps, up to a linear bound of tries,
    and leaves the last few rows (at most 50) as they fall; a final phase swaps
    each attacked queen with random others, keeping the swaps that lower the
    number of collisions, until no queen is attacked. Past a bound of steps the
    search restarts. It takes millions of queens in seconds (R. Sosic and J. Gu,
    "3,000,000 queens in less than one minute", SIGART Bulletin 2(2), 1991;
    "Efficient local search with conflict minimization: a case study of the
    n-queens problem", IEEE TKDE 6(5), 1994).

    Fixed queens stay where they are: their rows and columns are taken out of the
    permutation and their diagonals count in the counters. A queen on a blocked
    square counts as one more conflict, so the search leaves it, and a solution
    never has one.

    A local search finds solutions; it neither lists them all nor proves there is
    none. So ``limit=k`` is required (``k`` distinct solutions, a new random start
    after each, repeats skipped), the result is never ``complete``, and a run that
    stops at its time limit or after ``max_restarts`` restarts (option, default
    10,000) says ``satisfiable`` None, never False.

    ``stats``: ``swaps`` (swaps made in the final phases), ``attempts`` (tries of
    both phases), ``restarts``, ``conflicts_left`` (conflicted queens after the
    last initial phase), ``search_seconds`` (time in the compiled search).

    Examples
    --------
    >>> import cpqueens
    >>> r = cpqueens.solve(1000, backend="qs", limit=1, seed=1)
    >>> cpqueens.is_valid(r.solution), r.satisfiable, r.complete
    (True, True, False)
    >>> r = cpqueens.solve(8, backend="qs", limit=3, seed=2, fixed={0: 0}, blocked=[(1, 4)])
    >>> len(set(r.solutions)), all(s[0] == 0 and s[1] != 4 for s in r.solutions)
    (3, True)
    """

    name = "qs"
    summary = "Sosic and Gu's QS4 local search: random swaps minimising conflicts, compiled"
    source = (
        "Sosic and Gu, SIGART Bulletin 2(2) 1991; IEEE TKDE 6(5) 1994 (QS4); compiled with numba"
    )
    requires = "numba"
    install_hint = "numba"
    randomized = True
    lexicographic = False
    supports_blocked = True
    #: A local search: it finds solutions but can neither list them all nor prove none.
    exhaustive = False
    max_n = 10**8
    options = ("max_restarts",)
    compiled = True

    def load_kernels(self) -> None:
        from . import kernels

        kernels.warm_up()

    def check_options(self, options: dict[str, Any]) -> None:
        value = options.get("max_restarts", DEFAULT_MAX_RESTARTS)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise InvalidInputError(
                f"qs option max_restarts must be a non-negative integer or None, got {value!r}"
            )
        if value is not None and value < 0:
            raise InvalidInputError(f"qs option max_restarts must be >= 0, got {value}")

    def check_problem(self, problem: Problem) -> None:
        super().check_problem(problem)
        if problem.limit is None:
            raise UnsupportedOptionError(
                "qs finds solutions, it does not list them all: give limit=k "
                "(k distinct solutions, without unique=True), or use an exhaustive backend"
            )

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        import numpy as np

        with run.clock_stopped():
            self.load_kernels()
        from . import kernels

        # A local search never vouches for having seen every solution.
        run.complete = False
        n = problem.n
        max_restarts = problem.options.get("max_restarts", DEFAULT_MAX_RESTARTS)
        fixed_rows, fixed_cols = fixed_queens(problem)
        taken_rows = np.zeros(n, dtype=bool)
        taken_rows[fixed_rows] = True
        taken_cols = np.zeros(n, dtype=bool)
        taken_cols[fixed_cols] = True
        if len(fixed_rows):
            rows = np.flatnonzero(~taken_rows).astype(np.int32)
            cols = np.flatnonzero(~taken_cols).astype(np.int32)
        else:  # the common case, without two passes over n flags
            rows = np.arange(n, dtype=np.int32)
            cols = np.arange(n, dtype=np.int32)
        del taken_rows, taken_cols
        starts, columns = blocked_rows(problem)
        # Zeros from numpy: their pages are only touched as the search reaches them.
        dn = np.zeros(2 * n - 1, dtype=np.int32)
        dp = np.zeros(2 * n - 1, dtype=np.int32)
        clash = kernels.start_counters(n, fixed_rows, fixed_cols, dn, dp)
        stats = run.stats
        stats.update(
            swaps=0, attempts=0, restarts=0, conflicts_left=0, search_seconds=0.0, rescans=0
        )
        if clash or len(rows) != len(cols):
            # Two fixed queens attack each other (or share a column): no search can
            # help, and a local search proves nothing, so it stops here unanswered.
            stats["gave_up"] = "the fixed queens attack each other"
            return
        m = len(rows)
        last = min(LAST_ROWS, m // 4) if m > 8 else m
        initial = int(INITIAL_TRIES_PER_ROW * m)
        state = np.zeros(kernels.STATE_SIZE, dtype=np.int64)
        state[kernels.ROW] = -1  # no board placed yet
        rng = np.array([seed_bits(problem.seed)], dtype=np.uint64)
        inlist = np.zeros(m, dtype=np.uint8)
        cand = np.zeros(m + 1, dtype=np.int32)
        seen: set[bytes] = set()
        restarts_then = 0
        spent = 0.0
        try:
            while True:
                started = time.perf_counter()
                status = kernels.advance(
                    state, rng, rows, cols, dn, dp, n, last, initial, inlist, cand, starts, columns,
                    TRIES_PER_CALL,
                )  # fmt: skip
                spent += time.perf_counter() - started
                self._report(state, stats, spent, kernels)
                if status == kernels.SOLVED:
                    board = kernels.board_of(n, rows, cols, fixed_rows, fixed_cols)
                    if not kernels.is_solution(board, fixed_rows, fixed_cols, starts, columns):
                        raise SolverError(f"qs returned a board that is not a solution (n={n})")
                    # One solution asked for needs no memory of the ones before.
                    key = b"" if problem.limit == 1 else Columns(board).key()
                    if key not in seen:
                        seen.add(key)
                        restarts_then = int(state[kernels.RESTARTS])
                        # Checked above, once; a huge board stays an array (Columns).
                        yield compact(board)
                    else:
                        state[kernels.RESTARTS] += 1  # the same solution again
                        stats["repeats"] = stats.get("repeats", 0) + 1
                if (
                    max_restarts is not None
                    and state[kernels.RESTARTS] - restarts_then > max_restarts
                ):
                    stats["gave_up"] = f"more than {max_restarts} restarts without a new solution"
                    return
                run.check_time()
        finally:
            self._report(state, stats, spent, kernels)

    @staticmethod
    def _report(state: np.ndarray, stats: dict[str, Any], spent: float, kernels: Any) -> None:
        stats.update(
            swaps=int(state[kernels.SWAPS]),
            attempts=int(state[kernels.ATTEMPTS]),
            restarts=int(state[kernels.RESTARTS]),
            conflicts_left=int(state[kernels.LEFT]),
            search_seconds=spent,
            rescans=int(state[kernels.SCANS]),
        )


def fixed_queens(problem: Problem) -> tuple[np.ndarray, np.ndarray]:
    """The rows of the fixed queens and their columns, as arrays.

    >>> from cpqueens.solvers.problem import Problem
    >>> [a.tolist() for a in fixed_queens(Problem(4, (None, 3, None, 0)))]
    [[1, 3], [3, 0]]
    """
    import numpy as np

    if problem.fixed.count(None) == problem.n:  # the common case, without a loop in Python
        return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int32)
    pairs = [(r, c) for r, c in enumerate(problem.fixed) if c is not None]
    return np.array(pairs, dtype=np.int32).T.copy()


def seed_bits(seed: int | None) -> int:
    """The generator's 64-bit start from ``seed`` (a fresh random one without a seed).

    >>> seed_bits(1) == seed_bits(1) != seed_bits(2)
    True
    """
    if seed is None:
        import secrets

        return secrets.randbits(64)
    digest = hashlib.blake2b(str(seed).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def blocked_rows(problem: Problem) -> tuple[np.ndarray, np.ndarray]:
    """The blocked squares row by row: ``columns[starts[r]:starts[r + 1]]``, sorted.

    Without blocked squares both arrays are of length 1 (the kernel's sign for none).

    >>> from cpqueens.solvers.problem import Problem
    >>> squares = frozenset({(2, 0), (0, 2), (0, 1)})
    >>> starts, columns = blocked_rows(Problem(3, (None,) * 3, blocked=squares))
    >>> starts.tolist(), columns.tolist()
    ([0, 2, 2, 3], [1, 2, 0])
    """
    import numpy as np

    if not problem.blocked:
        return np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int32)
    squares = np.array(sorted(problem.blocked), dtype=np.int64)
    starts = np.zeros(problem.n + 1, dtype=np.int64)
    np.cumsum(np.bincount(squares[:, 0], minlength=problem.n), out=starts[1:])
    return starts, squares[:, 1].astype(np.int32)
