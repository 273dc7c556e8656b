"""The solvers from elsewhere that cpqueens can find here: ``cpqueens solvers``.

Three kinds, each with where it comes from, its version, how to use it in a
cross-check or a campaign, and the exact command that installs it when missing:

* **FlatZinc** programs: every ``fzn-*`` program on the ``PATH`` (and in the OR-Tools
  package's folder, should its wheel ship one), each a :class:`cpqueens.FlatZincSolver`;
  Gecode's ``fzn-gecode`` is listed even when missing, with its Debian package;
* **MiniZinc** solvers: what ``minizinc --solvers`` lists, each a ``solver=`` of the
  ``minizinc`` backend;
* **XCSP3**: ACE, the jar of the ``pycsp3`` package run by Java (the ``ace`` backend,
  or a ``format = "xcsp"`` command). Any other XCSP3 solver binary is a command of its
  own: nothing names them, so nothing finds them.

Nothing here imports a solver's package to find it; the programs are asked their
version once, with a short timeout (:func:`cpqueens.solvers.provenance.program_version`).
This is the one place that says which solvers from elsewhere are here: ``cpqueens
solvers`` lists :func:`external_solvers`, and a report's machine section names
:func:`program_versions`.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from .provenance import program_version

#: The FlatZinc solvers listed even when missing, and what installs each.
KNOWN_FLATZINC = {
    "fzn-gecode": "apt-get install flatzinc",
}
#: The package whose folder is searched for a FlatZinc front end of its own.
ORTOOLS = "ortools"


@dataclass(frozen=True)
class ExternalSolver:
    """A solver from elsewhere: its ``name``, its ``kind`` (FlatZinc, MiniZinc,
    XCSP3), whether it was ``found`` here, where it comes from (``origin``), its
    ``version``, how to ``use`` it in cpqueens, the command that installs it
    (``install``; None when there is none to give) and why it cannot run when it is
    listed but not usable (``note``)."""

    name: str
    kind: str
    found: bool
    origin: str
    version: str | None
    use: str
    install: str | None = None
    note: str | None = None


#: The most ``fzn-*`` programs asked their version: a folder flooded with them is
#: listed as a count beyond these.
MOST_FLATZINC = 64


def external_solvers(path: str | None = None) -> list[ExternalSolver]:
    """Every solver from elsewhere found here (``path``: where programs are looked
    for, this process's ``PATH`` by default), and the known ones that are missing.

    >>> kinds = {solver.kind for solver in external_solvers()}
    >>> kinds <= {"FlatZinc", "MiniZinc", "XCSP3"} and "XCSP3" in kinds
    True
    """
    return [*flatzinc_programs(path), *minizinc_solvers(), ace_solver()]


def flatzinc_programs(path: str | None = None) -> list[ExternalSolver]:
    """Every ``fzn-*`` program on ``path`` (the first of each name), then in the
    OR-Tools package's folder; ``fzn-gecode`` when missing, with its install command."""
    folders = (path if path is not None else os.environ.get("PATH", os.defpath)).split(os.pathsep)
    found: dict[str, Path] = {}
    more = 0  # past MOST_FLATZINC: counted, not asked
    for folder in [*folders, *_package_folders(ORTOOLS)]:
        try:
            with os.scandir(folder) as listing:
                entries = sorted(
                    Path(entry.path) for entry in listing if entry.name.startswith("fzn-")
                )
        except OSError:
            continue
        for entry in entries:
            if entry.name in found or not (entry.is_file() and os.access(entry, os.X_OK)):
                continue
            if len(found) < MOST_FLATZINC:
                found[entry.name] = entry
            else:
                more += 1
    solvers = [
        ExternalSolver(
            name=name,
            kind="FlatZinc",
            found=True,
            origin=f"program {location}",
            version=program_version(str(location)),
            use=f'crosscheck --flatzinc {_shown(name, location)}; flatzinc = "{name}"',
            install=KNOWN_FLATZINC.get(name),
        )
        for name, location in sorted(found.items())
    ]
    solvers += [
        ExternalSolver(
            name,
            "FlatZinc",
            False,
            "program (not on the PATH)",
            None,
            f"crosscheck --flatzinc {name}",
            install,
        )
        for name, install in KNOWN_FLATZINC.items()
        if name not in found
    ]
    if more:
        solvers.append(
            ExternalSolver(
                f"{more:,} more fzn-*",
                "FlatZinc",
                True,
                f"programs on the PATH, not asked (the first {MOST_FLATZINC} are)",
                None,
                "crosscheck --flatzinc NAME",
                None,
            )
        )
    return solvers


def minizinc_solvers() -> list[ExternalSolver]:
    """The solvers ``minizinc --solvers`` lists, usable or not (with why); one missing
    MiniZinc when its package or program is not here."""
    from . import REGISTRY

    backend = REGISTRY.get("minizinc")
    if backend is None or not backend.is_available():
        install = None if backend is None else backend.provenance.install
        return [ExternalSolver("MiniZinc", "MiniZinc", False, "program minizinc", None,
                               "solve --backend minizinc", install)]  # fmt: skip
    from .minizinc.solvers import listed_solvers

    origin = f"minizinc --solvers (MiniZinc {program_version('minizinc') or '?'})"
    try:
        configurations = listed_solvers()
    except Exception as error:  # a broken toolchain is a line of the listing, not a crash
        why = " ".join(f"{type(error).__name__}: {error}".split())[:200]
        return [ExternalSolver("MiniZinc", "MiniZinc", False, origin, None,
                               "solve --backend minizinc", note=why)]  # fmt: skip
    return [
        ExternalSolver(
            name=f"minizinc {listed.name}",
            kind="MiniZinc",
            found=listed.unusable is None,
            origin=origin,
            version=None if listed.unusable else listed.version,
            use=f"--backend minizinc -O solver={listed.name}",
            note=listed.unusable,
        )
        for listed in configurations
    ]


def ace_solver() -> ExternalSolver:
    """ACE: the jar of the pycsp3 package (or ``CPQUEENS_ACE_JAR``), run by Java."""
    from .ace.runtime import (
        INSTALL_JAVA,
        INSTALL_PYCSP3,
        ace_jar,
        jar_version,
        java_program,
    )

    jar, java = ace_jar(), java_program()
    needs = [need for need, there in ((INSTALL_PYCSP3, jar), (INSTALL_JAVA, java)) if not there]
    origin = f"jar {jar}" if jar is not None else "jar of the pycsp3 package (not installed)"
    origin += f", run by {java} {program_version(java) or ''}".rstrip() if java else ", no java"
    return ExternalSolver(
        name="ACE",
        kind="XCSP3",
        found=not needs,
        origin=origin,
        version=None if jar is None else jar_version(jar),
        use='--backend ace; or command = "java -jar ACE.jar {instance}", format = "xcsp"',
        install=" && ".join(needs) or None,
    )


@functools.cache
def program_versions() -> dict[str, str]:
    """The programs the MiniZinc backends and Java solvers run, as found on the PATH.

    ``{"MiniZinc": "2.6.4", "Gecode": "6.2.0", "Java": "openjdk 17.0.15", ...}``: the
    MiniZinc toolchain, each solver it lists with a version, and ``java``. A program
    not found is left out. Asked once per process.
    """
    from ..programs.running import program_says
    from .minizinc.solvers import listed_solvers

    found: dict[str, str] = {}
    if shutil.which("minizinc"):
        found["MiniZinc"] = program_version("minizinc") or "unknown version"
        try:
            listed = listed_solvers()
        except Exception:  # a broken toolchain: its version is all that can be said
            listed = ()
        found.update((s.title, s.version) for s in listed if re.match(r"\d", s.version))
    if shutil.which("java"):
        # java -version: 'openjdk version "17.0.15" 2025-04-15', on standard error.
        lines = (program_says(["java", "-version"]) or "").strip().splitlines()
        words = re.match(r'(\S+) version "([^"]+)"', lines[0]) if lines else None
        found["Java"] = " ".join(words.groups()) if words else (lines or ["unknown"])[0]
    return found


def minizinc_title(tag: str) -> str:
    """The name MiniZinc gives the solver a ``solver=`` option names (by its id or the
    id's last part: ``"gecode"`` is Gecode); ``tag`` itself when none is listed."""
    from .minizinc.solvers import listed_solvers

    try:
        listed = listed_solvers()
    except Exception:
        listed = ()
    named = (s.title for s in listed if tag in (s.id, s.name))
    return next(named, tag)


def _package_folders(package: str) -> list[str]:
    """The folders of an installed package where a program of its own may be (found,
    never imported): its own folder and a ``bin`` or ``.libs`` beside it."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return []
    folders = []
    for location in spec.submodule_search_locations:
        folders += [location, os.path.join(location, "bin"), os.path.join(location, ".libs")]
    return folders


def _shown(name: str, location: Path) -> str:
    """The program as a command names it: its name when the PATH finds it, else its path."""
    return name if shutil.which(name) == str(location) else str(location)
