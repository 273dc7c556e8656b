"""Run independent tasks on a Dask distributed cluster.

The ``bitmask`` backend counts through here when it is given ``client=`` (a
``dask.distributed.Client``) or ``scheduler=`` (the scheduler's address). Every
worker needs cpqueens and numba installed; each compiles (or loads from its cache)
the kernels once. A task lost with its worker is run again elsewhere by the
scheduler, and a task that fails is retried, so the count stays exact.

Install with ``pip install "cpqueens[distributed]"``; see docs/distributed.md.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from ..arguments import check_seconds
from ..display.numbers import seconds
from ..errors import BackendUnavailableError, InvalidInputError, InvalidTypeError

T = TypeVar("T")
R = TypeVar("R")

#: How often a failing task is tried again before the count gives up.
RETRIES = 3

#: Seconds to wait for a scheduler before giving up (dask's own default is 30 s).
CONNECT_TIMEOUT = 10.0

#: The states of a dask client that can no longer run anything.
_CLOSED = ("closing", "closed", "failed")


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
    if client.status in _CLOSED:
        raise _unusable(client)


def scheduler_of(client: Any) -> str:
    """Name the scheduler of ``client`` for a message, even when the client is closed.

    >>> scheduler_of(None)
    'an unknown scheduler'
    """
    address = getattr(getattr(client, "scheduler", None), "address", None)
    if not address:
        # A closed client has let go of its scheduler; what it was started with remains.
        start = getattr(client, "_start_arg", None)
        address = start if isinstance(start, str) else None
    if not address:
        try:
            address = client.cluster.scheduler_address
        except Exception:  # no cluster, or one that is gone: the address is unknown
            address = None
    return f"the scheduler at {address!r}" if address else "an unknown scheduler"


def connect(
    client: Any = None, scheduler: str | None = None, *, timeout: float | None = None
) -> tuple[Any, bool]:
    """Return a client for ``client`` or ``scheduler``, and whether it was opened here.

    Connecting to ``scheduler`` gives up after ``timeout`` seconds (default
    :func:`connect_timeout`: :data:`CONNECT_TIMEOUT`, or dask's own connect timeout
    if that is shorter); on a terminal, stderr says where it is connecting first.
    An address that names no scheduler, or one that cannot be reached, raises
    :class:`~cpqueens.errors.InvalidInputError` naming the address (and the timeout).
    """
    check_cluster(client, scheduler)
    if client is not None:
        return client, False
    distributed = _require_distributed()
    timeout = connect_timeout() if timeout is None else check_seconds(timeout, "timeout")
    if sys.stderr is not None and sys.stderr.isatty():
        print(
            f"connecting to the dask scheduler at {scheduler} (giving up after {seconds(timeout)})",
            file=sys.stderr,
            flush=True,
        )
    try:
        # Not the default client: a count does not change where dask.compute runs.
        return distributed.Client(scheduler, set_as_default=False, timeout=timeout), True
    except ValueError as error:
        _close_unstarted(error, distributed)
        raise InvalidInputError(
            f"scheduler {scheduler!r} is not the address of a dask scheduler ({error}); "
            "give one such as 'tcp://host:8786'"
        ) from None
    except OSError as error:  # refused, unreachable, timed out
        _close_unstarted(error, distributed)
        raise InvalidInputError(
            f"cannot connect to the dask scheduler at {scheduler!r} within "
            f"{seconds(timeout)}: {error}"
        ) from None


def connect_timeout() -> float:
    """Seconds to wait for a scheduler: :data:`CONNECT_TIMEOUT`, or dask's own setting
    (``distributed.comm.timeouts.connect``, 30 s unless changed) when that is shorter."""
    import dask
    from dask.utils import parse_timedelta

    configured = dask.config.get("distributed.comm.timeouts.connect", None)
    try:
        own = parse_timedelta(configured, default="seconds")
    except (TypeError, ValueError):
        own = None
    return min(CONNECT_TIMEOUT, own) if own else CONNECT_TIMEOUT


def _close_unstarted(error: BaseException, distributed: Any) -> None:
    """Close the client that a failed ``Client(...)`` left half made.

    Its event loop runs on in a thread of its own, and closing it when the program
    ends waits a minute for a scheduler that never answered. The client is the
    ``self`` of a frame the error went through.
    """
    trace = error.__traceback__
    while trace is not None:
        client = trace.tb_frame.f_locals.get("self")
        if isinstance(client, distributed.Client):
            with contextlib.suppress(Exception):
                client.close()
            return
        trace = trace.tb_next


def _unusable(client: Any, error: Exception | None = None) -> InvalidInputError:
    """The error for a client that cannot run tasks: closed, or cut off by ``error``."""
    status = getattr(client, "status", None)
    if status in _CLOSED or error is None:
        why = f"is {status}; open a new distributed.Client"
    else:
        why = f"cannot reach it: {error}"
    return InvalidInputError(f"the dask client of {scheduler_of(client)} {why}")


def cluster_threads(client: Any) -> int:
    """How many tasks the cluster runs at once (at least 1)."""
    try:
        threads = client.nthreads()
    except (AttributeError, OSError) as error:
        # A client closed since it was checked has no scheduler left to ask.
        raise _unusable(client, error) from None
    return max(1, sum(threads.values()))


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
    try:
        futures = client.map(function, list(tasks), pure=False, retries=RETRIES)
    except (distributed.client.ClosedClientError, AttributeError, OSError) as error:
        raise _unusable(client, error) from None
    sizes = {future.key: task.size for future, task in zip(futures, tasks, strict=True)}
    try:
        # The client's own loop: it need not be dask's default client.
        for future in distributed.as_completed(futures, loop=client.loop):
            check()
            yield future.result()
            advance(sizes[future.key])
    finally:
        client.cancel(futures)
