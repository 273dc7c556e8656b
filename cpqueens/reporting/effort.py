"""Search effort: one word with one meaning in bench, report, profile and campaign plots.

*Search effort* is a count of the steps a search took, as the solver itself reports
it in ``Result.stats``: the hand-written backtrackers' *nodes* (queens placed),
Choco's and Gecode's search nodes, CP-SAT's *branches*, a SAT solver's
*decisions*, and where a solver gives them its *conflicts*, *failures*,
*backtracks* and *propagations*. The figures are not comparable across solver
families (a SAT decision is not a queen placed); each table and plot says which one
it shows. Time is not effort: it is shown as seconds.

>>> main_effort({"nodes": 2056, "attempts": 15720, "status": "OPTIMAL"})
('nodes', 2056)
>>> main_effort({"wall_time": 0.1}) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The search-effort figures, in the order one is preferred when a single one is shown.
EFFORT_KEYS = (
    "nodes",
    "branches",
    "decisions",
    "conflicts",
    "failures",
    "fails",
    "backtracks",
    "propagations",
)
#: The definition, for --help texts and captions.
EFFORT_MEANING = (
    "search effort: the solver's own count of search steps (nodes: queens placed or "
    "search nodes; CP-SAT's branches; a SAT solver's decisions; conflicts, failures...)"
)


def is_number(value: Any) -> bool:
    """True for an int or a float (not a bool): what can be plotted or compared."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def efforts(stats: Mapping[str, Any]) -> list[tuple[str, float]]:
    """Every search-effort figure in ``stats``, in the order of :data:`EFFORT_KEYS`."""
    return [(key, stats[key]) for key in EFFORT_KEYS if is_number(stats.get(key))]


def main_effort(stats: Mapping[str, Any]) -> tuple[str, float] | None:
    """The one figure shown where one is: the first of :data:`EFFORT_KEYS` reported."""
    found = efforts(stats)
    return found[0] if found else None
