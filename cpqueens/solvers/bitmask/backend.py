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
forms. With fixed queens the symmetry is broken: the count then splits the search
by the placements of its first rows instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ...board import Solution
from ...errors import InvalidInputError, UnsupportedOptionError
from ..base import Backend, Problem, SearchRun

if TYPE_CHECKING:
    import numpy as np

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
COUNT_OPTIONS = ("progress", "client", "scheduler")


class BitmaskBackend(Backend):
    """Bitmask search compiled with numba; counts with start constellations on all cores.

    Options: ``progress`` (True for a bar on a terminal, or a callable
    ``f(done, total)`` over subproblems), ``client`` (a ``dask.distributed.Client``)
    or ``scheduler`` (its address, e.g. ``"tcp://host:8786"``) to count on a cluster.

    These options, and ``workers``, are about counting: ``cpqueens.count`` without
    ``limit`` (and, with ``unique=True``, without fixed queens). Listing solutions
    (``solve``, ``solutions``, and the counts made by listing) is one sequential
    pass in this process, so that solutions come lazily and in lexicographic order:
    there ``progress``, ``client`` and ``scheduler`` are refused, and ``workers`` is
    accepted but one process does the work (``stats["workers"]`` says 1).

    ``workers`` counts on that many local processes, at most :data:`WORKERS_PER_CORE`
    per core this process may use (default: one per core); more are refused with a
    message, since every process beyond the cores only adds its start-up. On a
    cluster ``workers`` instead sets how finely the count is cut (16 tasks a
    worker; default: the cluster's threads) and has no such limit.

    Examples
    --------
    >>> import cpqueens
    >>> cpqueens.count(10, backend="bitmask", workers=1)
    724
    >>> cpqueens.count(10, backend="bitmask", workers=1, unique=True)
    92
    >>> next(cpqueens.solutions(8, backend="bitmask"))
    (0, 4, 7, 5, 2, 6, 1, 3)

    See Also
    --------
    StackBackend : the same bitmask search in pure Python (article 002).
    """

    name = "bitmask"
    summary = "compiled bitmask search; counts with start constellations (8-fold symmetry)"
    source = "bit-parallel backtracking; start constellations after Q27 and NQueensFAF"
    requires = "numba"
    install_hint = "numba"
    supports_workers = True
    max_n = 32
    options = ("progress", "client", "scheduler")

    def check_options(self, options: dict[str, Any]) -> None:
        from ...parallel.cluster import check_cluster
        from ...parallel.pool import check_progress

        check_progress(options.get("progress"))
        check_cluster(options.get("client"), options.get("scheduler"))

    def check_problem(self, problem: Problem) -> None:
        super().check_problem(problem)
        on_cluster = any(problem.options.get(key) is not None for key in ("client", "scheduler"))
        if problem.workers is not None and not on_cluster:
            check_local_workers(problem.workers)

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        refuse_count_options(problem.options)
        run.stats["workers"] = 1
        import numpy as np

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
        if n == 1:  # the lone queen: every symmetry fixes it, so no constellation method
            run.stats.update(nodes=1, subproblems=1)
            return 1
        client, own_client = None, False
        if options.get("client") is not None or options.get("scheduler") is not None:
            from ...parallel.cluster import cluster_threads, connect

            client, own_client = connect(options.get("client"), options.get("scheduler"))
            workers = problem.workers or cluster_threads(client)
        else:
            workers = problem.workers or _default_workers()
        items = subproblems(problem)
        total_size = len(next(v for k, v in items.items() if k != "allowed"))
        if run.deadline is not None:
            batches = -(-total_size // TIMED_TASK_SIZE)
        else:
            batches = TASKS_PER_WORKER * workers
        tasks = task_lists.split(items, n, batches) if total_size else []
        tally = task_lists.Tally()
        advance, close = _progress(options.get("progress"), total_size, n)
        try:
            if client is not None:
                from ...parallel.cluster import run_on_dask

                results = run_on_dask(
                    task_lists.run_task, tasks, client, advance=advance, check=run.check_time
                )
            else:
                from ...parallel.pool import run_tasks

                results = run_tasks(
                    task_lists.run_task,
                    tasks,
                    workers=workers,
                    sizes=[task.size for task in tasks],
                    advance=advance,
                    check=run.check_time,
                    initializer=task_lists.warm_up,
                )
            for result in results:
                tally += result
                run.stats["partial_count"] = tally.classes if unique else tally.solutions
        finally:
            close()
            if own_client:
                client.close()
            run.stats.update(nodes=tally.nodes, subproblems=total_size)
        return tally.classes if unique else tally.solutions


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
            f"for {' and '.join(given)}: progress, client and scheduler serve counting only, "
            "with cpqueens.count(n, backend='bitmask', ...) without limit (and with "
            "unique=True only without fixed queens)"
        )


def _progress(progress: object, total: int, n: int):
    from ...parallel.pool import progress_reporter

    return progress_reporter(progress, total, f"n={n}")


def allowed_rows(problem: Problem) -> np.ndarray:
    """The squares each row may use: its fixed queen, or the whole row."""
    import numpy as np

    n = problem.n
    full = (1 << n) - 1
    return np.array([full if column is None else 1 << column for column in problem.fixed], np.int64)


def subproblems(problem: Problem) -> dict[str, Any]:
    """The independent pieces of a count, as arrays for :func:`.tasks.split`.

    Without fixed queens: the start constellations. With them: every placement of
    the first rows that fits the fixed queens, enough of them to keep all workers busy.
    """
    import numpy as np

    n = problem.n
    if not problem.has_fixed:
        from .constellations import start_constellations

        table = start_constellations(n)
        return {
            "signatures": table.signatures,
            "syms": table.syms,
            "group_orders": table.group_orders,
        }
    allowed = allowed_rows(problem)
    prefixes: list[tuple[int, ...]] = [()]
    target = 64 * TASKS_PER_WORKER
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
