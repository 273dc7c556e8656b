"""What a newcomer meets: the probes of a first hour with cpqueens, each a test."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cpqueens
import cpqueens.solvers


def _printing(text: str) -> cpqueens.Command:
    return cpqueens.Command([sys.executable, "-c", f"print({text!r})"], name="mine")


def test_a_stated_count_that_contradicts_the_boards_is_a_disagreement():
    boards = "\n".join(" ".join(map(str, s)) for s in cpqueens.solutions(8))
    (row,) = cpqueens.crosscheck(8, [_printing(boards + "\nTotal: 95")]).rows
    assert not row.agrees and row.stated_count == 95
    (row,) = cpqueens.crosscheck(8, [_printing(boards + "\nTotal: 92")]).rows
    assert row.agrees and row.stated_count == 92
    # Prose that states no number of solutions stays a note.
    (row,) = cpqueens.crosscheck(8, [_printing(boards + "\nElapsed: 3 s")]).rows
    assert row.agrees and row.notes


# --- The documented cross-check of your own program on an instance ---------------------

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "mysolver.py"


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    # A child process with a deadline: a regression that hangs fails instead of waiting.
    return subprocess.run(
        [sys.executable, "-m", "cpqueens", *args],
        cwd=cwd, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


@pytest.mark.slow
def test_the_documented_instance_crosscheck_refuses_a_missing_program_at_once(tmp_path):
    made = _cli("generate", "blocked", "20", "--blocked", "100", "--seed", "1", "-o", "b20.param",
                cwd=tmp_path)  # fmt: skip
    assert made.returncode == 0, made.stderr
    command = ("crosscheck", "--instance", "b20.param", "--command", "./mysolver {instance}")
    missing = _cli(*command, "--reference", "stack", cwd=tmp_path)
    assert missing.returncode == 2
    assert missing.stderr == "Error: program not found: './mysolver'\n" and not missing.stdout
    shutil.copy(EXAMPLE, tmp_path / "mysolver")
    (tmp_path / "mysolver").chmod(0o755)
    checked = _cli(*command, "--reference", "stack", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "decision" in checked.stdout and "the program agrees" in checked.stderr
    # Every solution of this instance is far past any reference: refused, with the why.
    every = _cli(*command, "--reference", "stack", "--all", cwd=tmp_path)
    assert every.returncode == 2 and every.stderr.count("\n") == 1
    assert "compare the decision instead (drop --all)" in every.stderr


def test_a_missing_program_in_many_sizes_is_one_message():
    with pytest.raises(cpqueens.ProgramNotFoundError):
        cpqueens.crosscheck(range(1, 11), [cpqueens.Command("./no-such-program {n}")])


def _deciding(answer_lines: str) -> cpqueens.Command:
    return cpqueens.Command(
        [sys.executable, "-c", f"print({answer_lines!r})", "{instance}"], name="mine"
    )


def _witness(instance):
    return cpqueens.solve(instance, backend="stack", limit=1).solutions[0]


def test_an_instance_compares_the_decision_and_checks_every_board_shown():
    sat = cpqueens.random_blocked(10, 30, seed=2)
    assert cpqueens.solve(sat, backend="stack", limit=1).satisfiable
    right = " ".join(map(str, _witness(sat)))
    (row,) = cpqueens.crosscheck(sat, [_deciding(f"s SATISFIABLE\nv {right}")], "stack").rows
    assert row.compared == "decision" and row.agrees and row.answer == "sat"
    # "no solution" where the reference found one
    (row,) = cpqueens.crosscheck(sat, [_deciding("s UNSATISFIABLE")], "stack").rows
    assert not row.agrees and row.answer == "unsat" and row.reference_answer == "sat"
    assert "says unsatisfiable; the reference found" in str(cpqueens.CrossCheckReport((row,), "x"))
    # a queen on a blocked square
    row_of, column = sat.blocked[0]
    wrong = [c for c in _witness(cpqueens.Instance(sat.n, fixed={row_of: column}))]
    (row,) = cpqueens.crosscheck(
        sat, [_deciding("s SATISFIABLE\nv " + " ".join(map(str, wrong)))], "stack"
    ).rows
    assert not row.agrees and [f.kind for f in row.faults] == ["wrong blocked"]
    # a count that contradicts the boards shown
    (row,) = cpqueens.crosscheck(sat, [_deciding(f"{right}\nTotal: 0")], "stack").rows
    assert not row.agrees and any(f.kind == "wrong count" for f in row.faults)


def test_a_solution_where_the_reference_says_unsatisfiable_is_flagged():
    sat = cpqueens.random_blocked(10, 30, seed=2)

    def lazy_reference(instance):
        return []  # wrongly: "no solution"

    right = " ".join(map(str, _witness(sat)))
    (row,) = cpqueens.crosscheck(sat, [_deciding(f"v {right}")], lazy_reference).rows
    assert not row.agrees and row.reference_answer == "unsat"
    assert "where the reference says unsatisfiable" in row.faults[0].detail


def test_an_unsatisfiable_instance_is_agreed_on_by_saying_so():
    unsat = next(
        inst
        for seed in range(1, 50)
        if not cpqueens.solve(
            inst := cpqueens.random_blocked(8, 30, seed=seed), limit=1
        ).satisfiable
    )
    report = cpqueens.crosscheck(
        unsat,
        {"mine": _deciding("s UNSATISFIABLE"), "quiet": _deciding(""), "stack": "stack"},
    )
    assert report.ok and {row.answer for row in report.rows} == {"unsat"}


def test_question_all_compares_the_solution_sets_of_a_small_instance():
    small = cpqueens.random_blocked(8, 10, seed=3)
    (row,) = cpqueens.crosscheck(small, ["stack"], question="all").rows
    assert row.compared == "all" and row.count == cpqueens.solve(small).count
    with pytest.raises(cpqueens.InvalidInputError, match="question='decide'"):
        cpqueens.crosscheck(cpqueens.random_blocked(40, 200, seed=1), ["stack"], "stack",
                            question="all")  # fmt: skip
    with pytest.raises(cpqueens.InvalidInputError, match="question must be one of"):
        cpqueens.crosscheck(small, ["stack"], question="some")


# --- Words that say what happened ---------------------------------------------------


def _run(*args: str):
    from click.testing import CliRunner

    from cpqueens.cli import cli

    return CliRunner().invoke(cli, list(args))


def test_the_backends_table_fits_80_columns_and_keeps_its_columns_apart():
    result = _run("backends")
    assert result.exit_code == 0
    assert all(len(line) <= 80 for line in result.stdout.splitlines())
    table = result.stdout.splitlines()[1 : 1 + len(cpqueens.solvers.REGISTRY)]  # a row each
    rows = [line.split() for line in table]
    assert {len(row) for row in rows} == {9}  # name, 7 marks, max n: nothing runs together
    largest = {row[0]: row[-1] for row in rows}
    # Every backend shows the limit it enforces, read from the backend itself.
    for name, backend in cpqueens.solvers.REGISTRY.items():
        assert largest[name] == f"{backend.largest_n():,}"


def _suggested_backends(message: str) -> list[str]:
    match = re.search(r"backends that (?:take n=[\d,]+|do): ([\w, ]+)", message)
    names = [] if match is None else [name.strip() for name in match[1].split(",")]
    return [name for name in names if name]


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["solve", "99999999999"],
        ["solve", "30000"],
        ["solve", "30000", "-b", "qs"],
        ["solve", "6000", "-b", "recursive"],
        ["solve", "8", "-b", "construct", "--all"],
        ["crosscheck", "1-99999999999"],
        ["crosscheck", "13", "--backends", "qs"],
        ["bench", "4-5", "--backends", "qs"],
    ],
)
def test_every_suggestion_in_an_error_names_something_that_accepts_the_value(args):
    refused = _run(*args)
    assert refused.exit_code == 2 and refused.stderr.count("\n") == 1, refused.output
    message = refused.stderr
    tried = 0
    for command in re.findall(r"cpqueens (solve [^;()]+?)(?: \(or| instead|$)", message):
        words = command.replace("N", "5").split()
        if "--json" in words:
            words += ["--time-limit", "5"]
        assert _run(*words).exit_code in (0, 3), command
        tried += 1
    size = int(next(arg for arg in args if arg[0].isdigit()).rpartition("-")[2])
    for name in _suggested_backends(message):
        assert (cpqueens.solvers.REGISTRY[name].largest_n() or size) >= size, name
        tried += 1
    if m := re.search(r"--backends (\w+)", message):
        assert cpqueens.solvers.REGISTRY[m[1]].largest_n() >= 10**8
        tried += 1
    if m := re.search(r"--reference (\w+)", message):
        assert _run("crosscheck", "13", "--backends", "qs", "--reference", m[1]).exit_code == 0
        tried += 1
    assert tried or "board sizes go up to" in message, message


@pytest.mark.slow
def test_the_default_set_and_its_reason_are_said():
    help_text = _run("crosscheck", "--help").stdout
    said = " ".join(help_text.split())
    # The backends left out of the default set, named in the registry's order.
    finders = [
        name for name, backend in cpqueens.solvers.REGISTRY.items() if not backend.exhaustive
    ]
    assert sorted(finders) == ["construct", "minconflicts", "qs"]
    assert f"{', '.join(finders[:-1])} and {finders[-1]} find solutions without proving" in said
    result = _run("crosscheck", "4")
    assert "using 13 of 16 backends" in result.stderr or "left out" in result.stderr
    assert "(they find solutions and prove nothing)" in result.stderr


def test_cli_messages_speak_cli():
    result = _run("bench", "4-5", "--backends", "qs")
    assert "--limit 1" in result.stderr and "limit=" not in result.stderr
    assert "--time-limit must be" in _run("solve", "8", "--time-limit", "-1").stderr


def test_a_negative_size_is_a_size_error():
    for command in ("solve", "count", "tree"):
        result = _run(command, "-1")
        assert result.exit_code == 2
        assert result.stderr == "Error: board sizes must be positive integers, got -1\n"
