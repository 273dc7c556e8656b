"""Programs as crosscheck backends: programs written for these tests print every style,
misbehave in every way, and a small C solver is compiled when a compiler is there."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import cpqueens
from cpqueens.cli import cli

ROOT = Path(__file__).resolve().parents[2]
PRINTER = Path(__file__).resolve().parents[1] / "programs" / "printer.py"
SIZES = [1, 2, 4, 5, 6]
COMPILER = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
needs_compiler = pytest.mark.skipif(
    COMPILER is None, reason="no C compiler (cc, gcc or clang) on PATH to build examples/queens.c"
)


def program(style: str = "grid", fault: str = "none", *extra: str, **options) -> cpqueens.Command:
    argv = [sys.executable, str(PRINTER), "{n}", "--style", style, "--fault", fault, *extra]
    options.setdefault("name", f"{style}/{fault}")
    return cpqueens.Command(argv, **options)


def printer_command(style: str = "grid", fault: str = "none") -> str:
    """The same program as one command string, for the command line."""
    return f'"{sys.executable}" "{PRINTER}" {{n}} --style {style} --fault {fault}'


@pytest.mark.slow
@pytest.mark.parametrize(
    ("style", "compared"),
    [
        ("grid", "all"),
        ("compact", "all"),
        ("article000", "all"),
        ("article001", "all"),
        ("numbers1", "all"),
        ("numbers0", "all"),
        ("csv", "all"),
        ("json", "all"),
        ("jsonlines", "all"),
        ("python", "all"),
        ("leetcode", "all"),
        ("onehot", "all"),
        ("article002", "count"),
        ("count", "count"),
    ],
)
def test_every_style_agrees(style, compared):
    report = cpqueens.crosscheck(SIZES, [program(style)])
    assert report.ok, str(report)
    # With no solution, an output stating "count": 0 is compared as a count; for n = 1
    # a count of 1 is also the one board "1".
    assert {row.compared for row in report.rows if row.n > 2} == {compared}
    assert [row.count for row in report.rows] == [1, 0, 2, 10, 4]


def test_a_program_that_prints_one_solution_is_checked_with_expect_some():
    one = program("article003", expect="some")
    report = cpqueens.crosscheck(SIZES, [one])
    assert report.ok, str(report)
    assert {row.compared for row in report.rows} == {"some"}
    every = cpqueens.crosscheck(6, [program("article003")])
    assert every.rows[0].missing_count == 3 and not every.ok


@pytest.mark.parametrize(
    ("fault", "kind"),
    [("drop", "missing"), ("repeat", "duplicated"), ("attack", "invalid")],
)
def test_faulty_programs_are_caught(fault, kind):
    report = cpqueens.crosscheck([6, 8], [program("grid", fault), "stack"])
    faulty = [row for row in report.rows if row.backend == f"grid/{fault}"]
    assert all(not row.agrees and row.status == "FAIL" for row in faulty)
    assert all(getattr(row, f"{kind}_count") == 1 for row in faulty)
    assert all(row.agrees for row in report.rows if row.backend == "stack")
    if kind == "invalid":
        assert faulty[0].invalid == (tuple(range(6)),)


def test_faults_under_expect_some():
    assert cpqueens.crosscheck(6, [program("grid", "drop", expect="some")]).ok
    for fault in ("repeat", "attack"):
        assert not cpqueens.crosscheck(6, [program("grid", fault, expect="some")]).ok


def test_a_wrong_count_fails():
    # A "Total: 5" line beside the boards is a claim, checked like a bare "5".
    for expect in ("count", "all"):
        report = cpqueens.crosscheck(6, [program("numbers1", "miscount", expect=expect)])
        assert not report.ok and "states 5 solutions" in str(report)
    (row,) = cpqueens.crosscheck(6, [program("count", "miscount")]).rows
    assert row.compared == "count" and row.count == 5 and row.reference_count == 4
    assert row.status == "FAIL" and "states 5 solutions, the reference has 4" in str(
        cpqueens.CrossCheckReport(rows=(row,), reference="tree")
    )


@pytest.mark.slow
def test_a_hanging_program_is_killed_with_its_children(tmp_path):
    pidfile = tmp_path / "child.pid"
    hangs = program("grid", "hang", "--pidfile", str(pidfile), timeout=1.0)
    start = time.perf_counter()
    report = cpqueens.crosscheck(6, [hangs, "stack"])
    assert time.perf_counter() - start < 20
    hung, stack = report.rows
    assert hung.status == "ERROR" and hung.error == (
        "timed out after 1 s (killed with the processes it started)"
    )
    assert stack.agrees
    child = int(pidfile.read_text())
    assert _dead(child), f"the hanging program's child {child} still runs"


def _dead(pid: int) -> bool:
    """True when ``pid`` has ended (a zombie waiting for its new parent counts as ended)."""
    for _ in range(50):
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
        except FileNotFoundError:
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.1)
    return False


def test_a_crash_quotes_the_exit_status_and_the_end_of_stderr():
    report = cpqueens.crosscheck(6, [program("grid", "crash"), "stack"])
    crashed, stack = report.rows
    assert crashed.status == "ERROR" and stack.agrees
    assert crashed.error.startswith("exited with status 3; standard error ends: ")
    assert "IndexError: list index out of range" in crashed.error
    assert "Traceback" in crashed.error  # the last three lines, the first of them included


@pytest.mark.skipif(not hasattr(os, "kill") or os.name != "posix", reason="POSIX signals")
def test_a_program_killed_by_a_signal_says_which():
    segv = cpqueens.Command(
        [sys.executable, "-c", "import os; print('bdac'); os.kill(os.getpid(), 11)"]
    )
    (row,) = cpqueens.crosscheck(4, [segv]).rows
    assert row.error == "killed by signal SIGSEGV; nothing on standard error"


def test_prose_is_an_error_naming_the_first_line_and_silence_is_no_solution():
    prose, silent = cpqueens.crosscheck(
        6, [program("grid", "prose"), program("grid", "silent")]
    ).rows
    assert prose.error.startswith(
        "nothing in its output could be read as a board of size 6; first line: "
        "'Here are the solutions! I found many of them, trust me.'. Read are grids"
    )
    assert "--parse" in prose.error and "cpqueens docs external" in prose.error
    # A program that exits 0 and prints nothing has answered: no solution. Wrong at 6,
    # a wrong answer (not an error), and right where there is none.
    assert silent.error is None and not silent.agrees and silent.missing_count == 4
    assert cpqueens.crosscheck([2, 3], [program("grid", "silent")]).ok
    # With no solution to find, saying so in any words agrees.
    assert cpqueens.crosscheck([2, 3], [program("grid", "prose")]).ok


def test_a_program_that_is_not_there_or_cannot_run(tmp_path):
    script = tmp_path / "queens.sh"
    script.write_text("#!/bin/sh\necho 1\n")
    script.chmod(0o644)
    # Refused at the call, before the reference is worked out, as a bad input.
    with pytest.raises(cpqueens.ProgramNotFoundError) as missing:
        cpqueens.crosscheck(range(1, 11), [cpqueens.Command("./no-such-solver {n}", cwd=tmp_path)])
    assert str(missing.value) == f"program not found: './no-such-solver' in {tmp_path}"
    assert isinstance(missing.value, cpqueens.InvalidInputError)
    with pytest.raises(cpqueens.ProgramNotFoundError, match="permission denied"):
        cpqueens.crosscheck(4, [cpqueens.Command([str(script), "{n}"], name="not executable")])


def test_commands_run_without_a_shell_and_with_n_replaced(tmp_path):
    echo = cpqueens.Command(
        [
            sys.executable,
            "-c",
            "import sys, json; print(json.dumps(sys.argv[1:]))",
            *["{n}", "size={n}", "$HOME", "a b", ">out", ";"],
        ]
    )
    assert json.loads(echo.run(7).stdout) == ["7", "size=7", "$HOME", "a b", ">out", ";"]
    split = cpqueens.Command(f'"{sys.executable}" -c "print(\'a  b\')" > out')
    assert split.argv(4)[-2:] == [">", "out"]
    assert split.run(4).stdout == "a  b\n" and not (tmp_path / "out").exists()
    fixed_size = cpqueens.Command([sys.executable, "-c", "print('bdac cadb')"])
    assert fixed_size.argv(5) == fixed_size.argv(4)


def test_stdin_is_empty_and_stderr_is_kept():
    reads = cpqueens.Command(
        [
            sys.executable,
            "-c",
            "import sys; sys.stderr.write('note'); print(repr(sys.stdin.read()))",
        ]
    )
    printed = reads.run(4)
    assert printed.stdout == "''\n" and printed.stderr == "note" and printed.returncode == 0


def test_a_command_serves_as_a_reference_and_as_a_function():
    report = cpqueens.crosscheck(6, ["stack"], reference=program("json"))
    assert report.ok and report.reference == "json/none"
    assert program("numbers1")(4) == [(1, 3, 0, 2), (2, 0, 3, 1)]
    with pytest.raises(cpqueens.CommandFailedError, match="states a count"):
        program("count")(4)


def test_rows_records_and_table_show_what_was_compared():
    report = cpqueens.crosscheck(5, {"mine": program("grid"), "count": program("count")})
    assert [r["compared"] for r in report.to_records()] == ["all", "count"]
    assert [r.backend for r in report.rows] == ["mine", "count"]
    header = str(report).splitlines()[0].split()
    assert header[:3] == ["n", "backend", "compared"]
    assert cpqueens.crosscheck(5, ["stack"]).rows[0].compared == "all"


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"command": ""}, cpqueens.InvalidInputError, "the command is empty"),
        ({"command": "./q 'open"}, cpqueens.InvalidInputError, "cannot split the command"),
        ({"command": 42}, cpqueens.InvalidTypeError, "command must be a str or a list"),
        ({"command": ["./q", 8]}, cpqueens.InvalidTypeError, "argv list must hold strings"),
        ({"parse": "pretty"}, cpqueens.InvalidInputError, "choose one of: auto, grid"),
        ({"expect": "most"}, cpqueens.InvalidInputError, "expect must be one of: all, some, count"),
        ({"timeout": 0}, cpqueens.InvalidInputError, "timeout must be a positive number"),
        ({"timeout": "5"}, cpqueens.InvalidTypeError, "timeout must be a number of seconds"),
        ({"base": 2}, cpqueens.InvalidInputError, "base must be None, 0 or 1"),
        ({"cwd": "/no/such/folder"}, cpqueens.InvalidInputError, "is not a folder"),
    ],
)
def test_bad_command_arguments(kwargs, error, match):
    arguments = {"command": "./q {n}", **kwargs}
    command = arguments.pop("command")
    with pytest.raises(error, match=match):
        cpqueens.Command(command, **arguments)


def test_two_commands_with_one_label_are_refused():
    with pytest.raises(cpqueens.InvalidInputError, match="two backends are labelled"):
        cpqueens.crosscheck(4, [cpqueens.Command("./q {n}"), cpqueens.Command("./q {n}")])


# A C solver, compiled here. -----------------------------------------------------------


def _compile(tmp_path: Path, *flags: str) -> Path:
    target = tmp_path / ("queens" + "".join(flags).replace("-D", "-"))
    subprocess.run(
        [COMPILER, "-O2", *flags, "-o", str(target), str(ROOT / "examples" / "queens.c")],
        check=True,
        capture_output=True,
    )
    return target


@pytest.mark.slow
@needs_compiler
def test_a_c_solver_agrees_and_a_broken_one_does_not(tmp_path):
    solver = _compile(tmp_path)
    broken = _compile(tmp_path, "-DFORGET_DIAGONAL")
    report = cpqueens.crosscheck(
        range(1, 9),
        {
            "c": cpqueens.Command([str(solver), "{n}"]),
            "c --count": cpqueens.Command([str(solver), "{n}", "--count"]),
            "broken": cpqueens.Command([str(broken), "{n}"]),
        },
    )
    rows = {(row.backend, row.n): row for row in report.rows}
    assert all(rows["c", n].agrees for n in range(1, 9))
    # "Total: 0" and no board at n = 2, 3 is a count; elsewhere the boards are compared.
    assert [rows["c", n].compared for n in range(1, 9)] == ["all", *["count"] * 2, *["all"] * 5]
    assert all(rows["c --count", n].compared == "count" for n in range(2, 9))
    assert all(rows["c --count", n].agrees for n in range(1, 9))
    assert not rows["broken", 8].agrees and rows["broken", 8].invalid_count > 0
    usage = cpqueens.crosscheck(4, [cpqueens.Command([str(solver)], name="no size")]).rows[0]
    assert usage.error.startswith("exited with status 2; standard error ends: usage:")


@pytest.mark.slow
@needs_compiler
def test_the_c_example_runs(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "crosscheck_c_solver.py")],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "queens.c agrees: True" in done.stdout
    assert "queens.c -DFORGET_DIAGONAL agrees: False" in done.stdout


# The command line. ---------------------------------------------------------------------


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def test_cli_crosscheck_with_commands_only():
    result = run("crosscheck", "4-6", "--command", printer_command("grid"))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["n", "4", "5", "6", "compared", "agrees"]
    assert len(lines) == 3 and lines[2].endswith("all     yes")


def test_cli_crosscheck_commands_beside_backends_and_a_failure():
    result = run(
        "crosscheck",
        "5-6",
        "--backends",
        "stack",
        "--command",
        printer_command("grid", "drop"),
        "--command",
        printer_command("count"),
        "--json",
    )
    assert result.exit_code == 1
    rows = json.loads(result.stdout)["rows"]
    assert [(r["backend"].split()[-1], r["compared"], r["agrees"]) for r in rows] == [
        ("stack", "all", True),
        ("drop", "all", False),
        ("none", "count", True),
    ] * 2


def test_cli_crosscheck_program_options():
    result = run(
        "crosscheck",
        "6",
        "--command",
        printer_command("article003"),
        "--expect",
        "some",
        "--timeout",
        "30",
    )
    assert result.exit_code == 0, result.output
    assert "some" in result.stdout
    failed = run(
        "crosscheck", "6", "--command", printer_command("grid", "hang"), "--timeout", "0.5"
    )
    assert failed.exit_code == 4  # no answer, not a wrong one
    assert "timed out after 0.5 s" in failed.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--parse", "pretty"], "Invalid value for '--parse'"),
        (["--expect", "most"], "Invalid value for '--expect'"),
        (["--timeout", "0"], "Invalid value for '--timeout'"),
        (["--base", "2"], "Invalid value for '--base'"),
    ],
)
def test_cli_crosscheck_bad_program_options(args, message):
    result = run("crosscheck", "4", "--command", "./q {n}", *args)
    assert result.exit_code == 2 and message in result.output


def test_cli_program_options_need_a_command():
    result = run("crosscheck", "4", "--backends", "stack", "--expect", "some", "--timeout", "5")
    assert result.exit_code == 2
    assert "Error: --expect, --timeout apply to --command programs" in result.output


def test_cli_crosscheck_bad_command_is_one_error_line():
    result = run("crosscheck", "4", "--command", "./q 'open")
    assert result.exit_code == 2
    assert result.output.strip().startswith("Error: cannot split the command")


def test_cli_verify_from_stdin_and_file(tmp_path):
    boards = "\n\n".join(cpqueens.render(s, "zero-plus") for s in cpqueens.solutions(6))
    result = run("verify", "6", input=boards)
    assert result.exit_code == 0, result.output
    assert "read 4 boards (grid)" in result.stdout and "agrees" in result.stdout
    saved = tmp_path / "out.txt"
    saved.write_text(boards)
    assert run("verify", "6", str(saved)).exit_code == 0
    assert run("verify", "6", str(tmp_path / "missing.txt")).exit_code == 2


def test_cli_verify_says_what_is_wrong():
    found = list(cpqueens.solutions(6))
    letters = [cpqueens.to_letters(s) for s in found[1:]] + [cpqueens.to_letters(found[1])]
    letters.append("abcdef")
    result = run("verify", "6", "-", input="\n".join(letters))
    assert result.exit_code == 1
    text = result.stdout
    assert "missing: 1\n  (1, 3, 5, 0, 2, 4)" in text
    assert (
        "invalid: 1\n  (0, 1, 2, 3, 4, 5): the queens of rows 0 and 1 (counted from 0) attack "
        "each other" in text
    )
    assert f"repeated: 1\n  {found[1]}" in text and "DISAGREES" in text


def test_cli_verify_count_some_and_json():
    assert run("verify", "8", input="Press any key\n92\n").exit_code == 0
    wrong = run("verify", "8", "--json", input="91\n")
    assert wrong.exit_code == 1
    record = json.loads(wrong.stdout)
    assert record["compared"] == "count" and record["count"] == 91 and record["stated_count"] == 91
    one = "Solution: 2 4 1 3"
    assert run("verify", "4", "--expect", "some", input=one).exit_code == 0
    assert run("verify", "4", input=one).exit_code == 1
    assert run("verify", "4", "--base", "0", "--expect", "some", input=one).exit_code == 1
    unread = run("verify", "4", input="no idea\n")
    assert unread.exit_code == 4 and "first line: 'no idea'" in unread.stdout


def test_the_pipe_from_a_real_program():
    printed = subprocess.run(
        [sys.executable, str(PRINTER), "7", "--style", "article000"],
        capture_output=True,
        check=True,
    ).stdout
    result = CliRunner().invoke(cli, ["verify", "7", "-"], input=printed)
    assert result.exit_code == 0, result.output
    assert "read 40 boards" in result.stdout


# Output without end, and standard error that never stops. ------------------------------

FOREVER = [sys.executable, "-c", "while True: print('0 1 2 3')"]


def test_a_program_that_prints_for_ever_is_stopped_at_max_output():
    import tracemalloc

    endless = cpqueens.Command(FOREVER, name="endless", max_output=2**20, timeout=60)
    start = time.perf_counter()
    (row,) = cpqueens.crosscheck(4, [endless]).rows
    assert time.perf_counter() - start < 20
    assert row.status == "ERROR"
    assert row.error == "output larger than 1 MiB (max_output); the program was stopped"
    tracemalloc.start()  # around the run alone: a first crosscheck imports a lot
    try:
        with pytest.raises(cpqueens.CommandFailedError, match=r"output larger than 1 MiB"):
            endless.run(4)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * 2**20, f"reading 1 MiB of output took {peak:,} bytes"


def test_output_up_to_max_output_is_read_and_one_byte_more_is_not():
    argv = [sys.executable, str(PRINTER), "8", "--style", "grid"]
    size = len(subprocess.run(argv, capture_output=True, check=True).stdout)
    just_fits = cpqueens.Command(argv, max_output=size)
    assert len(just_fits.read(8).boards) == 92
    assert cpqueens.crosscheck(8, [cpqueens.Command(argv, max_output=size + 1)]).ok
    with pytest.raises(cpqueens.CommandFailedError, match=f"output larger than {size - 1:,} bytes"):
        cpqueens.Command(argv, max_output=size - 1).run(8)


@pytest.mark.slow
def test_a_slow_endless_printer_still_times_out():
    slow = program("grid", "trickle", timeout=1.0)
    start = time.perf_counter()
    (row,) = cpqueens.crosscheck(6, [slow]).rows
    assert time.perf_counter() - start < 15
    assert row.error == "timed out after 1 s (killed with the processes it started)"


def test_a_flood_is_stopped_and_a_flood_on_stderr_blocks_nothing():
    (flood,) = cpqueens.crosscheck(6, [program("grid", "flood", max_output=64 * 2**10)]).rows
    assert flood.error == "output larger than 64 KiB (max_output); the program was stopped"
    noisy = program("grid", "noisy", timeout=30)
    assert cpqueens.crosscheck(6, [noisy]).ok
    printed = noisy.run(6)
    assert len(printed.stderr) <= 64 * 2**10 and printed.stderr.endswith("x\n")


@pytest.mark.parametrize(
    ("value", "error"),
    [
        (0, cpqueens.InvalidInputError),
        (-5, cpqueens.InvalidInputError),
        (1.5, cpqueens.InvalidTypeError),
        ("1M", cpqueens.InvalidTypeError),
        (True, cpqueens.InvalidTypeError),
    ],
)
def test_max_output_must_be_a_positive_integer(value, error):
    with pytest.raises(error, match=r"max_output \(bytes\) must be a"):
        cpqueens.Command("./q {n}", max_output=value)


def test_cli_max_output():
    flood = printer_command("grid", "flood")
    stopped = run("crosscheck", "6", "--command", flood, "--max-output", "64K", "--timeout", "30")
    assert stopped.exit_code == 4
    assert "output larger than 64 KiB (max_output)" in stopped.stdout
    bad = run("crosscheck", "6", "--command", flood, "--max-output", "12X")
    assert bad.exit_code == 2 and "--max-output must be a positive number of bytes" in bad.output
    alone = run("crosscheck", "4", "--backends", "stack", "--max-output", "1M")
    assert alone.exit_code == 2 and "--max-output apply to --command programs" in alone.output
