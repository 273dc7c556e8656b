"""A search profile as text: nodes per depth, the solvers' figures, a long CSV.

:func:`profile_grid` and :func:`solver_grid` lay out a :class:`~.profile.SearchProfile`
as grids (the report shows them as tables), :func:`profile_table` as text for the
terminal and :func:`profile_csv` as a long CSV.

>>> from cpqueens.reporting.profile.profiles import search_profile
>>> print(profile_csv(search_profile(4, solvers=[])).splitlines()[1])
none/row,nodes,1,4
"""

from __future__ import annotations

import csv
import io

from ...display import numbers
from ..tables import Grid, format_grid
from .profiles import SearchProfile


def profile_grid(profile: SearchProfile) -> Grid:
    """Nodes per depth, a column per search, then the totals.

    >>> from cpqueens.reporting.profile.profiles import search_profile
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
