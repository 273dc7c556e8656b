"""Where ACE and the Java that runs it are found, and how to install what is missing.

ACE, the reference solver of the XCSP competitions, is a jar (``ACE-<version>.jar``)
that the ``pycsp3`` package ships in ``pycsp3/solvers/ace/``; it runs on Java 17 or
later. The package is *found*, never imported: importing pycsp3 sets up a model and
compiles it when the process ends.

Two variables of the environment point elsewhere: ``CPQUEENS_JAVA``, the Java
program (a path, or a name looked up on the ``PATH``), and ``CPQUEENS_ACE_JAR``,
another ACE jar (a newer build, the competition's own).

>>> java_program() is None or os.path.basename(java_program()).startswith("java")
True
>>> jar_version("/opt/ACE-2.6.jar"), jar_version("/opt/ace.jar")
('2.6', None)
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
from pathlib import Path

from ...errors import BackendUnavailableError

#: The environment variables that name another Java, another ACE jar.
JAVA_VARIABLE = "CPQUEENS_JAVA"
JAR_VARIABLE = "CPQUEENS_ACE_JAR"
#: The package that ships the jar.
PACKAGE = "pycsp3"
#: What installs each piece.
INSTALL_PYCSP3 = f"pip install {PACKAGE}"
INSTALL_JAVA = "apt-get install default-jre-headless"
_VERSION = re.compile(r"ACE-(\d+(?:\.\d+)*)", re.IGNORECASE)


def java_program() -> str | None:
    """The Java program that runs ACE (``CPQUEENS_JAVA``, else ``java`` on the PATH),
    or None when there is none."""
    named = os.environ.get(JAVA_VARIABLE) or "java"
    if os.sep in named:
        # Resolved where it is read: ACE runs in a folder of its own.
        named = os.path.abspath(named)
        return named if os.path.isfile(named) and os.access(named, os.X_OK) else None
    return shutil.which(named)


def ace_jar(package: str = PACKAGE) -> Path | None:
    """The ACE jar: ``CPQUEENS_ACE_JAR``, else the newest one in the ``package``
    (pycsp3), or None when there is none."""
    named = os.environ.get(JAR_VARIABLE)
    if named:
        path = Path(named).resolve()  # where it is read: ACE runs in a folder of its own
        return path if path.is_file() else None
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        return None
    jars = sorted(
        (Path(spec.origin).parent / "solvers" / "ace").glob("ACE-*.jar"),
        key=lambda path: _numbers(jar_version(path) or ""),
    )
    return jars[-1] if jars else None


def jar_version(path: str | os.PathLike[str]) -> str | None:
    """ACE's version as its jar's name tells it (``ACE-2.6.jar``: ``"2.6"``), or None."""
    found = _VERSION.search(Path(path).name)
    return found[1] if found else None


def _numbers(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split(".") if part.isdigit())


def missing_piece(package: str = PACKAGE) -> str | None:
    """Why ACE cannot run here, with the command that installs what is missing; None
    when it can. ``package`` is the one that ships the jar."""
    if ace_jar(package) is None:
        if os.environ.get(JAR_VARIABLE):
            return (
                f"backend 'ace' was given {JAR_VARIABLE}={os.environ[JAR_VARIABLE]!r}, "
                "which is not a file; point it at an ACE jar or unset it"
            )
        if importlib.util.find_spec(package) is None:
            return (
                "backend 'ace' needs the pycsp3 package, which ships ACE's jar; "
                f"install it with: {INSTALL_PYCSP3}"
            )
        return (
            "backend 'ace' found pycsp3 without its ACE jar (pycsp3/solvers/ace/ACE-*.jar); "
            f"reinstall it with: {INSTALL_PYCSP3}"
        )
    if java_program() is None:
        named = os.environ.get(JAVA_VARIABLE)
        if named:
            return (
                f"backend 'ace' was given {JAVA_VARIABLE}={named!r}, which is not a program "
                "that can be run; point it at Java 17 or later, or unset it"
            )
        return (
            "backend 'ace' runs ACE on Java 17 or later, and java is not on the PATH; "
            f"install it with: {INSTALL_JAVA}"
        )
    return None


def require_ace(package: str = PACKAGE) -> tuple[str, Path]:
    """The Java program and the ACE jar, or :class:`BackendUnavailableError` saying
    what to install."""
    reason = missing_piece(package)
    if reason is not None:
        raise BackendUnavailableError(reason)
    java, jar = java_program(), ace_jar(package)
    assert java is not None and jar is not None  # missing_piece said so
    return java, jar
