"""The results store: one SQLite file, one row per finished run.

Tables:

* ``meta``: the row ``('schema', version)`` that makes the file a cpqueens store;
* ``instances``: one per board (its content hash), with where it came from
  (generator and parameters, or file), n, the counts of blocked squares and given
  queens, and the board itself as JSON;
* ``solvers``: one per configuration (backend and options, or command, format and
  reading), by its hash: changing an option makes a new row, never touches old runs;
* ``runs``: one per finished run, unique by (campaign, instance, solver, question,
  limits, repeat); status, wall and CPU seconds, peak memory, the answer (solution,
  count), the effort stats as JSON, the error, host, versions and start time;
* ``processes`` and ``claims`` (schema 2): the processes running a campaign on the
  file and the runs each has taken, so that two of them share the work
  (:mod:`.claims`);
* ``certificates`` (schema 3): an instance's answer proved by a checked proof, one
  per question (``count``, ``decide``), made when the campaign asks for them
  (:mod:`.certificates`).

The file is in WAL mode and every run is written in a transaction of its own, so
a campaign stopped any way (Ctrl-C, SIGKILL, a power cut) leaves every finished run
and nothing half-written; running the campaign again skips what is there.

Only :class:`Store` opened for writing (``campaign run``) changes a file, and only a
file that is new (absent, empty, or an SQLite file without a table) or already a
cpqueens store; opened to read (``create=False``), the file is opened read-only and
nothing is written to it or beside it. Any other file is refused in one line.

>>> import tempfile, os
>>> store = Store(os.path.join(tempfile.mkdtemp(), "r.sqlite"))
>>> store.integrity(), store.version
('ok', 3)
>>> store.close()
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..disk.transactions import immediate
from ..instances import Instance
from .spec import board_json
from .store_schema import open_store

#: What makes a run unique: a campaign's instance, solver, question, limits and repeat.
KEY_FIELDS = ("campaign", "instance_id", "solver_id", "question", "time_limit",
              "memory_limit_mb", "repeat")  # fmt: skip
#: ``WHERE`` on a run's key, its values in the order of :data:`KEY_FIELDS`.
KEY_MATCH = " AND ".join(f"{name} = ?" for name in KEY_FIELDS)
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


#: What the store keeps of a :class:`~cpqueens.Certificate`.
CERTIFICATE_FIELDS = ("claim", "count", "verdict", "words", "producer", "checker",
                      "proof_bytes", "seconds_to_prove", "seconds_to_check")  # fmt: skip


class Store:
    """An SQLite results file.

    Opened for writing (the default, as ``campaign run`` does), the file is made if it
    is new (absent, empty, or an SQLite file without a table) and brought to this
    version's tables if it is an older store. With ``create=False`` the file is only
    read: it must exist and hold a results store, and it is opened read-only (no
    schema, no journal mode, no file beside it). Any other file (another program's
    database, a store of a newer cpqueens) is refused with an
    :class:`~cpqueens.errors.InvalidInputError` of one line naming it, and left as it is.
    """

    def __init__(self, path: str | os.PathLike, *, create: bool = True):
        self.path = Path(path)
        self.db, self.version = open_store(self.path, create=create)
        self.writable = create

    @property
    def uri(self) -> str:
        """The file as an SQLite URI, for another connection to it (read-write)."""
        return f"{self.path.resolve().as_uri()}?mode=rw"

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
        """Write one finished run, and let go of its claim, in a transaction of its own."""
        names = (*KEY_FIELDS, *RUN_FIELDS)
        values = [key[name] for name in KEY_FIELDS]
        for name in RUN_FIELDS:
            value = fields.get(name)
            values.append(_dump(value) if name in ("stats", "solution") and value is not None
                          else value)  # fmt: skip
        if values[names.index("stats")] is None:
            values[names.index("stats")] = "{}"
        marks = ", ".join("?" * len(names))
        with immediate(self.db):
            self.db.execute(
                f"INSERT OR IGNORE INTO runs ({', '.join(names)}) VALUES ({marks})", values
            )
            self.db.execute(f"DELETE FROM claims WHERE {KEY_MATCH}", values[: len(KEY_FIELDS)])

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

    def add_certificate(self, instance_id: int, question: str, certificate: Any) -> None:
        """Keep the :class:`~cpqueens.Certificate` of an instance's answer to ``question``."""
        fields = {name: getattr(certificate, name) for name in CERTIFICATE_FIELDS}
        with immediate(self.db):
            self.db.execute(
                f"INSERT OR REPLACE INTO certificates (instance_id, question, "
                f"{', '.join(fields)}) VALUES (?, ?{', ?' * len(fields)})",
                (instance_id, question, *fields.values()),
            )

    def certificates(self) -> dict[tuple[str, str], dict[str, Any]]:
        """Every certificate kept, by its instance's hash and its question (none in a
        store older than schema 3)."""
        if self.version < 3:
            return {}
        cursor = self.db.execute(
            f"SELECT i.hash, c.question, {', '.join('c.' + f for f in CERTIFICATE_FIELDS)} "
            "FROM certificates c JOIN instances i ON c.instance_id = i.id"
        )
        return {
            (key, question): dict(zip(CERTIFICATE_FIELDS, values, strict=True))
            for key, question, *values in cursor
        }

    def campaigns(self) -> list[str]:
        return [row[0] for row in self.db.execute("SELECT DISTINCT campaign FROM runs")]


def _dump(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))
