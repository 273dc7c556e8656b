"""Time backends side by side: the boards a bench takes, its runs, and their records.

:func:`run_bench` solves every (n, backend) pair ``repeat`` times; the results are
:class:`Timing` records (the table, the CSV and the notes are in
:mod:`~cpqueens.reporting.bench.tables`, the plot in :mod:`~cpqueens.reporting.bench.plot`).
A ``time_limit`` per run and a ``budget`` for the whole bench bound it: a backend
whose run is stopped goes no higher in n, and once the budget is spent nothing more
starts; each record says how its pair ended and why.

>>> timings = run_bench([4, 5], ["stack"], repeat=2)
>>> [(t.n, t.count, t.nodes, len(t.seconds)) for t in timings]
[(4, 2, 16, 2), (5, 10, 53, 2)]
"""

from __future__ import annotations

import contextlib
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ...api import check_size, solve
from ...arguments import check_int, check_seconds, check_time_limit
from ...display import numbers
from ...errors import CPQueensError, InvalidInputError
from ...solvers import REGISTRY
from ..effort import main_effort

#: The largest board a bench times. Every run lists every solution: at n=14 that is
#: 365,596 boards and 27 million nodes, a minute or more per run for the Python
#: backtrackers, and each further n multiplies it by about six (n=16: 14.7 million
#: boards, some 3 GB a run, and hours).
LARGEST_N = 14


def beyond_bench(command: str = "bench") -> str:
    """Why ``command`` stops at :data:`LARGEST_N` and what to use instead, for messages."""
    return (
        f"the largest board {command} takes: it lists every solution, n={LARGEST_N} already "
        "takes minutes a run and each n more about six times as long; on a larger board "
        "time one solution (`cpqueens solve N --backend B`, stack and random go up to "
        "n=20,000) or the count (`cpqueens count N`, the bitmask counter goes up to n=32)"
    )


@dataclass(frozen=True)
class Timing:
    """The repeated runs of one backend on one board size."""

    backend: str
    n: int
    seconds: tuple[float, ...]
    count: int | None
    nodes: int | None
    error: str | None = None
    #: What ``nodes`` counts: "nodes" for the backtrackers (queens placed) and for
    #: Choco and MiniZinc (the solver's search nodes), "branches" for CP-SAT,
    #: "decisions" for the SAT solvers, None for a backend that reports no effort.
    effort: str | None = "nodes"
    #: How the pair ended (one of :data:`STATUSES`): "done", every run finished;
    #: "refused", the backend would not run it; "timed out", a run was stopped by the
    #: time limit or the budget; "skipped", not started. ``error`` says why for all but
    #: "done"; only a "done" pair has ``seconds``.
    status: str = "done"

    def __post_init__(self) -> None:
        # Records made before there was a status: an error without runs is a refusal.
        if self.status == "done" and self.error is not None and not self.seconds:
            object.__setattr__(self, "status", "refused")

    @property
    def median(self) -> float | None:
        """Median seconds over the runs, or None when the backend could not run."""
        return statistics.median(self.seconds) if self.seconds else None

    @property
    def stopped(self) -> bool:
        """True when the time limit or the budget stopped this pair or kept it from starting."""
        return self.status in ("timed out", "skipped")

    def to_record(self) -> dict[str, Any]:
        """A JSON-serialisable dict, with the median added."""
        record = asdict(self)
        record["seconds"] = list(self.seconds)
        record["median_seconds"] = self.median
        return record

    @classmethod
    def timed_out(cls, backend: str, n: int, why: str) -> Timing:
        """The record of a pair whose run was stopped by the time limit or the budget."""
        return cls(backend, n, (), None, None, f"timed out: {why}", None, "timed out")

    @classmethod
    def skipped(cls, backend: str, n: int, why: str) -> Timing:
        """The record of a pair not started, saying why."""
        return cls(backend, n, (), None, None, f"{NOT_STARTED}{why}", None, "skipped")


#: The ways a (backend, n) pair ends; see :attr:`Timing.status`.
STATUSES = ("done", "refused", "timed out", "skipped")

#: How the error of a pair that was not started begins.
NOT_STARTED = "not started: "


def after_time_out(backend: str, n: int) -> str:
    """Why the larger boards of ``backend`` are not started once its run on ``n`` timed out.

    >>> after_time_out("stack", 12)
    'stack timed out at n=12'
    """
    return f"{backend} timed out at n={n}"


#: The board of the untimed first run of each backend (or the smallest n timed, if
#: smaller): it loads and compiles what the backend needs, which is the same on any board.
WARM_UP_N = 8


def check_bench_sizes(ns: Sequence[int], backends: Sequence[str] = ()) -> None:
    """Refuse, before any run, a board larger than :data:`LARGEST_N` or than a backend takes.

    A backend's own limit is refused in :func:`cpqueens.api.check_size`'s words, naming
    the backend, the n and the largest n it takes; unknown names are left to the runs.

    >>> check_bench_sizes([4, 1000])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: n=1000 goes beyond n=14, the largest board bench takes: ...
    """
    finders = [name for name in backends if name in REGISTRY and not REGISTRY[name].exhaustive]
    if finders:
        # A bench lists every solution; these find a few and prove nothing.
        raise InvalidInputError(
            f"backend {finders[0]!r} finds solutions without listing them all, and a bench "
            "times the search for every solution; time its first solution with "
            f"solve(n, backend={finders[0]!r}, limit=1) instead"
        )
    largest = max(ns, default=0)
    refusal = size_refusal(largest, backends)
    if largest > LARGEST_N:
        besides = "" if refusal is None else f"; besides, {refusal}"
        raise InvalidInputError(f"n={largest} goes beyond n={LARGEST_N}, {beyond_bench()}{besides}")
    if refusal is not None:
        raise InvalidInputError(refusal)


def size_refusal(n: int, backends: Sequence[str]) -> str | None:
    """Why the first of ``backends`` that cannot take board ``n`` refuses it, or None.

    >>> size_refusal(33, ["stack", "bitmask"])  # doctest: +ELLIPSIS
    "n=33 is beyond what backend 'bitmask' handles (n <= 32); backends that take n=33: ..."
    """
    for backend in backends:
        if backend in REGISTRY:
            try:
                check_size(REGISTRY[backend], n)
            except InvalidInputError as error:
                return str(error)
    return None


def time_one(
    backend: str,
    n: int,
    repeat: int,
    *,
    time_limit: float | None = None,
    deadline: float | None = None,
    budget: float | None = None,
) -> Timing:
    """Solve ``n`` with ``backend`` ``repeat`` times; a refusal or a time-out is recorded.

    Each run gets ``time_limit`` seconds, or what is left before ``deadline`` (a
    :func:`time.monotonic` reading, when the whole ``budget`` of seconds runs out) if
    that is less. A run stopped either way ends the pair, with status "timed out".
    """
    seconds: list[float] = []
    nodes: list[int] = []
    count = effort = None
    for run in range(1, repeat + 1):
        limit, by_budget = _run_limit(time_limit, deadline)
        which = f"run {run} of {repeat}"
        if limit is not None and limit <= 0:
            return Timing.timed_out(backend, n, f"{_budget_words(budget)} ran out before {which}")
        try:
            result = solve(n, backend=backend, time_limit=_limit_taken(backend, limit))
        except CPQueensError as error:
            return Timing(backend, n, (), None, None, str(error), status="refused")
        if result.stats.get("timed_out"):
            if by_budget:
                why = f"{_budget_words(budget)} ran out during {which}"
            else:
                why = f"{which} passed the time limit of {numbers.seconds(limit)}"
            return Timing.timed_out(backend, n, why)
        seconds.append(result.elapsed)
        count = result.count
        shown = main_effort(result.stats)
        effort = None if shown is None else shown[0]
        if shown is not None:
            nodes.append(shown[1])
    # A randomised backend may walk a different tree each run: report the median effort.
    median_nodes = int(statistics.median(nodes)) if nodes else None
    return Timing(backend, n, tuple(seconds), count, median_nodes, effort=effort)


def _run_limit(time_limit: float | None, deadline: float | None) -> tuple[float | None, bool]:
    """The seconds a run may take, and whether the budget is what bounds them: the time
    limit, or what is left before ``deadline`` if that is less."""
    if deadline is not None:
        left = deadline - time.monotonic()
        if time_limit is None or left < time_limit:
            return left, True
    return time_limit, False


def _limit_taken(backend: str, limit: float | None) -> float | None:
    """``limit`` for a backend that can be stopped by a time limit, None for one that cannot."""
    engine = REGISTRY.get(backend)
    return limit if engine is None or engine.supports_time_limit else None


def _budget_words(budget: float | None) -> str:
    return "the budget" if budget is None else f"the budget of {numbers.seconds(budget)}"


def run_bench(
    ns: Sequence[int],
    backends: Sequence[str],
    repeat: int = 3,
    *,
    on_done: Callable[[Timing], None] | None = None,
    on_start: Callable[[str, int], None] | None = None,
    time_limit: float | None = None,
    budget: float | None = None,
) -> list[Timing]:
    """Time every backend on every n, smallest n first, calling ``on_done`` after each pair.

    Running all backends at one n before the next n means an interrupted run has
    comparable figures for every size it finished. Boards beyond :data:`LARGEST_N`,
    or beyond what a backend takes, are refused before any run (see
    :func:`check_bench_sizes`).

    Parameters
    ----------
    ns, backends : sequences
        The board sizes and the backend names.
    repeat : int
        Runs per (n, backend) pair; the median is reported.
    on_done : callable, optional
        Called with each :class:`Timing`, those skipped included, as it is made.
    on_start : callable, optional
        Called with ``(backend, n)`` before the runs of a pair start.
    time_limit : float, optional
        Seconds allowed to each run. A run that takes longer is stopped and its pair
        recorded as "timed out"; the backend is then not tried on larger n (those
        pairs are recorded as "skipped", saying why).
    budget : float, optional
        Seconds for the whole bench, the untimed first runs included. The run going
        on when it runs out is stopped ("timed out") and the pairs left are not
        started ("skipped", saying why).

    Every run may overrun its limit by the backends' clean-up slack (docs/limits.md).
    """
    check_bench_sizes(ns, backends)
    if not ns:
        return []
    repeat = check_int(repeat, "repeat", 1)
    time_limit = check_time_limit(time_limit)
    budget = None if budget is None else check_seconds(budget, "budget")
    deadline = None if budget is None else time.monotonic() + budget

    # One untimed run per backend first: compilation (numba), imports and caches
    # would otherwise land in the first timed run.
    for backend in backends:
        limit, _ = _run_limit(time_limit, deadline)
        if limit is not None and limit <= 0:
            break
        with contextlib.suppress(CPQueensError):  # time_one records a refusal
            solve(min([*ns, WARM_UP_N]), backend=backend, time_limit=_limit_taken(backend, limit))
    timings = []
    timed_out_at: dict[str, int] = {}  # backend -> the n a run of it was stopped at
    spent = None  # why nothing more is started, once the budget is spent
    for n in ns:
        for backend in backends:
            if spent is None and deadline is not None and time.monotonic() >= deadline:
                spent = f"{_budget_words(budget)} was spent"
            if spent is not None:
                timing = Timing.skipped(backend, n, spent)
            elif backend in timed_out_at and n > timed_out_at[backend]:
                timing = Timing.skipped(backend, n, after_time_out(backend, timed_out_at[backend]))
            else:
                if on_start is not None:
                    on_start(backend, n)
                timing = time_one(
                    backend, n, repeat, time_limit=time_limit, deadline=deadline, budget=budget
                )
                if timing.status == "timed out":
                    timed_out_at[backend] = min(n, timed_out_at.get(backend, n))
            timings.append(timing)
            if on_done is not None:
                on_done(timing)
    return timings
