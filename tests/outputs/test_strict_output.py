"""Never a false "agree": every line of a program's output is accounted for.

A line shaped like a board that is not one fails the check with its line number, a
stated count must match the boards printed, mixed conventions are an error, prose
is a note, and a program's leftovers never outlive its run."""

import contextlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import cpqueens
from cpqueens import parse_boards
from cpqueens.checking.compare import check_output
from cpqueens.cli import cli as main

PRINTER = Path(__file__).resolve().parents[1] / "programs" / "printer.py"
TAILS = [
    "tail-minus",
    "tail-short-row",
    "tail-letters",
    "tail-decimal",
    "tail-stray",
    "tail-json-zeros",
    "tail-count",
]


def program(style: str, fault: str = "none", **options) -> cpqueens.Command:
    argv = [sys.executable, str(PRINTER), "{n}", "--style", style, "--fault", fault]
    return cpqueens.Command(argv, name=f"{style}/{fault}", **options)


@pytest.mark.slow
@pytest.mark.parametrize("fault", TAILS)
@pytest.mark.parametrize("style", ["grid", "numbers0", "article001", "compact"])
def test_every_right_board_then_one_wrong_line_disagrees(style, fault):
    report = cpqueens.crosscheck(range(5, 8), [program(style, fault)])
    assert not report.ok
    assert all(row.status == "FAIL" for row in report.rows), str(report)
    for row in report.rows:
        if fault == "tail-count":
            assert row.miscounted and row.stated_count == row.count + 1
        else:
            assert row.invalid_count == 1
            # The wrong line is shown as printed, with its line number.
            if row.invalid_lines:
                number, text = row.invalid_lines[0]
                printed = subprocess.run(
                    [sys.executable, str(PRINTER), str(row.n), "--style", style, "--fault", fault],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout.splitlines()
                assert printed[number - 1] == text


@pytest.mark.parametrize("fault", TAILS)
def test_verify_says_disagrees_and_where(fault):
    printed = subprocess.run(
        [sys.executable, str(PRINTER), "6", "--fault", fault],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    last = len(printed.splitlines())
    result = CliRunner().invoke(main, ["verify", "6"], input=printed)
    assert result.exit_code == 1, result.output
    assert "DISAGREES" in result.output
    if fault == "tail-count":
        assert "states 5 solutions but printed 4 boards" in result.output
    else:
        assert f"line {last}:" in result.output


@pytest.mark.slow
def test_the_same_output_without_the_wrong_line_agrees():
    for style in ("grid", "numbers0", "article001", "compact"):
        assert cpqueens.crosscheck(range(5, 8), [program(style)]).ok


def test_a_right_stated_count_agrees_and_a_wrong_one_does_not():
    boards = "\n\n".join(cpqueens.render(s) for s in cpqueens.solutions(6))
    row, parsed = check_output(boards + "\n\n4\n", 6)
    assert row.agrees and row.stated_count == 4 and parsed.count == 4
    row, _ = check_output(boards + "\n\n5\n", 6)
    assert not row.agrees and row.miscounted
    # A program that prints one solution states the total: that must be the reference's.
    one = cpqueens.render(cpqueens.solve(6, limit=1).solution)
    assert check_output(one + "\n4", 6, expect="some")[0].agrees
    assert not check_output(one + "\n3", 6, expect="some")[0].agrees


def test_zero_and_one_based_boards_in_one_output_are_an_error():
    text = "1 3 0 2\n3 1 4 2"  # the first 0-based, the second 1-based
    parsed = parse_boards(text, 4)
    assert parsed.mixed and "line 1" in parsed.mixed and "line 2" in parsed.mixed
    row, _ = check_output(text, 4)
    assert not row.agrees and row.status == "ERROR"
    assert "mixed conventions: 0-based boards (line 1" in row.error
    # Forcing a base is the user saying which: no longer mixed, and the boards judged.
    assert parse_boards(text, 4, base=0).mixed is None


def test_boards_in_two_formats_are_an_error():
    grid = cpqueens.render((1, 3, 0, 2))
    parsed = parse_boards(f"{grid}\n\ncadb", 4)
    assert parsed.mixed and "two formats" in parsed.mixed and "line 6" in parsed.mixed
    assert check_output(f"{grid}\n\ncadb", 4)[0].status == "ERROR"


def test_a_pair_at_n_1_is_one_queen():
    assert parse_boards("(1,1)", 1).boards == [(0,)]
    assert parse_boards("(0, 0)", 1).boards == [(0,)]
    assert check_output("(1,1)", 1)[0].agrees


def nqueens_solver_output(n: int) -> str:
    """What the PyPI package nqueens-solver prints: a header, then grids of Q and 0."""
    blocks = [
        "\n".join(" ".join("Q" if c == column else "0" for c in range(n)) for column in board)
        for board in cpqueens.solutions(n)
    ]
    return f"Solutions for {n}-Queens:\n\n" + "\n\n".join(blocks) + "\n"


@pytest.mark.parametrize("n", [4, 5, 6, 8])
def test_nqueens_solver_agrees_with_its_header_as_a_note(n):
    row, parsed = check_output(nqueens_solver_output(n), n)
    assert row.agrees, row
    assert parsed.notes == ((1, f"Solutions for {n}-Queens:"),)
    assert row.notes == ((1, f"Solutions for {n}-Queens:"),) and row.note_count == 1
    report = cpqueens.CrossCheckReport(rows=(row,), reference="tree")
    assert f"note, line 1: 'Solutions for {n}-Queens:'" in str(report)


def test_notes_can_be_silenced_explicitly_and_never_are_silently():
    text = nqueens_solver_output(6)
    parsed = parse_boards(text, 6, ignore=r"^Solutions for")
    assert parsed.notes == () and parsed.ignored == ((1, "Solutions for 6-Queens:"),)
    result = CliRunner().invoke(main, ["verify", "6"], input=text)
    assert result.exit_code == 0 and "note, line 1: 'Solutions for 6-Queens:'" in result.output
    quiet = CliRunner().invoke(main, ["verify", "6", "--ignore", "^Solutions"], input=text)
    assert quiet.exit_code == 0 and "note" not in quiet.output
    assert "ignored 1 line as asked" in quiet.output


def test_ignore_can_also_leave_out_a_line_that_is_no_board():
    boards = "\n".join(" ".join(map(str, s)) for s in cpqueens.solutions(6))
    text = boards + "\nelapsed 0 0.013\n"
    assert not check_output(text, 6)[0].agrees
    assert check_output(text, 6, ignore=r"^elapsed")[0].agrees


def test_a_bad_ignore_pattern_is_refused():
    with pytest.raises(cpqueens.InvalidInputError, match=r"bad ignore pattern '\('"):
        parse_boards("", 4, ignore="(")
    with pytest.raises(cpqueens.InvalidTypeError, match="ignore"):
        parse_boards("", 4, ignore=3)
    with pytest.raises(cpqueens.InvalidInputError, match="bad ignore pattern"):
        cpqueens.Command("true", ignore=["ok", "[z-a]"])


def test_crosscheck_takes_ignore_for_programs_on_the_command_line():
    command = f'"{sys.executable}" "{PRINTER}" {{n}} --style csv'
    noted = CliRunner().invoke(main, ["crosscheck", "5-6", "--command", command])
    assert noted.exit_code == 0 and "note, line 1: 'solution,row0" in noted.output
    quiet = CliRunner().invoke(
        main, ["crosscheck", "5-6", "--command", command, "--ignore", "^solution,"]
    )
    assert quiet.exit_code == 0 and "note" not in quiet.output
    alone = CliRunner().invoke(main, ["crosscheck", "5", "--backends", "stack", "--ignore", "x"])
    assert alone.exit_code == 2 and "--ignore apply to --command programs" in alone.output


def test_every_line_is_accounted_for():
    text = textwrap.dedent(
        """\
        Six queens
        Solution 1:
        . Q . . . .
        . . . Q . .
        . . . . . Q
        Q . . . . .
        . . Q . . .
        . . . . Q .
        ------
        Q....
        done in 3 ms
        1
        """
    )
    parsed = parse_boards(text, 6)
    accounted = (
        {parsed.board_lines[0] + k for k in range(6)}
        | {number for number, _ in parsed.captions + parsed.notes + parsed.invalid_lines}
        | {12}  # the count
    )
    assert accounted == set(range(1, 13))
    assert parsed.captions == ((2, "Solution 1:"), (9, "------"))
    assert parsed.notes == ((1, "Six queens"), (11, "done in 3 ms"))
    assert parsed.invalid_lines == ((10, "Q...."),)


def test_a_reference_must_hold_nothing_but_solutions():
    with pytest.raises(cpqueens.SolverError, match="returned NoneType for n=5"):
        cpqueens.crosscheck(5, ["stack"], reference=lambda n: None)
    with pytest.raises(cpqueens.SolverError, match=r"returned \(0, 0, 0, 0, 0\) for n=5"):
        cpqueens.crosscheck(5, ["stack"], reference=lambda n: [(0,) * 5])
    printer = program("grid", "tail-minus")
    with pytest.raises(cpqueens.CommandFailedError, match="not a board of size 6: line"):
        cpqueens.crosscheck(6, ["stack"], reference=printer)


def test_a_single_name_is_that_backend():
    report = cpqueens.crosscheck(4, "stack")
    assert [row.backend for row in report.rows] == ["stack"]
    report = cpqueens.crosscheck(4, program("grid"))
    assert [row.backend for row in report.rows] == ["grid/none"] and report.ok


def test_json_records_carry_the_lines():
    printed = subprocess.run(
        [sys.executable, str(PRINTER), "6", "--fault", "tail-minus"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    result = CliRunner().invoke(main, ["verify", "6", "--json", "-q"], input="Header\n" + printed)
    record = json.loads(result.stdout)
    assert record["notes"] == [[1, "Header"]]
    assert record["invalid_lines"][0][1] == "-1 -1 -1 -1 -1 -1"


# Programs that leave processes behind ---------------------------------------------------

DETACHING = textwrap.dedent(
    """\
    import os, subprocess, sys, time
    child = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(600)"],
        start_new_session=True,  # detached: a session of its own
    )
    with open(sys.argv[1], "w") as handle:
        handle.write(str(child.pid))
    print("bdac cadb", flush=True)
    if sys.argv[2] == "hang":
        time.sleep(600)
    """
)


def _gone(pid: int, within: float = 5.0) -> bool:
    stop = time.monotonic() + within
    while time.monotonic() < stop:
        try:
            with open(f"/proc/{pid}/stat") as handle:
                if handle.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def detaching(tmp_path):
    script = tmp_path / "detaching.py"
    script.write_text(DETACHING)
    pidfile = tmp_path / "child.pid"
    yield script, pidfile
    if pidfile.exists():  # never leave one behind, whatever the test saw
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(pidfile.read_text()), signal.SIGKILL)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs a subreaper")
def test_a_program_that_exits_leaving_a_detached_child_is_read_and_the_child_ended(detaching):
    script, pidfile = detaching
    command = cpqueens.Command([sys.executable, str(script), str(pidfile), "exit"], timeout=30)
    start = time.perf_counter()
    report = cpqueens.crosscheck(4, [command])
    assert time.perf_counter() - start < 10
    assert report.ok, str(report)
    assert _gone(int(pidfile.read_text()))


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs a subreaper")
def test_a_detached_grandchild_does_not_survive_the_time_out(detaching):
    script, pidfile = detaching
    command = cpqueens.Command([sys.executable, str(script), str(pidfile), "hang"], timeout=1)
    (row,) = cpqueens.crosscheck(4, [command]).rows
    assert row.status == "ERROR" and row.error.startswith("timed out after 1 s")
    assert _gone(int(pidfile.read_text()))


def test_running_a_folder_says_so(tmp_path):
    plain = tmp_path / "plain.txt"
    plain.write_text("")
    for argv, message in [
        ([str(tmp_path)], f"cannot run {str(tmp_path)!r}: it is a folder, not a program"),
        (["no-such-program-xyz"], "program not found: 'no-such-program-xyz' (not on the PATH)"),
        ([str(plain)], f"cannot run {str(plain)!r}: permission denied (is it executable?)"),
    ]:
        with pytest.raises(cpqueens.ProgramNotFoundError) as refused:
            cpqueens.crosscheck(4, [cpqueens.Command(argv)])
        assert str(refused.value) == message


def test_a_program_killed_by_a_signal_is_reported_as_such():
    code = "import os, signal; print('bdac', flush=True); os.kill(os.getpid(), signal.SIGSEGV)"
    (row,) = cpqueens.crosscheck(4, [cpqueens.Command([sys.executable, "-c", code])]).rows
    assert row.status == "ERROR" and "SIGSEGV" in row.error
