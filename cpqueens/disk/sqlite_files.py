"""SQLite files from elsewhere, looked at and opened for reading without changing them.

A results store and a CP-Profiler database are both SQLite files a reader hands
over: each is first told apart from any other file by its first 16 bytes, then
opened read-only in a way that leaves nothing beside it. (A read-only connection
to a file in WAL mode without its ``-wal`` file would make the ``-wal`` and
``-shm`` files and leave them; such a file is read as it is on disk instead,
``immutable``.)
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

#: The first 16 bytes of every SQLite database file.
SQLITE_MAGIC = b"SQLite format 3\x00"


def sqlite_head(path: Path) -> bytes:
    """The first bytes of a regular file, as many as :data:`SQLITE_MAGIC` has: b"" when empty.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile() as file:
    ...     sqlite_head(Path(file.name))
    b''
    """
    with open(path, "rb") as file:
        return file.read(len(SQLITE_MAGIC))


def connect_read_only(path: Path, *, timeout: float = 5.0) -> sqlite3.Connection:
    """A read-only connection to the SQLite file ``path`` that writes nothing beside it."""
    wal = Path(f"{path}-wal").exists()
    query = "mode=ro" if wal else "mode=ro&immutable=1"
    return sqlite3.connect(f"{path.resolve().as_uri()}?{query}", uri=True, timeout=timeout)
