"""Stopping a native solver: at the deadline, on Ctrl-C, and leaving the signals as found.

A solver written in C++ or Java holds the thread that called it: Python's signal
handlers and its clock wait until the call returns. :func:`run_stoppable` runs the
call on a helper thread, :func:`watched` watches a call on the caller's own thread,
and :func:`signal_handlers_kept` puts back the handlers a solver library took.
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
    itself: a watcher thread learns of SIGINT through :func:`signal.set_wakeup_fd`
    (Python's own C handler writes there at once, whatever the main thread is doing)
    and stops the solver; once the call returns, Python raises the pending
    :class:`KeyboardInterrupt` as usual. At the deadline plus ``grace`` the watcher
    stops the solver too and marks ``run`` timed out.
    """
    reader = writer = None
    previous = -1
    if threading.current_thread() is threading.main_thread():
        reader, writer = os.pipe()
        os.set_blocking(writer, False)
        try:
            previous = signal.set_wakeup_fd(writer, warn_on_full_buffer=False)
        except ValueError:  # a wakeup fd that cannot be set here: the clock only
            os.close(reader)
            os.close(writer)
            reader = writer = None
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            left = run.remaining()
            wait = 0.1 if left is None else max(0.0, min(0.1, left + grace))
            if reader is not None:
                ready, _, _ = select.select([reader], [], [], wait)
                if ready and signal.SIGINT in os.read(reader, 64):
                    stop()
                    return
            else:
                done.wait(wait)
            late = run.deadline is not None and time.monotonic() >= run.deadline + grace
            if late and not done.is_set():
                run.mark_timed_out()
                stop()
                return

    watcher = threading.Thread(target=watch, name="cpqueens-watch", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        if writer is not None:
            os.write(writer, b"\0")  # wake the watcher from its select at once
        watcher.join()
        if writer is not None:
            signal.set_wakeup_fd(previous)
            os.close(reader)
            os.close(writer)
