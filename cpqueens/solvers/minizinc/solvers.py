"""The solvers MiniZinc lists, and what each can be asked: every solution, some, or one.

Whatever ``minizinc --solvers`` lists is a value of the ``minizinc`` backend's
``solver=`` option, by its short name (``"gecode"``) or its id
(``"org.gecode.gecode"``): a solver installed later, or one a user's own solver
configuration file (``.msc``) adds, is taken without a change here. What a solver
can be asked comes from the standard flags its configuration declares: ``-a`` to
list every solution, ``-n`` to stop after some; any solver finds one. Two kinds
are refused: Gecode's Gist (it opens a window) and a solver MiniZinc lists without
a version, which is how it shows a solver whose library it cannot load (Debian's
package lists CPLEX, Gurobi, SCIP and Xpress that way).

This is the one place that asks MiniZinc what it has (``minizinc --solvers-json``,
under the time-out every version question has): the backend, ``cpqueens solvers``
and the report's machine section all read :func:`listed_solvers`.

>>> solvers = listed_solvers()  # () where MiniZinc is not installed
>>> all(solver.id and solver.title for solver in solvers)
True
"""

from __future__ import annotations

import functools
import json
import shutil
from dataclasses import dataclass

from ...errors import InvalidInputError, SolverError
from ...programs.running import program_says
from ..guards import check_choice

#: What MiniZinc prints for the version of a solver whose library it could not load.
NO_VERSION = "<unknown version>"


@dataclass(frozen=True)
class ListedSolver:
    """One solver configuration of ``minizinc --solvers``.

    >>> ListedSolver("org.gecode.gecode", "6.2.0", ("-a", "-n")).name
    'gecode'
    >>> ListedSolver("org.minizinc.mip.scip", NO_VERSION, ()).unusable
    'MiniZinc lists it without a version: its library is not installed'
    """

    id: str
    version: str
    flags: tuple[str, ...]
    #: The name MiniZinc gives it ("Gecode"); the short name when it gives none.
    title: str = ""

    def __post_init__(self) -> None:
        if not self.title:
            object.__setattr__(self, "title", self.name)

    @property
    def name(self) -> str:
        """The short name: the last part of the id."""
        return self.id.rsplit(".", 1)[-1]

    @property
    def lists_all(self) -> bool:
        return "-a" in self.flags

    @property
    def unusable(self) -> str | None:
        """Why the solver cannot run here, or None."""
        if self.id.endswith(".gist"):
            return "interactive: Gecode's search-tree window"
        if self.version == NO_VERSION:
            return "MiniZinc lists it without a version: its library is not installed"
        return None


@functools.cache
def listed_solvers() -> tuple[ListedSolver, ...]:
    """Every solver configuration MiniZinc lists, once each, as it lists them; none
    where MiniZinc is not installed."""
    if shutil.which("minizinc") is None:
        return ()
    said = program_says(["minizinc", "--solvers-json"])
    try:
        listed = json.loads(said or "")
    except json.JSONDecodeError:
        listed = None
    if not isinstance(listed, list):
        shown = " ".join((said or "nothing").split())[:200]
        raise SolverError(f"minizinc --solvers-json did not list its solvers: {shown}")
    found: dict[str, ListedSolver] = {}
    for entry in listed:
        if isinstance(entry, dict) and entry.get("id"):
            ident = str(entry["id"])
            flags = tuple(str(flag) for flag in entry.get("stdFlags", ()))
            title = str(entry.get("name", ""))
            found.setdefault(
                ident, ListedSolver(ident, str(entry.get("version", "")), flags, title)
            )
    return tuple(found.values())


def pick_solver(tag: object) -> ListedSolver:
    """The solver named ``tag`` (short name or id), or an error listing the usable ones."""
    solvers = listed_solvers()
    usable = [s for s in solvers if s.unusable is None]
    for solver in usable:
        if tag in (solver.name, solver.id):
            return solver
    names = [name for s in usable for name in (s.name, s.id)]
    missing = {s.name: s.unusable for s in solvers if s.unusable is not None}
    check_choice("minizinc", "solver", tag, names, missing)  # type: ignore[arg-type]
    raise AssertionError("unreachable: check_choice refuses what is not listed")


def check_question(solver: ListedSolver, limit: int | None) -> None:
    """Refuse to ask ``solver`` for every solution when its configuration has no ``-a``.

    ``limit`` None means every solution; a solver without ``-n`` is asked for one
    solution at a time only.
    """
    if limit is None and not solver.lists_all:
        able = sorted({s.name for s in listed_solvers() if s.lists_all and s.unusable is None})
        raise InvalidInputError(
            f"minizinc solver {solver.name!r} cannot list every solution (its configuration "
            f"has no -a): ask it for one solution (limit=1), or use one that can: "
            f"{', '.join(able) or 'none here'}"
        )
    if limit is not None and limit > 1 and "-n" not in solver.flags and not solver.lists_all:
        raise InvalidInputError(
            f"minizinc solver {solver.name!r} finds one solution a run (its configuration "
            f"has neither -a nor -n); got limit={limit}"
        )
