"""Checking a solver of your own: its output read right in the forms the field prints,
never a false "agrees", never a correct program blamed for a format misread; silence
is the answer "no solution"; a wrong answer and no answer told apart; and every
refusal says what to do.

The outputs below are made the way public programs print them (each form named by a
program that prints it); tests/outputs/test_output_corpus.py reads the real outputs kept in
tests/data/outputs.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import cpqueens
from cpqueens.cli import cli
from cpqueens.outputs.answers import read_answer
from cpqueens.parallel.progress import progress_bar

ROOT = Path(__file__).resolve().parents[2]
EIGHT = list(cpqueens.solutions(8))


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def shifted(board: tuple) -> tuple:
    """Every queen one column to the right (wrapping): a board printed one column off."""
    return tuple((column + 1) % len(board) for column in board)


# The forms of the field --------------------------------------------------------------


def rosetta_checkered(boards: list[tuple], count: int | None = None) -> str:
    """Rosetta Code's C program: each square a character and a space, light squares
    blank, dark ones '-', the queen 'Q'; "No. k" and a rule before each board."""
    out = []
    for k, board in enumerate(boards, 1):
        out += [f"No. {k}", "-" * 11]
        for row, queen in enumerate(board):
            cells = ["Q" if c == queen else " -"[(row + c) & 1] for c in range(len(board))]
            out.append("".join(cell + " " for cell in cells))
        out.append("")
    if count is not None:
        out.append(f"Solutions: {count}")
    return "\n".join(out) + "\n"


def dotted_checkered(boards: list[tuple]) -> str:
    """Another Rosetta Code C program: one character a square, '.' and ' ' alternating."""
    out = []
    for k, board in enumerate(boards, 1):
        out += ["", f"No. {k}", "-----"]
        for row, queen in enumerate(board):
            out.append(
                "".join("Q" if c == queen else " ."[(row + c) & 1 == 0] for c in range(len(board)))
            )
    return "\n".join(out) + "\n"


def bracketed(boards: list[tuple], queen: str, empty: str) -> str:
    rows = [
        "".join(f"[{queen if c == q else empty}]" for c in range(len(b))) for b in boards for q in b
    ]
    n = len(boards[0])
    return "\n\n".join("\n".join(rows[i : i + n]) for i in range(0, len(rows), n)) + "\n"


def column_row_pairs(boards: list[tuple]) -> str:
    """Python's print of a list of (column, row) pairs, one board a line."""
    return "\n".join(str([(c, r) for r, c in enumerate(b)]) for b in boards) + "\n"


@pytest.mark.parametrize(
    "text",
    [
        rosetta_checkered(EIGHT, 92),
        dotted_checkered(EIGHT),
        bracketed(EIGHT, "Q", "x"),
        bracketed(EIGHT, "1", "0"),
        bracketed(EIGHT, "Q", " "),
        column_row_pairs(EIGHT),
        "\n\n".join(
            "\n".join("|" + "|".join(" Q " if c == q else "   " for c in range(8)) + "|" for q in b)
            for b in EIGHT
        ),
    ],
    ids=["rosetta-checkered", "dotted-checkered", "bracket-xq", "bracket-10", "bracket-blank",
         "column-row-pairs", "barred"],
)  # fmt: skip
def test_the_field_s_forms_are_read_and_agree(text):
    parsed = cpqueens.parse_boards(text, 8)
    assert parsed.boards == EIGHT and not parsed.invalid_lines, parsed.invalid_lines[:2]
    row, _ = cpqueens.check_output(text, 8)
    assert row.agrees and row.error is None


def test_pairs_are_read_in_the_order_that_lists_the_rows_and_say_so():
    parsed = cpqueens.parse_boards(column_row_pairs(EIGHT), 8)
    assert parsed.pairs == "(column, row)" and parsed.boards == EIGHT
    rows_first = "\n".join(str([(r, c) for r, c in enumerate(b)]) for b in EIGHT)
    assert cpqueens.parse_boards(rows_first, 8).pairs == "(row, column)"
    result = run("verify", "8", input=column_row_pairs(EIGHT))
    assert result.exit_code == 0 and "(column, row) pairs" in result.stdout


@pytest.mark.parametrize("expect", ["all", "count", "some"])
def test_boards_one_column_off_beside_a_true_count_never_agree(expect):
    # The boards are printed; a count beside them that is right proves nothing.
    text = rosetta_checkered([shifted(b) for b in EIGHT], 92)
    row, parsed = cpqueens.check_output(text, 8, expect=expect)
    assert len(parsed.boards) == 92 and not row.agrees
    assert row.error is None and row.invalid_count == 64  # 28 shifted boards are solutions
    result = run("verify", "8", "--expect", expect, input=text)
    assert result.exit_code == 1 and "DISAGREES" in result.stderr


def test_a_board_shaped_line_no_reader_takes_makes_a_count_unreadable():
    text = "Here they are\n. .Q. .X\n.X. .Q. \nSolutions: 92\n"
    row, _ = cpqueens.check_output(text, 8)
    assert row.error.startswith("could not read line 2: '. .Q. .X' looks like part of a board")
    assert not row.agrees
    result = run("verify", "8", input=text)
    assert result.exit_code == 4 and "could not be read" in result.stderr


def test_a_reading_that_makes_most_boards_misshapen_is_doubted_not_judged():
    # Grids of seven rows on a board of eight: a misreading is likelier than 92 wrong boards.
    text = "\n\n".join("\n".join(cpqueens.render(b).splitlines()[:7]) for b in EIGHT)
    row, _ = cpqueens.check_output(text, 8)
    assert row.error is not None and row.error.startswith("could not read the output")
    assert "--parse" in row.error


@pytest.mark.parametrize(
    ("line", "count"),
    [
        ("required 1028 placements to find all 92 solutions", 92),
        ("There are 92 differents solutions.", 92),
        ("92 results", 92),
        ("N=14200", 14200),
        ("Solutions: 92", 92),
        ("Total number of solutions: 92", 92),
        ("8 queens solutions: 92", 92),
    ],
)
def test_a_count_is_the_number_tied_to_a_word_for_solutions(line, count):
    assert cpqueens.parse_boards(line, 12 if count == 14200 else 8).count == count


def test_every_stated_count_is_checked():
    row, _ = cpqueens.check_output("There are 91 differents solutions.", 8)
    assert not row.agrees and row.error is None and row.compared == "count"
    assert cpqueens.parse_boards("N=12", 12).count is None  # the size, not a count


def test_two_numbers_on_a_board_of_two_are_one_board_of_two_rows():
    parsed = cpqueens.parse_boards("1\t0", 2)
    assert parsed.boards == [(1, 0)]
    row, _ = cpqueens.check_output("1\t0", 2)
    assert row.invalid == ((1, 0),)


def test_a_failing_program_s_reason_on_standard_output_is_quoted(tmp_path):
    script = tmp_path / "strict.py"
    script.write_text("import sys\nprint('N must be at least 4')\nsys.exit(1)\n")
    (row,) = cpqueens.crosscheck(3, [cpqueens.Command([sys.executable, str(script), "{n}"])]).rows
    assert row.error == (
        "exited with status 1; nothing on standard error; "
        "standard output ends: N must be at least 4"
    )


def test_an_example_board_is_named_by_its_kind():
    last = f'"{sys.executable}" -c "print(7, 3, 0, 2, 5, 1, 6, 4)"'  # one of the 92
    result = run("crosscheck", "8", "--command", last)
    assert "e.g. missing (0, 4, 7, 5, 2, 6, 1, 3)" in result.stdout


@pytest.mark.slow
def test_a_closed_pipe_ends_the_command_quietly():
    done = subprocess.run(
        f'"{sys.executable}" -m cpqueens solve 12 -b stack --all | head -1',
        shell=True, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.stdout.count("\n") == 1 and "Error" not in done.stderr, done.stderr


# Silence is an answer ---------------------------------------------------------------

NEVER_THE_LAST_COLUMN = ROOT / "examples" / "myqueens_bug.py"


@pytest.mark.slow
def test_a_program_printing_nothing_answers_no_solution():
    command = [sys.executable, str(NEVER_THE_LAST_COLUMN), "{n}"]
    report = cpqueens.crosscheck(range(1, 8), [cpqueens.Command(command, name="bug")])
    by_n = {row.n: row for row in report.rows}
    assert by_n[2].agrees and by_n[3].agrees
    for n in (1, 4, 5, 6, 7):
        assert not by_n[n].agrees and by_n[n].error is None  # wrong, not failed
        assert by_n[n].missing_count == cpqueens.count(n)
    counted = cpqueens.crosscheck(
        range(1, 8), [cpqueens.Command(command, name="bug", expect="count")]
    )
    assert [row.agrees for row in counted.rows] == [False, True, True, False, False, False, False]
    assert all(row.error is None for row in counted.rows)


@pytest.mark.parametrize("expect", ["all", "count", "some"])
def test_verify_reads_an_empty_output_as_no_solution(expect, tmp_path):
    assert run("verify", "2", "--expect", expect, input="").exit_code == 0
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    result = run("verify", "8", str(empty), "--expect", expect)
    assert result.exit_code == (0 if expect == "some" else 1), result.output
    assert "printed nothing on standard output" not in result.output


@pytest.mark.parametrize("question", ["all", "count", "decide"])
def test_campaigns_and_the_hunter_read_silence_the_same_way(question):
    answer = read_answer("", 8, question)
    assert answer["answer"] == "unsat"
    if question != "decide":
        assert answer["count"] == 0


def test_a_wrong_answer_and_no_answer_stay_apart():
    wrong = f'"{sys.executable}" "{NEVER_THE_LAST_COLUMN}" {{n}}'
    failing = f"{sys.executable} -c 'import sys; sys.exit(3)'"
    both = run("crosscheck", "4", "--command", wrong, "--command", failing, "--json")
    record = json.loads(both.stdout)
    assert both.exit_code == 1 and record["wrong"] and record["unanswered"]
    only_failed = run("crosscheck", "4", "--command", failing)
    assert only_failed.exit_code == 4 and "DISAGREE" not in only_failed.stderr
    only_wrong = run("crosscheck", "4", "--command", wrong)
    assert only_wrong.exit_code == 1 and "FAILED" not in only_wrong.stderr
    assert "0!" in only_wrong.stdout and "0E" in only_failed.stdout


# Refusals that say what to do -------------------------------------------------------


def test_a_command_told_neither_n_nor_an_instance_is_refused_at_the_call():
    result = run("crosscheck", "1-6", "--command", f"{sys.executable} examples/myqueens.py")
    assert result.exit_code == 2
    assert "holds neither {n}" in result.output and "{instance}" in result.output
    assert "IndexError" not in result.output


def test_a_function_returning_a_count_is_compared_as_a_count():
    report = cpqueens.crosscheck(range(4, 7), {"counts": cpqueens.count, "three": lambda n: 3})
    rows = {(row.backend, row.n): row for row in report.rows}
    assert all(
        rows["counts", n].agrees and rows["counts", n].compared == "count" for n in (4, 5, 6)
    )
    assert not rows["three", 4].agrees and rows["three", 4].error is None
    (none,) = cpqueens.crosscheck(4, {"none": lambda n: None}).rows
    assert none.error.startswith("the function returned None (NoneType); a function checked here")
    assert "TypeError" not in none.error


def test_an_output_with_no_board_names_the_forms_read_and_the_option():
    row, _ = cpqueens.check_output("Queens at: Q@2 Q@4 Q@1 Q@3\n", 4)
    assert row.error.startswith("nothing in its output could be read as a board of size 4")
    assert "column letters" in row.error and "--parse" in row.error
    assert "cpqueens docs external" in row.error


def test_a_file_named_by_path_imports_its_neighbours(tmp_path, monkeypatch):
    (tmp_path / "myqueens.py").write_text(
        "import cpqueens\n\ndef boards(n):\n    return list(cpqueens.solutions(n))\n"
    )
    (tmp_path / "mysolve2.py").write_text(
        "import myqueens\n\ndef good(n):\n    return myqueens.boards(n)\n"
    )
    monkeypatch.syspath_prepend(str(ROOT))  # the file is not where the command runs
    monkeypatch.chdir(ROOT)
    result = run("crosscheck", "1-6", "--backends", f"{tmp_path / 'mysolve2.py'}:good")
    assert result.exit_code == 0, result.output


def test_a_backwards_range_is_one_clean_sentence():
    result = run("crosscheck", "10-1")
    assert (
        result.output.strip() == "Error: range '10-1' runs backwards; write it low-high, e.g. 1-10"
    )


def test_the_install_hint_names_only_what_is_missing(monkeypatch):
    from cpqueens.solvers import REGISTRY

    kind = type(REGISTRY["ace"])
    monkeypatch.setattr(kind, "is_available", lambda self: False)
    monkeypatch.setattr("cpqueens.solvers.base.program_version", lambda program: "17.0.15")
    provenance = kind().provenance  # a backend of its own: the registry's is cached
    assert provenance.missing == "pip install pycsp3"
    assert "default-jre" not in provenance.missing


def test_a_notice_is_written_above_the_progress_bar_never_onto_it(monkeypatch):
    import rich.console

    screen = io.StringIO()
    terminal = rich.console.Console

    def replay(**options):
        return terminal(file=screen, force_terminal=True, width=100)

    monkeypatch.setattr(rich.console, "Console", replay)
    with progress_bar(10, "cross-checking n=1", enabled=True) as bar:
        bar.advance()
        bar.say("using 13 of 17 backends")
        bar.advance()
    # What the terminal shows: each carriage return or cursor move starts the line anew.
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "\n", screen.getvalue()).replace("\r", "\n")
    said = [line for line in shown.splitlines() if "using 13 of 17 backends" in line]
    assert said and all(line.strip() == "using 13 of 17 backends" for line in said), said


def test_chess_squares_are_read_letter_as_column_number_as_row():
    parsed = cpqueens.parse_boards("Queens at: a2 b4 c1 d3\n", 4)
    assert parsed.boards == [(2, 0, 3, 1)] and parsed.style == "squares"
    assert cpqueens.parse_boards("a1 b1 c3 d4", 4).boards == [(0, 1, 2, 3)]  # row 1 twice
