"""The plot of a search profile: nodes per depth (log), and the totals beside the solvers'.

>>> from cpqueens.reporting.profile.profiles import search_profile
>>> figure = profile_figure(search_profile(4, solvers=[]))
>>> [axes.get_title() for axes in figure.axes]
['queens placed at each depth', "whole search, and the solvers' own figures"]
"""

from __future__ import annotations

from ...display import numbers
from ..figures import new_figure
from ..style import backend_style, search_style
from .profiles import SearchProfile


def profile_figure(profile: SearchProfile, title: str | None = None):
    """Return a matplotlib Figure: nodes per depth (log), and the totals beside the solvers'.

    The searches have the colours of :func:`~cpqueens.reporting.style.search_style` and
    the solvers' bars the colour of their backend (:func:`~.style.backend_style`), as
    in every other plot; the legend stands under the panels, off the data.
    """
    figure = new_figure((12, 4.6))
    depth_axes, total_axes = figure.subplots(1, 2, width_ratios=(3, 2))
    depths = list(range(1, profile.n + 1))
    for line in profile.searches:
        counts = [line.nodes_per_depth[d] or None for d in depths]  # log scale: no zeros
        depth_axes.plot(depths, counts, **search_style(line.label), label=line.label)
    depth_axes.set(xlabel="depth (queens on the board)", ylabel="nodes", yscale="log")
    depth_axes.set_title("queens placed at each depth")
    depth_axes.xaxis.get_major_locator().set_params(integer=True)
    depth_axes.grid(True, alpha=0.3)
    if any(line.nodes for line in profile.searches):
        # Outside, under both panels (the bars have the same colours): off the data,
        # and clear of the panels' titles.
        figure.legend(loc="outside lower center", fontsize="small", ncols=5)

    bars = [
        (line.label + " nodes", line.nodes, search_style(line.label)["color"])
        for line in profile.searches
    ]
    for solver in profile.solvers:
        colour = backend_style(solver.backend)["color"]
        bars += [(f"{solver.backend} {key}", value, colour) for key, value in solver.efforts()]
    bars = [bar for bar in bars if bar[1] > 0]
    if bars:
        labels, values, colours = zip(*bars, strict=True)
        positions = range(len(bars))
        total_axes.barh(positions, values, color=colours)
        total_axes.set_yticks(positions, labels, fontsize="small")
        total_axes.invert_yaxis()
        total_axes.set_xscale("log")
        # Bars grow from 1, so their lengths compare on the log scale; room for the figures.
        total_axes.set_xlim(1, max(values) * 4)
        for position, value in zip(positions, values, strict=True):
            total_axes.annotate(
                f" {numbers.thousands(round(value))}",
                (value, position),
                va="center",
                fontsize="x-small",
            )
    total_axes.set_title("whole search, and the solvers' own figures")
    total_axes.grid(True, axis="x", alpha=0.3)
    fixed = ""
    if profile.fixed:
        fixed = ", fixed " + ", ".join(f"row {r}: col {c}" for r, c in profile.fixed.items())
    figure.suptitle(title or f"{profile.n}-queens search profile{fixed}")
    return figure
