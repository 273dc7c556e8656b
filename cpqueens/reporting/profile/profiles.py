"""The profile of a search: nodes per depth under each propagation and order, beside CP solvers.

:func:`search_profile` runs the ``propagate`` backend once per combination of
propagation (none, forward, arc) and order (row, first-fail), reading its
``nodes_per_depth``, ``dead_ends`` and ``pruned``, and runs the constraint
solvers for the same board to read their own effort figures (CP-SAT's branches
and conflicts, and whatever other solvers report). The result is a
:class:`SearchProfile`; :mod:`~cpqueens.reporting.profile.tables` shows it as text
and CSV, :mod:`~cpqueens.reporting.profile.plot` draws it.

>>> profile = search_profile(6, solvers=[])
>>> [(line.label, line.nodes, line.dead_ends) for line in profile.searches][:3]
[('none/row', 152, 46), ('forward/row', 130, 44), ('forward/first-fail', 118, 36)]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...api import solve
from ...arguments import check_n
from ...errors import CPQueensError, InvalidInputError
from ...solvers import REGISTRY
from ..effort import EFFORT_KEYS, is_number

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
