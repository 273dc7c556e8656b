"""Plots of a campaign's runs: cactus, pairwise scatter and phase transition.

The *cactus* plot sorts each solver's solved times and draws the k-th fastest against
k, so the line furthest right and lowest belongs to the solver that solves most, fastest.
The *scatter* plot compares two solvers instance by instance on log-log axes, unsolved
instances pinned to the time limit and sat and unsat instances marked apart. The
*transition* plot, in the way of Gent et al., draws against a generator parameter the
fraction of satisfiable instances (crossing 0.5 at the phase transition) above each
solver's median effort, which peaks there. Every function takes the rows of
:meth:`Store.rows <cpqueens.campaigns.store.Store.rows>` judged by
:func:`~cpqueens.campaigns.verify.judge`, and writes a PNG, SVG or PDF chosen by the
path's suffix. The data behind each plot (:func:`cactus_series`, :func:`scatter_points`,
:func:`transition_table`) is public, so it can be checked or tabulated without drawing.
"""

from __future__ import annotations

import os
import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..campaigns.verify import SOLVED
from ..errors import InvalidInputError
from ..numbers import count, seconds
from .style import backend_style, legend_outside

#: The plots this module draws.
PLOT_KINDS = ("cactus", "scatter", "transition")

#: Output formats, chosen by the path's suffix.
SUFFIXES = (".png", ".svg", ".pdf")

#: Parameters of :func:`transition` computed from every instance, whatever its generator.
FIXED_PARAMETERS = ("density", "fill", "n")

Row = dict[str, Any]

# Markers and colours of the instance verdicts in the scatter plot.
_VERDICT_STYLE = {
    "sat": ("o", "C0"),
    "unsat": ("s", "C3"),
    "unknown": ("x", "0.45"),
}


# ----------------------------------------------------------------------------- data


def is_solved(row: Row) -> bool:
    """True when the run answered its question (verdict ``sat`` or ``unsat``)."""
    # Rows not yet judged have only their status; judged ones may have been overruled.
    return (row.get("verdict") or row.get("status")) in SOLVED


def time_limit(rows: Sequence[Row]) -> float:
    """The largest time limit of the runs: where time-outs are drawn."""
    return max(float(row["time_limit"]) for row in rows)


def solvers(rows: Sequence[Row]) -> list[str]:
    """The solver labels, in the order of their first run."""
    return list(dict.fromkeys(row["solver"] for row in rows))


def cactus_series(rows: Sequence[Row]) -> dict[str, list[float]]:
    """Each solver's solved runs' wall times, sorted ascending (``[]`` if none solved).

    >>> rows = [{"solver": "a", "verdict": v, "wall": w}
    ...         for v, w in [("sat", 2.0), ("unknown", 9.0), ("unsat", 0.5)]]
    >>> cactus_series(rows)
    {'a': [0.5, 2.0]}
    """
    series: dict[str, list[float]] = {label: [] for label in solvers(rows)}
    for row in rows:
        if is_solved(row):
            series[row["solver"]].append(float(row["wall"]))
    return {label: sorted(times) for label, times in series.items()}


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
    efforts
        ``{solver: {x: median effort of its runs}}``, pooled over n.
    """

    parameter: str
    effort: str
    fractions: dict[int | None, dict[float, float]] = field(default_factory=dict)
    efforts: dict[str, dict[float, float]] = field(default_factory=dict)


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
        ``"wall"`` for wall time, unsolved runs counted at their time limit; any other
        string is a key of the runs' ``stats`` (e.g. ``"nodes"``), over the runs that
        report it, solved or not.
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
        verdict = verdicts[row["instance_hash"]]
        if verdict != "unknown":
            instances[key][x][row["instance_hash"]] = verdict
    for key in sorted(instances, key=lambda k: (k is not None, k or 0)):
        table.fractions[key] = {
            x: sum(v == "sat" for v in decided.values()) / len(decided)
            for x, decided in sorted(instances[key].items())
        }
    table.efforts = _median_efforts(placed, effort)
    return table


def _median_efforts(placed: list[tuple[float, Row]], effort: str) -> dict[str, dict[float, float]]:
    values: dict[str, dict[float, list[float]]] = defaultdict(lambda: defaultdict(list))
    for x, row in placed:
        if effort == "wall":
            # A time-out is at least the limit: counting it there keeps hard points high.
            value = row["wall"] if is_solved(row) else row["time_limit"]
        else:
            value = (row.get("stats") or {}).get(effort)
            if isinstance(value, bool) or not isinstance(value, int | float):
                continue
        values[row["solver"]][x].append(float(value))
    if not values:
        counters = sorted({key for _, row in placed for key in row.get("stats") or {}})
        raise InvalidInputError(
            f"no run reports the effort {effort!r}; use 'wall' or one of the stats "
            f"reported: {', '.join(counters) or 'none'}"
        )
    return {
        label: {x: statistics.median(v) for x, v in sorted(by_x.items())}
        for label, by_x in values.items()
    }


# ----------------------------------------------------------------------------- plots


def cactus(rows: Sequence[Row], path: str | os.PathLike[str], *, title: str | None = None) -> Path:
    """Write the cactus plot: solved instances (x) against time (y, log), a line per solver.

    Parameters
    ----------
    rows
        Judged runs (see :func:`cactus_series`).
    path
        Where to write; the suffix (.png, .svg, .pdf) picks the format.
    title
        Drawn above the plot.

    Returns
    -------
    pathlib.Path
        ``path``.
    """
    path, rows = _check_path(path), _check_rows(rows)
    figure, axes = _figure((8.5, 4.5))
    limit, floor = time_limit(rows), _floor(rows)
    for label, times in cactus_series(rows).items():
        shown = [max(t, floor) for t in times]  # a log axis cannot show a time of 0
        axes.plot(
            range(1, len(shown) + 1),
            shown,
            **backend_style(label),
            markersize=4,
            label=f"{label} ({count(len(times))} solved)",
        )
    axes.axhline(limit, linestyle=":", color="0.3", label=f"time limit ({seconds(limit)})")
    axes.set(xlabel="instances solved", ylabel="wall time (s)", yscale="log")
    axes.xaxis.get_major_locator().set_params(integer=True)
    axes.grid(True, which="major", alpha=0.3)
    # Right of the axes: inside, it would hide the lines' ends, where they differ most.
    legend_outside(axes)
    if title:
        axes.set_title(title)
    return _save(figure, path)


def scatter(rows: Sequence[Row], first: str, second: str, path: str | os.PathLike[str]) -> Path:
    """Write the scatter plot of two solvers: a point per instance, ``first`` on x, log-log.

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
    path, rows = _check_path(path), _check_rows(rows)
    points = scatter_points(rows, first, second)
    limit, floor = time_limit(rows), _floor(rows)
    figure, axes = _figure((5.5, 5.5))
    for verdict, (marker, colour) in _VERDICT_STYLE.items():
        chosen = [(x, y) for x, y, v in points if v == verdict]
        if chosen:
            # Unsolved is pinned to the limit, solved clamped off 0 for the log axes.
            xs = [limit if x is None else max(x, floor) for x, _ in chosen]
            ys = [limit if y is None else max(y, floor) for _, y in chosen]
            axes.scatter(xs, ys, marker=marker, color=colour, s=22, label=verdict)
    low, high = floor / 1.5, limit * 1.6
    axes.plot([low, high], [low, high], color="0.5", linewidth=0.8)
    for line in (axes.axvline, axes.axhline):
        line(limit, linestyle=":", color="0.3", linewidth=0.9)
    axes.annotate("time-out", (limit, low), xytext=(3, 3), textcoords="offset points",
                  fontsize="small", color="0.3", rotation=90)  # fmt: skip
    axes.set(xscale="log", yscale="log", xlim=(low, high), ylim=(low, high))
    axes.set_aspect("equal", adjustable="box")
    axes.set(xlabel=f"{first}: wall time (s)", ylabel=f"{second}: wall time (s)")
    axes.grid(True, which="major", alpha=0.3)
    if points:
        # Outside the axes: inside, it would hide points pinned to the time-out lines.
        figure.legend(fontsize="small", loc="outside upper center", ncols=3)
    return _save(figure, path)


def transition(
    rows: Sequence[Row], parameter: str, path: str | os.PathLike[str], *, effort: str = "wall"
) -> Path:
    """Write the phase-transition plot: fraction satisfiable above median effort, by parameter.

    The top panel has the fraction of the decided instances that are satisfiable, with
    a dashed line at 0.5; the bottom panel each solver's median effort (log). When the
    runs come from several n and ``parameter`` is not ``"n"``, the fraction gets a line
    per n but the effort of each solver is pooled over n, to keep the panel readable.

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
        ``"wall"`` (unsolved runs at their time limit) or a key of the runs' ``stats``.

    Returns
    -------
    pathlib.Path
        ``path``.
    """
    path = _check_path(path)
    table = transition_table(rows, parameter, effort)
    figure, (top, bottom) = _figure((8.5, 6), rows=2)
    for n, fractions in table.fractions.items():
        label = "all n" if n is None else f"n = {n}"
        top.plot(list(fractions), list(fractions.values()), marker="o", markersize=4, label=label)
    top.axhline(0.5, linestyle="--", color="0.4", linewidth=0.9)
    top.set(ylabel="fraction satisfiable", ylim=(-0.05, 1.05))
    legend_outside(top)
    for label, medians in table.efforts.items():
        bottom.plot(
            list(medians), list(medians.values()), **backend_style(label), markersize=4,
            label=label,
        )  # fmt: skip
    ylabel = "median wall time (s)" if effort == "wall" else f"median {effort}"
    bottom.set(xlabel=parameter, ylabel=ylabel, yscale="log")
    # Right of each panel, off the data (a solver has its colour of every other plot).
    legend_outside(bottom)
    for axes in (top, bottom):
        axes.grid(True, which="major", alpha=0.3)
    return _save(figure, path)


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
