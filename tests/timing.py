"""Wall-clock limits on a shared machine: the slack comes from the machine, measured.

A time limit is a promise in wall-clock seconds: the search stops once ``limit`` seconds
have passed, whatever else the machine does. What comes after the limit (noticing it
between two chunks of work, handing back what was found, a child process ending) is
work, and work takes longer when the cores are busy with other processes or the machine
is slow. So a test allows ``limit`` seconds plus a slack for that work, and the slack
grows with how slow the machine is right now: :func:`slowdown`, a fixed piece of work
timed against the time it takes on a free core, just before and just after the timed
call (:class:`Stopwatch`). A limit that is not honoured (ignored, or noticed far too
late) still fails: the slack is bounded (:data:`MAX_SLOWDOWN`) and the timed calls are
chosen to run far longer than that without their limit.
"""

from __future__ import annotations

import time

#: CPU seconds that :func:`_work` takes on a free core of the machines this suite runs
#: on (2 cores, Python 3.11; measured with ``time.process_time``: about 0.03 s, and
#: much the same with the cores busy, which changes only its wall-clock time).
NOMINAL = 0.03

#: The most the slack is stretched (seen here: up to about 10 with the machine shared
#: by several suites at once). A limit ignored is caught whatever the stretch: the
#: timed calls run far longer without their limit, and that work is stretched as much.
MAX_SLOWDOWN = 12.0


def _work() -> int:
    total = 0
    for i in range(780_000):
        total += i * i % 7
    return total


def slowdown() -> float:
    """How many times longer than on a free core a piece of plain Python work takes
    now (at least 1, at most :data:`MAX_SLOWDOWN`): about 2 with two busy processes
    beside this one on two cores."""
    started = time.perf_counter()
    _work()
    return min(max((time.perf_counter() - started) / NOMINAL, 1.0), MAX_SLOWDOWN)


class Stopwatch:
    """Times a block in wall-clock seconds, and measures :func:`slowdown` just before
    and just after it; the larger of the two stretches the slack::

        with Stopwatch() as clock:
            result = solve(..., time_limit=0.5)
        clock.check(0.5, slack=1.0)
    """

    def __enter__(self) -> Stopwatch:
        self.before = slowdown()
        self.started = time.perf_counter()
        return self

    def __exit__(self, *exc_info) -> None:
        self.seconds = time.perf_counter() - self.started
        self.after = slowdown()

    @property
    def slowdown(self) -> float:
        return max(self.before, self.after)

    @property
    def free_core_seconds(self) -> float:
        """The block's seconds divided by the slowdown: about what it takes on a free
        core (for a bound on work alone, with no wall-clock limit in it)."""
        return self.seconds / self.slowdown

    def allowed(self, limit: float, slack: float) -> float:
        """``limit`` (wall-clock, honoured whatever the load) plus ``slack`` stretched by
        how slow the machine was."""
        return limit + slack * self.slowdown

    def check(self, limit: float, slack: float, seconds: float | None = None, what=""):
        """Assert that the block (or ``seconds``, measured inside it) took at most
        :meth:`allowed` seconds."""
        took = self.seconds if seconds is None else seconds
        allowed = self.allowed(limit, slack)
        assert took <= allowed, (
            f"{what or 'the call'} took {took:.2f} s, more than {limit} s + {slack} s of "
            f"slack x {self.slowdown:.2f} (how slow the machine was) = {allowed:.2f} s"
        )
