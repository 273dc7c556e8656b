"""Stopping a native solver: at the deadline, on Ctrl-C, and leaving the signals as found.

A solver written in C++ or Java holds the thread that called it: Python's signal
handlers and its clock wait until the call returns. :func:`run_stoppable` runs the
call on a thread of its own, :func:`watched` watches a call on the caller's own thread
(a :class:`Watcher` watches many calls in a row with one thread), and
:func:`signal_handlers_kept` puts back the handlers a solver library took.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from .run import SearchRun

T = TypeVar("T")


#: Signals a native solver may take over for its own shutdown and leave taken.
_GUARDED_SIGNALS = ("SIGINT", "SIGTERM", "SIGXCPU", "SIGALRM", "SIGHUP")


@contextlib.contextmanager
def signal_handlers_kept() -> Iterator[None]:
    """Put back the process's signal handlers after a solver library has run.

    Exact, for one, installs C-level handlers for SIGTERM and SIGXCPU and leaves them:
    a process pool forked afterwards then has workers that ignore the SIGTERM its
    ``terminate`` sends, and the pool never shuts down. Only the main thread may set
    handlers, so elsewhere this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved = {}
    for name in _GUARDED_SIGNALS:
        number = getattr(signal, name, None)
        if number is not None:
            saved[number] = signal.getsignal(number)
    try:
        yield
    finally:
        for number, handler in saved.items():
            # None: a handler set outside Python before the run; leave that one be.
            if handler is not None:
                signal.signal(number, handler)


def run_stoppable(
    call: Callable[[], T], stop: Callable[[], None], run: SearchRun, *, grace: float = 0.5
) -> T:
    """Run a native solver's ``call()`` where the deadline and Ctrl-C can stop it.

    A native solver holds the main thread inside C++ or Java: Python's signal
    handlers and the clock wait until it returns. So the call runs in a helper
    thread while the main thread waits: at the deadline (plus ``grace``, for the
    solver's own time limit to act first) it calls ``stop()`` and marks ``run``
    timed out; on Ctrl-C it calls ``stop()``, waits for the call to return and
    raises :class:`KeyboardInterrupt`, so no result is made of an interrupted run.
    ``stop`` must make ``call`` return soon (CP-SAT's ``stop_search``, pysat's
    ``interrupt``). An exception of ``call`` is raised here.
    """
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = call()
        except BaseException as error:  # handed to the caller's thread below
            outcome["error"] = error

    worker = threading.Thread(target=target, name="cpqueens-solver", daemon=True)
    stopped = False
    worker.start()
    try:
        while worker.is_alive():
            left = run.remaining()
            if left is None or stopped:
                worker.join(0.1)
            elif left > 0:
                worker.join(min(0.1, left))
            else:
                worker.join(grace)  # the solver's own time limit acts first
                if worker.is_alive():
                    stopped = True
                    run.mark_timed_out()
                    stop()
    except KeyboardInterrupt:
        stop()
        worker.join()
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


@contextlib.contextmanager
def watched(stop: Callable[[], None], run: SearchRun, *, grace: float = 0.5) -> Iterator[None]:
    """Call ``stop()`` if Ctrl-C or the deadline comes while a native call runs here.

    For a solver that must run on the caller's thread (CP-SAT aborts the process when
    Ctrl-C reaches it on another thread) and that does not look at Python's signals
    itself; one call's :class:`Watcher`. Once the call returns, Python raises the
    pending :class:`KeyboardInterrupt` as usual.
    """
    with Watcher(run, grace=grace) as watcher, watcher.call(stop):
        yield


class Watcher:
    """A thread that stops the native call running on the caller's thread, if any, on
    Ctrl-C or at the deadline; one for many calls in a row.

    Starting and joining a thread per call cost a few milliseconds each on a busy
    machine (the new thread waits for a core): CP-SAT's blocks at n=11, 90 calls of
    a few milliseconds, spent a quarter of their time so. The thread is started with
    the first :meth:`call` and ended by :meth:`close` (or the ``with`` block); between
    two calls it has nothing to stop and only waits.

    The watcher learns of SIGINT through :func:`signal.set_wakeup_fd`, set for the
    length of each call only (Python's own C handler writes there at once, whatever
    the main thread is doing), and stops the call; at the deadline plus ``grace`` it
    stops the call too and marks ``run`` timed out.
    """

    def __init__(self, run: SearchRun, *, grace: float = 0.5):
        self.run, self.grace = run, grace
        #: The stop of the call under way, None between calls.
        self.stop: Callable[[], None] | None = None
        self.closed = threading.Event()
        self.thread: threading.Thread | None = None
        self.reader: int | None = None
        self.writer: int | None = None
        if threading.current_thread() is threading.main_thread():
            self.reader, self.writer = os.pipe()
            os.set_blocking(self.writer, False)

    def __enter__(self) -> Watcher:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @contextlib.contextmanager
    def call(self, stop: Callable[[], None]) -> Iterator[None]:
        """Watch the native call made in the ``with`` block; ``stop()`` stops it."""
        previous = None
        if self.writer is not None:
            with contextlib.suppress(ValueError):  # not the main thread: the clock only
                previous = signal.set_wakeup_fd(self.writer, warn_on_full_buffer=False)
        if self.thread is None:
            self.thread = threading.Thread(target=self.watch, name="cpqueens-watch", daemon=True)
            self.thread.start()
        self.stop = stop
        try:
            yield
        finally:
            self.stop = None
            if previous is not None:
                signal.set_wakeup_fd(previous)

    def watch(self) -> None:
        run = self.run
        while not self.closed.is_set():
            left = run.remaining()
            # Never less than 10 ms: past the deadline, the watcher must not spin.
            wait = 0.1 if left is None else max(0.01, min(0.1, left + self.grace))
            interrupted = False
            if self.reader is not None:
                ready, _, _ = select.select([self.reader], [], [], wait)
                interrupted = bool(ready) and signal.SIGINT in os.read(self.reader, 64)
            else:
                self.closed.wait(wait)
            stop = self.stop
            late = run.deadline is not None and time.monotonic() >= run.deadline + self.grace
            if stop is not None and late:
                run.mark_timed_out()
            if stop is not None and (interrupted or late):
                stop()

    def close(self) -> None:
        """End the thread (the next call would start another)."""
        self.closed.set()
        if self.thread is not None:
            if self.writer is not None:
                os.write(self.writer, b"\0")  # wake the watcher from its select at once
            self.thread.join()
            self.thread = None
        if self.reader is not None:
            os.close(self.reader)
            os.close(self.writer)  # type: ignore[arg-type]
            self.reader = self.writer = None
