"""The solver programs found on this machine and their versions: MiniZinc, its solvers, Java.

A reader of a shared report must know what ran: the machine section names every
program found on the PATH (:func:`program_versions`), and a campaign's solver table
the programs each solver configuration runs (:func:`programs_of`).

>>> programs_of({"backend": "stack", "options": {}})
''
"""

from __future__ import annotations

import functools
import json
import re
import shlex
import shutil
from pathlib import Path
from typing import Any

from ...programs.running import program_says

Row = dict[str, Any]


def _first_line(argv: list[str]) -> str:
    """The output of a program asked its version (stdout, else stderr), or ``""``."""
    return (program_says(argv) or "").strip()


@functools.cache
def _minizinc_solvers() -> tuple[tuple[str, str, str], ...]:
    """(id, name, version) of each solver ``minizinc --solvers-json`` gives a version for."""
    try:
        listed = json.loads(_first_line(["minizinc", "--solvers-json"]) or "[]")
    except json.JSONDecodeError:
        return ()
    return tuple(
        (str(s.get("id", "")), str(s["name"]), str(s["version"]))
        for s in listed
        if s.get("name") and re.match(r"\d", str(s.get("version", "")))
    )


@functools.cache
def program_versions() -> dict[str, str]:
    """The programs the MiniZinc backends and Java solvers run, as found on the PATH.

    ``{"MiniZinc": "2.6.4", "Gecode": "6.2.0", "Java": "openjdk 17.0.15", ...}``: the
    MiniZinc toolchain, each solver ``minizinc --solvers-json`` gives a version for,
    and ``java``. A program not found is left out. Asked once per process.
    """
    found: dict[str, str] = {}
    if shutil.which("minizinc"):
        version = re.search(r"version (\S+)", _first_line(["minizinc", "--version"]))
        found["MiniZinc"] = version.group(1) if version else "unknown version"
        found.update((name, version) for _, name, version in _minizinc_solvers())
    if shutil.which("java"):
        # java -version: 'openjdk version "17.0.15" 2025-04-15', on stderr.
        lines = _first_line(["java", "-version"]).splitlines()
        words = re.match(r'(\S+) version "([^"]+)"', lines[0]) if lines else None
        found["Java"] = " ".join(words.groups()) if words else (lines or ["unknown"])[0]
    return found


def programs_of(row: Row) -> str:
    """The programs a run's solver configuration runs, with their versions found here:
    MiniZinc and its solver for the ``minizinc`` backend (and cpmpy's MiniZinc
    solvers), Java for a ``java ...`` command; ``""`` for none."""
    options = row.get("options") or {}
    backend, solver = row.get("backend"), str(options.get("solver", ""))
    names = []
    if backend == "minizinc" or (backend == "cpmpy" and solver.startswith("minizinc")):
        tag = (solver.partition(":")[2] if backend == "cpmpy" else solver) or "gecode"
        # MiniZinc takes a solver by its id or the id's last part ("gecode").
        named = (name for ident, name, _ in _minizinc_solvers()
                 if tag in (ident, ident.rpartition(".")[2]))  # fmt: skip
        names += ["MiniZinc", next(named, tag)]
    if row.get("command"):
        try:
            program = Path(shlex.split(row["command"])[0]).name
        except (ValueError, IndexError):
            program = ""
        names += [name for name in ("MiniZinc", "Java") if program == name.lower()]
    versions = program_versions()
    return ", ".join(f"{name} {versions.get(name, 'not found')}" for name in names)
