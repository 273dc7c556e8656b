"""The process tree of a run: its memory, its CPU time, and killing all of it.

A solver may start programs, and those programs theirs, some of them detached into a
session of their own. Everything below one process is found by its parent links in
``/proc`` (Linux; elsewhere only the process itself is known).
"""

from __future__ import annotations

import contextlib
import os
import signal

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def tree_usage(root: int) -> tuple[int, float]:
    """Resident bytes and CPU seconds (user and system) of ``root`` and every process
    below it."""
    total_rss = total_ticks = 0
    for _, rss, ticks in _tree(root):
        total_rss += rss * _PAGE
        total_ticks += ticks
    return total_rss, total_ticks / _TICK


def kill_tree(root: int) -> None:
    """Freeze ``root`` and every process below it, then kill them all.

    Frozen first, until no new process shows up, so that none can fork or detach
    while the tree is being killed; the process group is killed as well.
    """
    frozen: set[int] = set()
    for _ in range(20):
        found = {pid for pid, _, _ in _tree(root)} - frozen
        if not found:
            break
        for pid in found:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGSTOP)
        frozen |= found
    for pid in frozen | {root}:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.killpg(root, signal.SIGKILL)


def tree_pids(root: int) -> list[int]:
    """``root`` and every process below it (empty when ``root`` is gone)."""
    return [pid for pid, _, _ in _tree(root)]


def exit_words(returncode: int | None) -> str:
    """A process's exit status in words (negative: the signal that killed it).

    >>> exit_words(1), exit_words(-9), exit_words(None)
    ('exit status 1', 'killed by SIGKILL', 'no exit status')
    """
    if returncode is None:
        return "no exit status"
    if returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exit status {returncode}"


def _tree(root: int) -> list[tuple[int, int, int]]:
    """(pid, resident pages, CPU ticks) of ``root`` and its descendants, from /proc."""
    table: dict[int, tuple[int, int, int]] = {}
    children: dict[int, list[int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                data = stat.read()
        except OSError:
            continue
        fields = data[data.rindex(b")") + 2 :].split()
        pid = int(name)
        parent = int(fields[1])
        table[pid] = (parent, int(fields[21]), int(fields[11]) + int(fields[12]))
        children.setdefault(parent, []).append(pid)
    if root not in table:
        return []
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        _, rss, ticks = table[pid]
        found.append((pid, rss, ticks))
        todo.extend(children.get(pid, ()))
    return found
