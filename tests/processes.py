"""Processes seen from /proc, for tests that check what a run left behind."""

from __future__ import annotations

from cpqueens.programs.process_trees import tree_pids

__all__ = ["alive", "tree_pids"]


def alive(pid: int) -> bool:
    """Whether ``pid`` is a process that still runs (a zombie does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
