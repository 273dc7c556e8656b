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

A solver that solved nothing may have been slow, wrong or unable to run, and a plot
of times alone shows the three alike. Every plot says which
(:func:`~.campaign_runs.solver_fates`): a solver that gave a wrong answer is marked
WRONG in bold red with the number of its instances (a red cross in the legend when none of its
runs is drawn), one whose every run ended in an error "could not run", in grey
italics, with the reason the store records ("not installed", "program not found");
the scatter plot says it on the solver's axis and circles the instances concerned.
Titles are wrapped to the figure's width, legend entries to :data:`_LEGEND_WIDTH`
characters, so that no text leaves the picture.
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
    WRONG_COLOUR,
    Row,
    SolverFate,
    cactus_series,
    campaign_heading,
    check_runs,
    fate_words,
    instance_fates,
    is_solved,
    scatter_points,
    solver_fates,
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
    :func:`~.campaign_runs.campaign_heading`. A solver that gave a wrong answer is
    marked WRONG in the legend with the number of its instances, one whose every run
    ended in an error is marked "could not run" with the reason the store records
    (:func:`~.campaign_runs.solver_fates`); with nothing solved, such a solver has a
    mark of its own in the legend, not a line style, so it does not read as merely slow.
    """
    rows = check_runs(rows)
    figure = new_figure((8.5, 4.8))
    axes = figure.add_subplot()
    limit, floor = time_limit(rows), _floor(rows)
    series = cactus_series(rows)
    styles = ranked_styles(solver_ranking(rows))
    fates = solver_fates(rows)
    best = virtual_best_times(rows)
    if len(series) > 1:
        axes.plot(
            range(1, len(best) + 1), [max(t, floor) for t in best], color="black", alpha=0.3,
            linewidth=5, solid_capstyle="butt", zorder=1,
            label=f"{VBS}: virtual best solver ({plural(len(best), 'instance')})",
        )  # fmt: skip
    for label, style in styles.items():
        shown = [max(t, floor) for t in series[label]]  # a log axis cannot show a time of 0
        fate = fates[label]
        if not shown and fate.failed:
            _fate_entry(axes, fate)
            continue
        words = fate_words(fate)
        axes.plot(
            range(1, len(shown) + 1), shown, **style, markersize=4, zorder=2,
            label=_wrapped(f"{label} ({plural(len(shown), 'instance')}"
                           + (f"; {words})" if words else ")")),
        )  # fmt: skip
    axes.axhline(limit, linestyle=(0, (1, 2)), color="0.3", label=f"time limit ({seconds(limit)})")
    axes.set(xlabel="instances solved", ylabel="wall time (s)", yscale="log")
    axes.xaxis.get_major_locator().set_params(integer=True)
    axes.grid(True, which="major", alpha=0.3)
    # Right of the axes: inside, it would hide the lines' ends, where they differ most.
    _mark_fates(legend_outside(axes), fates)
    # Over the whole figure, not the axes: a long campaign name would run off its left.
    _fitted_title(figure, f"{title or 'Instances solved against time'}\n{campaign_heading(rows)}")
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

    The axes name the solvers, each with what went wrong with it (WRONG on k
    instances, could not run: :func:`~.campaign_runs.fate_words`); the markers say what the
    instance is (satisfiable, unsatisfiable, undecided), in words no solver label can
    be mistaken for. An instance on which either solver was wrong, or answered nothing
    for an error, is pinned to the time-out line like a slow run, so it is circled by
    a mark of its own (a red cross, a grey diamond), which the legend names.
    """
    from matplotlib.lines import Line2D

    rows = check_runs(rows)
    points = scatter_points(rows, first, second)
    limit, floor = time_limit(rows), _floor(rows)
    figure = new_figure((5.5, 6.2))
    axes = figure.add_subplot()
    shown = [(limit if x is None else max(x, floor), limit if y is None else max(y, floor))
             for x, y, _ in points]  # fmt: skip
    handles = []
    for verdict, (marker, colour, words) in _VERDICT_STYLE.items():
        chosen = [point for point, (_, _, v) in zip(shown, points, strict=True) if v == verdict]
        if chosen:
            # Unsolved is pinned to the limit, solved clamped off 0 for the log axes.
            xs, ys = zip(*chosen, strict=True)
            # Hollow (an "x" has no inside): points that overlap stay visible.
            paint = {"color": colour} if marker == "x" else {"facecolors": "none",
                                                              "edgecolors": colour}  # fmt: skip
            handles.append(axes.scatter(xs, ys, marker=marker, s=24, linewidths=1.1,
                                        label=words, **paint))  # fmt: skip
    marks = _failed_points(rows, first, second, shown)
    for fate, chosen in marks.items():
        wrong = fate == "wrong"
        axes.scatter(*zip(*chosen, strict=True), marker="X" if wrong else "D", s=90,
                     facecolors="none", edgecolors=WRONG_COLOUR if wrong else "0.35",
                     linewidths=1.0, zorder=3)  # fmt: skip
    low, high = floor / 1.5, limit * 1.6
    axes.plot([low, high], [low, high], color="0.5", linewidth=0.8)
    for line in (axes.axvline, axes.axhline):
        line(limit, linestyle=":", color="0.3", linewidth=0.9)
    axes.annotate("time-out", (limit, low), xytext=(3, 3), textcoords="offset points",
                  fontsize="small", color="0.3", rotation=90)  # fmt: skip
    axes.set(xscale="log", yscale="log", xlim=(low, high), ylim=(low, high))
    axes.set_aspect("equal", adjustable="box")
    fates = solver_fates(rows)
    axes.set(xlabel=_axis_words(fates[first]), ylabel=_axis_words(fates[second]))
    for label, solver in ((axes.xaxis.label, first), (axes.yaxis.label, second)):
        if fates[solver].wrong:
            label.set(color=WRONG_COLOUR)
    axes.grid(True, which="major", alpha=0.3)
    _fitted_title(figure, f"Solver {first!r} against solver {second!r}, per instance\n"
                          f"{campaign_heading(rows)}")  # fmt: skip
    labels = [handle.get_label() for handle in handles]
    title = "the instance is"
    if marks:
        # One legend: a second one at the bottom would be drawn over the first.
        words = {"wrong": ("X", WRONG_COLOUR, "a WRONG answer"),
                 "error": ("D", "0.35", "an error, no answer")}  # fmt: skip
        for fate in marks:
            marker, colour, text = words[fate]
            handles.append(Line2D([], [], linestyle="none", marker=marker, markersize=8,
                                  markerfacecolor="none", markeredgecolor=colour))  # fmt: skip
            labels.append(text)
        title += "; circled: a run of either solver gave"
    if handles:
        # Outside the axes: inside, it would hide points pinned to the time-out lines.
        figure.legend(handles, labels, fontsize="small", loc="outside lower center", ncols=3,
                      title=title, title_fontsize="small")  # fmt: skip
    return figure


def _axis_words(fate: SolverFate) -> str:
    """An axis of the scatter plot: the solver's time, and what went wrong with it."""
    words = fate_words(fate)
    return f"wall time of solver {fate.solver!r} (s)" + (f"\n{_wrapped(words)}" if words else "")


def _failed_points(
    rows: Sequence[Row], first: str, second: str, shown: list[tuple[float, float]]
) -> dict[str, list[tuple[float, float]]]:
    """The scatter's points (as drawn) on which either solver was wrong (``"wrong"``) or
    answered nothing for an error (``"error"``); a wrong answer outranks an error."""
    xs, ys = instance_fates(rows, first), instance_fates(rows, second)
    keys = [key for key in xs if key in ys]  # the order of scatter_points
    marks: dict[str, list[tuple[float, float]]] = {}
    for key, point in zip(keys, shown, strict=True):
        pair = {xs[key], ys[key]}
        fate = "wrong" if "wrong" in pair else "error" if "error" in pair else None
        if fate is not None:
            marks.setdefault(fate, []).append(point)
    return dict(sorted(marks.items(), key=lambda item: item[0] != "wrong"))


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
    # Over the figure, not the top panel: the panel's legend narrows it, and a title
    # centred on it ran off the figure's left edge.
    _fitted_title(figure, f"Satisfiable fraction and {effort if effort != 'wall' else 'time'} "
                          f"against {parameter}\n{campaign_heading(rows)}")  # fmt: skip
    top.text(0.0, -0.02, "numbers: instances decided at the point (of how many, when fewer)",
             transform=top.transAxes, va="top", fontsize="x-small", color="0.25")  # fmt: skip
    legend_outside(top)
    _draw_efforts(bottom, table, solver_ranking(rows), time_limit(rows), solver_fates(rows))
    bottom.set(xlabel=_PARAMETER_WORDS.get(parameter, f"{parameter} (generator parameter)"))
    for axes in (top, bottom):
        axes.grid(True, which="major", alpha=0.3)
    return figure


def _draw_efforts(
    axes, table: TransitionTable, ranking: list[str], limit: float, fates: dict[str, SolverFate]
) -> None:
    """The effort panel: a median line and inter-quartile band per solver, hollow
    markers where runs did not finish, and what was left out, in the legend. A solver
    that was wrong, or could not run, says so in the legend; one with no run to draw
    (every run wrong or in error) is there too, with a mark of its own and no line."""
    from matplotlib.lines import Line2D

    drawn = [label for label in ranking if label in table.efforts]
    styles = ranked_styles(drawn)
    for label in ranking:
        fate = fates[label]
        if label not in styles:
            if fate.failed:
                _fate_entry(axes, fate, note="; not drawn")
            continue
        style = styles[label]
        medians, spread = table.efforts[label], table.spread[label]
        xs = list(medians)
        axes.fill_between(xs, [spread[x][0] for x in xs], [spread[x][1] for x in xs],
                          color=style["color"], alpha=0.15, linewidth=0)  # fmt: skip
        sizes = sorted(set(table.runs[label].values()))
        size = str(sizes[0]) if len(sizes) == 1 else f"{sizes[0]}-{sizes[-1]}"
        words = fate_words(fate)
        axes.plot(xs, list(medians.values()), **style, markersize=4,
                  label=_wrapped(f"{label} ({size} runs a point" +
                                 (f"; {words})" if words else ")")))  # fmt: skip
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
        labels.append(_wrapped(note))
    what = "wall time (s)" if table.effort == "wall" else table.effort
    axes.set(ylabel=f"median {what}\n(band: quartiles)", yscale="log")
    # Right of each panel, off the data (a solver has its style of every other plot).
    legend = axes.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.02, 1.0),
                         borderaxespad=0.0, fontsize="small")  # fmt: skip
    _mark_fates(legend, fates)


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


#: The widest line of a legend entry (characters): wider, the legend would squeeze the axes.
_LEGEND_WIDTH = 48


def _wrapped(text: str, width: int = _LEGEND_WIDTH) -> str:
    """``text`` on lines of at most ``width`` characters (a long label or reason).

    >>> _wrapped("ace: could not run (program not found: './no-such-solver')")
    "ace: could not run (program not found:\\n'./no-such-solver')"
    """
    return "\n".join(textwrap.wrap(text, width, break_on_hyphens=False)) or text


def _fate_entry(axes, fate: SolverFate, *, note: str = "") -> None:
    """Give a failed solver with nothing to draw an entry of the legend.

    Nothing is drawn in the axes: a WRONG solver gets a cross in the legend, one that
    could not run no mark at all, neither the line style of a solver that was slow.
    """
    wrong = fate.wrong > 0
    # A line of no points: it is in the legend, in the solvers' order, and nowhere else.
    axes.plot([], [], linestyle="none", marker="X" if wrong else "", markersize=7,
              color=WRONG_COLOUR if wrong else "0.4",
              label=_wrapped(f"{fate.solver}: {fate_words(fate)}{note}"))  # fmt: skip


def _mark_fates(legend, fates: dict[str, SolverFate]) -> None:
    """Set apart in ``legend`` the words of the solvers that failed: WRONG in bold red,
    "could not run" in grey italics (a legend entry's text starts with its solver)."""
    if legend is None:
        return
    for text in legend.get_texts():
        words = text.get_text()
        fate = next((fates[label] for label in sorted(fates, key=len, reverse=True)
                     if words.startswith((f"{label} (", f"{label}: "))), None)  # fmt: skip
        if fate is None:
            continue
        if fate.wrong:
            text.set(color=WRONG_COLOUR, fontweight="bold")
        elif fate.could_not_run:
            text.set(color="0.35", fontstyle="italic")


def _fitted_title(figure, text: str):
    """Title ``figure`` with ``text``, each line wrapped until it fits the figure's width.

    Over the whole figure (a suptitle), not an axes: an axes' title is centred on the
    axes, and a long campaign name ran off the figure's left edge.
    """
    title = figure.suptitle(text, fontsize="medium", parse_math=False)
    renderer = figure.canvas.get_renderer()
    room = 0.96 * figure.bbox.width
    width = max(len(line) for line in text.splitlines())
    while title.get_window_extent(renderer).width > room and width > 16:
        width = int(width * 0.9)
        title.set_text("\n".join(textwrap.fill(line, width) for line in text.splitlines()))
    return title


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
