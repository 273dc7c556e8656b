"""Budgets and signs of life: bench time limit and budget, profile steps, connect timeout."""

from __future__ import annotations

import csv
import io
import json
import time

import pytest
from click.testing import CliRunner

from cpqueens.cli import cli
from cpqueens.errors import InvalidInputError
from cpqueens.reporting.bench import runs as bench
from cpqueens.reporting.bench.runs import run_bench
from cpqueens.reporting.bench.tables import bench_csv, bench_notes, bench_table
from cpqueens.reporting.profile.profiles import COMBINATIONS, search_profile
from cpqueens.solvers import REGISTRY


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def no_runs(monkeypatch) -> None:
    """Make any bench run fail the test: refusals must come before the first one."""

    def forbidden(*args, **kwargs):
        raise AssertionError("a run started")

    monkeypatch.setattr(bench, "solve", forbidden)
    monkeypatch.setattr(bench, "time_one", forbidden)


def test_a_timed_out_backend_goes_no_higher():
    start = time.monotonic()
    timings = run_bench(range(8, 15), ["stack"], repeat=1, time_limit=0.05)
    assert time.monotonic() - start < 10
    status = {t.n: t.status for t in timings}
    stopped = min(n for n, s in status.items() if s == "timed out")
    assert list(status.values()).count("timed out") == 1
    assert all(status[n] == "done" for n in range(8, stopped))
    assert all(status[n] == "skipped" for n in range(stopped + 1, 15))
    out = next(t for t in timings if t.n == stopped)
    assert out.median is None and out.count is None and out.stopped
    assert "time limit of 50.0 ms" in out.error
    later = [t for t in timings if t.n > stopped]
    assert all(t.error == f"not started: stack timed out at n={stopped}" for t in later)
    # Shown as such in the table, the JSON and the CSV, and said once in the notes.
    lines = bench_table(timings).splitlines()
    assert "timed out" in next(line for line in lines if line.split()[1] == str(stopped))
    assert json.loads(json.dumps(out.to_record()))["status"] == "timed out"
    rows = list(csv.DictReader(io.StringIO(bench_csv(timings))))
    assert [r["status"] for r in rows] == [t.status for t in timings]
    assert bench_notes(timings) == [
        f"stack n={stopped} {out.error}; n={stopped + 1}..14 not tried",
    ]


def test_other_backends_go_on_when_one_times_out(monkeypatch):
    real = bench.solve

    def slow_tree(n, backend, **kwargs):
        if backend == "tree" and n >= 6 and kwargs.get("time_limit"):
            # As if the tree took longer than its limit: the API's own time-out.
            return real(14, backend="stack", time_limit=0.01)
        return real(n, backend=backend, **kwargs)

    monkeypatch.setattr(bench, "solve", slow_tree)
    timings = run_bench([4, 5, 6, 7, 8], ["stack", "tree"], repeat=1, time_limit=5)
    status = {(t.backend, t.n): t.status for t in timings}
    assert all(status["stack", n] == "done" for n in range(4, 9))
    assert [status["tree", n] for n in range(4, 9)] == ["done"] * 2 + ["timed out"] + [
        "skipped"
    ] * 2


def test_a_spent_budget_starts_nothing_more_and_says_so():
    start = time.monotonic()
    timings = run_bench(range(4, 15), ["stack", "tree"], repeat=2, budget=0.5)
    assert time.monotonic() - start < 5
    assert timings[0].status == "done"
    skipped = [t for t in timings if t.status == "skipped"]
    assert skipped and timings[-1] in skipped
    assert all(t.error == "not started: the budget of 500 ms was spent" for t in skipped)
    # Every pair after the first one stopped is skipped.
    first = next(i for i, t in enumerate(timings) if t.stopped)
    assert all(t.stopped for t in timings[first:])
    notes = bench_notes(timings)
    assert notes[-1].startswith("not started (the budget of 500 ms was spent): ")
    assert "tree n=" in notes[-1] and "14" in notes[-1]


def test_limits_are_checked():
    with pytest.raises(InvalidInputError, match="budget must be a positive number"):
        run_bench([4], ["stack"], budget=0)
    with pytest.raises(InvalidInputError, match="time_limit must be a positive"):
        run_bench([4], ["stack"], time_limit=-1)


def test_a_board_a_backend_cannot_take_is_refused_before_any_run(monkeypatch):
    monkeypatch.setattr(REGISTRY["bitmask"], "max_n", 6)
    no_runs(monkeypatch)
    words = "n=8 is beyond what backend 'bitmask' handles (n <= 6)"
    with pytest.raises(InvalidInputError) as caught:
        run_bench([4, 8], ["stack", "bitmask"], repeat=1)
    assert words in str(caught.value)
    result = run("bench", "4-8", "--backends", "stack,bitmask")
    assert result.exit_code == 2, result.output
    assert words in result.stderr and result.stdout == ""


def test_cli_bench_beyond_a_backend_exits_2_before_any_run(monkeypatch):
    no_runs(monkeypatch)
    result = run("bench", "33", "--backends", "bitmask")
    assert result.exit_code == 2, result.output
    assert "board size 33 goes beyond n=14" in result.stderr
    assert "n=33 is beyond what backend 'bitmask' handles (n <= 32)" in result.stderr
    assert result.stderr.count("\n") == 1 and result.stdout == ""


def test_cli_bench_time_out_exits_3(tmp_path):
    target = tmp_path / "b.json"
    result = run(
        "bench", "8-12", "--backends", "stack", "-r", "1", "--time-limit", "0.05", "-o", str(target)
    )
    assert result.exit_code == 3, result.output
    assert "timed out" in result.stdout and "skipped" in result.stdout
    assert "not tried" in result.stderr
    records = json.loads(target.read_text())
    assert records[0]["status"] == "done" and records[-1]["status"] == "skipped"
    assert "timed out" in [r["status"] for r in records]


def test_cli_bench_budget_exits_3_and_says_what_was_skipped():
    result = run("bench", "4-14", "--backends", "stack", "-r", "1", "--budget", "0.3", "--json")
    assert result.exit_code == 3, result.output
    records = json.loads(result.stdout)
    assert records[-1]["status"] == "skipped"
    assert "budget of 300 ms was spent" in records[-1]["error"]
    assert "not started (the budget of 300 ms was spent): stack n=" in result.stderr


def test_cli_bench_within_its_limits_exits_0():
    result = run("bench", "4-5", "--backends", "stack", "-r", "1")
    assert result.exit_code == 0, result.output
    # Nothing stopped, so no note: only the line that says what the columns mean.
    assert result.stderr.startswith("median = of the runs; x fastest = ")
    assert len(result.stderr.splitlines()) == 1
    help_text = run("bench", "--help").stdout
    assert "--time-limit" in help_text and "[default: 60" in help_text
    assert "--budget" in help_text and "[default: 600" in help_text


def test_profile_reports_each_step():
    steps = []
    search_profile(6, solvers=["stack"], on_step=lambda *step: steps.append(step))
    total = len(COMBINATIONS) + 1
    assert steps == [
        *((f"search {p}/{o}", i, total) for i, (p, o) in enumerate(COMBINATIONS)),
        ("solver stack", len(COMBINATIONS), total),
    ]


@pytest.mark.slow
def test_connect_to_nothing_gives_up_naming_the_address(monkeypatch):
    pytest.importorskip("distributed")
    from cpqueens.parallel import cluster

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(cluster.sys, "stderr", screen)
    address = "tcp://127.0.0.1:1"
    start = time.monotonic()
    with pytest.raises(InvalidInputError) as caught:
        cluster.connect(scheduler=address, timeout=1)
    assert time.monotonic() - start < 12
    message = str(caught.value)
    assert f"cannot connect to the dask scheduler at {address!r} within 1.00 s" in message
    assert (
        screen.getvalue()
        == f"connecting to the dask scheduler at {address} (giving up after 1.00 s)\n"
    )


def test_the_default_connect_timeout_is_short():
    pytest.importorskip("distributed")
    import dask

    from cpqueens.parallel.cluster import CONNECT_TIMEOUT, connect_timeout

    assert connect_timeout() == CONNECT_TIMEOUT == 10
    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}):
        assert connect_timeout() == 2
    with dask.config.set({"distributed.comm.timeouts.connect": "60s"}):
        assert connect_timeout() == 10
