"""A function target's run, in a child process forked from this one.

A hunted function ``f(instance)`` lives in this process (a closure, a lambda, a
function defined at the prompt: none can be sent elsewhere), so each call runs in a
child forked from here, which has it. The child answers through a pipe; this process
watches it and ends its whole process tree (:func:`~cpqueens.programs.process_trees.kill_tree`)
when it outlives the time limit or its memory passes the limit. A call that crashes
(a native solver's segmentation fault) or hangs is then one finding of the hunt, and
no call is ever left running beside the next one: two calls of a solver that is not
thread-safe (z3 through cpmpy) never meet.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import time
from collections.abc import Callable
from typing import Any

from ..instances import Instance
from ..programs.process_trees import exit_words, kill_tree, tree_usage


def call_in_child(
    function: Callable,
    instance: Instance,
    limit: float,
    memory_mb: int,
    started_child: Callable[[int | None], None] | None = None,
) -> tuple[str, Any]:
    """Run ``function(instance)`` in a forked child: ``("value", what it returned)``,
    ``("error", "Type: message")`` for an exception, or a fault: ``("timeout", words)``,
    ``("memout", words)``, ``("crash", words)``.

    ``started_child(pid)`` is told the child's process id when it starts (and None when
    it has ended), so that another thread can end it early with ``kill_tree``.

    >>> call_in_child(lambda instance: instance.n * 2, Instance(4), 10, 1024)
    ('value', 8)
    >>> call_in_child(lambda instance: 1 / 0, Instance(4), 10, 1024)
    ('error', 'ZeroDivisionError: division by zero')
    >>> call_in_child(lambda instance: os.kill(os.getpid(), 11), Instance(4), 10, 1024)
    ('crash', 'the call died (killed by SIGSEGV)')
    """
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_fd)
        _child(function, instance, write_fd)
    os.close(write_fd)
    if started_child is not None:
        started_child(pid)
    started = time.monotonic()
    chunks: list[bytes] = []
    fault: tuple[str, str] | None = None
    ended = False  # the child closed its end: it answered, or died
    try:
        fault = _watch(pid, read_fd, chunks, started, limit, memory_mb * 2**20)
        ended = fault is None
    finally:
        os.close(read_fd)
        if not ended:  # past a limit, or this process interrupted (Ctrl-C): end it all
            kill_tree(pid)
        _, status = os.waitpid(pid, 0)
        if started_child is not None:
            started_child(None)
    if fault is not None:
        return fault
    with contextlib.suppress(Exception):
        return pickle.loads(b"".join(chunks))
    return "crash", f"the call died ({exit_words(os.waitstatus_to_exitcode(status))})"


def _watch(
    pid: int, read_fd: int, chunks: list[bytes], started: float, limit: float, memory: int
) -> tuple[str, str] | None:
    """Read the child's answer until it ends; a fault that ended the watch, or None."""
    pause = 0.01
    while True:
        readable, _, _ = select.select([read_fd], [], [], pause)
        if readable:
            chunk = os.read(read_fd, 1 << 16)
            if not chunk:
                return None  # the child closed its end: answered, or died
            chunks.append(chunk)
            continue
        pause = min(0.05, pause * 1.5)
        rss, _ = tree_usage(pid)
        if rss > memory:
            return "memout", f"ran out of memory ({rss / 2**20:.0f} MiB)"
        if time.monotonic() - started > limit:
            return "timeout", f"no answer within {time.monotonic() - started:.1f} s"


def _child(function: Callable, instance: Instance, write_fd: int) -> None:
    """In the forked child: call the function, send what came of it, never return."""
    from ..campaigns.warm_process import become_watched_child, write_all

    status = 0
    try:
        become_watched_child()  # what the function prints would land on the hunt's screen
        try:
            outcome: tuple[str, Any] = ("value", function(instance))
        except Exception as error:  # the function's exception is the hunt's finding
            outcome = ("error", f"{type(error).__name__}: {error}")
        try:
            data = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as error:
            data = pickle.dumps(
                ("error", f"returned what cannot be read back ({type(error).__name__}: {error})")
            )
        write_all(write_fd, data)
    except BaseException:
        status = 1
    finally:
        os._exit(status)
