"""Tracing a fault back: the words on screen, the lines a program printed, --faults,
and Python functions named on the command line."""

from __future__ import annotations

import contextlib
import csv
import json
import sys
import textwrap

import pytest
from click.testing import CliRunner

import cpqueens
from cpqueens.checking.judging.faults import sort_faults
from cpqueens.checking.judging.verdicts import CrossCheckReport
from cpqueens.checking.row import CrossCheckRow
from cpqueens.cli import checking as checking_cli
from cpqueens.cli import cli
from cpqueens.trees.explicit.summary import tree_summary

ONE_BASED = """\
import sys

n = int(sys.argv[1])


def solutions(n):
    found, columns = [], []

    def place(row):
        if row == n:
            found.append(tuple(columns))
            return
        for column in range(n):
            if all(c != column and abs(c - column) != row - r for r, c in enumerate(columns)):
                columns.append(column)
                place(row + 1)
                columns.pop()

    place(0)
    return found


# Every solution but the last, 1-based, then a board that is none: "1 2 3 ... n".
for board in solutions(n)[:-1]:
    print(" ".join(str(c + 1) for c in board))
print(" ".join(str(c + 1) for c in range(n)))
"""


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


@pytest.fixture
def one_based_program(tmp_path):
    """A program printing 1-based boards, one of them wrong: its command for {n}."""
    script = tmp_path / "one_based.py"
    script.write_text(ONE_BASED)
    return f'"{sys.executable}" "{script}" {{n}}'


def one_based(n):
    """A Python solver that forgets cpqueens counts columns from 0."""
    return [tuple(c + 1 for c in board) for board in cpqueens.solutions(n)]


# Words on screen. -----------------------------------------------------------------------


class RecordingBar:
    def __init__(self, description):
        self.labels = [description]

    def advance(self, label=None):
        if label is not None:
            self.labels.append(label)

    def describe(self, label):
        self.labels.append(label)

    def say(self, message):
        self.said = [*getattr(self, "said", []), message]


def test_crosscheck_progress_names_the_n_and_backend_being_checked(monkeypatch):
    bars = []

    @contextlib.contextmanager
    def recording(total, description, *, enabled):
        assert enabled and total == 3
        bars.append(RecordingBar(description))
        yield bars[-1]

    monkeypatch.setattr(checking_cli, "progress_bar", recording)
    monkeypatch.setattr(checking_cli, "wants_bar", lambda quiet: True)
    result = run("crosscheck", "4,6,9", "--backends", "stack,recursive")
    assert result.exit_code == 0, result.output
    (bar,) = bars
    assert bar.labels[0] == "cross-checking n=4"
    ran = [label for label in bar.labels[1:] if not label.endswith(": reference")]
    assert ran == [
        f"cross-checking n={n}: {backend}" for n in (4, 6, 9) for backend in ("stack", "recursive")
    ]
    named = {label.split()[1].rstrip(":") for label in bar.labels}
    assert named == {"n=4", "n=6", "n=9"}


def test_progress_label():
    assert checking_cli.progress_label(9) == "cross-checking n=9"
    assert checking_cli.progress_label(11, "stack") == "cross-checking n=11: stack"
    instance = cpqueens.Instance(5, fixed={0: 0}, name="corner")
    assert checking_cli.progress_label(instance, "reference") == "cross-checking corner: reference"
    assert len(checking_cli.progress_label(4, "x" * 100)) < 70


def test_the_agreement_sentence_says_what_was_checked(one_based_program, tmp_path):
    script = tmp_path / "right.py"
    script.write_text(ONE_BASED.replace("[:-1]", "").rsplit("print(", 1)[0])
    result = run("crosscheck", "4-5", "--command", f'"{sys.executable}" "{script}" {{n}}')
    assert result.exit_code == 0, result.output
    assert "the program agrees with the reference" in result.stderr
    assert "backend" not in result.stderr
    failing = f"{sys.executable} -c 'import sys; sys.exit(3)'"
    both = run("crosscheck", "4", "--backends", "stack,recursive", "--command", failing)
    # The program exits with status 3; the backends agree.
    assert f"the program FAILED to give an answer at n=4 (rows marked {NO_ANSWER})" in both.stderr
    assert "the backend agrees" in run("crosscheck", "4", "--backends", "stack").stderr
    assert "2 backends agree" in run("crosscheck", "4", "--backends", "stack,recursive").stderr


#: The legend of a row that gave no answer.
NO_ANSWER = "E = no answer: the run failed or its output could not be read"


def _row(backend, *, agrees=True, error=None, timed_out=False):
    faults = sort_faults(4, [], set())
    return CrossCheckRow(
        n=4,
        backend=backend,
        count=0,
        reference_count=0,
        agrees=agrees,
        elapsed=0.0,
        error=error,
        timed_out=timed_out,
        **faults,
    )


def test_the_verdict_counts_backends_and_programs_and_names_the_marks_used():
    verdict = checking_cli.crosscheck_verdict
    rows = (_row("stack"), _row("recursive"), _row("./q {n}"))
    assert verdict(CrossCheckReport(rows, "tree"), {"./q {n}"}) == (
        "2 backends and 1 program agree with the reference"
    )
    failed = (_row("stack"), _row("./q {n}", agrees=False, error="program not found"))
    text = verdict(CrossCheckReport(failed, "tree"), {"./q {n}"})
    assert text == f"the program FAILED to give an answer at n=4 (rows marked {NO_ANSWER})"
    wrong = (_row("a", agrees=False), _row("./q {n}", agrees=False, error="boom"))
    text = verdict(CrossCheckReport(wrong, "tree"), {"./q {n}"})
    # A wrong answer and a failure to answer are told apart.
    assert text == (
        "the backend DISAGREES with the reference at n=4 (rows marked ! = a wrong answer); "
        f"the program FAILED to give an answer at n=4 (rows marked {NO_ANSWER})"
    )
    late = (_row("stack", timed_out=True),)
    assert "the backend timed out (rows marked T)" in verdict(CrossCheckReport(late, "tree"))


def test_an_error_row_is_marked_e_in_the_table_and_below_it():
    failing = f"{sys.executable} -c 'import sys; sys.exit(3)'"
    result = run("crosscheck", "4", "--command", failing)
    assert result.exit_code == 4  # no answer: not a wrong one (1)
    assert "0E" in result.stdout and "n=4: exited with status 3" in result.stdout
    assert "rows marked E = no answer" in result.stderr and "!" not in result.stderr


def test_a_missing_program_is_one_line_and_exit_2_before_any_reference_work():
    result = run("crosscheck", "1-10", "--command", "./no-such-program {n}")
    assert result.exit_code == 2
    assert result.output.strip() == "Error: program not found: './no-such-program'"


def test_counts_of_one_are_singular():
    assert (
        "read 1 board (grid); the reference (tree) has 1 solution"
        in run("verify", "1", input="0\n").stdout
    )
    assert run("tree", "1").stdout == "n=1: decision tree of 1 node below the root, 1 solution\n"
    one = run("verify", "4", input="Solution: 2 4 1 3\n")
    assert "read 1 board" in one.stdout and "1 boards" not in one.stdout
    assert "missing: 1\n" in one.stdout


def test_the_tree_summary_counts_nodes_below_the_root():
    assert (
        run("tree", "8").stdout
        == "n=8: decision tree of 2,056 nodes below the root, 92 solutions\n"
    )
    summary = json.loads(run("tree", "8", "--json").stdout)
    assert (summary["nodes"], summary["graph_nodes"]) == (2056, 2057)
    assert tree_summary(cpqueens.decision_tree(8)).nodes == 2056
    rejected = run("tree", "8", "--rejected").stdout
    assert "15,720 nodes below the root (2,056 queens placed, 13,664 rejected)" in rejected


# A faulty board as the program printed it. -----------------------------------------------


def test_verify_prints_a_1_based_board_with_its_line(one_based_program, tmp_path):
    printed = "\n".join(" ".join(str(c + 1) for c in b) for b in list(cpqueens.solutions(6))[:-1])
    result = run("verify", "6", input=printed + "\n1 2 3 4 5 6\n")
    assert result.exit_code == 1
    assert (
        "invalid: 1\n  (0, 1, 2, 3, 4, 5): the queens of rows 0 and 1 (counted from 0) attack "
        "each other\n"
        "    printed 1-based on line 4: '1 2 3 4 5 6'"
    ) in result.stdout


def test_crosscheck_prints_a_programs_faulty_board_with_its_line(one_based_program):
    result = run("crosscheck", "4,6", "--command", one_based_program)
    assert result.exit_code == 1
    assert "e.g. invalid (0, 1, 2, 3) (printed 1-based on line 2: '1 2 3 4')" in result.stdout
    assert "(printed 1-based on line 4: '1 2 3 4 5 6')" in result.stdout
    assert (
        "the program DISAGREES with the reference at n=4, n=6 (rows marked ! = a wrong answer)"
        in (result.stderr)
    )


def test_a_grid_board_is_traced_to_its_lines():
    grid = cpqueens.render((0, 1, 2, 3), "grid")
    text = "\n\n".join([cpqueens.render((1, 3, 0, 2), "grid"), grid])
    row, _ = cpqueens.checking.compare.check_output(text, 4)
    (fault,) = [f for f in row.faults if f.kind == "invalid"]
    assert (fault.origin.line, fault.origin.last_line) == (6, 9)
    assert fault.origin.text == grid and fault.origin.base is None
    assert fault.origin.describe().startswith("printed on lines 6-9: ")


def test_a_1_based_python_function_gets_the_shifted_by_one_hint():
    report = cpqueens.crosscheck(6, [one_based])
    (row,) = report.rows
    assert not row.agrees and row.invalid_count == 4
    hint = "every board is valid shifted by one: 1-based columns? cpqueens counts from 0"
    assert row.hint == hint
    assert hint in str(report) and report.to_records()[0]["hint"] == hint
    # Only when every invalid board is a distinct solution once shifted.
    assert cpqueens.crosscheck(4, [lambda n: [(1, 2, 3, 4)]]).rows[0].hint is None
    assert cpqueens.crosscheck(4, [lambda n: [(2, 4, 1, 3)] * 2]).rows[0].hint is None
    assert cpqueens.crosscheck(6, ["stack"]).rows[0].hint is None


def test_a_program_read_0_based_gets_the_hint_with_the_option():
    printed = "\n".join(" ".join(str(c + 1) for c in b) for b in cpqueens.solutions(6))
    result = run("verify", "6", "--base", "0", input=printed)
    assert result.exit_code == 1
    assert "hint: every board is valid shifted by one: 1-based columns?" in result.stdout
    assert "--base 1" in result.stdout


def test_faults_of_an_instance_say_which_rule_is_broken():
    corner = cpqueens.Instance(5, fixed={0: 0}, blocked=[(1, 2)])
    every = {"all": lambda case: cpqueens.solutions(case.n)}
    kinds = {record["kind"] for record in cpqueens.crosscheck(corner, every).fault_records()}
    # (0, 2, 4, 1, 3) keeps the corner queen but takes the blocked square (1, 2).
    assert kinds == {"wrong fixed", "wrong blocked"}
    on_blocked = {"f": lambda case: [(0, 2, 4, 1, 3)]}
    (record,) = [
        r for r in cpqueens.crosscheck(corner, on_blocked).fault_records() if r["kind"] != "missing"
    ]
    assert record["kind"] == "wrong blocked" and record["board"] == [0, 2, 4, 1, 3]


# --faults FILE. ----------------------------------------------------------------------


def test_crosscheck_faults_csv_holds_the_programs_lines(one_based_program, tmp_path):
    target = tmp_path / "faults.csv"
    result = run("crosscheck", "4,6", "--command", one_based_program, "--faults", str(target))
    assert result.exit_code == 1
    assert f"wrote 4 faults to {target}" in result.stderr
    with target.open(newline="") as handle:
        records = list(csv.DictReader(handle))
    invalid = [r for r in records if r["kind"] == "invalid"]
    assert [(r["n"], r["line"], r["text"], r["base"]) for r in invalid] == [
        ("4", "2", "1 2 3 4", "1"),
        ("6", "4", "1 2 3 4 5 6", "1"),
    ]
    assert json.loads(invalid[0]["board"]) == [0, 1, 2, 3]
    assert json.loads(invalid[0]["printed"]) == [1, 2, 3, 4]
    assert invalid[0]["backend"] == one_based_program
    missing = [r for r in records if r["kind"] == "missing"]
    assert [(r["n"], r["line"]) for r in missing] == [("4", ""), ("6", "")]


def test_verify_faults_json_holds_the_lines(tmp_path):
    target = tmp_path / "faults.json"
    letters = ["bdac", "bdac", "abcd", "Four queens"]
    result = run("verify", "4", "--faults", str(target), input="\n".join(letters))
    assert result.exit_code == 1
    faults = json.loads(target.read_text())["faults"]
    by_kind = {f["kind"]: f for f in faults}
    assert set(by_kind) == {"duplicate", "invalid", "missing"}
    assert (by_kind["duplicate"]["line"], by_kind["duplicate"]["text"]) == (2, "bdac")
    assert (by_kind["invalid"]["line"], by_kind["invalid"]["text"]) == (3, "abcd")
    assert by_kind["invalid"]["board"] == [0, 1, 2, 3] and by_kind["invalid"]["base"] is None
    assert by_kind["missing"]["board"] == [2, 0, 3, 1] and by_kind["missing"]["line"] is None


def test_faults_file_of_an_agreeing_check_is_written_empty(tmp_path):
    target = tmp_path / "faults.json"
    assert run("crosscheck", "4", "--backends", "stack", "--faults", str(target)).exit_code == 0
    assert json.loads(target.read_text()) == {"faults": []}


@pytest.mark.parametrize("name", ["faults.txt", "no/such/folder/faults.csv"])
def test_a_bad_faults_path_is_refused_before_any_work(tmp_path, name, monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("the check ran")

    monkeypatch.setattr("cpqueens.checking.compare.crosscheck", never)
    result = run("crosscheck", "4", "--faults", str(tmp_path / name))
    assert result.exit_code == 2 and result.output.startswith("Error: cannot")
    verified = run("verify", "4", "--faults", str(tmp_path / name), input="bdac\ncadb\n")
    assert verified.exit_code == 2 and "Traceback" not in verified.output


def test_report_write_faults(tmp_path):
    report = cpqueens.crosscheck(4, [one_based])
    target = report.write_faults(tmp_path / "f.csv")
    assert target.read_text().splitlines()[0] == (
        "n,instance,backend,kind,board,printed,base,line,text,detail"
    )
    assert len(report.fault_records()) == 4


# Python functions named on the command line. ------------------------------------------


def write_module(tmp_path, name, source):
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(source))


def test_backends_module_function(tmp_path, monkeypatch):
    write_module(
        tmp_path,
        "tracing_helper_good",
        """
        import cpqueens

        def solve(n):
            return cpqueens.solutions(n)

        def with_fixed(n, fixed):
            assert fixed == {}
            return cpqueens.solutions(n)

        def one_based(n):
            return [tuple(c + 1 for c in b) for b in cpqueens.solutions(n)]
        """,
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    good = run("crosscheck", "4-6", "--backends", "tracing_helper_good:solve,stack")
    assert good.exit_code == 0, good.output
    assert "tracing_helper_good:solve" in good.stdout
    assert "2 backends agree with the reference" in good.stderr
    assert run("crosscheck", "5", "--backends", "tracing_helper_good:with_fixed").exit_code == 0
    shifted = run("crosscheck", "5", "--backends", "tracing_helper_good:one_based")
    assert shifted.exit_code == 1
    assert "every board is valid shifted by one: 1-based columns?" in shifted.stdout


def test_backends_module_from_the_current_folder(tmp_path, monkeypatch):
    write_module(tmp_path, "tracing_helper_cwd", "def solve(n):\n    return []\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    result = run("crosscheck", "2-3", "--backends", "tracing_helper_cwd:solve")
    assert result.exit_code == 0, result.output
    assert str(tmp_path) not in sys.path  # put there for the import only


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("tracing_no_such_module:solve", "no module named 'tracing_no_such_module'"),
        ("tracing_helper_bad:nope", "module 'tracing_helper_bad' has no 'nope'"),
        ("tracing_helper_bad:VALUE", "'VALUE' is a int, not a function"),
        ("tracing_helper_broken:solve", "importing 'tracing_helper_broken' failed: ZeroDivision"),
        ("tracing_helper_bad:", "malformed Python backend"),
        ("nope", "unknown backend 'nope'"),
    ],
)
def test_a_bad_module_function_is_one_error_line(tmp_path, monkeypatch, spec, message):
    write_module(tmp_path, "tracing_helper_bad", "VALUE = 3\n")
    write_module(tmp_path, "tracing_helper_broken", "1 / 0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    result = run("crosscheck", "4", "--backends", spec)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.output.count("\n") == 1
    assert result.output.startswith("Error: ") and message in result.output


def test_a_tree_cut_before_any_solution_does_not_say_zero_solutions():
    from click.testing import CliRunner

    from cpqueens.cli import cli

    result = CliRunner().invoke(cli, ["tree", "9", "--max-depth", "3"])
    assert result.exit_code == 0, result.output
    assert "0 solutions" not in result.output and "cut at depth 3" in result.output
