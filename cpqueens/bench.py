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

from .api import solve
from .errors import CPQueensError


@dataclass(frozen=True)
class Timing:
    """The repeated runs of one backend on one board size."""

    backend: str
    n: int
    seconds: tuple[float, ...]
    count: int | None
    nodes: int | None
    error: str | None = None

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


def time_one(backend: str, n: int, repeat: int) -> Timing:
    """Solve ``n`` with ``backend`` ``repeat`` times; a refusal is recorded, not raised."""
    seconds: list[float] = []
    nodes: list[int] = []
    count = None
    for _ in range(repeat):
        try:
            result = solve(n, backend=backend)
        except CPQueensError as error:
            return Timing(backend, n, (), None, None, str(error))
        seconds.append(result.elapsed)
        count = result.count
        if result.stats.get("nodes") is not None:
            nodes.append(result.stats["nodes"])
    # A randomised backend may walk a different tree each run: report the median effort.
    median_nodes = int(statistics.median(nodes)) if nodes else None
    return Timing(backend, n, tuple(seconds), count, median_nodes)


def run_bench(
    ns: Sequence[int],
    backends: Sequence[str],
    repeat: int = 3,
    *,
    on_done: Callable[[Timing], None] | None = None,
) -> list[Timing]:
    """Time every backend on every n, smallest n first, calling ``on_done`` after each pair.

    Running all backends at one n before the next n means an interrupted run has
    comparable figures for every size it finished.
    """
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


def bench_table(timings: Sequence[Timing]) -> str:
    """Format the timings as a text table, with each median's ratio to the fastest at that n.

    >>> print(bench_table([Timing("stack", 4, (0.5, 0.25, 0.75), 2, 16)]))
    backend       n  median ms  x fastest  solutions       nodes      nodes/s
    stack         4        500        1.0          2          16           32
    """
    fastest: dict[int, float] = {}
    for t in timings:
        if t.median is not None:
            fastest[t.n] = min(fastest.get(t.n, t.median), t.median)
    lines = [
        f"{'backend':<12}{'n':>3}{'median ms':>11}{'x fastest':>11}{'solutions':>11}"
        f"{'nodes':>12}{'nodes/s':>13}"
    ]
    for t in timings:
        if t.median is None:
            lines.append(f"{t.backend:<12}{t.n:>3}   skipped: {t.error}")
            continue
        ratio = t.median / fastest[t.n] if fastest[t.n] > 0 else 1.0
        nodes = "-" if t.nodes is None else f"{t.nodes:,}"
        rate = "-" if t.nodes is None or t.median <= 0 else f"{t.nodes / t.median:,.0f}"
        lines.append(
            f"{t.backend:<12}{t.n:>3}{t.median * 1e3:>11.3g}{ratio:>11.1f}{t.count:>11,}"
            f"{nodes:>12}{rate:>13}"
        )
    return "\n".join(lines)


def bench_csv(timings: Sequence[Timing]) -> str:
    """Format the timings as CSV, one row per (backend, n); the runs are space-separated."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["backend", "n", "median_seconds", "runs_seconds", "count", "nodes", "error"])
    for t in timings:
        writer.writerow(
            [
                t.backend,
                t.n,
                "" if t.median is None else f"{t.median:.6g}",
                " ".join(f"{s:.6g}" for s in t.seconds),
                "" if t.count is None else t.count,
                "" if t.nodes is None else t.nodes,
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
            node_axes.plot(ns, nodes, style, color=colour, label=backend, markerfacecolor="none")
    time_axes.set(xlabel="n", ylabel="seconds (median; dots: each run)", yscale="log")
    time_axes.set_title("time to find every solution")
    node_axes.set(xlabel="n", ylabel="nodes (queens placed)", yscale="log")
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
