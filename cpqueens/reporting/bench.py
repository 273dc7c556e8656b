"""Time backends side by side: repeated runs, medians, search effort, and the plot of both.

:func:`run_bench` solves every (n, backend) pair ``repeat`` times; the results are
:class:`Timing` records, which :func:`bench_table`, :func:`bench_csv` and
:func:`bench_figure` turn into a text table, a CSV file and a two-panel log-scale plot.
A ``time_limit`` per run and a ``budget`` for the whole bench bound it: a backend
whose run is stopped goes no higher in n, and once the budget is spent nothing more
starts; :func:`bench_notes` says what was stopped and why.

>>> timings = run_bench([4, 5], ["stack"], repeat=2)
>>> [(t.n, t.count, t.nodes, len(t.seconds)) for t in timings]
[(4, 2, 16, 2), (5, 10, 53, 2)]
"""

from __future__ import annotations

import contextlib
import csv
import io
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ..api import check_size, solve
from ..arguments import check_time_limit
from ..display import numbers
from ..errors import CPQueensError, InvalidInputError
from ..solvers import REGISTRY
from .effort import main_effort
from .tables import format_grid

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


#: The ways a (backend, n) pair ends; see :attr:`Timing.status`.
STATUSES = ("done", "refused", "timed out", "skipped")

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


def _check_budget(budget: object) -> float | None:
    """``budget`` in seconds (None for none), checked as a time limit is."""
    try:
        return check_time_limit(budget)
    except CPQueensError as error:
        raise type(error)(str(error).replace("time_limit", "budget")) from None


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
    engine = REGISTRY.get(backend)
    limited = engine is None or engine.supports_time_limit
    for run in range(1, repeat + 1):
        limit, by_budget = time_limit, False
        if deadline is not None:
            left = deadline - time.monotonic()
            if limit is None or left < limit:
                limit, by_budget = left, True
        which = f"run {run} of {repeat}"
        if limit is not None and limit <= 0:
            return _timed_out(backend, n, f"{_budget_words(budget)} ran out before {which}")
        try:
            result = solve(n, backend=backend, time_limit=limit if limited else None)
        except CPQueensError as error:
            return Timing(backend, n, (), None, None, str(error), status="refused")
        if result.stats.get("timed_out"):
            if by_budget:
                why = f"{_budget_words(budget)} ran out during {which}"
            else:
                why = f"{which} passed the time limit of {numbers.seconds(limit)}"
            return _timed_out(backend, n, why)
        seconds.append(result.elapsed)
        count = result.count
        shown = main_effort(result.stats)
        effort = None if shown is None else shown[0]
        if shown is not None:
            nodes.append(shown[1])
    # A randomised backend may walk a different tree each run: report the median effort.
    median_nodes = int(statistics.median(nodes)) if nodes else None
    return Timing(backend, n, tuple(seconds), count, median_nodes, effort=effort)


def _budget_words(budget: float | None) -> str:
    return "the budget" if budget is None else f"the budget of {numbers.seconds(budget)}"


def _timed_out(backend: str, n: int, why: str) -> Timing:
    return Timing(backend, n, (), None, None, f"timed out: {why}", None, "timed out")


def _skipped(backend: str, n: int, why: str) -> Timing:
    return Timing(backend, n, (), None, None, f"not started: {why}", None, "skipped")


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
    time_limit = check_time_limit(time_limit)
    budget = _check_budget(budget)
    deadline = None if budget is None else time.monotonic() + budget

    def left() -> float | None:
        if deadline is None:
            return time_limit
        rest = deadline - time.monotonic()
        return rest if time_limit is None else min(rest, time_limit)

    # One untimed run per backend first: compilation (numba), imports and caches
    # would otherwise land in the first timed run.
    for backend in backends:
        limit = left()
        if limit is not None and limit <= 0:
            break
        engine = REGISTRY.get(backend)
        limited = engine is None or engine.supports_time_limit
        with contextlib.suppress(CPQueensError):  # time_one records a refusal
            solve(min([*ns, WARM_UP_N]), backend=backend, time_limit=limit if limited else None)
    timings = []
    timed_out_at: dict[str, int] = {}  # backend -> the n a run of it was stopped at
    spent = None  # why nothing more is started, once the budget is spent
    for n in ns:
        for backend in backends:
            if spent is None and deadline is not None and time.monotonic() >= deadline:
                spent = f"{_budget_words(budget)} was spent"
            if spent is not None:
                timing = _skipped(backend, n, spent)
            elif backend in timed_out_at and n > timed_out_at[backend]:
                timing = _skipped(backend, n, f"{backend} timed out at n={timed_out_at[backend]}")
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


def bench_notes(timings: Sequence[Timing]) -> list[str]:
    """A line for each backend that timed out and for the pairs left unstarted, saying why.

    >>> bench_notes([_timed_out("stack", 12, "run 1 of 3 passed the time limit of 60.0 s"),
    ...              _skipped("stack", 13, "stack timed out at n=12"),
    ...              _skipped("stack", 14, "stack timed out at n=12")])
    ['stack n=12 timed out: run 1 of 3 passed the time limit of 60.0 s; n=13..14 not tried']
    """
    notes = []
    for t in timings:
        if t.status == "timed out":
            after = [s.n for s in timings if s.backend == t.backend and s.error == _after(t)]
            tail = f"; {_span(after)} not tried" if after else ""
            notes.append(f"{t.backend} n={t.n} {t.error}{tail}")
    unstarted: dict[str, dict[str, list[int]]] = {}
    for t in timings:
        if t.status == "skipped" and not any(t.error == _after(s) for s in timings):
            why = (t.error or "").removeprefix("not started: ")
            unstarted.setdefault(why, {}).setdefault(t.backend, []).append(t.n)
    for why, pairs in unstarted.items():
        where = ", ".join(f"{backend} {_span(ns)}" for backend, ns in pairs.items())
        notes.append(f"not started ({why}): {where}")
    return notes


def _after(t: Timing) -> str:
    """The error of the pairs skipped because ``t`` timed out."""
    return f"not started: {t.backend} timed out at n={t.n}"


def _span(ns: Sequence[int]) -> str:
    """``n=4..6,9`` for [4, 5, 6, 9]."""
    parts: list[list[int]] = []
    for n in sorted(ns):
        if parts and n == parts[-1][1] + 1:
            parts[-1][1] = n
        else:
            parts.append([n, n])
    return "n=" + ",".join(str(a) if a == b else f"{a}..{b}" for a, b in parts)


def bench_grid(timings: Sequence[Timing]) -> list[list[str]]:
    """Arrange the timings as a grid of cells (header first), with each median's ratio to
    the fastest median at the same n. Branches (CP-SAT) are marked ``b``, decisions
    (SAT solvers) ``d``."""
    fastest: dict[int, float] = {}
    for t in timings:
        if t.median is not None:
            fastest[t.n] = min(fastest.get(t.n, t.median), t.median)
    grid = [["backend", "n", "median", "x fastest", "solutions", "nodes", "nodes/s"]]
    # Branches and decisions stand in for nodes; they are marked so as not to pass for them.
    mark = {"nodes": "", "branches": " b", "decisions": " d", None: ""}
    for t in timings:
        if t.median is None:
            grid.append([t.backend, str(t.n), "skipped", "", "", "", t.error or ""])
            continue
        ratio = t.median / fastest[t.n] if fastest[t.n] > 0 else 1.0
        rate = (
            "-"
            if t.nodes is None or t.median <= 0
            else numbers.thousands(round(t.nodes / t.median))
        )
        grid.append(
            [
                t.backend,
                str(t.n),
                numbers.seconds(t.median),
                f"{ratio:.1f}",
                numbers.thousands(t.count),
                "-" if t.nodes is None else f"{numbers.thousands(t.nodes)}{mark[t.effort]}",
                rate,
            ]
        )
    return grid


def bench_table(timings: Sequence[Timing]) -> str:
    """Format the timings as aligned text (see :func:`bench_grid`).

    >>> print(bench_table([Timing("stack", 4, (0.5, 0.25, 0.75), 2, 16)]))
    backend  n  median  x fastest  solutions  nodes  nodes/s
    stack    4  500 ms        1.0          2     16       32
    """
    grid = bench_grid(timings)
    # A pair that did not finish says how it ended: refused, timed out or skipped.
    if len(grid) == len(timings) + 1:
        for row, t in zip(grid[1:], timings, strict=True):
            if t.status != "done" and row[:2] == [t.backend, str(t.n)]:
                row[:] = [t.status if cell == "skipped" else cell for cell in row]
    return format_grid(grid)


def bench_csv(timings: Sequence[Timing]) -> str:
    """Format the timings as CSV, one row per (backend, n); the runs are space-separated."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["backend", "n", "median_seconds", "runs_seconds", "count", "nodes", "effort", "error"]
    header.append("status")
    writer.writerow(header)
    for t in timings:
        writer.writerow(
            [
                t.backend,
                t.n,
                "" if t.median is None else f"{t.median:.6g}",
                " ".join(f"{s:.6g}" for s in t.seconds),
                "" if t.count is None else t.count,
                "" if t.nodes is None else t.nodes,
                t.effort or "",
                t.error or "",
                t.status,
            ]
        )
    return out.getvalue()


def bench_figure(timings: Sequence[Timing], title: str | None = None):
    """Return a matplotlib Figure: time against n and nodes against n, log scale, a line a backend.

    Every run is drawn as a faint dot and the median as the line, so the spread of
    repeated runs stays visible. Each backend has its colour and marker of
    :func:`~cpqueens.reporting.style.backend_style`, the same in both panels and in
    every other plot, so one legend, to the right of the panels and off the data,
    names them all. Uses matplotlib's object API (no pyplot), so it works without a
    display and leaves no global state behind.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    from .style import backend_style

    figure = Figure(figsize=(11.5, 4.6), layout="constrained")
    FigureCanvasAgg(figure)
    time_axes, node_axes = figure.subplots(1, 2)
    backends = list(dict.fromkeys(t.backend for t in timings))
    # Backtrackers that place the same queens draw the same node line: distinct markers
    # and dashes keep every backend visible where lines coincide.
    dashes = ("-", "--", ":", "-.")
    handles = []
    for i, backend in enumerate(backends):
        style = backend_style(backend)
        colour, marker, dash = style["color"], style["marker"], dashes[i % len(dashes)]
        done = [t for t in timings if t.backend == backend and t.median is not None]
        if not done:
            continue
        for t in done:
            time_axes.scatter([t.n] * len(t.seconds), t.seconds, s=9, color=colour, alpha=0.35)
        time_axes.plot(
            [t.n for t in done], [t.median for t in done], marker=marker, linestyle=dash,
            color=colour,
        )  # fmt: skip
        counted = [t for t in done if t.nodes]
        label = backend
        if counted:
            ns, nodes = [t.n for t in counted], [t.nodes for t in counted]
            node_axes.plot(
                ns, nodes, marker=marker, linestyle=dash, color=colour, markerfacecolor="none"
            )
            # Each solver counts its own kind of step: the legend says which.
            if counted[0].effort != "nodes":
                label = f"{backend} ({counted[0].effort})"
        handles.append(Line2D([], [], marker=marker, linestyle=dash, color=colour, label=label))
    time_axes.set(xlabel="n", ylabel="seconds (median; dots: each run)", yscale="log")
    time_axes.set_title("time to find every solution")
    silent = [b for b in backends if not any(t.nodes for t in timings if t.backend == b)]
    # The note goes under the axis, not on the data.
    note = f"\n(no effort counter: {', '.join(silent)})" if silent else ""
    node_axes.set(xlabel="n" + note, yscale="log")
    node_axes.set_ylabel("search effort (each backend's own figure)")
    node_axes.set_title("search effort")
    for axes in (time_axes, node_axes):
        axes.grid(True, which="major", alpha=0.3)
        axes.xaxis.get_major_locator().set_params(integer=True)
    if handles:
        # Outside the axes, right of both panels: never over a line, a dot or the note.
        figure.legend(
            handles=handles,
            loc="outside right upper",
            fontsize="small",
            ncols=1 if len(handles) <= 18 else 2,
        )
    if title:
        figure.suptitle(title)
    return figure


def figure_bytes(figure, fmt: str = "png", dpi: int = 100) -> bytes:
    """Render a matplotlib figure to bytes in ``fmt`` (png or svg)."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format=fmt, dpi=dpi)
    return buffer.getvalue()
