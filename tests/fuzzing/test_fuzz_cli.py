"""`cpqueens fuzz`: its exit statuses, the files it writes, its resumption, its refusals."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import cpqueens
from cpqueens.cli import cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "mirror_solver.py"
CORRECT = ROOT / "tests" / "programs" / "mutants" / "correct.py"


def fuzz(*arguments: str):
    return CliRunner().invoke(cli, ["fuzz", *arguments])


@pytest.mark.slow
def test_a_failure_found_exits_1_and_writes_each_instance_with_the_report(tmp_path):
    out = tmp_path / "bugs"
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(EXAMPLE))} {{instance}}"
    result = fuzz("--command", command, "--format", "param", "--budget", "60s",
                  "--max-failures", "1", "-o", str(out), "-q")  # fmt: skip
    assert result.exit_code == 1, result.output
    assert "1. invalid board" in result.output and "reproduce:" in result.output
    report = json.loads((out / "report.json").read_text())
    (failure,) = report["failures"]
    assert failure["instance"]["n"] == 4 and len(failure["instance"]["blocks"]) == 1
    # The instance in the program's own format and in JSON, each read back the same.
    param, data = out / "bug-1.param", out / "bug-1.json"
    assert cpqueens.read_instance(param) == cpqueens.read_instance(data)
    assert cpqueens.read_instance(data).n == 4
    # The reproduce line runs the program on that file, and shows the wrong board.
    shown = subprocess.run(shlex.split(failure["reproduce"]), capture_output=True, text=True)
    boards = [tuple(json.loads(line)) for line in shown.stdout.splitlines()]
    instance = cpqueens.read_instance(data)
    assert any(not cpqueens.checking.cases.solves(b, instance) for b in boards)
    assert (out / "hunt.json").exists()


@pytest.mark.slow
def test_no_failure_exits_0_and_the_same_command_resumes_the_hunt(tmp_path):
    out = tmp_path / "hunt"
    command = f"{shlex.quote(sys.executable)} -S {shlex.quote(str(CORRECT))} {{instance}}"
    first = fuzz("--command", command, "--budget", "3", "--max-n", "6", "-o", str(out), "--json")
    assert first.exit_code == 0, first.output
    tried = json.loads(first.stdout)["tried"]
    assert tried > 0 and json.loads(first.stdout)["failures"] == []
    again = fuzz("--command", command, "--budget", "3", "--max-n", "6", "-o", str(out), "--json")
    assert again.exit_code == 0
    assert json.loads(again.stdout)["tried"] > tried
    other = fuzz("--command", command, "--budget", "3", "--max-n", "7", "-o", str(out))
    assert other.exit_code == 2 and "holds another hunt" in other.output


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ([], "--backend NAME or --command CMD"),
        (["--backend", "stack", "--command", "x {n}"], "--backend NAME or --command CMD"),
        (["--backend", "stack", "--budget", "ten"], "--budget must be seconds"),
        (["--backend", "stack", "--budget", "0"], "--budget must be seconds"),
        (["--backend", "nope"], "unknown backend 'nope'"),
        (["--command", "./no-such-program {instance}"], "no-such-program"),
        (["--backend", "stack", "--max-n", "30"], "max_n must be at most 16"),
        (["--backend", "stack", "--families", "round"], "families must name some of"),
        (["--command", "echo {n}", "--families", "blocked"], "plain boards only"),
        (["--backend", "stack", "--reference", "stack"], "cannot vouch for itself"),
        (["--backend", "sat", "-O", "solver=nope"], "sat option solver must be one of"),
        (["--backend", "sat", "-O", "solvr=glucose4"], "unknown option(s) solvr"),
        (["--backend", "sat", "-O", "glucose4"], "malformed backend option 'glucose4'"),
        (["--command", "echo {n}", "-O", "solver=x"], "-O KEY=VALUE sets options of the --backend"),
        (["--command", "echo 92"], "holds neither {n}"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(arguments, message):
    result = fuzz(*arguments)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_budget_words_are_seconds_minutes_and_hours():
    from cpqueens.cli.fuzzing import parse_budget

    assert parse_budget("90") == 90 and parse_budget("90s") == 90
    assert parse_budget("10m") == 600 and parse_budget("2h") == 7200
    assert parse_budget(" 1.5m ") == 90


@pytest.mark.slow
def test_a_backend_hunted_from_the_command_line_shows_no_failure():
    result = fuzz("--backend", "propagate", "--question", "count", "--budget", "3", "--max-n", "7")
    assert result.exit_code == 0, result.output
    assert "propagate: 0 distinct failure(s)" in result.output


def test_a_backends_option_is_hunted_with_o():
    result = fuzz("--backend", "sat", "-O", "solver=glucose4", "--budget", "3", "--max-n", "6")
    assert result.exit_code == 0, result.output
    assert "sat (solver=glucose4): 0 distinct failure(s)" in result.output


def test_time_outs_alone_exit_4_and_are_listed_apart(tmp_path):
    script = tmp_path / "slow_at_3.py"
    script.write_text(
        "import json, sys, time\n"
        "instance = json.load(open(sys.argv[1]))\n"
        "if instance['n'] == 3: time.sleep(60)\n"
        # One solution at n=1 (unless its square is blocked); none at n=2: nothing printed.
        "if instance['n'] == 1 and not instance.get('blocks'): print('[0]')\n"
    )
    command = f"{shlex.quote(sys.executable)} -S {shlex.quote(str(script))} {{instance}}"
    result = fuzz("--command", command, "--budget", "6", "--max-n", "3", "--families", "plain",
                  "--relations", "symmetry",
                  "--time-limit", "0.3", "-o", str(tmp_path / "out"))  # fmt: skip
    assert result.exit_code == 4, result.output
    assert "0 distinct failure(s) and 1 time-out(s)" in result.output
    assert "time-outs (slow, not wrong" in result.output
    assert (tmp_path / "out" / "timeout-1.json").exists()


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda state: state.update(done=[[0, 10**18]]), None),  # a huge run: skipped whole
        (lambda state: state.update(done=[[5, 1]]), "a run of indices tried is [5, 1]"),
        (lambda state: state.update(done="all"), "done is not a list"),
        (lambda state: state.update(done=[[0, 1]] * 1_000_001), "more than 1,000,000"),
        (lambda state: state.update(tried=-3), "tried is -3"),
        (lambda state: state.update(by_family={"plain": {"x": 1}}), "by_family is not"),
        (lambda state: state.update(failures=[{"kind": "crash"}]), "a failure: KeyError"),
        (
            lambda state: state.update(failures=[{**FAILURE, "instance": {"n": -4}}]),
            "a failure's instance",
        ),
        (lambda state: state.update(settings=[1]), "its settings are not a table"),
    ],
    ids=[
        "huge-run",
        "backward-run",
        "done-a-word",
        "too-many-runs",
        "negative-tried",
        "bad-sizes",
        "failure-without-fields",
        "failure-bad-instance",
        "settings-a-list",
    ],
)
def test_an_edited_state_is_checked_as_any_input(tmp_path, edit, words):
    out = tmp_path / "hunt"
    first = fuzz("--backend", "stack", "--budget", "1", "--max-n", "4", "-o", str(out), "-q")
    assert first.exit_code == 0, first.output
    state = json.loads((out / "hunt.json").read_text())
    edit(state)
    (out / "hunt.json").write_text(json.dumps(state))
    started = time.monotonic()
    again = fuzz("--backend", "stack", "--budget", "1", "--max-n", "4", "-o", str(out), "-q")
    assert time.monotonic() - started < 20
    if words is None:  # resumed: the huge run is skipped, not expanded
        assert again.exit_code == 0, again.output
        assert json.loads((out / "hunt.json").read_text())["done"][0][1] >= 10**18
    else:
        assert again.exit_code == 2, again.output
        assert words in again.output and "Traceback" not in again.output


FAILURE = {
    "kind": "crash", "instance": {"n": 4}, "original": {"n": 4}, "expected": "an answer",
    "observed": "died", "reproduce": "x", "seed": 0,
}  # fmt: skip
