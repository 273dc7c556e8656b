"""The plot of a bench: time and search effort against n, a line a backend, log scales.

>>> from cpqueens.reporting.bench.runs import Timing
>>> figure = bench_figure([Timing("stack", 4, (0.5, 0.25), 2, 16)], title="stack")
>>> [axes.get_title() for axes in figure.axes]
['time to find every solution', 'search effort']
"""

from __future__ import annotations

from collections.abc import Sequence

from ..figures import new_figure
from ..style import backend_style
from .runs import Timing


def bench_figure(timings: Sequence[Timing], title: str | None = None):
    """Return a matplotlib Figure: time against n and nodes against n, log scale, a line a backend.

    Every run is drawn as a faint dot and the median as the line, so the spread of
    repeated runs stays visible. Each backend has its colour and marker of
    :func:`~cpqueens.reporting.style.backend_style`, the same in both panels and in
    every other plot, so one legend, to the right of the panels and off the data,
    names them all. Drawn without pyplot (:func:`~.figures.new_figure`), so it works
    without a display and leaves no global state behind.
    """
    from matplotlib.lines import Line2D

    figure = new_figure((11.5, 4.6))
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
