"""The results store: one SQLite file, one row per finished run.

Tables:

* ``instances``: one per board (its content hash), with where it came from
  (generator and parameters, or file), n, the counts of blocked squares and given
  queens, and the board itself as JSON;
* ``solvers``: one per configuration (backend and options, or command, format and
  reading), by its hash: changing an option makes a new row, never touches old runs;
* ``runs``: one per finished run, unique by (campaign, instance, solver, question,
  limits, repeat); status, wall and CPU seconds, peak memory, the answer (solution,
  count), the effort stats as JSON, the error, host, versions and start time.

The file is in WAL mode and every run is written in a transaction of its own, so
a campaign stopped any way (Ctrl-C, SIGKILL, a power cut) leaves every finished run
and nothing half-written; running the campaign again skips what is there.

>>> import tempfile, os
>>> store = Store(os.path.join(tempfile.mkdtemp(), "r.sqlite"))
>>> store.integrity()
'ok'
>>> store.close()
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import InvalidInputError
from ..instances import Instance
from .spec import board_json

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS instances (
    id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL,
    n INTEGER NOT NULL,
    blocked INTEGER NOT NULL,
    fixed INTEGER NOT NULL,
    generator TEXT,
    params TEXT NOT NULL,
    file TEXT,
    board TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS solvers (
    id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL,
    backend TEXT,
    options TEXT NOT NULL,
    command TEXT,
    format TEXT
);
CREATE TABLE IF NOT EXISTS runs (
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
    UNIQUE (campaign, instance_id, solver_id, question, time_limit, memory_limit_mb, repeat)
);
"""

#: What makes a run unique: a campaign's instance, solver, question, limits and repeat.
KEY_FIELDS = ("campaign", "instance_id", "solver_id", "question", "time_limit",
              "memory_limit_mb", "repeat")  # fmt: skip
#: The columns of a run, in the order :meth:`Store.add_run` takes them.
RUN_FIELDS = (
    "status",
    "reason",
    "wall",
    "cpu",
    "peak_mb",
    "count",
    "solution",
    "solutions_hash",
    "stats",
    "host",
    "cpqueens_version",
    "solver_version",
    "started",
)


class Store:
    """An SQLite results file, created on first use.

    With ``create=False`` the file is only read: it must exist and hold a results
    store, and nothing is written to it (no schema, no change of journal mode).
    """

    def __init__(self, path: str | os.PathLike, *, create: bool = True):
        self.path = Path(path)
        check_results_path(path, exists=not create)
        try:
            # mode=rw opens an existing file only; a missing one is not made.
            mode = "rwc" if create else "rw"
            self.db = sqlite3.connect(
                f"{self.path.resolve().as_uri()}?mode={mode}", uri=True, timeout=30
            )
            tables = sorted(row[0] for row in self.db.execute("SELECT name FROM sqlite_master"))
            if tables and "runs" not in tables:  # another program's: leave it as it is
                raise sqlite3.DatabaseError(f"its tables are {', '.join(tables)}")
            if not tables and not create:
                raise sqlite3.DatabaseError("it holds no table")
            self.db.execute("PRAGMA foreign_keys=ON")
            if create:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")
                with self.db:
                    self.db.executescript(_SCHEMA)
                    self.db.execute(
                        "INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
                    )
        except sqlite3.DatabaseError as error:
            raise InvalidInputError(
                f"{os.fspath(path)!r} is not a cpqueens results file: {error}"
            ) from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def integrity(self) -> str:
        """``PRAGMA integrity_check``: ``"ok"`` for a sound file."""
        return self.db.execute("PRAGMA integrity_check").fetchone()[0]

    def instance_id(self, key: str, label: str, instance: Instance, source: dict[str, Any]) -> int:
        """The row of an instance (its board kept as :func:`~.spec.board_json` says),
        added the first time it is seen."""
        with self.db:
            self.db.execute(
                "INSERT OR IGNORE INTO instances (hash, label, n, blocked, fixed, generator, "
                "params, file, board) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    key,
                    label,
                    instance.n,
                    len(instance.blocked),
                    len(instance.fixed),
                    source.get("generator"),
                    _dump({k: v for k, v in source.items() if k not in ("generator", "file")}),
                    source.get("file"),
                    board_json(instance),
                ),
            )
        return self.db.execute("SELECT id FROM instances WHERE hash = ?", (key,)).fetchone()[0]

    def solver_id(self, key: str, label: str, description: dict[str, Any]) -> int:
        """The row of a solver configuration, added the first time it is seen."""
        with self.db:
            self.db.execute(
                "INSERT OR IGNORE INTO solvers (hash, label, backend, options, command, format) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    key,
                    label,
                    description.get("backend"),
                    _dump(description.get("options", {})),
                    description.get("command"),
                    description.get("format"),
                ),
            )
        return self.db.execute("SELECT id FROM solvers WHERE hash = ?", (key,)).fetchone()[0]

    def finished(self, campaign: str) -> set[tuple[int, int, str, float, int, int]]:
        """The runs of a campaign already in the file, by their unique key."""
        rows = self.db.execute(
            "SELECT instance_id, solver_id, question, time_limit, memory_limit_mb, repeat "
            "FROM runs WHERE campaign = ?",
            (campaign,),
        )
        return {tuple(row) for row in rows}  # type: ignore[misc]

    def add_run(self, key: dict[str, Any], fields: dict[str, Any]) -> None:
        """Write one finished run, in a transaction of its own."""
        names = (*KEY_FIELDS, *RUN_FIELDS)
        values = [key[name] for name in KEY_FIELDS]
        for name in RUN_FIELDS:
            value = fields.get(name)
            values.append(_dump(value) if name in ("stats", "solution") and value is not None
                          else value)  # fmt: skip
        if values[names.index("stats")] is None:
            values[names.index("stats")] = "{}"
        marks = ", ".join("?" * len(names))
        with self.db:
            self.db.execute(
                f"INSERT OR IGNORE INTO runs ({', '.join(names)}) VALUES ({marks})", values
            )

    def rows(self, campaign: str | None = None) -> list[dict[str, Any]]:
        """Every run (of one campaign, or all), joined with its instance and solver."""
        query = (
            "SELECT r.*, i.hash AS instance_hash, i.label AS instance, i.n, "
            "i.blocked AS blocked_count, i.fixed AS fixed_count, i.generator, i.params, i.file, "
            "i.board, s.label AS solver, s.hash AS solver_hash, s.backend, s.options, "
            "s.command FROM runs r JOIN instances i ON r.instance_id = i.id "
            "JOIN solvers s ON r.solver_id = s.id"
        )
        args: Iterable[Any] = ()
        if campaign is not None:
            query += " WHERE r.campaign = ?"
            args = (campaign,)
        query += " ORDER BY r.solver_id, r.id"  # solvers in the order the spec lists them
        cursor = self.db.execute(query, tuple(args))
        names = [column[0] for column in cursor.description]
        out = []
        for values in cursor:
            row = dict(zip(names, values, strict=True))
            for name in ("stats", "params", "board", "options"):
                row[name] = json.loads(row[name]) if row[name] is not None else {}
            if row["solution"] is not None:
                row["solution"] = tuple(json.loads(row["solution"]))
            out.append(row)
        return out

    def campaigns(self) -> list[str]:
        return [row[0] for row in self.db.execute("SELECT DISTINCT campaign FROM runs")]


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
    if exists and not Path(path).is_file():
        raise InvalidInputError(f"results file {shown!r} does not exist")


def _dump(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))
