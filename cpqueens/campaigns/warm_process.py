"""The warm process that forks one child per run (``python -m cpqueens.campaigns.warm_process``).

Starting a fresh interpreter per run would cost a few hundred milliseconds of
imports (and numba's caches) before any search. This process pays them once: it
imports cpqueens and warms the campaign's backends with a tiny solve, then, for each
task it is sent, forks a child that

* starts a session of its own (so the whole run is one process group) and dies with
  this process (``PR_SET_PDEATHSIG``),
* runs the task (:func:`.execute.execute`) with its standard streams on /dev/null,
* sends the answer back through a pipe and exits.

This process stays single-threaded, so forking it is safe; backends whose warm-up
would leave threads behind (``Backend.fork_safe`` False: the JVM-based ``choco``)
are not warmed and load in the child instead. The parent (:mod:`.isolation`) watches
the child's time and memory and kills it; this process only reports the child's pid,
its answer, its exit status and its resource usage (``wait4``).

Messages both ways are pickles, each preceded by its length (8 bytes, big-endian).
"""

from __future__ import annotations

import contextlib
import ctypes
import faulthandler
import os
import pickle
import signal
import struct
import sys
import threading
from typing import Any, BinaryIO

_PR_SET_PDEATHSIG = 1
_HEADER = struct.Struct(">Q")


def send(stream: BinaryIO, message: Any) -> None:
    """Write one message whole (a raw stream may take part of it per call)."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        written = stream.write(view)
        view = view[written or 0 :]
    stream.flush()


def receive(stream: BinaryIO) -> Any:
    """The next message, or None at the end of the stream."""
    head = _read_exactly(stream, _HEADER.size)
    if head is None:
        return None
    data = _read_exactly(stream, _HEADER.unpack(head)[0])
    if data is None:
        return None
    return pickle.loads(data)


def _read_exactly(stream: BinaryIO, size: int) -> bytes | None:
    chunks, left = [], size
    while left:
        chunk = stream.read(left)
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def die_with_parent(signum: int) -> None:
    """Ask Linux to send ``signum`` when the parent dies (nothing elsewhere)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signum, 0, 0, 0)


def warm(solvers: list[dict[str, Any]]) -> dict[str, str]:
    """Load each backend's imports and compiled code with a tiny solve; errors by label."""
    # What every run imports, loaded once here rather than in each forked child.
    from .. import api
    from ..checking import external  # noqa: F401
    from ..outputs import answers  # noqa: F401
    from ..programs import running  # noqa: F401
    from ..solvers import get_backend
    from .execute import backend_version

    errors = {}
    for solver in solvers:
        name = solver.get("backend")
        if name is None:
            continue
        backend_version(name)  # cached for every child
        if not get_backend(name).fork_safe:  # the runs load it themselves
            continue
        try:
            api.solve(5, backend=name, limit=1, time_limit=30, **solver.get("options", {}))
        except Exception as error:  # the runs will report it, one by one
            errors[solver["label"]] = f"{type(error).__name__}: {error}"
    return errors


def become_watched_child() -> None:
    """In a child forked to run one thing, watched and ended whole by its parent: a
    session of its own, killed with its parent, the default signals, nothing read from
    or printed to the terminal, and programs it starts not given a reaper each."""
    from ..programs.running import start_directly

    os.setsid()
    die_with_parent(signal.SIGKILL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    faulthandler.disable()  # a crash is reported by the parent, not dumped on its screen
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    start_directly()


def write_all(fd: int, data: bytes) -> None:
    """Write every byte of ``data`` to ``fd`` (a pipe takes it in pieces)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def run_child(task: dict[str, Any], write_fd: int) -> None:
    """In the forked child: run the task, send the answer, never return."""
    status = 0
    try:
        become_watched_child()
        from .execute import execute

        write_all(write_fd, pickle.dumps(execute(task), protocol=pickle.HIGHEST_PROTOCOL))
    except BaseException:
        status = 1
    finally:
        os._exit(status)


def serve(requests: BinaryIO, replies: BinaryIO) -> None:
    """Answer the parent's messages until it closes the pipe."""
    while True:
        message = receive(requests)
        if message is None:
            return
        if "warm" in message:
            errors = warm(message["warm"])
            send(replies, {"ready": True, "warm_errors": errors,
                           "threads": threading.active_count()})  # fmt: skip
            continue
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            run_child(message["task"], write_fd)
        os.close(write_fd)
        send(replies, {"pid": pid})
        chunks = []
        with os.fdopen(read_fd, "rb") as pipe:
            while chunk := pipe.read(1 << 16):
                chunks.append(chunk)
        _, status, usage = os.wait4(pid, 0)
        answer = None
        if chunks:
            with contextlib.suppress(Exception):
                answer = pickle.loads(b"".join(chunks))
        send(replies, {
            "done": answer,
            "exit": os.waitstatus_to_exitcode(status),
            "cpu": usage.ru_utime + usage.ru_stime,
            "maxrss_kb": usage.ru_maxrss,
        })  # fmt: skip


def main() -> None:
    die_with_parent(signal.SIGKILL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    # The replies go on a copy of standard output; fd 1 itself then points to
    # standard error, so that nothing a solver prints can land in a reply.
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    serve(sys.stdin.buffer, replies)


if __name__ == "__main__":
    main()
