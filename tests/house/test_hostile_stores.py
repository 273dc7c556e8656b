"""Results stores handed to cpqueens that are not its own: another program's SQLite
file is never changed (hashed before and after, no -wal or -shm left beside it), each
command refuses it in one line; a store of the previous schema still opens; two
processes running one campaign on one store share its runs."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import cpqueens
from cpqueens.campaigns import shared_runs as claims_module
from cpqueens.campaigns.shared_runs import DONE, MINE, TAKEN, Claims, pid_running
from cpqueens.campaigns.store import Store
from cpqueens.campaigns.store_schema import SCHEMA_VERSION
from cpqueens.cli import cli
from cpqueens.errors import InvalidInputError

ROOT = Path(__file__).resolve().parents[2]
SPEC = """
[campaign]
time_limit = 5
[[instances]]
generator = "plain"
n = [4, 5]
[[solvers]]
backend = "stack"
"""


def state(folder: Path) -> dict[str, str]:
    """Every file of the folder by name, with the sha256 of its bytes."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "-"
        for p in sorted(folder.iterdir())
    }


def people(path: Path, *, wal: bool = False) -> Path:
    with sqlite3.connect(path) as db:
        if wal:
            db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE people (name TEXT, born INTEGER)")
        db.execute("INSERT INTO people VALUES ('Ada', 1815)")
    db.close()
    return path


def runs_of_another_shape(path: Path) -> Path:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY, distance REAL)")
        db.execute("INSERT INTO runs (distance) VALUES (5.0)")
    db.close()
    return path


def meta_of_another_shape(path: Path) -> Path:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE meta (name TEXT, size INTEGER)")
        db.execute("INSERT INTO meta VALUES ('schema', 1)")
    db.close()
    return path


def commands(db: Path, elsewhere: Path) -> list[list[str]]:
    """Every command that opens a results file, each pointed at ``db``; what they
    would write goes to ``elsewhere``."""
    spec = elsewhere / "spec.toml"
    spec.write_text(SPEC)
    return [
        ["campaign", "summary", str(db)],
        ["campaign", "summary", str(db), "--json"],
        ["campaign", "plot", str(db), "--cactus", "-o", str(elsewhere / "c.png")],
        ["campaign", "run", str(spec), "--db", str(db), "--workers", "1"],
    ]


def refused_in_one_line(args: list[str], *words: str) -> None:
    started = time.perf_counter()
    result = CliRunner().invoke(cli, args)
    took = time.perf_counter() - started
    assert result.exit_code == 2, (args, result.output)
    assert result.stdout == "", (args, result.stdout)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, (args, result.stderr)
    for word in words:
        assert word in lines[0], (args, lines[0])
    assert took < 1.0, (args, took)


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (people, ("not a cpqueens results store", "no schema row", "its tables are people")),
        (lambda p: people(p, wal=True), ("no schema row", "people")),
        (runs_of_another_shape, ("not a cpqueens results store", "its tables are runs")),
        (meta_of_another_shape, ("not a cpqueens results store", "no schema row")),
    ],
    ids=["people", "people-wal", "runs-of-another-shape", "meta-of-another-shape"],
)
def test_a_foreign_database_is_refused_and_never_changed(tmp_path, make, words):
    folder, elsewhere = tmp_path / "theirs", tmp_path / "mine"
    folder.mkdir()
    elsewhere.mkdir()
    db = make(folder / "foreign.db")
    before = state(folder)
    for args in commands(db, elsewhere):
        refused_in_one_line(args, repr(str(db)), *words)
        assert state(folder) == before, args  # the same bytes, no -wal, no -shm
    assert sorted(p.name for p in elsewhere.iterdir()) == ["spec.toml"]
    for create in (False, True):
        with pytest.raises(InvalidInputError, match="not a cpqueens results store"):
            Store(db, create=create)
    with pytest.raises(InvalidInputError, match="not a cpqueens results store"):
        cpqueens.run_campaign(elsewhere / "spec.toml", db)
    assert state(folder) == before


def test_report_with_a_foreign_campaign_file_leaves_it_as_it_is(tmp_path):
    folder = tmp_path / "theirs"
    folder.mkdir()
    db = people(folder / "foreign.db")
    before = state(folder)
    args = ["report", "4", "--backends", "stack", "--campaign", str(db), "-q"]
    refused_in_one_line([*args, "-o", str(tmp_path / "r.html")], "not a cpqueens results store")
    assert state(folder) == before
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"name,born\nAda,1815\n", ("not a cpqueens results store", "not an SQLite file")),
        (b"SQLite format 3\x00" + b"\xff" * 5000, ("not a cpqueens results store", "unreadable")),
        ("fifo", ("not a regular file",)),
    ],
    ids=["text", "damaged", "fifo"],
)
def test_a_file_that_is_no_database_is_refused_without_reading_it(tmp_path, content, words):
    db = tmp_path / "r.sqlite"
    if content == "fifo":
        os.mkfifo(db)  # opening it would wait for a writer forever
    else:
        db.write_bytes(content)
    todo = commands(db, tmp_path)
    before = state(tmp_path)
    for args in todo:
        refused_in_one_line(args, *words)
    assert state(tmp_path) == before


def test_an_empty_file_is_read_as_no_store_and_made_one_by_a_run(tmp_path):
    db = tmp_path / "r.sqlite"
    db.touch()
    refused_in_one_line(["campaign", "summary", str(db)], "holds no results")
    assert db.stat().st_size == 0
    (tmp_path / "c.toml").write_text(SPEC)
    report = cpqueens.run_campaign(tmp_path / "c.toml", db, workers=1)
    assert report.ok and report.ran == 2


def test_a_store_of_a_newer_schema_is_refused_naming_both_versions(tmp_path):
    db = tmp_path / "r.sqlite"
    (tmp_path / "c.toml").write_text(SPEC)
    cpqueens.run_campaign(tmp_path / "c.toml", db, workers=1)
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE meta SET value = ? WHERE key = 'schema'",
                           (str(SCHEMA_VERSION + 1),))  # fmt: skip
    connection.close()
    todo = commands(db, tmp_path)
    before = state(tmp_path)
    newer, ours = f"schema version {SCHEMA_VERSION + 1}", f"up to {SCHEMA_VERSION}"
    for args in todo:
        refused_in_one_line(args, newer, ours)
    assert state(tmp_path) == before


V1_TABLES = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE instances (id INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL, n INTEGER NOT NULL, blocked INTEGER NOT NULL,
    fixed INTEGER NOT NULL, generator TEXT, params TEXT NOT NULL, file TEXT,
    board TEXT NOT NULL);
CREATE TABLE solvers (id INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL, backend TEXT, options TEXT NOT NULL, command TEXT, format TEXT);
CREATE TABLE runs (id INTEGER PRIMARY KEY, campaign TEXT NOT NULL,
    instance_id INTEGER NOT NULL REFERENCES instances(id),
    solver_id INTEGER NOT NULL REFERENCES solvers(id), question TEXT NOT NULL,
    time_limit REAL NOT NULL, memory_limit_mb INTEGER NOT NULL, repeat INTEGER NOT NULL,
    status TEXT NOT NULL, reason TEXT, wall REAL, cpu REAL, peak_mb REAL, count INTEGER,
    solution TEXT, solutions_hash TEXT, stats TEXT NOT NULL, host TEXT NOT NULL,
    cpqueens_version TEXT NOT NULL, solver_version TEXT, started TEXT NOT NULL,
    UNIQUE (campaign, instance_id, solver_id, question, time_limit, memory_limit_mb, repeat));
"""


def test_a_store_of_the_previous_schema_is_read_as_it_is_and_upgraded_by_a_run(tmp_path):
    made = tmp_path / "made.sqlite"
    (tmp_path / "c.toml").write_text(SPEC)
    cpqueens.run_campaign(tmp_path / "c.toml", made, workers=1)
    old = tmp_path / "old.sqlite"  # the same runs in the tables of schema 1
    with sqlite3.connect(old) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(V1_TABLES)
        db.execute("INSERT INTO meta VALUES ('schema', '1')")
        db.execute("ATTACH ? AS made", (str(made),))
        for table in ("instances", "solvers", "runs"):
            db.execute(f"INSERT INTO {table} SELECT * FROM made.{table}")
        db.commit()
        db.execute("DETACH made")
    db.close()
    made.unlink()
    before = state(tmp_path)
    rows = cpqueens.load_results(old)
    assert sorted(r["instance"] for r in rows) == ["plain-n4", "plain-n5"]
    assert CliRunner().invoke(cli, ["campaign", "summary", str(old)]).exit_code == 0
    assert state(tmp_path) == before  # read as schema 1: nothing added
    report = cpqueens.run_campaign(tmp_path / "c.toml", old, workers=1)
    assert (report.ran, report.skipped) == (0, 2)
    with sqlite3.connect(old) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == (
            str(SCHEMA_VERSION),
        )
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
    db.close()
    assert {"claims", "processes"} <= tables


# --- runs shared between processes -------------------------------------------------------


def key(repeat: int) -> dict:
    return {"campaign": "c", "instance_id": 1, "solver_id": 1, "question": "decide",
            "time_limit": 5.0, "memory_limit_mb": 100, "repeat": repeat}  # fmt: skip


def gone_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def holder(store: Store, host: str, pid: int, heartbeat: float, repeat: int) -> None:
    """A process row and its claim on run ``repeat``, as another process leaves them."""
    token = f"{host}-{pid}-{repeat}"
    store.db.execute("INSERT INTO processes VALUES (?, 'c', ?, ?, 'then', ?)",
                     (token, host, pid, heartbeat))  # fmt: skip
    values = [*key(repeat).values(), token, heartbeat]
    store.db.execute(f"INSERT INTO claims VALUES ({', '.join('?' * len(values))})", values)


def test_claims_split_runs_and_take_over_from_processes_that_are_gone(tmp_path):
    notes = []
    with Store(tmp_path / "r.sqlite") as store:
        assert store.instance_id("i", "i", cpqueens.Instance(4), {}) == 1
        assert store.solver_id("s", "s", {}) == 1
        here, now = socket.gethostname(), time.time()
        holder(store, "elsewhere", 1, now, repeat=3)  # alive, as far as one can tell
        with Claims(store, "c", notes.append) as one, Claims(store, "c") as two:
            holder(store, here, gone_pid(), now, repeat=1)  # its pid no longer runs
            holder(store, "elsewhere", 2, now - claims_module.STALE_SECONDS - 5, repeat=2)
            assert notes == [
                "another process (host elsewhere, pid 1) is running this campaign; "
                "runs are shared between them"
            ]
            assert one.claim(key(0)) == MINE
            assert two.claim(key(0)) == (TAKEN, here, os.getpid())
            assert one.claim(key(0)) == MINE  # its own claim, asked again
            store.add_run(key(0), {"status": "sat", "host": here, "cpqueens_version": "x",
                                   "started": "now"})  # fmt: skip
            assert two.claim(key(0)) == DONE  # finished runs are never redone
            assert two.claim(key(1)) == MINE  # taken over: its process is gone
            assert two.claim(key(2)) == MINE  # taken over: no heartbeat for too long
            assert one.claim(key(3)) == (TAKEN, "elsewhere", 1)
            pending = [(key(r), f"task {r}") for r in range(5)]
            assert [task for _, task in one.take(pending)] == ["task 4"]
            assert one.left == 4  # one finished, three held by live processes
        tokens = {row[0] for row in store.db.execute("SELECT token FROM claims")}
        assert tokens == {"elsewhere-1-3"}  # both let go of theirs on leaving
        left = {token for (token,) in store.db.execute("SELECT token FROM processes")}
        assert one.token not in left and two.token not in left and "elsewhere-1-3" in left


def test_a_process_is_running_while_it_runs():
    assert pid_running(os.getpid())
    assert not pid_running(gone_pid())


@pytest.mark.slow
def test_two_processes_on_one_store_share_the_runs(tmp_path):
    program = tmp_path / "slow.py"
    program.write_text("import time\ntime.sleep(0.25)\nprint('1 3 0 2')\n")
    runs = 16
    (tmp_path / "c.toml").write_text(
        textwrap.dedent(f"""
        [campaign]
        time_limit = 20
        repeats = {runs}
        [[instances]]
        generator = "plain"
        n = [4]
        [[solvers]]
        label = "slow"
        command = {json.dumps(f"{sys.executable} {program}")}
        """)
    )
    db = tmp_path / "r.sqlite"
    command = [sys.executable, "-m", "cpqueens", "campaign", "run", str(tmp_path / "c.toml"),
               "--db", str(db), "--workers", "1"]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    children = [
        subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
        for _ in range(2)
    ]  # fmt: skip
    outputs = [child.communicate(timeout=120) for child in children]
    assert [child.returncode for child in children] == [0, 0], outputs
    did = []
    for _, err in outputs:
        last = err.strip().splitlines()[-1]
        assert " runs now, " in last, err
        did.append(int(last.split()[0]))
    assert sum(did) == runs and min(did) >= 1, did  # every run once, each did some
    assert any("another process (host " in err for _, err in outputs), outputs
    rows = cpqueens.load_results(db)
    assert sorted(r["repeat"] for r in rows) == list(range(runs))
    assert all(r["verdict"] == "sat" for r in rows)
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(*) FROM claims").fetchone() == (0,)
        assert connection.execute("SELECT COUNT(*) FROM processes").fetchone() == (0,)
    connection.close()
