"""FlatZinc out: instances written as ``.fzn``, run by a FlatZinc solver (Gecode's
``fzn-gecode``), and the solver's output read back (``read_flatzinc_output``,
``parse="flatzinc"``), its solutions compared with cpqueens' own backends."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from click.testing import CliRunner
from reference import brute_force

import cpqueens
from cpqueens import Instance, InvalidInputError, random_blocked, random_completion
from cpqueens.cli import cli
from cpqueens.instances import format_instance
from cpqueens.instances.formats.flatzinc import MAX_FZN_CONSTRAINTS, flatzinc_constraints
from cpqueens.outputs.answers import BadOutput, read_answer

#: Plain, blocked and completion instances, satisfiable and not (the counts, from
#: cpqueens' own backends, are checked again below).
CASES = [
    (Instance(1), 1),
    (Instance(3), 0),
    (Instance(6), 4),
    (Instance(8), 92),
    (random_blocked(7, 20, seed=6), 2),
    (random_blocked(7, 20, seed=1), 0),
    (random_completion(8, 3, seed=20), 3),
    (random_completion(8, 3, seed=1), 0),
    (Instance(8, fixed={0: 0}, blocked=[(1, 2)]), 4),
    (Instance(6, fixed={0: 0, 1: 1}), 0),  # two given queens attack each other
    (random_completion(12, 4, seed=1, from_solution=True), None),
]


def fzn_gecode() -> str:
    found = shutil.which("fzn-gecode")
    if found is None:
        pytest.skip(
            "needs Gecode's FlatZinc solver fzn-gecode on the PATH: apt-get install "
            "flatzinc (Debian's minizinc package brings it)"
        )
    return found


def run_gecode(path, *options: str) -> str:
    run = subprocess.run(
        [fzn_gecode(), *options, str(path)], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    return run.stdout


def own_solutions(instance: Instance) -> set[tuple[int, ...]]:
    """The solution set, from two of cpqueens' backends that must agree."""
    first = set(cpqueens.solve(instance, backend="stack").solutions)
    second = set(cpqueens.solve(instance, backend="propagate").solutions)
    assert first == second
    if instance.n <= 8:
        assert first == brute_force(instance.n, instance.fixed_rows, instance.blocked)
    return first


# --- the file ----------------------------------------------------------------------


def test_the_file_uses_only_the_builtins_every_flatzinc_solver_has():
    text = format_instance(Instance(6, fixed={2: 3}, blocked=[(0, 0), (5, 1)]), "fzn")
    predicates = set(re.findall(r"^constraint (\w+)\(", text, re.MULTILINE))
    assert predicates == {"int_ne", "int_lin_ne"}
    assert "var 3..3: q_2;" in text and "var 0..5: q_0;" in text
    assert "constraint int_ne(q_0, 0);" in text and "constraint int_ne(q_5, 1);" in text
    assert "array [1..6] of var int: q :: output_array([1..6]) = [q_0, q_1," in text
    assert text.endswith("solve satisfy;\n")
    assert "columns count from 0" in text


def test_two_given_queens_get_constraints_only_when_they_attack_each_other():
    peaceful = format_instance(Instance(8, fixed={0: 0, 1: 2}), "fzn")
    assert "int_ne(q_0, q_1)" not in peaceful and "int_ne(q_0, q_2)" in peaceful
    attacking = format_instance(Instance(8, fixed={0: 0, 1: 1}), "fzn")
    assert "int_ne(q_0, q_1)" in attacking
    for instance in (Instance(8), Instance(8, fixed={0: 0, 1: 2}), Instance(8, fixed={0: 0, 1: 1})):
        text = format_instance(instance, "fzn")
        assert text.count("\nconstraint ") == flatzinc_constraints(instance)


def test_a_board_too_large_for_the_file_is_refused_before_it_is_written(tmp_path):
    with pytest.raises(InvalidInputError, match="FlatZinc constraints"):
        cpqueens.write_instance(Instance(1200), tmp_path / "big.fzn")
    assert not list(tmp_path.iterdir())
    assert flatzinc_constraints(Instance(1200)) > MAX_FZN_CONSTRAINTS


def test_write_instance_and_generate_write_fzn(tmp_path, monkeypatch):
    inst = random_blocked(7, 20, seed=6)
    path = cpqueens.write_instance(inst, tmp_path / "b7.fzn")
    assert path.read_text() == format_instance(inst, "fzn")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    made = runner.invoke(
        cli, ["generate", "blocked", "7", "--blocked", "20", "--seed", "6", "-o", "g.fzn"]
    )
    assert made.exit_code == 0, made.output
    assert (tmp_path / "g.fzn").read_text() == path.read_text()
    shown = runner.invoke(
        cli, ["generate", "completion", "8", "--queens", "3", "--seed", "1", "-f", "fzn"]
    )
    assert shown.exit_code == 0 and shown.output == format_instance(CASES[7][0], "fzn")
    with pytest.raises(InvalidInputError, match="only written"):
        cpqueens.read_instance(path)


# --- fzn-gecode on the files ---------------------------------------------------------


@pytest.mark.parametrize(("instance", "count"), CASES, ids=lambda c: repr(c)[:60])
def test_fzn_gecode_finds_every_solution_of_a_written_file(tmp_path, instance, count):
    path = cpqueens.write_instance(instance, tmp_path / "case.fzn")
    read = cpqueens.read_flatzinc_output(run_gecode(path, "-a"), instance.n)
    expected = own_solutions(instance)
    if count is not None:
        assert len(expected) == count
    assert read.invalid == ()
    assert set(read.solutions) == expected and len(read.solutions) == len(expected)
    assert read.status == ("all_solutions" if expected else "unsatisfiable")
    assert read.complete and read.answer == ("sat" if expected else "unsat")


@pytest.mark.parametrize(("instance", "count"), CASES, ids=lambda c: repr(c)[:60])
def test_fzn_gecode_finds_a_first_solution_of_a_written_file(tmp_path, instance, count):
    path = cpqueens.write_instance(instance, tmp_path / "case.fzn")
    read = cpqueens.read_flatzinc_output(run_gecode(path), instance.n)
    expected = own_solutions(instance)
    if expected:
        assert read.status == "satisfied" and not read.complete
        assert len(read.solutions) == 1 and read.solutions[0] in expected
    else:
        assert read.status == "unsatisfiable" and read.solutions == ()


def test_fzn_gecode_completes_a_large_board_with_most_queens_given(tmp_path):
    # Gent's reductions make such boards: thousands of rows, a few free.
    board = cpqueens.solve(1500, backend="construct", limit=1).solution
    free = {3, 700, 701, 1499}
    instance = Instance(1500, fixed={r: c for r, c in enumerate(board) if r not in free})
    path = cpqueens.write_instance(instance, tmp_path / "large.fzn")
    assert path.stat().st_size < 2_000_000
    read = cpqueens.read_flatzinc_output(run_gecode(path, "-a"), 1500)
    assert read.status == "all_solutions" and board in read.solutions
    assert all(cpqueens.is_valid(found) for found in read.solutions)


# --- the output reader -----------------------------------------------------------------


def test_every_end_of_the_search_is_read():
    four = "q = array1d(1..4, [1, 3, 0, 2]);\n----------\n"
    assert cpqueens.read_flatzinc_output(four + "==========\n", 4).status == "all_solutions"
    assert cpqueens.read_flatzinc_output(four, 4).status == "satisfied"
    for text, status in [
        ("=====UNSATISFIABLE=====", "unsatisfiable"),
        ("=====UNSATorUNBOUNDED=====", "unsatisfiable"),
        ("=====UNKNOWN=====", "unknown"),
        ("=====ERROR=====", "error"),
        ("", "unknown"),
    ]:
        read = cpqueens.read_flatzinc_output(text, 3)
        assert (read.status, read.solutions, read.invalid) == (status, (), ())
    assert cpqueens.read_flatzinc_output("=====UNKNOWN=====", 3).answer == "unknown"


def test_comments_statistics_and_other_lines_are_notes():
    text = (
        "% a comment\nq = array1d(1..4,[2,0,3,1]);\nx = 3;\n----------\n==========\n"
        "%%%mzn-stat: nodes=5\n%%%mzn-stat-end\n"
    )
    read = cpqueens.read_flatzinc_output(text.encode(), 4)
    assert read.solutions == ((2, 0, 3, 1),) and read.invalid == ()
    assert [number for number, _ in read.notes] == [1, 3, 6, 7]
    assert read.board_lines == (2,)


def test_one_based_output_is_read_with_base_1():
    text = "q = array1d(1..4, [2, 4, 1, 3]);\n----------\n"
    assert cpqueens.read_flatzinc_output(text, 4, base=1).solutions == ((1, 3, 0, 2),)
    # Read 0-based, a column 4 is off the board: kept as read, for the judge.
    assert cpqueens.read_flatzinc_output(text, 4).solutions == ((2, 4, 1, 3),)


@pytest.mark.parametrize(
    ("text", "line", "why"),
    [
        ("q = array1d(1..3, [0, 2, 1]);\n----------", 1, "not 1..4"),
        ("q = [0, 2, 1];\n----------", 1, "3 columns, not 4"),
        ("q = array1d(1..4, [0, x, 1, 3]);\n----------", 1, "not an array of whole numbers"),
        ("q = array1d(1..4, [1, 3, 0, 2]);\n", 1, "not ended by ----------"),
        ("q = array1d(1..4, [1, 3, 0, 2]);\nq = array1d(1..4, [2, 0, 3, 1]);\n----------", 1,
         "not ended by ----------"),
        ("----------", 1, "no solution before it"),
        ("==========", 1, "no solution printed"),
        ("q = array1d(1..4, [1, 3, 0, 2]);\n----------\n=====UNSATISFIABLE=====", 3,
         "printed after 1 solution"),
        ("=====UNSATISFIABLE=====\n==========", 2, "a second end of the search (line 1)"),
        ("==========\nq = array1d(1..4, [1, 3, 0, 2]);\n----------", 2, "after the end"),
    ],
)  # fmt: skip
def test_an_output_that_contradicts_itself_is_read_with_the_reason(text, line, why):
    read = cpqueens.read_flatzinc_output(text, 4)
    assert any(number == line and why in reason for number, _, reason in read.invalid), read
    assert any(why in problem for problem in read.problems())


def test_the_reader_refuses_a_bad_size_or_base():
    with pytest.raises(InvalidInputError):
        cpqueens.read_flatzinc_output("", 0)
    with pytest.raises(InvalidInputError, match="base must be 0 or 1"):
        cpqueens.read_flatzinc_output("", 4, base=2)
    with pytest.raises(cpqueens.InvalidTypeError):
        cpqueens.read_flatzinc_output(None, 4)


# --- as a program's output: Command, crosscheck, campaigns --------------------------------

ALL = "q = array1d(1..4, [1, 3, 0, 2]);\n----------\nq = array1d(1..4, [2, 0, 3, 1]);\n----------\n"


@pytest.mark.parametrize(
    ("text", "question", "answer", "count"),
    [
        (ALL + "==========", "all", "sat", 2),
        (ALL + "==========", "count", "sat", 2),
        (ALL + "==========", "decide", "sat", None),
        (ALL, "decide", "sat", None),
        (ALL, "all", "unknown", None),
        (ALL, "count", "unknown", None),
        ("=====UNSATISFIABLE=====", "decide", "unsat", None),
        ("=====UNSATISFIABLE=====", "count", "unsat", 0),
        ("=====UNSATISFIABLE=====", "all", "unsat", 0),
        ("=====UNKNOWN=====", "decide", "unknown", None),
        ("", "decide", "unknown", None),
    ],
)
def test_a_campaign_reads_a_flatzinc_answer(text, question, answer, count):
    read = read_answer(text, 4, question, "flatzinc")
    assert read["answer"] == answer and read.get("count") == count
    assert read["invalid"] == []


def test_a_flatzinc_error_or_contradiction_is_no_answer():
    with pytest.raises(BadOutput, match="ERROR"):
        read_answer("=====ERROR=====", 4, "decide", "flatzinc")
    read = read_answer(ALL + "=====UNSATISFIABLE=====", 4, "decide", "flatzinc")
    assert read["invalid"] and "printed after 2 solutions" in read["invalid"][0]


def test_parse_boards_reads_flatzinc_output():
    parsed = cpqueens.parse_boards(ALL + "==========\n", 4, "flatzinc")
    assert parsed.boards == [(1, 3, 0, 2), (2, 0, 3, 1)] and parsed.count == 2
    assert parsed.invalid_lines == () and parsed.notes == ()
    assert parsed.origin(1).line == 3
    unknown = cpqueens.parse_boards("=====UNKNOWN=====\n", 4, "flatzinc")
    assert unknown.invalid_lines == ((1, "=====UNKNOWN====="),)


def test_a_flatzinc_solver_is_cross_checked_through_a_command():
    fzn_gecode()
    every = cpqueens.Command(
        "fzn-gecode -a {instance}", instance_format="fzn", parse="flatzinc", name="all"
    )
    first = cpqueens.Command(
        "fzn-gecode {instance}", instance_format="fzn", parse="flatzinc", expect="some"
    )
    cases = [1, 2, 6, *(instance for instance, _ in CASES[4:10])]
    report = cpqueens.crosscheck(cases, [every, first, "stack"])
    assert report.ok, [row for row in report.rows if not row.agrees]
    listed = cpqueens.crosscheck(CASES[8][0], [every], question="all")
    assert listed.ok and listed.rows[0].count == 4


def test_crosscheck_hands_a_program_a_flatzinc_file_from_the_command_line(tmp_path, monkeypatch):
    fzn_gecode()
    monkeypatch.chdir(tmp_path)
    cpqueens.write_instance(CASES[4][0], tmp_path / "b7.json")
    runner = CliRunner()
    args = ["--command", "fzn-gecode -a {instance}", "--instance-format", "fzn"]
    result = runner.invoke(
        cli, ["crosscheck", "1-6", "--instance", "b7.json", *args, "--parse", "flatzinc"]
    )
    assert result.exit_code == 0, result.output
    refused = runner.invoke(cli, ["crosscheck", "4", "--instance-format", "fzn"])
    assert refused.exit_code == 2 and "--instance-format" in refused.output
