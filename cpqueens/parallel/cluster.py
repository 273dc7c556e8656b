"""Run independent tasks on a Dask distributed cluster.

The ``bitmask`` backend counts through here when it is given ``client=`` (a
``dask.distributed.Client``) or ``scheduler=`` (the scheduler's address). Every
worker needs cpqueens and numba installed; each compiles (or loads from its cache)
the kernels once. A task lost with its worker is run again elsewhere by the
scheduler, and a task that fails is retried, so the count stays exact.

Install with ``pip install "cpqueens[distributed]"``; see docs/distributed.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from ..errors import BackendUnavailableError, InvalidTypeError

T = TypeVar("T")
R = TypeVar("R")

#: How often a failing task is tried again before the count gives up.
RETRIES = 3


def _require_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise BackendUnavailableError(
            "counting on a cluster needs dask.distributed; install it with: "
            'pip install "cpqueens[distributed]"'
        ) from None
    return distributed


def check_cluster(client: Any = None, scheduler: object = None) -> None:
    """Refuse a ``client``/``scheduler`` pair that names no cluster, before connecting.

    Importing dask is only needed when one of them is given.

    >>> check_cluster()
    >>> check_cluster(scheduler=8786)
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidTypeError: scheduler must be an address such as \
'tcp://host:8786', got 8786
    """
    if client is None and scheduler is None:
        return
    if client is not None and scheduler is not None:
        raise InvalidTypeError("give either client= or scheduler=, not both")
    if client is None:
        if not isinstance(scheduler, str):
            raise InvalidTypeError(
                f"scheduler must be an address such as 'tcp://host:8786', got {scheduler!r}"
            )
        return
    distributed = _require_distributed()
    if not isinstance(client, distributed.Client):
        raise InvalidTypeError(
            f"client must be a dask.distributed.Client, got {type(client).__name__}"
        )


def connect(client: Any = None, scheduler: str | None = None) -> tuple[Any, bool]:
    """Return a client for ``client`` or ``scheduler``, and whether it was opened here."""
    check_cluster(client, scheduler)
    if client is None:
        return _require_distributed().Client(scheduler), True
    return client, False


def cluster_threads(client: Any) -> int:
    """How many tasks the cluster runs at once (at least 1)."""
    return max(1, sum(client.nthreads().values()))


def run_on_dask(
    function: Callable[[T], R],
    tasks: Sequence[T],
    client: Any,
    *,
    advance: Callable[[int], None] = lambda k: None,
    check: Callable[[], None] = lambda: None,
) -> Iterator[R]:
    """Yield ``function(task)`` for every task, computed on the cluster, as they finish.

    ``advance(task.size)`` reports progress; ``check`` is called between results and
    may raise to stop, which cancels the tasks that are left.
    """
    distributed = _require_distributed()
    futures = client.map(function, list(tasks), pure=False, retries=RETRIES)
    sizes = {future.key: task.size for future, task in zip(futures, tasks, strict=True)}
    try:
        for future in distributed.as_completed(futures):
            check()
            yield future.result()
            advance(sizes[future.key])
    finally:
        client.cancel(futures)
