"""Runs shared between processes: two ``campaign run`` of one campaign on one store
(on one machine, or on two sharing a disk whose file locks work) split its runs.

Each process writes a row of its own in the store's ``processes`` table (its host,
its pid, a heartbeat it renews every :data:`HEARTBEAT_SECONDS` from a thread of its
own) and takes a run before it starts it: in a ``BEGIN IMMEDIATE`` transaction, a run
that is finished is left alone, a run another live process has taken is left to it,
and any other run is claimed (a row in ``claims``). A claim whose process is gone (on
this host, its pid no longer runs; on any host, its heartbeat is older than
:data:`STALE_SECONDS`) is taken over. The claim goes when the run is written
(:meth:`Store.add_run <.store.Store.add_run>`) or the process ends.

>>> import os, tempfile
>>> from .store import Store
>>> store = Store(os.path.join(tempfile.mkdtemp(), "r.sqlite"))
>>> key = {"campaign": "c", "instance_id": 1, "solver_id": 1, "question": "decide",
...        "time_limit": 1.0, "memory_limit_mb": 100, "repeat": 0}
>>> with Claims(store, "c") as one, Claims(store, "c") as two:
...     one.claim(key), two.claim(key)[0]
('mine', 'taken')
>>> store.close()
"""

from __future__ import annotations

import contextlib
import datetime
import os
import socket
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..disk.transactions import immediate
from .store import KEY_FIELDS, Store

#: How often a process renews its heartbeat (seconds).
HEARTBEAT_SECONDS = 5.0
#: A process whose heartbeat is older than this (seconds) is gone, on any host.
STALE_SECONDS = 60.0

MINE, DONE, TAKEN = "mine", "done", "taken"
_MATCH = " AND ".join(f"c.{name} = ?" for name in KEY_FIELDS)


class Claims:
    """This process's share of a campaign's runs on a store opened for writing.

    ``notify`` is called with one line the first time another live process running
    the same campaign is seen (at the start, or when it holds a run this one wanted).
    """

    def __init__(self, store: Store, campaign: str, notify: Callable[[str], None] | None = None):
        self.db = store.db
        self.uri = store.uri
        self.campaign = campaign
        self.notify = notify
        self.token = uuid.uuid4().hex
        self.host = socket.gethostname()
        self.pid = os.getpid()
        self.others: dict[str, tuple[str, int]] = {}  # token -> (host, pid), seen so far
        self.left = 0  # runs finished or held by others (see take)
        started = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        with immediate(self.db):
            self._forget_the_gone()
            self.db.execute(
                "INSERT INTO processes VALUES (?, ?, ?, ?, ?, ?)",
                (self.token, campaign, self.host, self.pid, started, time.time()),
            )
            running = self.db.execute(
                "SELECT token, host, pid, heartbeat FROM processes WHERE campaign = ? "
                "AND token != ?",
                (campaign, self.token),
            ).fetchall()
        for token, host, pid, heartbeat in running:
            if self._alive(host, pid, heartbeat):
                self._seen(token, host, pid)
        self._stop = threading.Event()
        self._beat = threading.Thread(target=self._heartbeat, daemon=True)
        self._beat.start()

    def __enter__(self) -> Claims:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def claim(self, key: dict[str, Any]) -> str | tuple[str, str, int]:
        """Take the run ``key``: :data:`MINE` when this process is to run it, :data:`DONE`
        when it is in the store, ``(TAKEN, host, pid)`` when a live process has it."""
        values = [key[name] for name in KEY_FIELDS]
        where = " AND ".join(f"{name} = ?" for name in KEY_FIELDS)
        with immediate(self.db):
            if self.db.execute(f"SELECT 1 FROM runs WHERE {where}", values).fetchone():
                return DONE
            holder = self.db.execute(
                "SELECT c.token, p.host, p.pid, p.heartbeat FROM claims c "
                f"LEFT JOIN processes p ON p.token = c.token WHERE {_MATCH}",
                values,
            ).fetchone()
            if holder is not None and holder[0] != self.token and self._alive(*holder[1:]):
                token, host, pid, _ = holder
                taken: tuple[str, str, int] = (TAKEN, host, pid)
            else:
                self.db.execute(
                    f"INSERT OR REPLACE INTO claims ({', '.join(KEY_FIELDS)}, token, claimed) "
                    f"VALUES ({', '.join('?' * len(KEY_FIELDS))}, ?, ?)",
                    [*values, self.token, time.time()],
                )
                return MINE
        self._seen(token, host, pid)
        return taken

    def take(self, pending: Iterable[tuple[dict[str, Any], Any]]) -> Iterator[tuple[Any, Any]]:
        """The ``(key, task)`` pairs of ``pending`` this process claims, one at a time as
        they are asked for; then, once, those other processes held and let go of.
        :attr:`left` counts the runs finished or still held by others."""
        held = []
        self.left = 0
        for key, task in pending:
            state = self.claim(key)
            if state == MINE:
                yield key, task
            elif state == DONE:
                self.left += 1
            else:
                held.append((key, task))
        while held:  # runs of a process that stopped meanwhile are taken over
            still, took = [], False
            for key, task in held:
                state = self.claim(key)
                if state == MINE:
                    took = True
                    yield key, task
                elif state == DONE:
                    self.left += 1
                else:
                    still.append((key, task))
            held = still
            if not took:
                break
        self.left += len(held)

    def close(self) -> None:
        """Let go of this process's claims and its row (on any exit but SIGKILL)."""
        self._stop.set()
        self._beat.join(timeout=HEARTBEAT_SECONDS + 5)
        try:
            with immediate(self.db):
                self.db.execute("DELETE FROM claims WHERE token = ?", (self.token,))
                self.db.execute("DELETE FROM processes WHERE token = ?", (self.token,))
        except sqlite3.Error:  # left to be taken over: this pid is gone soon
            pass

    def _alive(self, host: str | None, pid: int | None, heartbeat: float | None) -> bool:
        if host is None or pid is None or heartbeat is None:
            return False
        if time.time() - heartbeat > STALE_SECONDS:
            return False
        return host != self.host or pid_running(pid)

    def _forget_the_gone(self) -> None:
        """Remove the rows of processes that are gone, and their claims."""
        rows = self.db.execute("SELECT token, host, pid, heartbeat FROM processes").fetchall()
        for token, host, pid, heartbeat in rows:
            if not self._alive(host, pid, heartbeat):
                self.db.execute("DELETE FROM processes WHERE token = ?", (token,))
        self.db.execute("DELETE FROM claims WHERE token NOT IN (SELECT token FROM processes)")

    def _seen(self, token: str, host: str, pid: int) -> None:
        if token in self.others:
            return
        self.others[token] = (host, pid)
        if self.notify is not None:
            self.notify(
                f"another process (host {host}, pid {pid}) is running this campaign; "
                "runs are shared between them"
            )

    def _heartbeat(self) -> None:
        db = sqlite3.connect(self.uri, uri=True, timeout=5, isolation_level=None)
        try:
            while not self._stop.wait(HEARTBEAT_SECONDS):
                with contextlib.suppress(sqlite3.Error):  # busy: the next beat tries again
                    db.execute(
                        "UPDATE processes SET heartbeat = ? WHERE token = ?",
                        (time.time(), self.token),
                    )
        finally:
            db.close()


def pid_running(pid: int) -> bool:
    """True when process ``pid`` of this host runs (a zombie does not).

    >>> pid_running(os.getpid())
    True
    """
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: it runs
        return True
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rpartition(")")[2].split()[:1] != ["Z"]
    except OSError:
        return True
