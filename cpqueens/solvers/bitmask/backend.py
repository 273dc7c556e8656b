"""Compiled bit-parallel backtracking with start constellations, on every core.

Listing solutions walks the board row by row in a numba kernel (columns and both
diagonals as machine words, lowest set bit first), which yields them in
lexicographic order, in chunks, so the generator stays lazy and the clock is read
between chunks.

Counting uses the 8-fold symmetry of the square: the solutions are split by their
border queens (start constellations, :mod:`.constellations`), one constellation per
symmetry class is searched and weighted by the size of its class, and the
constellations are shared out across processes (or a Dask cluster). The same pass
counts the classes of solutions, so ``count(n, unique=True)`` needs no canonical
forms.

Fixed queens and blocked squares (an extension: blocked n-queens and n-queens
completion) break that symmetry, so a count with either one uses no constellation
and weighs nothing: it splits the board into every placement of its first rows
that fits them (:func:`subproblems`, enough placements to keep every worker busy)
and counts each placement's completions with the row-by-row kernel, on all cores
as before. Blocked squares enter every search the same way, through the squares
each row may use (:func:`allowed_rows`): a row's word of free squares is
``allowed[row] & ~(cols | left | right)``, so a blocked square is never tried.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ...board import Solution
from ...errors import InvalidInputError, UnsupportedOptionError
from ..base import Backend
from ..problem import Problem
from ..run import SearchRun

if TYPE_CHECKING:
    import numpy as np

    from .tasks import Tally

#: Nodes a listing kernel visits between two looks at the clock (about a millisecond).
ENUMERATION_BUDGET = 1 << 20
#: Rows of solutions handed over per kernel call; the first calls hand over fewer,
#: so that the first solution of a large board comes back at once.
LARGEST_CHUNK = 4096
#: Tasks per worker: enough that a slow task near the end leaves little idle time.
TASKS_PER_WORKER = 16
#: Subproblems per task under a time limit, so that the clock is read often.
TIMED_TASK_SIZE = 8
#: Local worker processes allowed per core this process may use. A few more processes
#: than cores can still help; past that each one only adds its start-up (a pool of
#: 500 on two cores took 5 to 17 times as long as one process).
WORKERS_PER_CORE = 4
#: The options that only a count uses; listing refuses them rather than ignore them.
COUNT_OPTIONS = ("progress", "client", "scheduler", "checkpoint")


class BitmaskBackend(Backend):
    """Bitmask search compiled with numba; counts with start constellations on all cores.

    Options: ``progress`` (True for a bar on a terminal, or a callable
    ``f(done, total)`` over subproblems), ``client`` (a ``dask.distributed.Client``)
    or ``scheduler`` (its address, e.g. ``"tcp://host:8786"``) to count on a cluster,
    ``checkpoint`` (a file keeping each finished part of the count, so that a count
    stopped at any moment resumes where it was: :mod:`.checkpoint`).

    These options, and ``workers``, are about counting: ``cpqueens.count`` without
    ``limit`` (and, with ``unique=True``, without fixed queens). Listing solutions
    (``solve``, ``solutions``, and the counts made by listing) is one sequential
    pass in this process, so that solutions come lazily and in lexicographic order:
    there ``progress``, ``client``, ``scheduler`` and ``checkpoint`` are refused, and ``workers`` is
    accepted but one process does the work (``stats["workers"]`` says 1).

    ``workers`` counts on that many local processes, at most :data:`WORKERS_PER_CORE`
    per core this process may use (default: one per core); more are refused with a
    message, since every process beyond the cores only adds its start-up. On a
    cluster ``workers`` instead sets how finely the count is cut (16 tasks a
    worker; default: the cluster's threads) and has no such limit.

    Fixed queens and blocked squares (``fixed=``, ``blocked=``; blocked squares are
    an extension of the search above) are taken by listing and counting alike:
    they narrow the squares each row may use, so a blocked square is never tried.
    They break the board's symmetry, so a count with either one uses no start
    constellation: it cuts the board into every placement of its first rows that
    fits them (at least 1,024 and four per task, when the board has rows enough),
    and counts each one's completions with the row-by-row kernel, unweighted, on
    every worker as above (with one worker and a time limit, in slices of nodes
    with a look at the clock between them: :func:`count_in_slices`).
    ``unique=True`` with fixed queens counts canonical forms instead (the front
    refuses it with blocked squares).

    Examples
    --------
    >>> import cpqueens
    >>> cpqueens.count(10, backend="bitmask", workers=1)
    724
    >>> cpqueens.count(10, backend="bitmask", workers=1, unique=True)
    92
    >>> next(cpqueens.solutions(8, backend="bitmask"))
    (0, 4, 7, 5, 2, 6, 1, 3)
    >>> cpqueens.count(8, backend="bitmask", blocked=[(0, 0), (3, 4)], workers=1)
    80
    >>> next(cpqueens.solutions(8, backend="bitmask", blocked=[(0, 0)]))
    (1, 3, 5, 7, 2, 0, 6, 4)

    See Also
    --------
    StackBackend : the same bitmask search in pure Python (the non-recursive article).
    """

    name = "bitmask"
    supports_blocked = True
    summary = "compiled bitmask search; counts with start constellations (8-fold symmetry)"
    source = "bit-parallel backtracking; start constellations after Q27 and NQueensFAF"
    requires = "numba"
    install_hint = "numba"
    supports_workers = True
    max_n = 32
    options = ("progress", "client", "scheduler", "checkpoint")
    compiled = True

    def load_kernels(self) -> None:
        from . import counting, kernels

        kernels.warm_up()
        counting.warm_up()

    def check_options(self, options: dict[str, Any]) -> None:
        from ...parallel.cluster import check_cluster
        from ...parallel.pool import check_progress
        from .checkpoint import check_checkpoint

        check_progress(options.get("progress"))
        check_cluster(options.get("client"), options.get("scheduler"))
        check_checkpoint(options.get("checkpoint"))

    def check_problem(self, problem: Problem) -> None:
        super().check_problem(problem)
        on_cluster = any(problem.options.get(key) is not None for key in ("client", "scheduler"))
        if problem.workers is not None and not on_cluster:
            check_local_workers(problem.workers)

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        refuse_count_options(problem.options)
        run.stats["workers"] = 1
        import numpy as np

        with run.clock_stopped():
            self.load_kernels()
        from . import kernels

        n = problem.n
        allowed = allowed_rows(problem)
        state = np.array([-1, 0, 0], np.int64)
        stack = [np.zeros(n + 1, np.int64) for _ in range(4)]
        queens = np.zeros(n, np.int64)
        out = np.zeros((LARGEST_CHUNK, n), np.int64)
        chunk = 1
        try:
            while not state[2]:
                filled = kernels.enumerate_chunk(
                    n, allowed, state, *stack, queens, out[:chunk], ENUMERATION_BUDGET
                )
                yield from map(tuple, out[:filled].tolist())
                chunk = min(2 * chunk, LARGEST_CHUNK)
                run.check_time()
        finally:
            run.stats.update(nodes=int(state[1]))

    def count(self, problem: Problem, run: SearchRun) -> int:
        return self._tally(problem, run, unique=False)

    def count_unique(self, problem: Problem, run: SearchRun) -> int:
        return self._tally(problem, run, unique=True)

    def _tally(self, problem: Problem, run: SearchRun, unique: bool) -> int:
        from . import tasks as task_lists

        n, options = problem.n, problem.options
        if n == 1 and not problem.has_blocked:
            # The lone queen: every symmetry fixes it, so no constellation method.
            # A blocked square leaves none; the placements of the first rows say so.
            run.stats.update(nodes=1, subproblems=1)
            return 1
        # Here, so that a pool's workers find them in the cache (or inherit them).
        with run.clock_stopped():
            self.load_kernels()
        client, own_client = None, False
        if options.get("client") is not None or options.get("scheduler") is not None:
            from ...parallel.cluster import cluster_threads, connect

            client, own_client = connect(options.get("client"), options.get("scheduler"))
            workers = problem.workers or cluster_threads(client)
        else:
            workers = problem.workers or _default_workers()
        if options.get("checkpoint") is not None:
            from .checkpoint import TASKS, count_checkpointed

            try:
                items = subproblems(problem, tasks=TASKS)
                size = len(next(v for k, v in items.items() if k != "allowed"))
                return count_checkpointed(
                    problem, run, unique=unique, workers=workers, client=client,
                    path=options["checkpoint"], items=items,
                    progress=_progress(options.get("progress"), size, n),
                )  # fmt: skip
            finally:
                if own_client:
                    client.close()
        items = subproblems(problem, tasks=TASKS_PER_WORKER * workers)
        total_size = len(next(v for k, v in items.items() if k != "allowed"))
        if run.deadline is not None:
            batches = -(-total_size // TIMED_TASK_SIZE)
        else:
            batches = TASKS_PER_WORKER * workers
        tasks = task_lists.split(items, n, batches) if total_size else []
        tally = task_lists.Tally()
        advance, close = _progress(options.get("progress"), total_size, n)
        try:
            if client is None and run.deadline is not None and workers == 1 and "prefixes" in items:
                # In this process a kernel call cannot be stopped from outside, and a
                # batch of placements holds minutes of work on a large board: count in
                # slices of nodes and read the clock between them.
                results = count_in_slices(
                    n, items["allowed"], items["prefixes"], run.check_time, advance
                )
            else:
                # One constellation batch can hold minutes of work on a large board:
                # under a time limit even one worker runs where it can be stopped.
                results = task_lists.run_all(
                    task_lists.run_task, tasks, client=client, workers=workers,
                    advance=advance, check=run.check_time, stoppable=run.deadline is not None,
                )  # fmt: skip
            for result in results:
                tally += result
                run.stats["partial_count"] = tally.classes if unique else tally.solutions
        finally:
            close()
            if own_client:
                client.close()
            run.stats.update(nodes=tally.nodes, subproblems=total_size)
        return tally.classes if unique else tally.solutions


def count_in_slices(
    n: int,
    allowed: np.ndarray,
    prefixes: np.ndarray,
    check: Callable[[], None],
    advance: Callable[[int], None],
) -> Iterator[Tally]:
    """Count the completions of every placement in ``prefixes``, a slice of nodes at a time.

    Yields what each slice of about :data:`ENUMERATION_BUDGET` nodes found, and calls
    ``check`` before each slice (it raises past a deadline) and ``advance(1)`` as
    each placement is done. The counts and nodes add up to those of
    :func:`.tasks.run_task` on the same placements: a placement's rows are forced to
    its columns and walked once each.

    >>> import numpy as np
    >>> full = np.full(6, 63, np.int64)
    >>> sum(t.solutions for t in count_in_slices(6, full, np.array([[1], [4]]), int, int))
    2
    """
    import numpy as np

    from . import kernels
    from .tasks import Tally

    stack = [np.zeros(n + 1, np.int64) for _ in range(4)]
    own = np.empty_like(allowed)
    for prefix in prefixes.tolist():
        own[:] = allowed
        for row, column in enumerate(prefix):
            own[row] = 1 << column
        state = np.array([-1, 0, 0, 0], np.int64)
        while not state[2]:
            check()
            state[1] = state[3] = 0
            kernels.count_chunk(n, own, state, *stack, ENUMERATION_BUDGET)
            yield Tally(int(state[3]), 0, int(state[1]))
        advance(1)


def _default_workers() -> int:
    from ...parallel.pool import default_workers

    return default_workers()


def check_local_workers(workers: int) -> None:
    """Refuse more local worker processes than :data:`WORKERS_PER_CORE` per core.

    >>> check_local_workers(1)
    >>> check_local_workers(10**6)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: backend 'bitmask' counts on 1 to ... worker \
processes here (4 per core, ... core...); got workers=1000000. ...
    """
    cores = _default_workers()
    most = WORKERS_PER_CORE * cores
    if workers > most:
        raise InvalidInputError(
            f"backend 'bitmask' counts on 1 to {most} worker processes here "
            f"({WORKERS_PER_CORE} per core, {cores} core{'s' if cores != 1 else ''}); "
            f"got workers={workers}. Processes beyond the cores only add their start-up: "
            "leave workers out to use every core, or count on a cluster with scheduler=..."
        )


def refuse_count_options(options: dict[str, Any]) -> None:
    """Refuse, when solutions are listed, the options that only a count can use.

    ``progress=False`` (or None) asks for nothing and passes.
    """
    given = [key for key in COUNT_OPTIONS if options.get(key) not in (None, False)]
    if given:
        raise UnsupportedOptionError(
            f"backend 'bitmask' lists solutions in one process, in order, so it has no use "
            f"for {' and '.join(given)}: progress, client, scheduler and checkpoint serve "
            "counting only, "
            "with cpqueens.count(n, backend='bitmask', ...) without limit (and with "
            "unique=True only without fixed queens)"
        )


def _progress(progress: object, total: int, n: int):
    from ...parallel.pool import progress_reporter

    return progress_reporter(progress, total, f"n={n}")


def allowed_rows(problem: Problem) -> np.ndarray:
    """The squares each row may use: its fixed queen, or the row less its blocked squares.

    Every kernel takes a row's free squares as ``allowed[row] & ~(cols | left | right)``,
    so a blocked square joins the attacked ones there and is never tried.
    """
    import numpy as np

    n = problem.n
    full = (1 << n) - 1
    blocked = problem.blocked_masks()
    return np.array(
        [
            full & ~blocked[row] if column is None else 1 << column
            for row, column in enumerate(problem.fixed)
        ],
        np.int64,
    )


#: Placements of the first rows a count without constellations starts from, at least:
#: 64 per task on the default 16 tasks of one worker.
LEAST_PREFIXES = 64 * TASKS_PER_WORKER
#: Placements per task at least, so that every task of a large pool or cluster has some.
PREFIXES_PER_TASK = 4


def subproblems(problem: Problem, tasks: int = TASKS_PER_WORKER) -> dict[str, Any]:
    """The independent pieces of a count, as arrays for :func:`.tasks.split`.

    Without fixed queens or blocked squares: the start constellations, each standing
    for its symmetric images. With either one, the board has lost its symmetry: every
    placement of the first rows that fits them, one row deeper at a time until there
    are :data:`LEAST_PREFIXES` of them and :data:`PREFIXES_PER_TASK` per task (of
    ``tasks``), or no row is left to add; their completions are counted as they are,
    unweighted.

    >>> from cpqueens.solvers.problem import Problem
    >>> items = subproblems(Problem(n=5, fixed=(None,) * 5, blocked=frozenset({(0, 0)})))
    >>> items["prefixes"].shape, bin(int(items["allowed"][0]))
    ((10, 4), '0b11110')
    """
    import numpy as np

    n = problem.n
    if not problem.has_fixed and not problem.has_blocked:
        from .constellations import start_constellations

        table = start_constellations(n)
        return {
            "signatures": table.signatures,
            "syms": table.syms,
            "group_orders": table.group_orders,
        }
    allowed = allowed_rows(problem)
    prefixes: list[tuple[int, ...]] = [()]
    target = max(LEAST_PREFIXES, PREFIXES_PER_TASK * tasks)
    while prefixes and len(prefixes) < target and len(prefixes[0]) < n - 1:
        prefixes = [(*p, c) for p in prefixes for c in _free_columns(n, p, allowed)]
    depth = len(prefixes[0]) if prefixes else 0
    array = np.array(prefixes, np.int64).reshape(len(prefixes), depth)
    return {"allowed": allowed, "prefixes": array}


def _free_columns(n: int, prefix: tuple[int, ...], allowed: np.ndarray) -> list[int]:
    row = len(prefix)
    return [
        column
        for column in range(n)
        if allowed[row] >> column & 1
        and all(column != c and abs(column - c) != row - r for r, c in enumerate(prefix))
    ]
