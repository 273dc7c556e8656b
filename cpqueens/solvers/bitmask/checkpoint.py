"""Counts that survive a restart: the finished tasks of a count, kept in an SQLite file.

A count with a checkpoint is cut into a fixed number of tasks (:data:`TASKS`, fewer
on a small board), whatever the workers, so that the same count run again, on any
number of workers or a cluster, cuts the board the same way. Each finished task is
written with its tally in one transaction: a count killed at any moment (SIGKILL, a
power cut) loses at most the tasks in flight, never a finished one, and since a task
is written once, under its number, no part is ever counted twice. Run again with the
same file, the count runs only the tasks the file does not hold, and ends with the
exact count.

The file says which count it holds (the board, the queens given, the squares blocked,
solutions or classes, how it is cut, a digest of the subproblems): a file of another
count is refused, and a file that is not a checkpoint (any other SQLite file, any
other file) is refused and left as it is.

>>> import os, tempfile, cpqueens
>>> path = os.path.join(tempfile.mkdtemp(), "n10.ckpt")
>>> cpqueens.count(10, backend="bitmask", workers=1, checkpoint=path)
724
>>> cpqueens.count(10, backend="bitmask", workers=1, checkpoint=path)  # read back, no search
724
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np

from ...disk.transactions import immediate
from ...errors import InvalidInputError
from .tasks import Tally

#: Tasks a checkpointed count is cut into (fewer when the board has fewer subproblems):
#: enough for 64 workers at 16 tasks each, each task a few hundredths of the count.
TASKS = 1024

#: The format of the file, kept in it.
FORMAT = "cpqueens-count-checkpoint"
VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tasks (
    task INTEGER PRIMARY KEY,
    size INTEGER NOT NULL,
    solutions INTEGER NOT NULL,
    classes INTEGER NOT NULL,
    nodes INTEGER NOT NULL
);
"""


def identity(
    n: int, fixed: tuple, blocked: frozenset, unique: bool, items: dict, tasks: int, size: int
) -> dict:
    """What a checkpoint holds the count of: the same dict, the same count."""
    digest = hashlib.sha256()
    for key in sorted(items):
        array = np.ascontiguousarray(items[key])
        digest.update(key.encode() + str(array.shape).encode() + array.tobytes())
    return {
        "format": FORMAT,
        "version": VERSION,
        "n": n,
        "fixed": [c for c in fixed],
        "blocked": sorted([list(square) for square in blocked]),
        "unique": unique,
        "tasks": tasks,
        "subproblems": size,
        "digest": digest.hexdigest(),
    }


class Checkpoint:
    """The finished tasks of one count, in the SQLite file ``path``."""

    def __init__(self, path: str | os.PathLike, holds: dict[str, Any]):
        self.path = Path(path)
        self.holds = holds
        if self.path.exists():
            self.db = self._open_existing()
        else:
            self.db = self._create()

    def _create(self) -> sqlite3.Connection:
        folder = self.path.parent
        if not folder.is_dir():
            raise InvalidInputError(f"checkpoint {str(self.path)!r}: its folder does not exist")
        db = sqlite3.connect(self.path, isolation_level=None)
        # WAL: a commit is one append, and a kill at any moment leaves the last
        # committed state; synchronous FULL makes each commit durable.
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.executescript(_SCHEMA)
        with immediate(db):
            db.executemany(
                "INSERT INTO meta VALUES (?, ?)",
                [(k, json.dumps(v)) for k, v in self.holds.items()],
            )
        return db

    def _open_existing(self) -> sqlite3.Connection:
        refusal = f"checkpoint {str(self.path)!r} is not a cpqueens count checkpoint"
        if not self.path.is_file():
            raise InvalidInputError(f"{refusal}: it is not a file")
        with open(self.path, "rb") as handle:
            if handle.read(16) != b"SQLite format 3\x00":
                raise InvalidInputError(f"{refusal}; it was left as it is")
        # Read-only first: a file that is not ours is never written to.
        uri = f"file:{self.path}?mode=ro"
        try:
            with contextlib.closing(sqlite3.connect(uri, uri=True)) as look:
                rows = dict(look.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.Error:
            raise InvalidInputError(f"{refusal}; it was left as it is") from None
        found = {key: json.loads(value) for key, value in rows.items()}
        if found.get("format") != FORMAT:
            raise InvalidInputError(f"{refusal}; it was left as it is")
        if found.get("version") != VERSION:
            raise InvalidInputError(
                f"checkpoint {str(self.path)!r} was written by another version of cpqueens "
                f"(format {found.get('version')}, this one reads {VERSION})"
            )
        if found != self.holds:
            differ = [key for key in self.holds if found.get(key) != self.holds[key]]
            raise InvalidInputError(
                f"checkpoint {str(self.path)!r} holds another count (its {', '.join(differ)} "
                f"differ{'s' if len(differ) == 1 else ''}: n={found.get('n')}"
                f"{', classes' if found.get('unique') else ''}); give another file, or "
                "remove it to count again"
            )
        db = sqlite3.connect(self.path, isolation_level=None)
        db.execute("PRAGMA synchronous=FULL")
        return db

    def finished(self) -> dict[int, Tally]:
        """The tasks already counted, with what each found."""
        rows = self.db.execute("SELECT task, solutions, classes, nodes FROM tasks").fetchall()
        return {task: Tally(solutions, classes, nodes) for task, solutions, classes, nodes in rows}

    def record(self, task: int, size: int, tally: Tally) -> None:
        """Keep one finished task (of ``size`` subproblems), in a transaction of its own."""
        with immediate(self.db):
            self.db.execute(
                "INSERT OR IGNORE INTO tasks VALUES (?, ?, ?, ?, ?)",
                (task, size, tally.solutions, tally.classes, tally.nodes),
            )

    def close(self) -> None:
        self.db.close()


def progress_of(path: str | os.PathLike) -> tuple[int, int] | None:
    """The subproblems a checkpoint holds counted and those of its count, read without
    writing to it; None when the file is missing or is no checkpoint (the count says why)."""
    try:
        uri = f"file:{Path(path)}?mode=ro"
        with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
            query = "SELECT value FROM meta WHERE key = 'subproblems'"
            total = json.loads(db.execute(query).fetchone()[0])
            done = db.execute("SELECT coalesce(sum(size), 0) FROM tasks").fetchone()[0]
    except (sqlite3.Error, TypeError, ValueError, OSError):
        return None
    return int(done), int(total)


def check_checkpoint(value: object) -> None:
    """Refuse a checkpoint that is no path, at the call."""
    if value is None:
        return
    if not isinstance(value, str | os.PathLike) or not os.fspath(value):
        raise InvalidInputError(f"checkpoint must be a file path, got {value!r}")


def count_checkpointed(
    problem: Any,
    run: Any,
    *,
    unique: bool,
    workers: int,
    client: Any,
    path: str | os.PathLike,
    items: dict[str, np.ndarray],
    progress: Any,
) -> int:
    """Count ``problem`` as :meth:`BitmaskBackend._tally` does, keeping each finished
    task in the checkpoint at ``path`` and running only the tasks it lacks. ``items``
    are the count's subproblems (cut for :data:`TASKS` tasks), ``progress`` a pair
    ``(advance, close)`` reporting them."""
    from . import tasks as task_lists

    n = problem.n
    total = len(next(value for key, value in items.items() if key != "allowed"))
    tasks = task_lists.split(items, n, TASKS) if total else []
    holds = identity(n, problem.fixed, problem.blocked, unique, items, len(tasks), total)
    store = Checkpoint(path, holds)
    done = store.finished()
    tally = sum(done.values(), Tally())
    todo = [task_lists.NumberedTask(i, task) for i, task in enumerate(tasks) if i not in done]
    advance, close = progress
    advance(sum(tasks[i].size for i in done))
    try:
        results = task_lists.run_all(
            task_lists.run_numbered, todo, client=client, workers=workers, advance=advance,
            check=run.check_time, stoppable=run.deadline is not None,
        )  # fmt: skip
        for index, result in results:
            store.record(index, tasks[index].size, result)  # kept before it counts
            tally += result
            run.stats["partial_count"] = tally.classes if unique else tally.solutions
    finally:
        close()
        store.close()
        run.stats.update(nodes=tally.nodes, subproblems=total, tasks=len(tasks),
                         resumed_tasks=len(done))  # fmt: skip
    return tally.classes if unique else tally.solutions
