"""Counts that survive a restart: `count(..., checkpoint=FILE)` keeps each finished part,
a count killed at any point resumes to the exact count, and a file of another count or
no checkpoint at all is refused and left as it is."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cpqueens

pytest.importorskip("numba")

ROOT = Path(__file__).resolve().parents[2]
COUNT_15 = 2_279_184


def finished_tasks(path: Path) -> int:
    """How many tasks the checkpoint holds, read without writing to it."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            return db.execute("SELECT count(*) FROM tasks").fetchone()[0]
    except sqlite3.Error:
        return 0


def total_tasks(path: Path) -> int:
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        return int(db.execute("SELECT value FROM meta WHERE key = 'tasks'").fetchone()[0])


def start_count(path: Path, n: int, workers: int) -> subprocess.Popen:
    code = (
        "import sys, cpqueens\n"
        f"print(cpqueens.count({n}, backend='bitmask', workers={workers},\n"
        "                     checkpoint=sys.argv[1]))\n"
    )
    return subprocess.Popen([sys.executable, "-c", code, str(path)], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True, start_new_session=True)  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
def test_a_count_killed_twice_at_random_points_resumes_to_the_exact_count(tmp_path, workers):
    path = tmp_path / "n15.ckpt"
    rng = random.Random(workers)
    kills = 0
    for _ in range(2):
        process = start_count(path, 15, workers)
        # A random point of the work: once the file holds between one task and most.
        goal = None
        deadline = time.monotonic() + 60
        while process.poll() is None and time.monotonic() < deadline:
            done = finished_tasks(path)
            if done and goal is None:
                goal = rng.randint(1, max(1, total_tasks(path) - 2))
            if goal is not None and done >= goal:
                os.killpg(process.pid, signal.SIGKILL)
                kills += 1
                break
            time.sleep(0.002)
        process.wait()
    assert kills == 2
    partial = finished_tasks(path)
    assert 0 < partial < total_tasks(path)
    again = start_count(path, 15, workers)
    out, _ = again.communicate(timeout=120)
    assert again.returncode == 0 and int(out) == COUNT_15
    assert finished_tasks(path) == total_tasks(path)
    # Whole, it is read back without a search.
    assert cpqueens.count(15, backend="bitmask", workers=1, checkpoint=path) == COUNT_15


def test_the_same_file_serves_any_number_of_workers_and_classes_apart(tmp_path):
    path = tmp_path / "n11.ckpt"
    assert cpqueens.count(11, backend="bitmask", workers=2, checkpoint=path) == 2680
    assert cpqueens.count(11, backend="bitmask", workers=1, checkpoint=path) == 2680
    with pytest.raises(cpqueens.InvalidInputError, match="holds another count"):
        cpqueens.count(11, backend="bitmask", unique=True, checkpoint=path)
    classes = tmp_path / "n11-classes.ckpt"
    assert cpqueens.count(11, backend="bitmask", unique=True, checkpoint=classes) == 341


def test_blocked_and_fixed_counts_are_checkpointed_too(tmp_path):
    inst = cpqueens.Instance(10, fixed={2: 3}, blocked=[(0, 0), (5, 5)])
    expected = cpqueens.count(inst, backend="stack")
    path = tmp_path / "b.ckpt"
    assert cpqueens.count(inst, backend="bitmask", workers=1, checkpoint=path) == expected
    assert cpqueens.count(inst, backend="bitmask", workers=2, checkpoint=path) == expected
    with pytest.raises(cpqueens.InvalidInputError, match=r"holds another count.*blocked"):
        cpqueens.count(cpqueens.Instance(10, fixed={2: 3}), backend="bitmask", checkpoint=path)


def test_a_file_that_is_no_checkpoint_is_refused_and_left_as_it_is(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("my notes\n")
    other = tmp_path / "other.sqlite"
    with contextlib.closing(sqlite3.connect(other)) as db:
        db.execute("CREATE TABLE meta (key TEXT, value TEXT)")
        db.execute("INSERT INTO meta VALUES ('format', '\"something\"')")
        db.commit()
    for path in (text, other, tmp_path):
        before = path.read_bytes() if path.is_file() else None
        with pytest.raises(cpqueens.InvalidInputError, match="not a cpqueens count checkpoint"):
            cpqueens.count(9, backend="bitmask", workers=1, checkpoint=path)
        if before is not None:
            assert path.read_bytes() == before


def test_a_checkpoint_is_for_counting_with_bitmask():
    with pytest.raises(cpqueens.UnsupportedOptionError):
        cpqueens.count(8, backend="stack", checkpoint="x.ckpt")
    with pytest.raises(cpqueens.UnsupportedOptionError, match="checkpoint"):
        cpqueens.solve(8, backend="bitmask", checkpoint="x.ckpt")
    with pytest.raises(cpqueens.InvalidInputError, match="checkpoint must be a file path"):
        cpqueens.count(8, backend="bitmask", checkpoint=3)


@pytest.mark.slow
def test_the_command_line_counts_with_a_checkpoint_and_resumes(tmp_path):
    path = tmp_path / "n12.ckpt"
    command = [sys.executable, "-m", "cpqueens", "count", "12", "-b", "bitmask", "--checkpoint",
               str(path)]  # fmt: skip
    first = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    assert first.returncode == 0, first.stderr
    assert first.stdout.split()[0] == "14200"
    again = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    assert again.returncode == 0 and again.stdout.split()[0] == "14200"
    assert "resumed" in again.stderr


def test_a_count_on_a_dask_cluster_keeps_its_parts_in_the_same_file(cluster, tmp_path):
    path = tmp_path / "n13.ckpt"
    remote = cpqueens.count(13, backend="bitmask", scheduler=cluster.scheduler_address,
                            checkpoint=path)  # fmt: skip
    assert remote == 73_712 and finished_tasks(path) == total_tasks(path)
    assert cpqueens.count(13, backend="bitmask", workers=1, checkpoint=path) == 73_712
