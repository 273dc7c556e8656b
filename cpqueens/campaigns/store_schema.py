"""Which files a results store is opened on, and how: its tables (the schema), the
checks that refuse any other file in one line, and the opening itself, read-only to
read (nothing written to the file or beside it) and, to write, only on a file that is
new or already a cpqueens store. :class:`.store.Store` opens its file here.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "notes.db")
>>> with open(path, "w") as file:
...     _ = file.write("not a database")
>>> check_store(path, create=False)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
cpqueens.errors.InvalidInputError: cannot read '...notes.db': it is not a cpqueens \
results store (not an SQLite file)
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from ..disk.sqlite_files import SQLITE_MAGIC, connect_read_only, sqlite_head
from ..disk.transactions import immediate
from ..errors import InvalidInputError

#: The version of the store's tables this cpqueens writes; it reads every one up to it.
#: 1: meta, instances, solvers, runs. 2: processes and claims added. 3: certificates.
SCHEMA_VERSION = 3

_TABLES = {
    "meta": "key TEXT PRIMARY KEY, value TEXT NOT NULL",
    "instances": """
    id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL,
    n INTEGER NOT NULL,
    blocked INTEGER NOT NULL,
    fixed INTEGER NOT NULL,
    generator TEXT,
    params TEXT NOT NULL,
    file TEXT,
    board TEXT NOT NULL""",
    "solvers": """
    id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL,
    backend TEXT,
    options TEXT NOT NULL,
    command TEXT,
    format TEXT""",
    "runs": """
    id INTEGER PRIMARY KEY,
    campaign TEXT NOT NULL,
    instance_id INTEGER NOT NULL REFERENCES instances(id),
    solver_id INTEGER NOT NULL REFERENCES solvers(id),
    question TEXT NOT NULL,
    time_limit REAL NOT NULL,
    memory_limit_mb INTEGER NOT NULL,
    repeat INTEGER NOT NULL,
    status TEXT NOT NULL,
    reason TEXT,
    wall REAL,
    cpu REAL,
    peak_mb REAL,
    count INTEGER,
    solution TEXT,
    solutions_hash TEXT,
    stats TEXT NOT NULL,
    host TEXT NOT NULL,
    cpqueens_version TEXT NOT NULL,
    solver_version TEXT,
    started TEXT NOT NULL,
    UNIQUE (campaign, instance_id, solver_id, question, time_limit, memory_limit_mb, repeat)""",
    # Schema 2: who is running a campaign on the file, and which runs each has taken.
    "processes": """
    token TEXT PRIMARY KEY,
    campaign TEXT NOT NULL,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started TEXT NOT NULL,
    heartbeat REAL NOT NULL""",
    "claims": """
    campaign TEXT NOT NULL,
    instance_id INTEGER NOT NULL,
    solver_id INTEGER NOT NULL,
    question TEXT NOT NULL,
    time_limit REAL NOT NULL,
    memory_limit_mb INTEGER NOT NULL,
    repeat INTEGER NOT NULL,
    token TEXT NOT NULL,
    claimed REAL NOT NULL,
    PRIMARY KEY (campaign, instance_id, solver_id, question, time_limit, memory_limit_mb,
                 repeat)""",
    # Schema 3: an instance's answer proved (``certify = true``), one per question.
    "certificates": """
    instance_id INTEGER NOT NULL REFERENCES instances(id),
    question TEXT NOT NULL,
    claim TEXT NOT NULL,
    count INTEGER NOT NULL,
    verdict TEXT NOT NULL,
    words TEXT NOT NULL,
    producer TEXT NOT NULL,
    checker TEXT NOT NULL,
    proof_bytes INTEGER NOT NULL,
    seconds_to_prove REAL NOT NULL,
    seconds_to_check REAL NOT NULL,
    PRIMARY KEY (instance_id, question)""",
}
#: The tables every version has, with the columns reading needs.
_READ_COLUMNS = {
    "instances": ("id", "hash", "label", "n", "blocked", "fixed", "generator", "params",
                  "file", "board"),
    "solvers": ("id", "hash", "label", "backend", "options", "command"),
    "runs": ("campaign", "instance_id", "solver_id", "question", "time_limit",
             "memory_limit_mb", "repeat", "status", "wall", "count", "solution", "stats"),
}  # fmt: skip
_T = TypeVar("_T")


def open_store(path: Path, *, create: bool) -> tuple[sqlite3.Connection, int]:
    """A connection to the store at ``path`` and its schema version: read-only, or
    (``create``) for writing, the store made or brought up to :data:`SCHEMA_VERSION`.
    Any file that is not one to open so is refused (:func:`check_store`)."""
    check_results_path(path, exists=not create)
    with _refusals(path, create):
        db, version = _patiently(_examine, path)
        if create:
            if db is not None:
                db.close()
            return _patiently(_open_for_writing, path)
        if db is None:
            raise _Refused(_EMPTY)
        return db, version  # type: ignore[return-value]


def check_store(path: str | os.PathLike, *, create: bool) -> None:
    """Refuse, as :class:`Store` would, a file it would not open (``create``: for
    writing), before any long work; the file is only read.

    >>> check_store("/nowhere/r.sqlite", create=True)
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: results file '/nowhere/r.sqlite': the folder \
'/nowhere' does not exist
    """
    check_results_path(path, exists=not create)
    with _refusals(path, create):
        db, _ = _patiently(_examine, Path(path))
        if db is not None:
            db.close()
        elif not create:
            raise _Refused(_EMPTY)


class _Refused(Exception):
    """Why a file is not opened, said after the file's name."""


_EMPTY = "it holds no results (an empty file or database)"


@contextmanager
def _refusals(path: str | os.PathLike, create: bool) -> Iterator[None]:
    """Turn why a file is refused (or an SQLite error reading it) into one line."""
    doing = f"cannot {'write results to' if create else 'read'} {os.fspath(path)!r}"
    try:
        yield
    except _Refused as refusal:
        raise InvalidInputError(f"{doing}: {refusal}") from None
    except sqlite3.OperationalError as error:  # a lock, a permission, the disk
        if _busy(error):
            why = f"another process has held it locked for {LOCK_WAIT:g} s"
            raise InvalidInputError(f"{doing}: {why}") from None
        raise InvalidInputError(f"{doing}: {error}") from None
    except sqlite3.DatabaseError as error:  # not a database, or a damaged one
        raise InvalidInputError(f"{doing}: {_foreign(f'unreadable: {error}')}") from None


#: How long opening a store waits for another process's lock on it (seconds).
LOCK_WAIT = 30.0


def _patiently(action: Callable[[Path], _T], path: Path) -> _T:
    """``action(path)``, again while the file is busy: a process making the store or
    recovering its WAL may refuse a reader at once, without SQLite's busy wait."""
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        try:
            return action(path)
        except sqlite3.OperationalError as error:
            if not _busy(error) or time.monotonic() > deadline:
                raise
        time.sleep(0.02)


def _busy(error: sqlite3.DatabaseError) -> bool:
    return "locked" in str(error) or "busy" in str(error)


def _examine(path: Path) -> tuple[sqlite3.Connection | None, int | None]:
    """A read-only connection to the store at ``path`` and its schema version, or
    ``(None, None)`` for a new file; any other file is refused (:class:`_Refused`)."""
    if not path.exists():
        return None, None
    if not path.is_file():  # a FIFO would hang the open, a device be read forever
        raise _Refused("it is not a regular file")
    head = sqlite_head(path)
    if not head:
        return None, None
    if head != SQLITE_MAGIC:
        raise _Refused(_foreign("not an SQLite file"))
    db = connect_read_only(path, timeout=30)
    try:
        tables = _tables(db)
        if not tables:
            db.close()
            return None, None
        return db, _check_version(db, tables)
    except BaseException:
        db.close()
        raise


def _open_for_writing(path: Path) -> tuple[sqlite3.Connection, int]:
    """A connection that writes to a new file or a cpqueens store (checked by
    :func:`_examine` first), its tables made or brought up to :data:`SCHEMA_VERSION`."""
    db = sqlite3.connect(
        f"{path.resolve().as_uri()}?mode=rwc", uri=True, timeout=30, isolation_level=None
    )
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        with immediate(db):  # checked again: another process may have made it meanwhile
            tables = _tables(db)
            version = _check_version(db, tables) if tables else None
            if version != SCHEMA_VERSION:
                for name, columns in _TABLES.items():
                    db.execute(f"CREATE TABLE IF NOT EXISTS {name} ({columns})")
                db.execute(
                    "INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
                )
    except BaseException:
        db.close()
        raise
    return db, SCHEMA_VERSION


def _tables(db: sqlite3.Connection) -> list[str]:
    rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    return [name for (name,) in rows if not name.startswith("sqlite_")]


def _check_version(db: sqlite3.Connection, tables: list[str]) -> int:
    """The schema version of a cpqueens store with these tables; any other file refused."""
    row = None
    if "meta" in tables:
        try:
            row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        except sqlite3.DatabaseError:  # a table named meta of another shape
            row = None
    if row is None:
        shown = ", ".join(tables[:6]) + (", ..." if len(tables) > 6 else "")
        raise _Refused(_foreign(f"no schema row; its tables are {shown}"))
    text = str(row[0])
    if not text.isdigit() or int(text) < 1:
        raise _Refused(_foreign(f"its schema row says {text[:40]!r}"))
    version = int(text)
    if version > SCHEMA_VERSION:
        from .._version import __version__

        raise _Refused(
            f"it is a results store of schema version {version}, and cpqueens "
            f"{__version__} reads versions up to {SCHEMA_VERSION}: use a newer cpqueens"
        )
    for table, needed in _READ_COLUMNS.items():
        have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        missing = [column for column in needed if column not in have]
        if missing:
            why = f"its table {table} has no column {missing[0]}" if have else f"no table {table}"
            raise _Refused(_foreign(why))
    return version


def _foreign(why: str) -> str:
    return f"it is not a cpqueens results store ({why})"


def check_results_path(path: str | os.PathLike, *, exists: bool) -> None:
    """Refuse a results file's path that cannot be used, saying why in one line: its
    folder missing, a folder in its place, or (``exists``) no file there to read."""
    shown = os.fspath(path)
    folder = Path(path).parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise InvalidInputError(f"results file {shown!r}: the folder {str(folder)!r} {what}")
    if Path(path).is_dir():
        raise InvalidInputError(f"results file {shown!r} is a folder")
    if exists and not Path(path).exists():
        raise InvalidInputError(f"results file {shown!r} does not exist")
