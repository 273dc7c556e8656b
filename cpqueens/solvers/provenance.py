"""Where a solver comes from, its version, and what installs it.

A backend is cpqueens' own Python code, a Python package (its version from the
package's metadata), a program of the system (its version from its ``--version``,
asked once with a short timeout), or a jar (its version in its name): the listing of
``cpqueens backends`` and ``cpqueens solvers`` says which, and the exact command
that installs what is missing.

>>> program_version("no-such-program-anywhere") is None
True
>>> version_in("MiniZinc to FlatZinc converter, version 2.6.4")
'2.6.4'
>>> version_in("Gecode FlatZinc\\n - Supported FlatZinc version: 1.6\\n - Version: 6.2.0")
'6.2.0'
"""

from __future__ import annotations

import functools
import re
import shutil
from typing import NamedTuple

from ..programs.running import program_says

#: Seconds a program is given to say its version.
VERSION_TIMEOUT = 2.0
# "version 2.6.4", "Version: 6.2.0", 'openjdk version "17.0.15"', "openjdk 17.0.15": a
# line's own version first (a line that starts with the word), then any after the word.
_OWN_LINE = re.compile(r"^\W*version\W*(\d+(?:\.\d+)+)", re.IGNORECASE | re.MULTILINE)
_AFTER_WORD = re.compile(r"\bversion\W*(\d+(?:\.\d+)+)", re.IGNORECASE)
_ANY = re.compile(r"\b(\d+\.\d+(?:\.\d+)*)\b")


class Provenance(NamedTuple):
    """Where a solver comes from (``origin``), its ``version`` (None when not known),
    the command that installs what it needs (``install``; None for none), and the one
    that installs only what is missing here (``missing``)."""

    origin: str
    version: str | None
    install: str | None
    #: The command that installs only what is missing here (None: nothing is).
    missing: str | None = None


def version_in(text: str) -> str | None:
    """The version a program's ``--version`` (or help) text states, or None."""
    for pattern in (_OWN_LINE, _AFTER_WORD):
        found = pattern.findall(text)
        if found:
            return found[-1] if pattern is _OWN_LINE else found[0]
    first = text.strip().splitlines()[:1]
    match = _ANY.search(first[0]) if first else None
    return None if match is None else match[1]


@functools.cache
def program_version(program: str) -> str | None:
    """The version of ``program`` (a name on the PATH, or a path), from its
    ``--version``, else its ``-version`` (Java's) or ``--help`` (``fzn-gecode``
    states its version there only); None when it is missing, says none or takes
    longer than :data:`VERSION_TIMEOUT` seconds. Asked once a process."""
    path = shutil.which(program)
    if path is None:
        return None
    for flag in ("--version", "-version", "--help"):
        text = _said(path, flag)
        if text is None:
            return None  # it cannot say in time: asked no more
        version = version_in(text)
        if version is not None:
            return version
    return None


def _said(path: str, flag: str) -> str | None:
    """What ``path flag`` prints on both streams, or None when it cannot say in time."""
    return program_says([path, flag], timeout=VERSION_TIMEOUT)
