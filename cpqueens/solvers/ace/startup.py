"""A faster start for ACE's JVM: its classes kept in a class-data archive between runs.

Most of a small run of ACE is the JVM loading ACE's classes from the jar (about
1.4 s a run on two busy cores, 0.45 s with the archive). Java 17 can write the
classes a run loaded into an archive when it exits (``-XX:ArchiveClassesAtExit``)
and map that archive at the start of the next runs (``-XX:SharedArchiveFile``).
The first run without a time limit writes it into the user's cache folder
(``$XDG_CACHE_HOME/cpqueens``, else ``~/.cache/cpqueens``), under a name drawn from
the Java program and the jar (their paths, sizes and dates), so that another Java
or another jar gets an archive of its own; it is written to a file of its own and
renamed into place once the run has ended well, so that two runs at once never
share a half-written one. A folder that cannot be written, an archive the JVM
refuses: the JVM starts the slow way, and says why on standard error only (its
log goes there, never among ACE's answer lines).

>>> archive = ClassArchive("/usr/bin/java", Path("/opt/ACE-2.6.jar"), Path("/no/such/folder"))
>>> archive.path.name.startswith("ace-"), archive.flags(may_write=False)
(True, ['-Xlog:disable', '-Xlog:all=warning:stderr'])
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import uuid
from pathlib import Path

#: The JVM's own log on standard error, warnings only: standard output is ACE's answer.
LOG_FLAGS = ["-Xlog:disable", "-Xlog:all=warning:stderr"]


def cache_folder() -> Path:
    """Where the archives are kept: ``$XDG_CACHE_HOME/cpqueens``, else ``~/.cache/cpqueens``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cpqueens"


class ClassArchive:
    """The class-data archive of one Java program running one ACE jar."""

    def __init__(self, java: str, jar: Path, folder: Path | None = None):
        self.folder = cache_folder() if folder is None else folder
        self.path = self.folder / f"ace-{_key(java, jar)}.jsa"
        self._writing: Path | None = None

    def flags(self, *, may_write: bool) -> list[str]:
        """The JVM's flags: map the archive when there is one; else, with
        ``may_write``, write it at the end of this run when the folder allows."""
        if self.path.is_file():
            return [*LOG_FLAGS, f"-XX:SharedArchiveFile={self.path}"]
        if may_write and self._can_write():
            self._writing = self.folder / f".{self.path.name}.{uuid.uuid4().hex}.part"
            return [*LOG_FLAGS, f"-XX:ArchiveClassesAtExit={self._writing}"]
        return list(LOG_FLAGS)

    def settle(self, *, ended_well: bool) -> None:
        """Once the run is over: keep the archive it wrote if it ended well, else drop it."""
        writing, self._writing = self._writing, None
        if writing is None:
            return
        with contextlib.suppress(OSError):
            if ended_well and writing.is_file() and writing.stat().st_size:
                os.replace(writing, self.path)
            else:
                writing.unlink(missing_ok=True)

    def _can_write(self) -> bool:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            return False
        return os.access(self.folder, os.W_OK)


def _key(java: str, jar: Path) -> str:
    """A name for the pair (Java, jar): their real paths, sizes and dates."""
    parts = []
    for path in (java, jar):
        real = os.path.realpath(path)
        try:
            stat = os.stat(real)
            parts.append(f"{real}:{stat.st_size}:{stat.st_mtime_ns}")
        except OSError:
            parts.append(real)
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]
