"""The profile of a search: nodes per depth under each propagation and order, beside CP solvers.

:func:`search_profile` runs the ``propagate`` backend once per combination of
propagation (none, forward, arc) and order (row, first-fail), reading its
``nodes_per_depth``, ``dead_ends`` and ``pruned``, and runs the constraint
solvers for the same board to read their own effort figures (CP-SAT's branches
and conflicts, and whatever other solvers report). :func:`profile_table`,
:func:`profile_csv` and :func:`profile_figure` show the result; the figure has the
nodes per depth on a log scale and the totals beside the solvers' figures.

>>> profile = search_profile(6, solvers=[])
>>> [(line.label, line.nodes, line.dead_ends) for line in profile.searches][:3]
[('none/row', 152, 46), ('forward/row', 130, 44), ('forward/first-fail', 118, 36)]
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..api import solve
from ..arguments import check_n
from ..display import numbers
from ..errors import CPQueensError, InvalidInputError
from ..solvers import REGISTRY
from .effort import EFFORT_KEYS, is_number
from .figures import new_figure
from .tables import Grid, format_grid

#: The largest board profiled. The profile walks five whole searches in Python, and
#: the blind one alone visits 27 million nodes at n=14 (minutes); each further n
#: multiplies that by about six.
LARGEST_N = 14

#: The searches compared, in the order they are shown.
COMBINATIONS = (
    ("none", "row"),
    ("forward", "row"),
    ("forward", "first-fail"),
    ("arc", "row"),
    ("arc", "first-fail"),
)


@dataclass(frozen=True)
class SearchLine:
    """One propagation and order: its nodes at each depth (index 0, the root, is 0)."""

    propagation: str
    order: str
    nodes_per_depth: tuple[int, ...]
    dead_ends: int
    pruned: int
    solutions: int
    seconds: float

    @property
    def label(self) -> str:
        return f"{self.propagation}/{self.order}"

    @property
    def nodes(self) -> int:
        return sum(self.nodes_per_depth)


@dataclass(frozen=True)
class SolverEffort:
    """A solver's run on the same board: its count, time and own effort figures."""

    backend: str
    seconds: float | None
    count: int | None
    figures: Mapping[str, float] = field(default_factory=dict)
    error: str | None = None

    def efforts(self) -> list[tuple[str, float]]:
        """The figures among :data:`EFFORT_KEYS` that the solver reported, in that order."""
        return [(key, self.figures[key]) for key in EFFORT_KEYS if key in self.figures]


@dataclass(frozen=True)
class SearchProfile:
    """Everything :func:`search_profile` measured for one board."""

    n: int
    fixed: Mapping[int, int]
    searches: tuple[SearchLine, ...]
    solvers: tuple[SolverEffort, ...]

    def to_record(self) -> dict[str, Any]:
        """A JSON-serialisable dict."""
        return {
            "n": self.n,
            "fixed": {str(row): col for row, col in self.fixed.items()},
            "searches": [
                {
                    "propagation": line.propagation,
                    "order": line.order,
                    "nodes": line.nodes,
                    "nodes_per_depth": list(line.nodes_per_depth),
                    "dead_ends": line.dead_ends,
                    "pruned": line.pruned,
                    "solutions": line.solutions,
                    "seconds": line.seconds,
                }
                for line in self.searches
            ],
            "solvers": [
                {
                    "backend": s.backend,
                    "seconds": s.seconds,
                    "count": s.count,
                    "figures": dict(s.figures),
                    "error": s.error,
                }
                for s in self.solvers
            ],
        }


def check_profile_n(n: int) -> None:
    """Refuse, before any search, a board larger than :data:`LARGEST_N`.

    >>> check_profile_n(1000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: n=1000 is beyond what the search profile takes (n <= 14): ...
    """
    if n > LARGEST_N:
        raise InvalidInputError(
            f"n={n} is beyond what the search profile takes (n <= {LARGEST_N}): it walks "
            "five whole searches in Python, minutes at n=14 and about six times as long "
            "with each n more; on a larger board look at one search for a first solution "
            "(`cpqueens solve N --backend propagate -O propagation=arc -O order=first-fail`) "
            "or at the top of its tree (`cpqueens tree N --max-depth 3`)"
        )


def default_solvers() -> list[str]:
    """The available solver backends built on another package that list solutions.

    The hand-written backtrackers are left out: their effort is the ``none/row`` line.
    """
    return [
        name
        for name, backend in REGISTRY.items()
        if (
            backend.requires is not None
            and backend.enumerates
            and backend.exhaustive
            and backend.is_available()
        )
    ]


def search_profile(
    n: int,
    fixed: Mapping[int, int] | None = None,
    *,
    solvers: Sequence[str] | None = None,
    time_limit: float | None = None,
    on_step: Callable[[str, int, int], None] | None = None,
) -> SearchProfile:
    """Profile the search for ``n`` queens under every propagation and order.

    Parameters
    ----------
    n : int
        Board size.
    fixed : mapping of int to int, optional
        Queens given in advance, row -> column.
    solvers : sequence of str, optional
        Backends whose own effort figures are shown beside; default
        :func:`default_solvers`. A solver that fails or is refused gets a row with
        the error instead of stopping the profile.
    time_limit : float, optional
        Seconds allowed to each solver run (the searches themselves are not limited).
    on_step : callable, optional
        Called before each search and each solver run with ``(label, done, total)``:
        what starts now (``"search forward/first-fail"``, ``"solver cpsat"``), how many
        steps are done and how many there are (the five searches, then the solvers).

    Raises
    ------
    InvalidInputError
        For a board beyond :data:`LARGEST_N`, before anything runs.
    """
    n = check_n(n)
    check_profile_n(n)
    names = list(default_solvers() if solvers is None else solvers)
    total = len(COMBINATIONS) + len(names)
    tell = on_step or (lambda label, done, total: None)
    searches = []
    for done, (propagation, order) in enumerate(COMBINATIONS):
        tell(f"search {propagation}/{order}", done, total)
        start = time.perf_counter()
        result = solve(n, "propagate", fixed=fixed, propagation=propagation, order=order)
        stats = result.stats
        searches.append(
            SearchLine(
                propagation,
                order,
                tuple(stats["nodes_per_depth"]),
                stats["dead_ends"],
                stats["pruned"],
                result.count,
                time.perf_counter() - start,
            )
        )
    efforts = []
    for done, name in enumerate(names, len(COMBINATIONS)):
        tell(f"solver {name}", done, total)
        efforts.append(_solver_effort(name, n, fixed, time_limit))
    return SearchProfile(n, dict(fixed or {}), tuple(searches), tuple(efforts))


def _solver_effort(
    name: str, n: int, fixed: Mapping[int, int] | None, time_limit: float | None
) -> SolverEffort:
    try:
        result = solve(n, name, fixed=fixed, time_limit=time_limit)
    except CPQueensError as error:
        return SolverEffort(name, None, None, error=str(error))
    figures = {key: value for key, value in result.stats.items() if is_number(value)}
    count = result.count if result.complete else None
    return SolverEffort(name, result.elapsed, count, figures)


def profile_grid(profile: SearchProfile) -> Grid:
    """Nodes per depth, a column per search, then the totals.

    >>> print(format_grid(profile_grid(search_profile(4, solvers=[]))))
    depth      none/row  forward/row  forward/first-fail  arc/row  arc/first-fail
    1                 4            4                   4        4               4
    2                 6            6                   6        2               2
    3                 4            4                   4        2               2
    4                 2            2                   2        2               2
    nodes            16           16                  16       10              10
    dead ends         4            4                   4        2               2
    pruned            -           42                  42       38              38
    solutions         2            2                   2        2               2
    """
    lines = profile.searches
    grid = [["depth", *(line.label for line in lines)]]
    for depth in range(1, profile.n + 1):
        grid.append([str(depth), *(f"{line.nodes_per_depth[depth]:,}" for line in lines)])
    grid.append(["nodes", *(f"{line.nodes:,}" for line in lines)])
    grid.append(["dead ends", *(f"{line.dead_ends:,}" for line in lines)])
    grid.append(
        ["pruned", *("-" if line.propagation == "none" else f"{line.pruned:,}" for line in lines)]
    )
    grid.append(["solutions", *(f"{line.solutions:,}" for line in lines)])
    return grid


def solver_grid(profile: SearchProfile) -> Grid:
    """One row per solver: its time, count and first effort figure (see :func:`solver_figures`)."""
    grid = [["solver", "time", "solutions", "effort"]]
    for solver in profile.solvers:
        if solver.error is not None:
            grid.append([solver.backend, "-", "-", "failed"])
            continue
        efforts = solver.efforts()
        grid.append(
            [
                solver.backend,
                numbers.seconds(solver.seconds),
                numbers.thousands(solver.count),
                f"{numbers.thousands(round(efforts[0][1]))} {efforts[0][0]}" if efforts else "-",
            ]
        )
    return grid


def solver_figures(profile: SearchProfile) -> list[str]:
    """A line per solver with every figure it reported, or why it failed."""
    return [
        f"{s.backend}: "
        + (s.error or ", ".join(_figure_text(k, v) for k, v in s.figures.items()) or "no figures")
        for s in profile.solvers
    ]


def _figure_text(key: str, value: float) -> str:
    """``key=value`` in the one number style: times as times, whole numbers as counts.

    >>> _figure_text("wall_time", 0.01234), _figure_text("branches", 12345.0)
    ('wall_time=12.3 ms', 'branches=12,345')
    >>> _figure_text("objective_gap", 0.5)
    'objective_gap=0.500'
    """
    if "time" in key.lower() or "seconds" in key.lower():  # solveTime, wall_time
        return f"{key}={numbers.seconds(value)}"
    if float(value).is_integer():
        return f"{key}={numbers.thousands(int(value))}"
    return f"{key}={numbers.significant(value)}"


def profile_table(profile: SearchProfile) -> str:
    """The two grids as text: nodes per depth, then the solvers' figures."""
    text = f"n={profile.n}: queens placed at each depth\n" + format_grid(profile_grid(profile))
    if profile.solvers:
        text += "\n\nconstraint solvers on the same board\n" + format_grid(solver_grid(profile))
        text += "\n" + "\n".join(solver_figures(profile))
    return text


def profile_csv(profile: SearchProfile) -> str:
    """A long CSV: one row per (series, figure, depth), the solvers' figures after the searches."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["series", "figure", "depth", "value"])
    for line in profile.searches:
        for depth in range(1, profile.n + 1):
            writer.writerow([line.label, "nodes", depth, line.nodes_per_depth[depth]])
        for figure in ("dead_ends", "pruned", "solutions", "seconds"):
            writer.writerow([line.label, figure, "", getattr(line, figure)])
    for solver in profile.solvers:
        for key, value in solver.figures.items():
            writer.writerow([solver.backend, key, "", value])
        if solver.seconds is not None:
            writer.writerow([solver.backend, "seconds", "", solver.seconds])
    return out.getvalue()


def profile_figure(profile: SearchProfile, title: str | None = None):
    """Return a matplotlib Figure: nodes per depth (log), and the totals beside the solvers'.

    The searches have the colours of :func:`~cpqueens.reporting.style.search_style` and
    the solvers' bars the colour of their backend (:func:`~.style.backend_style`), as
    in every other plot; the legend stands under the panels, off the data.
    """
    from .style import backend_style, search_style

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
