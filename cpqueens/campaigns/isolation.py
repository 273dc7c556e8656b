"""Runs in processes of their own, under a wall-time and a memory limit.

A :class:`Sandbox` owns one warm :mod:`zygote <.zygote>` and runs one task at a
time in a child forked from it. While the child runs, its whole process tree (the
child, and every program it started, detached ones included) is read from
``/proc`` every 10 to 50 ms: resident memory summed over the tree, CPU time. The
run is ended, every process of the tree frozen (SIGSTOP, so none can fork away)
then killed (SIGKILL), when

* its wall time passes the time limit plus a grace of 10 % (at least 0.5 s): the
  backends stop themselves at the limit and report what they have; the grace is for
  a solver that does not (status ``unknown``);
* the memory of its tree passes the memory limit (status ``memout``).

The time of a run is its wall time from the fork to the answer, as a competition
measures a solver's process; the memory is the peak resident set of its tree (the
sampled sum, or the child's own peak from ``wait4`` when that is larger), which
includes the pages the child shares with the warm process it was forked from.
"""

from __future__ import annotations

import contextlib
import select
import subprocess
import time
from dataclasses import dataclass, field
from typing import Any

from ..errors import SandboxError
from ..programs.process_trees import kill_tree, tree_usage
from ..programs.running import end_program, python_environment, python_module, start_program
from .warm_process import receive, send

#: The seconds a run may take past its time limit before it is killed.
GRACE_SHARE = 0.1
GRACE_MIN = 0.5


@dataclass
class Outcome:
    """How one isolated run ended, before its answer is checked."""

    answer: dict[str, Any] | None  # what the child sent back (None: nothing)
    wall: float
    cpu: float
    peak_mb: float
    ended: str  # "answered", "timeout", "memout", "crashed"
    exit: int | None = None
    notes: dict[str, Any] = field(default_factory=dict)


class Sandbox:
    """A warm process that runs tasks one at a time, each in a limited child.

    >>> box = Sandbox(warm=[])
    >>> from cpqueens import Instance
    >>> task = {"question": "decide", "time_limit": 5, "memory_limit_mb": 1000,
    ...         "instance": Instance(6),
    ...         "solver": {"label": "stack", "backend": "stack", "options": {}}}
    >>> outcome = box.run(task)
    >>> outcome.ended, outcome.answer["answer"], outcome.answer["solutions"]
    ('answered', 'sat', [[1, 3, 5, 0, 2, 4]])
    >>> box.close()
    """

    def __init__(self, warm: list[dict[str, Any]]):
        # Through the reaper like every program: should this process die, even by
        # SIGKILL, the warm process and its runs die with it.
        self.process = start_program(
            python_module("cpqueens.campaigns.warm_process"),
            env=python_environment(),
            piped_input=True,
            buffered=False,
            keep_stderr=False,
        )
        self.current: int | None = None
        send(self.process.stdin, {"warm": warm})
        ready = receive(self.process.stdout)
        if ready is None:
            raise SandboxError("the warm process for isolated runs did not start")
        self.warm_errors: dict[str, str] = ready["warm_errors"]

    def close(self) -> None:
        """Kill a run in flight and end the warm process."""
        self.kill_current()
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)  # a warm process ends when its input does
        end_program(self.process)

    def kill_current(self) -> None:
        pid = self.current
        if pid is not None:
            kill_tree(pid)

    def run(self, task: dict[str, Any]) -> Outcome:
        """Run one task in a child and watch it until it answers or is killed."""
        limit = float(task["time_limit"])
        memory = task["memory_limit_mb"] * 2**20
        started = time.monotonic()
        try:
            send(self.process.stdin, {"task": task})
            reply = receive(self.process.stdout)
        except (BrokenPipeError, OSError):
            reply = None
        if reply is None:
            raise SandboxError("the warm process for isolated runs died")
        pid = self.current = reply["pid"]
        # A task may ask for more grace (a hunt allows a backend the slack it promises).
        grace = task.get("grace", max(GRACE_MIN, GRACE_SHARE * limit))
        deadline = started + limit + grace
        ended, peak, cpu = "answered", 0, 0.0
        pause = 0.01
        try:
            while True:
                readable, _, _ = select.select([self.process.stdout], [], [], pause)
                if readable:
                    break
                pause = min(0.05, pause * 1.5)
                rss, spent = tree_usage(pid)
                peak, cpu = max(peak, rss), max(cpu, spent)
                if rss > memory:
                    ended = "memout"
                    kill_tree(pid)
                    break
                if time.monotonic() > deadline:
                    ended = "timeout"
                    kill_tree(pid)
                    break
            done = receive(self.process.stdout)
        finally:
            self.current = None
        wall = time.monotonic() - started
        if done is None:
            raise SandboxError("the warm process for isolated runs died during a run")
        answer = done["done"]
        peak = max(peak, done["maxrss_kb"] * 1024)
        if ended == "answered" and answer is None:
            ended = "crashed"
        if ended == "answered" and answer.get("memout"):
            ended = "memout"
        if ended == "answered" and peak > memory:
            ended = "memout"  # grew past the limit between two looks
        return Outcome(
            answer=answer if ended == "answered" else None,
            wall=wall,
            cpu=max(cpu, done["cpu"]),
            peak_mb=peak / 2**20,
            ended=ended,
            exit=done["exit"],
        )
