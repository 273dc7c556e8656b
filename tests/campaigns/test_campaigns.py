"""Campaigns: specs, isolated limited runs, verdicts, the store, resuming, the summary."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from processes import alive
from timing import Stopwatch

import cpqueens
from cpqueens.campaigns.run_verdicts import board_fault
from cpqueens.campaigns.spec import load_spec
from cpqueens.campaigns.store import Store
from cpqueens.campaigns.summary import summarize
from cpqueens.campaigns.verify import judge
from cpqueens.errors import InvalidInputError
from cpqueens.outputs.answers import BadOutput, read_answer

ROOT = Path(__file__).resolve().parents[2]


def script(folder: Path, name: str, body: str) -> str:
    """A Python program in ``folder``, and the command that runs it on an instance."""
    path = folder / f"{name}.py"
    path.write_text(textwrap.dedent(body))
    return f"{sys.executable} {path} {{instance}}"


def spec_of(folder: Path, solvers: list[dict], *, sizes=(5, 6), limit=5.0, memory=2000, **head):
    return {
        "campaign": {"time_limit": limit, "memory_limit_mb": memory, **head},
        "instances": [{"generator": "plain", "n": list(sizes)}],
        "solvers": solvers,
    }


def runs_of(db: Path) -> list[dict]:
    return cpqueens.load_results(db)


# --- specs -----------------------------------------------------------------------------


def test_spec_expands_generated_instances_and_files(tmp_path):
    folder = tmp_path / "inst"
    folder.mkdir()
    cpqueens.write_instance(cpqueens.Instance(6, blocked=[(0, 0)]), folder / "a.param")
    spec_file = tmp_path / "c.toml"
    spec_file.write_text(
        textwrap.dedent("""
        [campaign]
        question = "decide"
        time_limit = 3
        repeats = 2

        [[instances]]
        generator = "blocked"
        n = [8, 9]
        blocked = [10, 20]
        seeds = [1, 2]

        [[instances]]
        generator = "completion"
        n = [8]
        queens = [2]
        seeds = [3]
        from_solution = true

        [[instances]]
        files = "inst/*.param"

        [[solvers]]
        backend = "exactcover"

        [[solvers]]
        label = "glucose"
        backend = "sat"
        options = { solver = "glucose4" }
        """)
    )
    spec = load_spec(spec_file)
    assert spec.name == "c" and spec.repeats == 2 and spec.time_limit == 3.0
    assert len(spec.instances) == 2 * 2 * 2 + 1 + 1
    assert spec.instances[-1].source == {"file": "inst/a.param"}
    assert [s.label for s in spec.solvers] == ["exactcover", "glucose"]
    # Another option is another configuration; the label is only a name.
    other = load_spec({"solvers": [{"label": "glucose", "backend": "sat"}],
                       "instances": [{"generator": "plain", "n": 4}]})  # fmt: skip
    assert other.solvers[0].key != spec.solvers[1].key


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"campaign": {"question": "guess"}}, "'guess'"),
        ({"campaign": {"time_limit": -1}}, "-1"),
        ({"campaign": {"colour": 1}}, "'colour'"),
        ({"instances": [{"generator": "random", "n": [4]}]}, "'random'"),
        ({"instances": [{"generator": "blocked", "n": [4]}]}, "blocked = [...] is missing"),
        ({"solvers": [{"backend": "nosuch"}]}, "'nosuch'"),
        ({"solvers": [{"command": "x", "format": "pdf"}]}, "'pdf'"),
        ({"solvers": [{"backend": "stack", "command": "x"}]}, "exactly one"),
        ({"instances": [{"files": "nothing/*.param"}]}, "no file matches"),
    ],
)
def test_bad_specs_are_refused_naming_the_value(change, words):
    spec = {"instances": [{"generator": "plain", "n": [4]}], "solvers": [{"backend": "stack"}]}
    spec.update(change)
    with pytest.raises(InvalidInputError, match=None) as caught:
        load_spec(spec)
    assert words in str(caught.value)


# --- answers and verdicts ----------------------------------------------------------------


def test_read_answer_speaks_the_competition_format():
    assert read_answer("s SATISFIABLE\nv 1 3 0 2\n", 4, "decide")["solutions"] == [[1, 3, 0, 2]]
    assert read_answer("s UNKNOWN\n", 8, "decide")["answer"] == "unknown"
    xcsp = "v <instantiation> <list> x[] </list>\nv <values> 2 4 1 3 </values> </instantiation>"
    assert read_answer(xcsp, 4, "decide")["solutions"] == [[1, 3, 0, 2]]
    assert read_answer("s SATISFIABLE\n92\n", 8, "count")["count"] == 92
    with pytest.raises(BadOutput, match="two status lines"):
        read_answer("s SATISFIABLE\ns UNSATISFIABLE\n", 4, "decide")
    with pytest.raises(BadOutput, match="no status line"):
        read_answer("hello\n", 4, "decide")


def test_board_fault_is_independent_and_exact():
    inst = cpqueens.Instance(5, fixed={0: 0}, blocked=[(1, 2)])
    assert board_fault(inst, [0, 2, 4, 1, 3]) == (
        "a queen on the blocked square in column 2 of row 1 (counted from 0)"
    )
    assert board_fault(inst, [1, 3, 0, 2, 4]) == (
        "the queen given in column 0 of row 0 (counted from 0) was moved"
    )
    assert board_fault(inst, [0, 3, 1, 4, 2]) is None
    assert "diagonal" in board_fault(cpqueens.Instance(4), [0, 1, 3, 2])
    assert "rows" in board_fault(cpqueens.Instance(4), [0, 2])


def _row(solver, instance, verdict, wall, *, count=None, config=None, question="decide"):
    return {"solver": solver, "solver_hash": config or solver, "instance": instance,
            "instance_hash": instance, "status": verdict, "reason": None, "wall": wall,
            "time_limit": 10.0, "count": count, "question": question}  # fmt: skip


def test_judge_unsat_against_a_found_solution_and_counts_by_majority():
    rows = [
        _row("a", "i1", "sat", 1.0),
        _row("b", "i1", "unsat", 0.5),
        _row("a", "i2", "sat", 1.0, count=4, question="count"),
        _row("b", "i2", "sat", 1.0, count=4, question="count"),
        _row("c", "i2", "sat", 1.0, count=5, question="count"),
        _row("a", "i3", "sat", 1.0, count=2, question="count"),
        _row("b", "i3", "sat", 1.0, count=3, question="count"),
    ]
    judged, disputed = judge(rows)
    verdicts = [(r["solver"], r["instance"], r["verdict"]) for r in judged]
    assert ("b", "i1", "wrong") in verdicts
    assert ("c", "i2", "wrong") in verdicts and ("a", "i2", "sat") in verdicts
    assert disputed == ["i3"]  # two configurations, two counts: no majority


def test_summary_numbers_by_hand():
    rows = [
        _row("a", "i1", "sat", 1.0),
        _row("a", "i2", "unsat", 3.0),
        _row("a", "i3", "unknown", 10.4),
        _row("b", "i1", "sat", 2.0),
        _row("b", "i2", "memout", 0.2),
        _row("b", "i3", "sat", 5.0),
    ]
    for row in rows:
        row["verdict"] = row["status"]
    table = {entry["solver"]: entry for entry in summarize(rows)}
    a, b, vbs = table["a"], table["b"], table["VBS"]
    assert (a["runs"], a["solved"], a["sat"], a["unsat"], a["unknown"]) == (3, 2, 1, 1, 1)
    assert a["par2"] == pytest.approx((1 + 3 + 20) / 3, abs=1e-3)
    assert a["median_time"] == 2.0 and a["alone"] == 1  # i2
    assert (b["solved"], b["memout"], b["alone"]) == (2, 1, 1)  # i3
    assert b["par2"] == pytest.approx((2 + 20 + 5) / 3, abs=1e-3)
    assert (vbs["runs"], vbs["solved"]) == (3, 3)
    assert vbs["par2"] == pytest.approx((1 + 3 + 5) / 3, abs=1e-3)


# --- isolated runs, end to end -----------------------------------------------------------


@pytest.mark.slow
def test_campaign_flags_wrong_solvers_and_kills_hung_ones(tmp_path):
    liar = script(
        tmp_path,
        "liar",
        """
        print("s SATISFIABLE")
        print("v 0 1 2 3 4 5")
    """,
    )
    pessimist = script(tmp_path, "pessimist", 'print("s UNSATISFIABLE")')
    crash = script(tmp_path, "crash", "import os; os.abort()")
    pids = tmp_path / "pids"
    hang = script(
        tmp_path,
        "hang",
        f"""
        import subprocess, time
        child = subprocess.Popen(["sleep", "1000"])
        with open({str(pids)!r}, "a") as f:
            f.write(str(child.pid) + "\\n")
        time.sleep(1000)
    """,
    )
    hog = script(
        tmp_path,
        "hog",
        """
        import time
        blocks = []
        while True:  # past the limit within a few blocks, however busy the machine
            blocks.append(b"x" * (100 * 2 ** 20))
            time.sleep(0.001)
    """,
    )
    solvers = [
        {"backend": "exactcover"},
        {"label": "liar", "command": liar},
        {"label": "pessimist", "command": pessimist},
        {"label": "crash", "command": crash},
        {"label": "hang", "command": hang},
        {"label": "hog", "command": hog},
        {"label": "missing", "command": "./no-such-solver {instance}"},
    ]
    db = tmp_path / "r.sqlite"
    with Stopwatch() as clock:
        report = cpqueens.run_campaign(
            spec_of(tmp_path, solvers, sizes=(6,), limit=1.5, memory=400), db, workers=2
        )
    assert not report.ok and report.headline().startswith("WRONG: 2 wrong answers")
    verdicts = {r["solver"]: r for r in runs_of(db)}
    assert verdicts["exactcover"]["verdict"] == "sat"
    assert verdicts["liar"]["verdict"] == "wrong"
    assert "does not solve" in verdicts["liar"]["verdict_reason"]
    assert verdicts["pessimist"]["verdict"] == "wrong"
    assert "exactcover found a verified solution" in verdicts["pessimist"]["verdict_reason"]
    assert verdicts["crash"]["verdict"] == "error" and "SIGABRT" in verdicts["crash"]["reason"]
    assert verdicts["hang"]["verdict"] == "unknown"
    assert verdicts["hang"]["wall"] >= 1.5
    clock.check(1.5, 2.5, seconds=verdicts["hang"]["wall"], what="the hung run")
    assert verdicts["hog"]["verdict"] == "memout" and verdicts["hog"]["peak_mb"] > 400
    assert verdicts["missing"]["verdict"] == "error"
    assert "no-such-solver" in verdicts["missing"]["reason"]
    clock.check(0, 30.0, what="the campaign")
    # The hung program's own child went with it.
    time.sleep(0.5)
    for pid in map(int, pids.read_text().split()):
        assert not alive(pid), f"process {pid} outlived its run"


@pytest.mark.slow
def test_count_and_all_questions_are_cross_checked(tmp_path):
    db = tmp_path / "r.sqlite"
    solvers = [{"backend": "stack"}, {"backend": "exactcover"}, {"backend": "bitmask"}]
    for question in ("count", "all"):
        report = cpqueens.run_campaign(
            spec_of(tmp_path, solvers, sizes=(6, 7), question=question, name=question),
            db,
            workers=2,
        )
        assert report.ok, report.wrong
        rows = cpqueens.load_results(db, question)
        assert {(r["n"], r["count"]) for r in rows} == {(6, 4), (7, 40)}


@pytest.mark.slow
def test_resume_skips_finished_runs_and_new_options_make_new_configs(tmp_path):
    db = tmp_path / "r.sqlite"
    spec = spec_of(tmp_path, [{"backend": "stack"}], sizes=(4, 5, 6))
    first = cpqueens.run_campaign(spec, db, workers=1)
    assert (first.ran, first.skipped) == (3, 0)
    again = cpqueens.run_campaign(spec, db, workers=1)
    assert (again.ran, again.skipped) == (0, 3)
    spec["solvers"] = [{"backend": "stack", "options": {"tried": "tested"}}]
    changed = cpqueens.run_campaign(spec, db, workers=1)
    assert changed.ran == 3
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(*) FROM solvers").fetchone()[0] == 2
        assert connection.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 6


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGKILL])
def test_interrupted_campaign_keeps_finished_runs_and_resumes(tmp_path, stop):
    # The first two runs take 0.4 s; the later ones wait for the file "go", which the
    # test writes once the campaign is stopped: the signal comes after two runs are
    # finished and before all of them are, however slow the machine.
    slow = script(
        tmp_path,
        "slow",
        f"""
        import os, time
        folder = {str(tmp_path)!r}
        with open(os.path.join(folder, "started"), "a") as log:
            log.write("run\\n")
        with open(os.path.join(folder, "started")) as log:
            started = len(log.read().split())
        if started > 2:
            deadline = time.monotonic() + 60
            while not os.path.exists(os.path.join(folder, "go")) and time.monotonic() < deadline:
                time.sleep(0.02)
        else:
            time.sleep(0.4)
        print("s UNKNOWN")
    """,
    )
    spec_file = tmp_path / "c.toml"
    spec_file.write_text(
        textwrap.dedent(f"""
        [campaign]
        time_limit = 60
        [[instances]]
        generator = "plain"
        n = [4, 5, 6, 7, 8, 9, 10, 11]
        [[solvers]]
        label = "slow"
        command = {json.dumps(slow)}
    """)
    )
    db = tmp_path / "r.sqlite"
    command = [sys.executable, "-m", "cpqueens", "campaign", "run", str(spec_file),
               "--db", str(db), "--workers", "1", "-q"]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    child = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and _finished_runs(db) < 2:
        time.sleep(0.05)
    child.send_signal(stop)
    child.communicate(timeout=20)
    (tmp_path / "go").touch()
    assert child.returncode == (130 if stop == signal.SIGINT else -signal.SIGKILL)
    with Store(db) as store:
        assert store.integrity() == "ok"
    kept = _finished_runs(db)
    assert 2 <= kept < 8
    report = cpqueens.run_campaign(spec_file, db, workers=2)
    assert report.skipped == kept and report.ran == 8 - kept
    assert len(runs_of(db)) == 8


def _finished_runs(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=5) as connection:
            return connection.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


@pytest.mark.slow
def test_cli_run_summary_and_plots(tmp_path):
    from click.testing import CliRunner

    from cpqueens.cli import cli

    spec_file = tmp_path / "c.toml"
    spec_file.write_text(
        textwrap.dedent("""
        [campaign]
        time_limit = 5
        [[instances]]
        generator = "blocked"
        n = [8]
        blocked = [20, 40]
        seeds = [1, 2]
        [[solvers]]
        backend = "exactcover"
        [[solvers]]
        backend = "sat"
    """)
    )
    db = tmp_path / "r.sqlite"
    runner = CliRunner()
    result = runner.invoke(cli, ["campaign", "run", str(spec_file), "--db", str(db), "-q"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("campaign 'c': no wrong answer")
    result = runner.invoke(cli, ["campaign", "summary", str(db), "--json"])
    table = json.loads(result.output)
    keys = {"solver", "runs", "solved", "sat", "unsat", "unknown", "memout", "error", "wrong",
            "par2"}  # fmt: skip
    assert keys <= set(table[0]) and [t["solver"] for t in table] == ["exactcover", "sat", "VBS"]
    assert all(t["runs"] == 4 and t["solved"] == 4 for t in table)
    result = runner.invoke(cli, ["campaign", "summary", str(db), "--csv"])
    assert result.output.splitlines()[0].startswith("solver,runs,solved,sat,unsat")
    for args in (["--cactus"], ["--scatter", "exactcover", "sat"], ["--transition", "density"]):
        out = tmp_path / f"{args[0][2:]}.png"
        result = runner.invoke(cli, ["campaign", "plot", str(db), *args, "-o", str(out)])
        assert result.exit_code == 0, result.output
        assert out.read_bytes().startswith(b"\x89PNG")
    result = runner.invoke(cli, ["campaign", "summary", str(tmp_path / "none.sqlite")])
    assert result.exit_code == 2 and "does not exist" in result.output
    report = tmp_path / "report.md"
    args = ["report", "4-5", "--backends", "stack", "--campaign", str(db), "-o", str(report)]
    result = runner.invoke(cli, [*args, "-q"])
    assert result.exit_code == 0, result.output
    text = report.read_text()
    assert "## Campaign (r.sqlite)" in text and "No wrong answer." in text
    assert "report_files/campaign" in text  # the cactus and transition plots, beside it
    assert len(list((tmp_path / "report_files").glob("campaign*.png"))) == 2


@pytest.mark.slow
def test_finders_take_part_in_decide_campaigns_with_a_seed(tmp_path):
    spec = {
        "campaign": {"seed": 5, "repeats": 2, "time_limit": 60},
        "instances": [{"generator": "blocked", "n": [30], "blocked": [100], "seeds": [1]}],
        "solvers": [{"backend": "qs"}, {"backend": "minconflicts"}, {"backend": "exactcover"}],
    }
    first = cpqueens.run_campaign(spec, tmp_path / "a.sqlite", workers=2)
    assert first.ok and [s["solver"] for s in first.summary] == [
        "qs", "minconflicts", "exactcover", "VBS",
    ]  # fmt: skip
    again = cpqueens.run_campaign(spec, tmp_path / "b.sqlite", workers=1)
    boards = [
        {(r["solver"], r["repeat"]): r["solution"] for r in cpqueens.load_results(db)}
        for db in (tmp_path / "a.sqlite", tmp_path / "b.sqlite")
    ]
    assert again.ok and boards[0] == boards[1]  # the seed makes the finders' runs repeat
    assert boards[0][("qs", 0)] != boards[0][("qs", 1)]  # and each repeat is its own run
    spec["campaign"]["question"] = "count"
    with pytest.raises(InvalidInputError, match="qs finds solutions and cannot count"):
        cpqueens.run_campaign(spec, tmp_path / "c.sqlite")


def test_a_count_is_no_proof_against_unsat_counts():
    rows = [
        _row("a", "i1", "unsat", 1.0, count=0, question="count"),
        _row("b", "i1", "unsat", 1.0, count=0, question="count"),
        _row("liar", "i1", "sat", 1.0, count=3, question="count"),
    ]
    judged, disputed = judge(rows)
    assert [(r["solver"], r["verdict"]) for r in judged] == [
        ("a", "unsat"), ("b", "unsat"), ("liar", "wrong"),
    ]  # fmt: skip
    assert not disputed


def test_ctrl_c_in_python_kills_the_runs_in_flight_at_once(tmp_path):
    import threading

    pids = tmp_path / "pids"
    hang = script(
        tmp_path,
        "hang",
        f"""
        import os, time
        with open({str(pids)!r}, "a") as f:
            f.write(str(os.getpid()) + "\\n")
        time.sleep(1000)
    """,
    )
    spec = spec_of(tmp_path, [{"label": "hang", "command": hang}], sizes=(5, 6), limit=60)

    def interrupt_once_both_run():
        # Ctrl-C once both runs are in flight (a counter, not a timer: start-up may be
        # slow on a busy machine).
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if pids.exists() and len(pids.read_text().split()) >= 2:
                break
            time.sleep(0.02)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=interrupt_once_both_run, daemon=True).start()
    with pytest.raises(KeyboardInterrupt) as caught:
        cpqueens.run_campaign(spec, tmp_path / "r.sqlite", workers=2)
    # The traceback (and the frame of run_campaign) is still held here.
    assert caught.value is not None
    deadline = time.monotonic() + 5
    running = list(map(int, pids.read_text().split()))
    while time.monotonic() < deadline and any(alive(pid) for pid in running):
        time.sleep(0.05)
    assert running and not any(alive(pid) for pid in running)
