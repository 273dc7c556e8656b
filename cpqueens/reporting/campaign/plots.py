"""Plots of a campaign's runs: cactus, pairwise scatter and phase transition.

The *cactus* plot sorts each solver's times on the instances it solved and draws the
k-th fastest against k, so the line furthest right and lowest belongs to the solver
that solves most, fastest; the virtual best solver (per instance, the best time of
any solver) is a line of its own. The *scatter* plot compares two solvers instance by
instance on log-log axes, unsolved instances pinned to the time limit, the instances'
statuses (satisfiable, unsatisfiable, undecided) told apart by marker. The
*transition* plot, in the way of Gent et al., draws against a generator parameter the
fraction of satisfiable instances (crossing 0.5 at the phase transition) above each
solver's median effort with its inter-quartile band, which peaks there. Every plot
is titled with the campaign, its question and its limits.

Every function takes the rows of :meth:`Store.rows
<cpqueens.campaigns.store.Store.rows>` judged by :func:`~cpqueens.campaigns.verify.judge`.
:func:`cactus_figure`, :func:`scatter_figure` and :func:`transition_figure` return the
matplotlib Figure; :func:`cactus`, :func:`scatter` and :func:`transition` write it as
PNG, SVG or PDF, chosen by the path's suffix. The data behind each plot is public, so
it can be checked or tabulated without drawing: :mod:`~cpqueens.reporting.campaign.runs`
(:func:`~.campaign_runs.cactus_series`, :func:`~.campaign_runs.scatter_points`) and
:mod:`~cpqueens.reporting.campaign.phase_transition` (:func:`~.phase_transition.transition_table`).

Solvers are styled by rank (:func:`~.campaign_runs.solver_ranking`,
:func:`~.style.ranked_styles`): the solver that solves most, fastest, has the darkest
colour and a solid line in every plot of the campaign, and each line has its marker
and dash pattern as well as its colour, so the plots read in greyscale too.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Sequence
from pathlib import Path

from ...campaigns.summary import VBS
from ...display.numbers import plural, seconds
from ...errors import InvalidInputError
from ..figures import new_figure, save_figure
from ..style import legend_outside, ranked_styles
from .phase_transition import TransitionTable, check_parameter, tabulate
from .runs import (
    Row,
    cactus_series,
    campaign_heading,
    check_runs,
    is_solved,
    scatter_points,
    solver_ranking,
    time_limit,
    virtual_best_times,
)

#: The plots this module draws.
PLOT_KINDS = ("cactus", "scatter", "transition")

#: Output formats, chosen by the path's suffix.
SUFFIXES = (".png", ".svg", ".pdf")

# Markers, colours and legend words of the instance verdicts in the scatter plot: words
# that are no solver's label ("sat" is one), and colours no solver line has.
_VERDICT_STYLE = {
    "sat": ("o", "black", "satisfiable"),
    "unsat": ("s", "0.55", "unsatisfiable"),
    "unknown": ("x", "0.3", "undecided (no run answered)"),
}

#: The greys of the transition plot's fraction lines, one per n.
_SHADES = ("0.0", "0.4", "0.6")

#: How the x axis of the transition plot names each fixed parameter.
_PARAMETER_WORDS = {
    "density": "density = blocked squares / n²",
    "fill": "fill = given queens / n",
    "n": "n (board size)",
}


def cactus_figure(rows: Sequence[Row], *, title: str | None = None):
    """The cactus plot as a matplotlib Figure: instances solved (x) against time (y, log).

    A line per solver, best first in the legend (:func:`~.campaign_runs.solver_ranking`),
    the virtual best solver as a wide grey line beneath them, and the time limit. The
    title is ``title`` (by default "Instances solved against time") above
    :func:`~.campaign_runs.campaign_heading`.
    """
    rows = check_runs(rows)
    figure = new_figure((8.5, 4.8))
    axes = figure.add_subplot()
    limit, floor = time_limit(rows), _floor(rows)
    series = cactus_series(rows)
    styles = ranked_styles(solver_ranking(rows))
    best = virtual_best_times(rows)
    if len(series) > 1:
        axes.plot(
            range(1, len(best) + 1), [max(t, floor) for t in best], color="black", alpha=0.3,
            linewidth=5, solid_capstyle="butt", zorder=1,
            label=f"{VBS}: virtual best solver ({plural(len(best), 'instance')})",
        )  # fmt: skip
    for label, style in styles.items():
        shown = [max(t, floor) for t in series[label]]  # a log axis cannot show a time of 0
        axes.plot(
            range(1, len(shown) + 1), shown, **style, markersize=4, zorder=2,
            label=f"{label} ({plural(len(shown), 'instance')})",
        )  # fmt: skip
    axes.axhline(limit, linestyle=(0, (1, 2)), color="0.3", label=f"time limit ({seconds(limit)})")
    axes.set(xlabel="instances solved", ylabel="wall time (s)", yscale="log")
    axes.xaxis.get_major_locator().set_params(integer=True)
    axes.grid(True, which="major", alpha=0.3)
    # Right of the axes: inside, it would hide the lines' ends, where they differ most.
    legend_outside(axes)
    # Over the whole figure, not the axes: a long campaign name would run off its left.
    figure.suptitle(f"{title or 'Instances solved against time'}\n{campaign_heading(rows)}",
                    fontsize="medium")  # fmt: skip
    return figure


def cactus(rows: Sequence[Row], path: str | os.PathLike[str], *, title: str | None = None) -> Path:
    """Write the cactus plot (:func:`cactus_figure`) to ``path``.

    Parameters
    ----------
    rows
        Judged runs (see :func:`~.campaign_runs.cactus_series`).
    path
        Where to write; the suffix (.png, .svg, .pdf) picks the format.
    title
        The first line of the title, above the campaign, question and limits.

    Returns
    -------
    pathlib.Path
        ``path``.
    """
    path = _plot_path(path)
    return save_figure(cactus_figure(rows, title=title), path)


def scatter_figure(rows: Sequence[Row], first: str, second: str):
    """The scatter plot of two solvers as a matplotlib Figure: ``first`` on x, log-log.

    The axes name the solvers; the markers say what the instance is (satisfiable,
    unsatisfiable, undecided), in words no solver label can be mistaken for.
    """
    rows = check_runs(rows)
    points = scatter_points(rows, first, second)
    limit, floor = time_limit(rows), _floor(rows)
    figure = new_figure((5.5, 6.2))
    axes = figure.add_subplot()
    for verdict, (marker, colour, words) in _VERDICT_STYLE.items():
        chosen = [(x, y) for x, y, v in points if v == verdict]
        if chosen:
            # Unsolved is pinned to the limit, solved clamped off 0 for the log axes.
            xs = [limit if x is None else max(x, floor) for x, _ in chosen]
            ys = [limit if y is None else max(y, floor) for _, y in chosen]
            # Hollow (an "x" has no inside): points that overlap stay visible.
            paint = {"color": colour} if marker == "x" else {"facecolors": "none",
                                                              "edgecolors": colour}  # fmt: skip
            axes.scatter(xs, ys, marker=marker, s=24, linewidths=1.1, label=words, **paint)
    low, high = floor / 1.5, limit * 1.6
    axes.plot([low, high], [low, high], color="0.5", linewidth=0.8)
    for line in (axes.axvline, axes.axhline):
        line(limit, linestyle=":", color="0.3", linewidth=0.9)
    axes.annotate("time-out", (limit, low), xytext=(3, 3), textcoords="offset points",
                  fontsize="small", color="0.3", rotation=90)  # fmt: skip
    axes.set(xscale="log", yscale="log", xlim=(low, high), ylim=(low, high))
    axes.set_aspect("equal", adjustable="box")
    axes.set(
        xlabel=f"wall time of solver {first!r} (s)", ylabel=f"wall time of solver {second!r} (s)"
    )
    axes.grid(True, which="major", alpha=0.3)
    # Narrower than the others: the heading is wrapped to fit above the square axes.
    heading = "\n".join(textwrap.wrap(campaign_heading(rows), 60))
    axes.set_title(f"Solver {first!r} against solver {second!r}, per instance\n{heading}",
                   fontsize="medium")  # fmt: skip
    if points:
        # Outside the axes: inside, it would hide points pinned to the time-out lines.
        figure.legend(fontsize="small", loc="outside lower center", ncols=3,
                      title="the instance is", title_fontsize="small")  # fmt: skip
    return figure


def scatter(rows: Sequence[Row], first: str, second: str, path: str | os.PathLike[str]) -> Path:
    """Write the scatter plot of two solvers (:func:`scatter_figure`) to ``path``.

    Times are the median of the solved repeats; an instance unsolved in every repeat
    (time-out, memout, error, wrong) is drawn on the time-out line at the time limit.
    Points below the diagonal are instances on which ``second`` is faster.

    Parameters
    ----------
    rows
        Judged runs.
    first, second
        Solver labels; an unknown one raises InvalidInputError.
    path
        Where to write; the suffix (.png, .svg, .pdf) picks the format.

    Returns
    -------
    pathlib.Path
        ``path``.
    """
    path = _plot_path(path)
    return save_figure(scatter_figure(rows, first, second), path)


def transition_figure(rows: Sequence[Row], parameter: str, *, effort: str = "wall"):
    """The phase-transition plot as a matplotlib Figure (see :func:`transition`)."""
    rows = check_runs(rows)
    check_parameter(rows, parameter)
    table = tabulate(rows, parameter, effort)
    figure = new_figure((8.5, 6.8))
    top, bottom = figure.subplots(2, 1, sharex=True)
    # A line per n, in shades of grey: the colours are the solvers' (in the panel below).
    for index, (n, style) in enumerate(ranked_styles(table.fractions).items()):
        fractions = table.fractions[n]
        xs, ys = list(fractions), list(fractions.values())
        label = "all n" if n is None else f"n = {n}"
        top.plot(xs, ys, color=_SHADES[index % len(_SHADES)], marker=style["marker"],
                 linestyle=style["linestyle"], markersize=4, label=label)  # fmt: skip
        for x, y in zip(xs, ys, strict=True):
            decided, total = table.samples[n][x]
            top.annotate(str(decided) if decided == total else f"{decided}/{total}", (x, y),
                         xytext=(0, 5), textcoords="offset points", ha="center",
                         fontsize="x-small", color="0.25")  # fmt: skip
    top.axhline(0.5, linestyle="--", color="0.4", linewidth=0.9)
    top.set(ylabel="fraction satisfiable", ylim=(-0.08, 1.15))
    top.set_title(f"Satisfiable fraction and {effort if effort != 'wall' else 'time'} against "
                  f"{parameter}\n{campaign_heading(rows)}", fontsize="medium")  # fmt: skip
    top.text(0.0, -0.02, "numbers: instances decided at the point (of how many, when fewer)",
             transform=top.transAxes, va="top", fontsize="x-small", color="0.25")  # fmt: skip
    legend_outside(top)
    _draw_efforts(bottom, table, solver_ranking(rows), time_limit(rows))
    bottom.set(xlabel=_PARAMETER_WORDS.get(parameter, f"{parameter} (generator parameter)"))
    for axes in (top, bottom):
        axes.grid(True, which="major", alpha=0.3)
    return figure


def _draw_efforts(axes, table: TransitionTable, ranking: list[str], limit: float) -> None:
    """The effort panel: a median line and inter-quartile band per solver, hollow
    markers where runs did not finish, and what was left out, in the legend."""
    from matplotlib.lines import Line2D

    ranked = [label for label in ranking if label in table.efforts]
    for label, style in ranked_styles(ranked).items():
        medians, spread = table.efforts[label], table.spread[label]
        xs = list(medians)
        axes.fill_between(xs, [spread[x][0] for x in xs], [spread[x][1] for x in xs],
                          color=style["color"], alpha=0.15, linewidth=0)  # fmt: skip
        sizes = sorted(set(table.runs[label].values()))
        size = str(sizes[0]) if len(sizes) == 1 else f"{sizes[0]}-{sizes[-1]}"
        axes.plot(xs, list(medians.values()), **style, markersize=4,
                  label=f"{label} ({size} runs a point)")  # fmt: skip
        late = [x for x in xs if table.unfinished[label][x]]
        axes.plot(late, [medians[x] for x in late], linestyle="none", markersize=7,
                  marker=style["marker"], markerfacecolor="white",
                  markeredgecolor=style["color"])  # fmt: skip
    handles, labels = axes.get_legend_handles_labels()
    words = "at the time limit" if table.effort == "wall" else "where they stopped"
    late = any(any(by_x.values()) for by_x in table.unfinished.values())
    notes = [f"hollow: runs that did not finish, counted {words}"] if late else []
    if table.left_out:
        who = ", ".join(f"{label}: {number}" for label, number in table.left_out.items())
        notes.append(f"not drawn: {plural(sum(table.left_out.values()), 'run')} in error or wrong "
                     f"({who})")  # fmt: skip
    if table.effort == "wall":
        axes.axhline(limit, linestyle=(0, (1, 2)), color="0.3", linewidth=0.9)
        notes.append(f"dotted: the time limit ({seconds(limit)})")
    for note in notes:
        handles.append(Line2D([], [], linestyle="none", marker="o" if note[0] == "h" else "",
                              markerfacecolor="white", markeredgecolor="0.3"))  # fmt: skip
        labels.append(note)
    what = "wall time (s)" if table.effort == "wall" else table.effort
    axes.set(ylabel=f"median {what}\n(band: quartiles)", yscale="log")
    # Right of each panel, off the data (a solver has its style of every other plot).
    axes.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.02, 1.0),
                borderaxespad=0.0, fontsize="small")  # fmt: skip


def transition(
    rows: Sequence[Row], parameter: str, path: str | os.PathLike[str], *, effort: str = "wall"
) -> Path:
    """Write the phase-transition plot: fraction satisfiable above median effort, by parameter.

    The top panel has the fraction of the decided instances that are satisfiable, with
    a dashed line at 0.5 and, at each point, how many instances it is taken over; the
    bottom panel each solver's median effort (log) with its inter-quartile band, a
    hollow marker where some runs did not finish. Runs that ended in an error or a
    wrong answer are not drawn (the legend says how many). When the runs come from
    several n and ``parameter`` is not ``"n"``, the fraction gets a line per n but the
    effort of each solver is pooled over n, to keep the panel readable.

    Parameters
    ----------
    rows
        Judged runs.
    parameter
        ``"density"``, ``"fill"``, ``"n"`` or a key of the instances' ``params``; see
        :func:`~.phase_transition.transition_table`.
    path
        Where to write; the suffix (.png, .svg, .pdf) picks the format.
    effort
        ``"wall"`` (unfinished runs at their time limit) or a key of the runs' ``stats``.

    Returns
    -------
    pathlib.Path
        ``path``.
    """
    path = _plot_path(path)
    return save_figure(transition_figure(rows, parameter, effort=effort), path)


def _plot_path(path: str | os.PathLike[str]) -> Path:
    """``path`` as a Path, once its suffix names a format a plot is written in."""
    path = Path(path)
    if path.suffix.lower() not in SUFFIXES:
        raise InvalidInputError(
            f"cannot write a plot to {path.name!r}: unknown suffix {path.suffix or '(none)'!r}; "
            f"use one of {', '.join(SUFFIXES)}"
        )
    return path


def _floor(rows: Sequence[Row]) -> float:
    """The smallest time a log axis shows: half the fastest positive solved time."""
    positive = [float(row["wall"]) for row in rows if is_solved(row) and row["wall"] > 0]
    return min(positive) / 2 if positive else time_limit(rows) / 1000
