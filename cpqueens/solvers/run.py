"""The run a backend reports to: its effort counters, its deadline, whether it is whole.

Search effort is counted the same way by every hand-written backend, so that their
figures can be compared (the definitions of the CodeProject tree article):

* a **node** is one queen placed safely; the empty root is not counted;
* an **attempt** is one candidate square tested for safety. A backend that tests
  every square of the next row once per expanded node makes
  ``attempts == n * (expanded nodes, root included)``; a row whose queen is fixed in
  advance has one candidate only.

A backend looks at the clock with :meth:`SearchRun.check_time` every
:func:`check_interval` nodes; the slack a time limit allows is documented in
docs/limits.md.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import Any


class DeadlineReached(Exception):
    """Raised inside a backend by :meth:`SearchRun.check_time`; caught by the API."""


class SearchRun:
    """The mutable side of one search: its statistics, its deadline, its completeness.

    Backends write their effort counters into :attr:`stats`, call
    :meth:`check_time` now and then (it raises :class:`DeadlineReached` past the deadline),
    and set :attr:`complete` to False when they cannot vouch that they saw every
    solution (for instance a parallel solver that may skip some).
    """

    def __init__(self, time_limit: float | None = None, *, started: float | None = None):
        self.stats: dict[str, Any] = {}
        # The clock runs from ``started`` (a time.monotonic() reading: when the call
        # began, its checks included), or from now.
        began = time.monotonic() if started is None else started
        self.deadline = None if time_limit is None else began + time_limit
        self.time_limit = time_limit
        self.complete = True
        self.timed_out = False

    @contextlib.contextmanager
    def clock_stopped(self) -> Iterator[None]:
        """Run the block off the clock: the deadline moves on by the time it took.

        For compiling a backend's kernels or loading them from numba's cache on disk
        (seconds on the first call after installing, a fraction of one in every new
        process after that), which a time limit must never pay for.

        >>> run = SearchRun(0.5)
        >>> with run.clock_stopped():
        ...     time.sleep(0.6)
        >>> run.check_time()  # the sleep came off the clock: not past the deadline
        """
        began = time.monotonic()
        try:
            yield
        finally:
            if self.deadline is not None:
                self.deadline += time.monotonic() - began

    def remaining(self) -> float | None:
        """Seconds left before the deadline, or None without a time limit."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    def check_time(self) -> None:
        """Raise :class:`DeadlineReached` once the deadline has passed."""
        if self.deadline is not None and time.monotonic() >= self.deadline:
            self.mark_timed_out()
            raise DeadlineReached

    def mark_timed_out(self) -> None:
        self.timed_out = True
        self.complete = False


#: How many cheap nodes a backend searches between two looks at the clock.
TIME_CHECK_INTERVAL = 1024

#: Seconds a call may run past its ``time_limit``: the larger of this and
#: :data:`TIME_LIMIT_SLACK_SHARE` of the limit (a solver's own clean-up, a model
#: build step that cannot be cut in two). Documented in docs/limits.md.
TIME_LIMIT_SLACK = 1.0
TIME_LIMIT_SLACK_SHARE = 0.1


def check_interval(work_per_node: int) -> int:
    """Nodes between two looks at the clock, for nodes that cost ``work_per_node`` steps.

    A node of a small board costs a few steps and the clock is read every
    :data:`TIME_CHECK_INTERVAL` nodes; a node of a board of thousands of rows costs
    thousands of steps, and reading the clock at every one of them costs nothing
    next to it, so the interval shrinks as the work grows.

    >>> check_interval(8), check_interval(2000), check_interval(2000 * 2000)
    (1024, 4, 1)
    """
    return max(1, TIME_CHECK_INTERVAL * 8 // max(1, work_per_node))
