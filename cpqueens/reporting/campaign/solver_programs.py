"""The solver programs a campaign's solver configuration runs, with their versions.

A reader of a shared report must know what ran: a campaign's solver table names the
programs each solver configuration runs (:func:`programs_of`), with the versions found
by :func:`~cpqueens.solvers.installed.program_versions`, the one place that finds them
(the report's machine section names them all).

>>> programs_of({"backend": "stack", "options": {}})
''
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from ...solvers.installed import minizinc_title, program_versions

Row = dict[str, Any]


def programs_of(row: Row) -> str:
    """The programs a run's solver configuration runs, with their versions found here:
    MiniZinc and its solver for the ``minizinc`` backend (and cpmpy's MiniZinc
    solvers), Java for a ``java ...`` command; ``""`` for none."""
    options = row.get("options") or {}
    backend, solver = row.get("backend"), str(options.get("solver", ""))
    names = []
    if backend == "minizinc" or (backend == "cpmpy" and solver.startswith("minizinc")):
        tag = (solver.partition(":")[2] if backend == "cpmpy" else solver) or "gecode"
        names += ["MiniZinc", minizinc_title(tag)]
    if row.get("command"):
        try:
            program = Path(shlex.split(row["command"])[0]).name
        except (ValueError, IndexError):
            program = ""
        names += [name for name in ("MiniZinc", "Java") if program == name.lower()]
    versions = program_versions()
    return ", ".join(f"{name} {versions.get(name, 'not found')}" for name in names)
