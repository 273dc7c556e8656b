"""SQLite write transactions, whole or not at all: the one helper every store uses."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def immediate(db: sqlite3.Connection) -> Iterator[None]:
    """A write transaction taken at its start (``BEGIN IMMEDIATE``), so that what it
    reads cannot change before it writes; committed, or rolled back on any error.

    >>> db = sqlite3.connect(":memory:", isolation_level=None)
    >>> _ = db.execute("CREATE TABLE t (x)")
    >>> with immediate(db):
    ...     _ = db.execute("INSERT INTO t VALUES (1)")
    >>> db.execute("SELECT count(*) FROM t").fetchone()
    (1,)
    """
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
