"""Time backends side by side: repeated runs, medians, search effort, and the plot of both.

:func:`run_bench` solves every (n, backend) pair ``repeat`` times; the results are
:class:`Timing` records, which :func:`bench_table`, :func:`bench_csv` and
:func:`bench_figure` turn into a text table, a CSV file and a two-panel log-scale plot.

>>> timings = run_bench([4, 5], ["stack"], repeat=2)
>>> [(t.n, t.count, t.nodes, len(t.seconds)) for t in timings]
[(4, 2, 16, 2), (5, 10, 53, 2)]
"""

from __future__ import annotations

import contextlib
import csv
import io
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ..api import solve
from ..errors import CPQueensError, InvalidInputError
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


#: Search-effort counters, in order of preference: nodes (the backtrackers' queens
#: placed; Choco's and Gecode's search nodes), CP-SAT's branches, a SAT solver's
#: decisions. docs/backends.md says which backend reports which and what it means.
EFFORT_KEYS = ("nodes", "branches", "decisions")


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

    @property
    def median(self) -> float | None:
        """Median seconds over the runs, or None when the backend could not run."""
        return statistics.median(self.seconds) if self.seconds else None

    def to_record(self) -> dict[str, Any]:
        """A JSON-serialisable dict, with the median added."""
        record = asdict(self)
        record["seconds"] = list(self.seconds)
        record["median_seconds"] = self.median
        return record


def check_bench_sizes(ns: Sequence[int]) -> None:
    """Refuse, before any run, a board larger than :data:`LARGEST_N`.

    >>> check_bench_sizes([4, 1000])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: n=1000 goes beyond n=14, the largest board bench takes: ...
    """
    largest = max(ns, default=0)
    if largest > LARGEST_N:
        raise InvalidInputError(f"n={largest} goes beyond n={LARGEST_N}, {beyond_bench()}")


def time_one(backend: str, n: int, repeat: int) -> Timing:
    """Solve ``n`` with ``backend`` ``repeat`` times; a refusal is recorded, not raised."""
    seconds: list[float] = []
    nodes: list[int] = []
    count = effort = None
    for _ in range(repeat):
        try:
            result = solve(n, backend=backend)
        except CPQueensError as error:
            return Timing(backend, n, (), None, None, str(error))
        seconds.append(result.elapsed)
        count = result.count
        effort = next((key for key in EFFORT_KEYS if result.stats.get(key) is not None), None)
        if effort is not None:
            nodes.append(result.stats[effort])
    # A randomised backend may walk a different tree each run: report the median effort.
    median_nodes = int(statistics.median(nodes)) if nodes else None
    return Timing(backend, n, tuple(seconds), count, median_nodes, effort=effort)


def run_bench(
    ns: Sequence[int],
    backends: Sequence[str],
    repeat: int = 3,
    *,
    on_done: Callable[[Timing], None] | None = None,
) -> list[Timing]:
    """Time every backend on every n, smallest n first, calling ``on_done`` after each pair.

    Running all backends at one n before the next n means an interrupted run has
    comparable figures for every size it finished. Boards beyond :data:`LARGEST_N`
    are refused before any run (see :func:`check_bench_sizes`).
    """
    check_bench_sizes(ns)
    timings = []
    # One untimed run per backend first: compilation (numba), imports and caches
    # would otherwise land in the first timed run.
    for backend in backends:
        with contextlib.suppress(CPQueensError):  # time_one records a refusal
            solve(min(ns), backend=backend)
    for n in ns:
        for backend in backends:
            timing = time_one(backend, n, repeat)
            timings.append(timing)
            if on_done is not None:
                on_done(timing)
    return timings


def bench_grid(timings: Sequence[Timing]) -> list[list[str]]:
    """Arrange the timings as a grid of cells (header first), with each median's ratio to
    the fastest median at the same n. Branches (CP-SAT) are marked ``b``, decisions
    (SAT solvers) ``d``."""
    fastest: dict[int, float] = {}
    for t in timings:
        if t.median is not None:
            fastest[t.n] = min(fastest.get(t.n, t.median), t.median)
    grid = [["backend", "n", "median ms", "x fastest", "solutions", "nodes", "nodes/s"]]
    # Branches and decisions stand in for nodes; they are marked so as not to pass for them.
    mark = {"nodes": "", "branches": " b", "decisions": " d", None: ""}
    for t in timings:
        if t.median is None:
            grid.append([t.backend, str(t.n), "skipped", "", "", "", t.error or ""])
            continue
        ratio = t.median / fastest[t.n] if fastest[t.n] > 0 else 1.0
        rate = "-" if t.nodes is None or t.median <= 0 else f"{t.nodes / t.median:,.0f}"
        grid.append(
            [
                t.backend,
                str(t.n),
                f"{t.median * 1e3:.3g}",
                f"{ratio:.1f}",
                f"{t.count:,}",
                "-" if t.nodes is None else f"{t.nodes:,}{mark[t.effort]}",
                rate,
            ]
        )
    return grid


def bench_table(timings: Sequence[Timing]) -> str:
    """Format the timings as aligned text (see :func:`bench_grid`).

    >>> print(bench_table([Timing("stack", 4, (0.5, 0.25, 0.75), 2, 16)]))
    backend  n  median ms  x fastest  solutions  nodes  nodes/s
    stack    4        500        1.0          2     16       32
    """
    return format_grid(bench_grid(timings))


def bench_csv(timings: Sequence[Timing]) -> str:
    """Format the timings as CSV, one row per (backend, n); the runs are space-separated."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["backend", "n", "median_seconds", "runs_seconds", "count", "nodes", "effort", "error"]
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
            ]
        )
    return out.getvalue()


def bench_figure(timings: Sequence[Timing], title: str | None = None):
    """Return a matplotlib Figure: time against n and nodes against n, log scale, a line a backend.

    Every run is drawn as a faint dot and the median as the line, so the spread of
    repeated runs stays visible. Uses matplotlib's object API (no pyplot), so it
    works without a display and leaves no global state behind.
    """
    from matplotlib.figure import Figure

    figure = Figure(figsize=(10, 4.2), layout="constrained")
    time_axes, node_axes = figure.subplots(1, 2)
    backends = list(dict.fromkeys(t.backend for t in timings))
    # Backtrackers that place the same queens draw the same node line: distinct markers
    # and dashes keep every backend visible where lines coincide.
    markers, dashes = "osD^vPX*", ("-", "--", ":", "-.")
    for i, backend in enumerate(backends):
        colour, style = f"C{i % 10}", markers[i % len(markers)] + dashes[i % len(dashes)]
        done = [t for t in timings if t.backend == backend and t.median is not None]
        if not done:
            continue
        for t in done:
            time_axes.scatter([t.n] * len(t.seconds), t.seconds, s=9, color=colour, alpha=0.35)
        time_axes.plot(
            [t.n for t in done], [t.median for t in done], style, color=colour, label=backend
        )
        counted = [t for t in done if t.nodes]
        if counted:
            ns, nodes = [t.n for t in counted], [t.nodes for t in counted]
            # Each solver counts its own kind of step: the label says which.
            label = f"{backend} ({counted[0].effort})"
            node_axes.plot(ns, nodes, style, color=colour, label=label, markerfacecolor="none")
    time_axes.set(xlabel="n", ylabel="seconds (median; dots: each run)", yscale="log")
    time_axes.set_title("time to find every solution")
    node_axes.set(xlabel="n", ylabel="search effort (each backend's own figure)", yscale="log")
    silent = [b for b in backends if not any(t.nodes for t in timings if t.backend == b)]
    if silent:
        node_axes.annotate(
            f"no effort counter: {', '.join(silent)}",
            (0.98, 0.02),
            xycoords="axes fraction",
            ha="right",
            fontsize="small",
            color="0.4",
        )
    node_axes.set_title("search effort")
    for axes in (time_axes, node_axes):
        axes.grid(True, which="major", alpha=0.3)
        axes.xaxis.get_major_locator().set_params(integer=True)
        if axes.get_legend_handles_labels()[0]:
            axes.legend(fontsize="small")
    if title:
        figure.suptitle(title)
    return figure


def figure_bytes(figure, fmt: str = "png", dpi: int = 100) -> bytes:
    """Render a matplotlib figure to bytes in ``fmt`` (png or svg)."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format=fmt, dpi=dpi)
    return buffer.getvalue()
