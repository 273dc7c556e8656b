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
PNG, SVG or PDF, chosen by the path's suffix. The data behind each plot
(:func:`cactus_series`, :func:`scatter_points`, :func:`transition_table`) is public,
so it can be checked or tabulated without drawing.

Solvers are styled by rank (:func:`solver_ranking`, :func:`~.style.ranked_styles`):
the solver that solves most, fastest, has the darkest colour and a solid line in
every plot of the campaign, and each line has its marker and dash pattern as well as
its colour, so the plots read in greyscale too.
"""

from __future__ import annotations

import os
import statistics
import textwrap
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..campaigns.summary import VBS
from ..campaigns.verify import SOLVED
from ..display.numbers import plural, seconds, thousands
from ..errors import InvalidInputError
from .effort import is_number
from .style import legend_outside, ranked_styles

#: The plots this module draws.
PLOT_KINDS = ("cactus", "scatter", "transition")

#: Output formats, chosen by the path's suffix.
SUFFIXES = (".png", ".svg", ".pdf")

#: Parameters of :func:`transition` computed from every instance, whatever its generator.
FIXED_PARAMETERS = ("density", "fill", "n")

Row = dict[str, Any]

#: Statuses of a run that did not finish: drawn at the time limit, and marked so.
UNFINISHED = ("unknown", "memout")

#: Statuses of a run whose time means nothing: never drawn as a time in the transition.
FAILED = ("error", "wrong")

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


# ----------------------------------------------------------------------------- data


def outcome(row: Row) -> str:
    """How the run ended: its verdict, or its status when it is not judged yet."""
    # Judged rows may have been overruled (a wrong answer found across runs).
    return row.get("verdict") or row.get("status")


def is_solved(row: Row) -> bool:
    """True when the run answered its question (verdict ``sat`` or ``unsat``)."""
    return outcome(row) in SOLVED


def time_limit(rows: Sequence[Row]) -> float:
    """The largest time limit of the runs: where time-outs are drawn."""
    return max(float(row["time_limit"]) for row in rows)


def solvers(rows: Sequence[Row]) -> list[str]:
    """The solver labels, in the order of their first run."""
    return list(dict.fromkeys(row["solver"] for row in rows))


def cactus_series(rows: Sequence[Row]) -> dict[str, list[float]]:
    """Each solver's times on the instances it solved, sorted ascending (``[]`` if none).

    An instance's time is the median of its solved repeats (:func:`instance_times`),
    so the k-th point is the k-th instance, whatever the repeats.

    >>> rows = [{"solver": "a", "instance_hash": i, "verdict": v, "wall": w}
    ...         for i, v, w in [("x", "sat", 2.0), ("y", "unknown", 9.0), ("z", "unsat", 0.5)]]
    >>> cactus_series(rows)
    {'a': [0.5, 2.0]}
    """
    series = {}
    for label in solvers(rows):
        times = instance_times(rows, label).values()
        series[label] = sorted(time for time in times if time is not None)
    return series


def virtual_best_times(rows: Sequence[Row]) -> list[float]:
    """The virtual best solver's cactus series: per instance any solver solved, the
    best of the solvers' times (:func:`instance_times`), sorted ascending.

    >>> rows = [{"solver": s, "instance_hash": i, "verdict": v, "wall": w}
    ...         for s, i, v, w in [("a", "x", "sat", 2.0), ("b", "x", "sat", 1.0),
    ...                            ("a", "y", "unsat", 3.0), ("b", "y", "unknown", 9.0)]]
    >>> virtual_best_times(rows)
    [1.0, 3.0]
    """
    best: dict[str, float] = {}
    for label in solvers(rows):
        for key, time in instance_times(rows, label).items():
            if time is not None and (key not in best or time < best[key]):
                best[key] = time
    return sorted(best.values())


def solver_ranking(rows: Sequence[Row]) -> list[str]:
    """The solvers best first: most instances solved, then the least total time on them.

    The order of the cactus plot's lines from right to left, and the order in which
    the plots hand out their styles (:func:`~.style.ranked_styles`).
    """
    series = cactus_series(rows)
    order = {label: rank for rank, label in enumerate(series)}
    return sorted(series, key=lambda label: (-len(series[label]), sum(series[label]),
                                             order[label]))  # fmt: skip


def campaign_heading(rows: Sequence[Row]) -> str:
    """What a plot's title says of the runs: campaign, question and limits.

    >>> campaign_heading([{"campaign": "blocked", "question": "decide", "time_limit": 10.0,
    ...                    "memory_limit_mb": 2000, "repeat": 0}])
    'campaign blocked: decide, time limit 10.0 s, memory limit 2,000 MB, 1 repeat'
    """

    def values(key: str) -> list[Any]:
        return sorted({row[key] for row in rows if row.get(key) is not None})

    parts = [", ".join(map(str, values("question")))]
    parts.append("time limit " + " / ".join(seconds(float(v)) for v in values("time_limit")))
    if memory := values("memory_limit_mb"):
        parts.append("memory limit " + " / ".join(f"{thousands(int(v))} MB" for v in memory))
    if repeats := values("repeat"):
        parts.append(plural(int(repeats[-1]) + 1, "repeat"))
    names = values("campaign")
    head = f"campaign {', '.join(names)}: " if names else ""
    return head + ", ".join(part for part in parts if part)


def instance_verdicts(rows: Sequence[Row]) -> dict[str, str]:
    """Each instance's answer over all its runs: ``sat``, ``unsat`` or ``unknown``.

    ``sat`` if any run found it satisfiable, ``unsat`` if any run proved it unsatisfiable
    and none found a solution (a wrong run has verdict ``wrong`` and counts for nothing).
    """
    found: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        found[row["instance_hash"]].add(row.get("verdict") or row.get("status"))
    return {
        key: "sat" if "sat" in seen else "unsat" if "unsat" in seen else "unknown"
        for key, seen in found.items()
    }


def instance_times(rows: Sequence[Row], solver: str) -> dict[str, float | None]:
    """One solver's time on each instance it ran: the median wall of its solved repeats.

    None for an instance that the solver solved in none of its repeats.
    """
    times: dict[str, list[float]] = {}
    for row in rows:
        if row["solver"] == solver:
            solved = times.setdefault(row["instance_hash"], [])
            if is_solved(row):
                solved.append(float(row["wall"]))
    return {key: statistics.median(walls) if walls else None for key, walls in times.items()}


def scatter_points(
    rows: Sequence[Row], first: str, second: str
) -> list[tuple[float | None, float | None, str]]:
    """``(first's time, second's time, verdict)`` for each instance both solvers ran.

    Times are from :func:`instance_times` (None when unsolved), the verdict from
    :func:`instance_verdicts`; instances that only one of the two ran are left out.
    """
    _check_solver(rows, first)
    _check_solver(rows, second)
    xs, ys = instance_times(rows, first), instance_times(rows, second)
    verdicts = instance_verdicts(rows)
    return [(xs[key], ys[key], verdicts[key]) for key in xs if key in ys]


@dataclass
class TransitionTable:
    """The numbers behind :func:`transition`.

    Attributes
    ----------
    parameter, effort
        As given to :func:`transition_table`.
    fractions
        ``{n: {x: fraction of the decided instances that are sat}}``; a single key None
        when the runs are pooled over n (parameter ``"n"``). An x value with no decided
        instance is left out.
    samples
        ``{n: {x: (decided instances, instances)}}``: how many instances each fraction
        is taken over, and how many there were.
    efforts
        ``{solver: {x: median effort of its runs}}``, pooled over n; runs that ended
        in an error or a wrong answer are left out (their time means nothing).
    spread
        ``{solver: {x: (first quartile, third quartile)}}`` of the same runs.
    runs
        ``{solver: {x: runs the median is taken over}}``.
    unfinished
        ``{solver: {x: runs among them that did not finish}}`` (time-out or memout):
        counted at the time limit for ``"wall"``, with the count they reached else.
    left_out
        ``{solver: runs left out}``: those that ended in an error or a wrong answer.
    """

    parameter: str
    effort: str
    fractions: dict[int | None, dict[float, float]] = field(default_factory=dict)
    samples: dict[int | None, dict[float, tuple[int, int]]] = field(default_factory=dict)
    efforts: dict[str, dict[float, float]] = field(default_factory=dict)
    spread: dict[str, dict[float, tuple[float, float]]] = field(default_factory=dict)
    runs: dict[str, dict[float, int]] = field(default_factory=dict)
    unfinished: dict[str, dict[float, int]] = field(default_factory=dict)
    left_out: dict[str, int] = field(default_factory=dict)


def transition_parameters(rows: Sequence[Row]) -> list[str]:
    """The parameters :func:`transition` accepts for these rows: fixed ones, then params keys."""
    keys = dict.fromkeys(key for row in rows for key in (row.get("params") or {}))
    return list(FIXED_PARAMETERS) + [key for key in keys if key not in FIXED_PARAMETERS]


def parameter_value(row: Row, parameter: str) -> float | None:
    """The x value of a run's instance for ``parameter``, or None if its generator has none."""
    if parameter == "density":
        return row["blocked_count"] / row["n"] ** 2
    if parameter == "fill":
        return row["fixed_count"] / row["n"]
    if parameter == "n":
        return row["n"]
    value = (row.get("params") or {}).get(parameter)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
        raise InvalidInputError(
            f"parameter {parameter!r} of instance {row['instance']!r} is {value!r}, "
            "not a number: it cannot be an axis"
        )
    return value


def transition_table(rows: Sequence[Row], parameter: str, effort: str = "wall") -> TransitionTable:
    """The satisfiable fraction and each solver's median effort for each value of ``parameter``.

    Parameters
    ----------
    rows
        Judged runs; those whose instance has no value for ``parameter`` are left out.
    parameter
        ``"density"`` (blocked squares / n²), ``"fill"`` (given queens / n), ``"n"``, or
        a key of the instances' generator ``params``.
    effort
        ``"wall"`` for wall time, runs that did not finish (time-out, memout) counted
        at their time limit; any other string is a key of the runs' ``stats`` (e.g.
        ``"nodes"``), over the runs that report it. Either way runs that ended in an
        error or a wrong answer are left out: their time measures no search.
    """
    rows = _check_rows(rows)
    _check_parameter(rows, parameter)
    placed = [(x, row) for row in rows if (x := parameter_value(row, parameter)) is not None]
    if not placed:
        raise InvalidInputError(f"no instance has a value for the parameter {parameter!r}")
    table = TransitionTable(parameter, effort)
    verdicts = instance_verdicts(rows)
    # Instances, not runs, make up the fraction: each counted once whatever its runs.
    instances: dict[int | None, dict[float, dict[str, str]]] = defaultdict(
        lambda: defaultdict(dict)
    )
    for x, row in placed:
        key = None if parameter == "n" else row["n"]
        instances[key][x][row["instance_hash"]] = verdicts[row["instance_hash"]]
    for key in sorted(instances, key=lambda k: (k is not None, k or 0)):
        decided = {
            x: [v for v in seen.values() if v != "unknown"]
            for x, seen in sorted(instances[key].items())
        }
        table.fractions[key] = {
            x: sum(v == "sat" for v in found) / len(found) for x, found in decided.items() if found
        }
        table.samples[key] = {
            x: (len(found), len(instances[key][x])) for x, found in decided.items() if found
        }
    _fill_efforts(table, placed)
    return table


def _fill_efforts(table: TransitionTable, placed: list[tuple[float, Row]]) -> None:
    values: dict[str, dict[float, list[float]]] = defaultdict(lambda: defaultdict(list))
    unfinished: dict[str, dict[float, int]] = defaultdict(lambda: defaultdict(int))
    for x, row in placed:
        status = outcome(row)
        if status in FAILED:
            table.left_out[row["solver"]] = table.left_out.get(row["solver"], 0) + 1
            continue
        if table.effort == "wall":
            # A time-out is at least the limit: counting it there keeps hard points high.
            value = row["wall"] if is_solved(row) else row["time_limit"]
        else:
            value = (row.get("stats") or {}).get(table.effort)
            if isinstance(value, bool) or not isinstance(value, int | float):
                continue
        values[row["solver"]][x].append(float(value))
        unfinished[row["solver"]][x] += status in UNFINISHED
    if not values:
        if table.effort == "wall":
            raise InvalidInputError("no run to draw: every run ended in an error or was wrong")
        counters = sorted(
            {
                key
                for _, row in placed
                for key, value in (row.get("stats") or {}).items()
                if is_number(value)
            }
        )
        raise InvalidInputError(
            f"no run reports {table.effort!r} as a number; use 'wall' (seconds) or a "
            f"figure the runs report: {', '.join(counters) or 'none'}"
        )
    for label, by_x in values.items():
        ordered = sorted(by_x.items())
        table.efforts[label] = {x: statistics.median(v) for x, v in ordered}
        table.spread[label] = {x: _quartiles(v) for x, v in ordered}
        table.runs[label] = {x: len(v) for x, v in ordered}
        table.unfinished[label] = {x: unfinished[label][x] for x, _ in ordered}


def _quartiles(values: list[float]) -> tuple[float, float]:
    """The first and third quartiles (linear interpolation, as numpy's default)."""
    if len(values) == 1:
        return values[0], values[0]
    first, _, third = statistics.quantiles(values, n=4, method="inclusive")
    return first, third


# ----------------------------------------------------------------------------- plots


def cactus_figure(rows: Sequence[Row], *, title: str | None = None):
    """The cactus plot as a matplotlib Figure: instances solved (x) against time (y, log).

    A line per solver, best first in the legend (:func:`solver_ranking`), the virtual
    best solver as a wide grey line beneath them, and the time limit. The title is
    ``title`` (by default "Instances solved against time") above
    :func:`campaign_heading`.
    """
    rows = _check_rows(rows)
    figure, axes = _figure((8.5, 4.8))
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
    axes.set_title(f"{title or 'Instances solved against time'}\n{campaign_heading(rows)}",
                   fontsize="medium")  # fmt: skip
    return figure


def cactus(rows: Sequence[Row], path: str | os.PathLike[str], *, title: str | None = None) -> Path:
    """Write the cactus plot (:func:`cactus_figure`) to ``path``.

    Parameters
    ----------
    rows
        Judged runs (see :func:`cactus_series`).
    path
        Where to write; the suffix (.png, .svg, .pdf) picks the format.
    title
        The first line of the title, above the campaign, question and limits.

    Returns
    -------
    pathlib.Path
        ``path``.
    """
    path = _check_path(path)
    return _save(cactus_figure(rows, title=title), path)


def scatter_figure(rows: Sequence[Row], first: str, second: str):
    """The scatter plot of two solvers as a matplotlib Figure: ``first`` on x, log-log.

    The axes name the solvers; the markers say what the instance is (satisfiable,
    unsatisfiable, undecided), in words no solver label can be mistaken for.
    """
    rows = _check_rows(rows)
    points = scatter_points(rows, first, second)
    limit, floor = time_limit(rows), _floor(rows)
    figure, axes = _figure((5.5, 6.2))
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
    path = _check_path(path)
    return _save(scatter_figure(rows, first, second), path)


def transition_figure(rows: Sequence[Row], parameter: str, *, effort: str = "wall"):
    """The phase-transition plot as a matplotlib Figure (see :func:`transition`)."""
    rows = _check_rows(rows)
    table = transition_table(rows, parameter, effort)
    figure, (top, bottom) = _figure((8.5, 6.8), rows=2)
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
        :func:`transition_table`.
    path
        Where to write; the suffix (.png, .svg, .pdf) picks the format.
    effort
        ``"wall"`` (unfinished runs at their time limit) or a key of the runs' ``stats``.

    Returns
    -------
    pathlib.Path
        ``path``.
    """
    path = _check_path(path)
    return _save(transition_figure(rows, parameter, effort=effort), path)


# ----------------------------------------------------------------------------- helpers


def _check_path(path: str | os.PathLike[str]) -> Path:
    path = Path(path)
    if path.suffix.lower() not in SUFFIXES:
        raise InvalidInputError(
            f"cannot write a plot to {path.name!r}: unknown suffix {path.suffix or '(none)'!r}; "
            f"use one of {', '.join(SUFFIXES)}"
        )
    return path


def _check_rows(rows: Sequence[Row]) -> list[Row]:
    rows = list(rows)
    if not rows:
        raise InvalidInputError("no runs to plot: the campaign (or selection) has no results")
    return rows


def _check_solver(rows: Sequence[Row], label: str) -> None:
    present = solvers(rows)
    if label not in present:
        raise InvalidInputError(
            f"unknown solver {label!r}; the runs have: {', '.join(present) or 'none'}"
        )


def _check_parameter(rows: Sequence[Row], parameter: str) -> None:
    allowed = transition_parameters(rows)
    if parameter not in allowed:
        raise InvalidInputError(f"unknown parameter {parameter!r}; allowed: {', '.join(allowed)}")


def _floor(rows: Sequence[Row]) -> float:
    """The smallest time a log axis shows: half the fastest positive solved time."""
    positive = [float(row["wall"]) for row in rows if is_solved(row) and row["wall"] > 0]
    return min(positive) / 2 if positive else time_limit(rows) / 1000


def _figure(size: tuple[float, float], rows: int = 1):
    # The Figure API with an Agg canvas draws without pyplot: no global state to close,
    # and no interactive backend is touched (as in the other plotting modules).
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots(rows, 1, sharex=True) if rows > 1 else figure.add_subplot()
    return figure, axes


def _save(figure, path: Path) -> Path:
    figure.savefig(path, format=path.suffix.lower()[1:])
    return path
