"""Run independent tasks in this process or a process pool, with progress and a deadline.

:func:`run_tasks` is the engine under the parallel counts: it maps a picklable
function over tasks, hands each result back as soon as it is ready (in any order),
reports progress, and looks at the clock between results. The results of a
count never depend on how many processes share the work.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from ..errors import InvalidTypeError

T = TypeVar("T")
R = TypeVar("R")

ProgressCallback = Callable[[int, int], Any]


def default_workers() -> int:
    """The number of cores this process may run on.

    >>> default_workers() >= 1
    True
    """
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def check_progress(progress: object) -> None:
    """Refuse a ``progress`` option that is neither a flag, None nor a callable."""
    if not (progress is None or isinstance(progress, bool) or callable(progress)):
        raise InvalidTypeError(
            f"progress must be True, False, None or a callable f(done, total), got {progress!r}"
        )


def progress_reporter(
    progress: object, total: int, label: str
) -> tuple[Callable[[int], None], Callable[[], None]]:
    """Turn the ``progress`` option into an ``advance(k)`` function and a ``close()``.

    ``progress`` is None or False (no report), a callable ``f(done, total)``, or True
    for a ``rich`` progress bar on standard error, drawn only when that is a terminal.

    >>> seen = []
    >>> advance, close = progress_reporter(lambda done, total: seen.append((done, total)), 3, "")
    >>> advance(2); advance(1); close()
    >>> seen
    [(0, 3), (2, 3), (3, 3)]
    """
    check_progress(progress)
    if progress is None or progress is False:
        return (lambda k: None), (lambda: None)
    if callable(progress):
        done = 0
        progress(0, total)

        def advance(k: int) -> None:
            nonlocal done
            done += k
            progress(done, total)

        return advance, (lambda: None)
    if not sys.stderr.isatty():
        return (lambda k: None), (lambda: None)
    from rich.progress import Progress

    from .progress import bar_columns

    bar = Progress(*bar_columns())
    bar.start()
    task = bar.add_task(label, total=total)
    return (lambda k: bar.advance(task, k)), bar.stop


def run_tasks(
    function: Callable[[T], R],
    tasks: Sequence[T],
    *,
    workers: int,
    sizes: Sequence[int],
    advance: Callable[[int], None],
    check: Callable[[], None],
    initializer: Callable[[], None] | None = None,
    stoppable: bool = False,
) -> Iterator[R]:
    """Yield ``function(task)`` for every task, in the order they finish.

    ``sizes[i]`` is how many units of progress task ``i`` is worth; ``check`` is
    called between results (it raises to stop, e.g. past a deadline), and the pool
    is torn down at once when the caller stops early. With one worker the tasks run
    in this process, one after the other, unless ``stoppable``: then in one child
    process, so that ``check`` can stop a task that runs long (a compiled kernel in
    this process could not be stopped until it returns).
    """
    if not stoppable and (workers <= 1 or len(tasks) <= 1):
        if initializer is not None:
            initializer()
        for task, size in zip(tasks, sizes, strict=True):
            check()
            yield function(task)
            advance(size)
        return
    # Children made by fork inherit the kernels compiled here; spawned children
    # load them from the on-disk cache in their initializer, once per process.
    if initializer is not None:
        initializer()
    processes = max(1, min(workers, len(tasks)))
    pool = multiprocessing.get_context().Pool(processes, initializer=initializer)
    try:
        results = pool.imap_unordered(_indexed, [(function, i, t) for i, t in enumerate(tasks)])
        for _ in range(len(tasks)):
            while True:
                check()
                try:
                    index, result = results.next(timeout=0.05)
                    break
                except multiprocessing.TimeoutError:
                    continue
            yield result
            advance(sizes[index])
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _indexed(job: tuple[Callable[[Any], Any], int, Any]) -> tuple[int, Any]:
    function, index, task = job
    return index, function(task)
