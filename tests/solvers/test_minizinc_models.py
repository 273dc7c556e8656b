"""Users' own MiniZinc models, and any solver MiniZinc lists.

A model of the user's runs where the shipped one would (``model=FILE.mzn``): it is
checked when named (one line for every way it can be wrong), handed the data it
declares in its numbering (``base``), and every board it yields is verified; the
models of examples/models/ that are wrong on purpose are caught, one by the check of
its boards, the other by the cross-check. ``solver=`` takes whatever ``minizinc
--solvers`` lists, a solver configuration of the user's own included.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from backend_sets import missing, usable
from click.testing import CliRunner

import cpqueens
from cpqueens.campaigns.spec import load_spec
from cpqueens.checking.cases import solves
from cpqueens.cli import cli
from cpqueens.errors import InvalidInputError, SolverError
from cpqueens.solvers.minizinc.solvers import listed_solvers

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "examples" / "models"
FROM_ONE = MODELS / "queens_from_one.mzn"
ONE_DIAGONAL = MODELS / "queens_one_diagonal.mzn"
TOO_STRICT = MODELS / "queens_too_strict.mzn"
SHIPPED = ROOT / "cpqueens" / "solvers" / "minizinc" / "queens.mzn"
#: An instance with a queen given and squares blocked (14 of the 92 solutions are left).
GIVEN = {"fixed": {0: 2}, "blocked": [(1, 0), (3, 3)]}

#: The head of a small model numbered from 0, for the models each test writes.
HEAD = """include "alldifferent.mzn";
int: n;
array[0..n-1] of var 0..n-1: q;
constraint alldifferent(q);
constraint alldifferent([q[r] + r | r in 0..n-1]);
constraint alldifferent([q[r] - r | r in 0..n-1]);
"""


#: The same model with its columns named cols, not q.
COLUMNS_NAMED_COLS = (
    HEAD.replace(": q", ": cols").replace("q[", "cols[").replace("(q)", "(cols)")
    + "solve satisfy;\n"
)
#: The same model with its columns in an n by 1 array.
TWO_DIMENSIONAL = (
    HEAD.replace("array[0..n-1] of var 0..n-1: q", "array[0..n-1, 0..0] of var 0..n-1: q")
    .replace("q[r]", "q[r, 0]")
    .replace("(q)", "([q[r, 0] | r in 0..n-1])")
    + "solve satisfy;\n"
)


@pytest.fixture(autouse=True)
def minizinc_here():
    usable("minizinc")


def write(folder: Path, text: str, name: str = "my.mzn") -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return path


def refused(error: type[Exception], *words: str, **call) -> str:
    """The one-line message of the error ``solve`` raises, holding ``words``."""
    with pytest.raises(error) as caught:
        cpqueens.solve(call.pop("n", 6), backend="minizinc", **call)
    message = str(caught.value)
    assert "\n" not in message, message
    for word in words:
        assert word in message, message
    return message


def test_the_shipped_model_as_a_users_gives_the_same_solutions(tmp_path):
    copy = write(tmp_path, SHIPPED.read_text(), "copy.mzn")
    for n, extra in ((8, {}), (8, GIVEN), (3, {})):
        mine = cpqueens.solve(n, backend="minizinc", model=str(copy), **extra)
        assert mine.solutions == cpqueens.solve(n, backend="minizinc", **extra).solutions
        assert mine.solutions == cpqueens.solve(n, backend="stack", **extra).solutions
    assert mine.complete and mine.count == 0


def test_a_model_numbered_from_one_runs_with_base_1():
    for extra in ({}, GIVEN):
        mine = cpqueens.solve(8, backend="minizinc", model=FROM_ONE, base=1, **extra)
        assert mine.solutions == cpqueens.solve(8, backend="stack", **extra).solutions
    expected = cpqueens.count(8, backend="stack", **GIVEN)
    assert cpqueens.count(8, backend="minizinc", model=str(FROM_ONE), base="1", **GIVEN) == expected


def test_a_model_numbered_from_one_without_base_1_is_an_error_that_says_so():
    refused(SolverError, "queens_from_one.mzn", "pass base=1", model=FROM_ONE)


def test_a_model_numbered_from_zero_run_with_base_1_is_not_taken_at_its_none():
    # Every row reads as given column 0 (base - 1 = 0 is a column there): no solution.
    refused(SolverError, "found no solution of the 8-queens", "base=1", n=8, model=TOO_STRICT,
            base=1)  # fmt: skip
    assert cpqueens.count(3, backend="minizinc", model=TOO_STRICT, base=1) == 0


def test_a_model_that_forgets_a_diagonal_is_an_error_naming_the_board():
    message = refused(SolverError, "queens_one_diagonal.mzn", "returned (", model=ONE_DIAGONAL)
    assert "not a solution" in message


def test_the_crosscheck_catches_both_wrong_models_and_says_which():
    def run(path):
        return lambda given: cpqueens.solve(given, backend="minizinc", model=path)

    models = {"one-diagonal": run(ONE_DIAGONAL), "too-strict": run(TOO_STRICT)}
    instance = cpqueens.Instance(8, fixed={0: 3}, blocked=[(2, 2)])
    report = cpqueens.crosscheck([1, 6, instance], {"stack": "stack", **models}, question="all")
    assert not report.ok
    rows = {(row.n, row.backend): row for row in report.rows}
    assert all(rows[n, "stack"].agrees for n in (1, 6, 8))
    for n in (6, 8):
        wrong = rows[n, "one-diagonal"]
        # The board it yields is judged with the others: a wrong answer, not a failure.
        assert wrong.error is None and not wrong.agrees and wrong.invalid_count == 1
        assert not solves(wrong.invalid[0], instance if n == 8 else cpqueens.Instance(n))
        strict = rows[n, "too-strict"]
        assert strict.error is None and strict.missing and not strict.invalid
        assert 0 < strict.count < strict.reference_count
    # n = 1: q[0] < q[0] leaves nothing, a "none" known false on a plain board; the
    # one-diagonal model is right there.
    assert "found no solution of the 1-queens problem" in rows[1, "too-strict"].error
    assert rows[1, "one-diagonal"].agrees


def test_a_model_without_the_data_an_instance_needs_is_refused(tmp_path):
    plain = write(tmp_path, HEAD + "solve satisfy;\n")
    assert cpqueens.count(6, backend="minizinc", model=plain) == 4
    refused(InvalidInputError, "does not declare the given queens", model=plain, fixed={0: 1})
    refused(InvalidInputError, "does not declare the blocked", model=plain, blocked=[(0, 0)])
    refused(InvalidInputError, "fewest_first", model=plain, search="first-fail")


@pytest.mark.parametrize(
    "text, words",
    [
        (HEAD + "constraint q[0] = ;\nsolve satisfy;\n", ["my.mzn:7", "syntax error"]),
        (HEAD + 'constraint q[0] = "x";\nsolve satisfy;\n', ["my.mzn:7", "type error"]),
        (HEAD.replace("int: n;", "int: n = 6;") + "solve satisfy;\n", ["does not declare int: n"]),
        (HEAD + "int: k;\nsolve satisfy;\n", ["needs data cpqueens does not give: k"]),
        (HEAD + "bool: fixed;\nsolve satisfy;\n", ["declares fixed as bool", "array[int] of int"]),
        (HEAD + "int: nblocked;\nsolve satisfy;\n", ["nblocked without blocked"]),
        (HEAD + "solve maximize q[0];\n", ["optimises"]),
        (COLUMNS_NAMED_COLS, ["no output q", "output=NAME"]),
        (TWO_DIMENSIONAL, ["gives q as array[int, int] of int"]),
    ],
    ids=[
        "syntax",
        "type",
        "no-n",
        "unknown-datum",
        "ill-typed-datum",
        "nblocked-alone",
        "optimises",
        "no-output",
        "two-dimensional-output",
    ],
)
def test_a_model_that_cannot_be_run_is_refused_in_one_line_naming_it(tmp_path, text, words):
    refused(InvalidInputError, *words, model=write(tmp_path, text))


def test_the_output_option_names_the_models_own_array(tmp_path):
    mine = write(tmp_path, COLUMNS_NAMED_COLS)
    assert cpqueens.count(6, backend="minizinc", model=mine, output="cols") == 4


def test_what_is_no_model_file_is_refused_in_one_line(tmp_path):
    (tmp_path / "data.dzn").write_text("n = 4;\n")
    refused(InvalidInputError, "no file", model=tmp_path / "absent.mzn")
    refused(InvalidInputError, "is a folder", model=tmp_path)
    refused(InvalidInputError, "not a MiniZinc model (.mzn)", model=tmp_path / "data.dzn")
    (tmp_path / "device.mzn").symlink_to(os.devnull)  # read for ever if it were /dev/zero
    refused(InvalidInputError, "not a regular file", model=tmp_path / "device.mzn")
    refused(InvalidInputError, "must be 0 or 1", model=FROM_ONE, base=2)
    refused(InvalidInputError, "model=FILE.mzn", base=1)
    refused(InvalidInputError, "model=FILE.mzn", output="cols")


def test_the_time_limit_holds_while_the_model_compiles(tmp_path):
    slow = write(tmp_path, HEAD + "int: slow = sum(i in 1..2000000000)(i mod 7);\n"
                 "constraint q[0] < slow;\nsolve satisfy;\n", "slow.mzn")  # fmt: skip
    started = time.monotonic()
    result = cpqueens.solve(6, backend="minizinc", model=slow, time_limit=1)
    assert time.monotonic() - started < 3
    assert result.stats["timed_out"] and not result.complete
    time.sleep(0.3)
    assert not [pid for pid in processes_naming(str(slow)) if pid != os.getpid()]


def processes_naming(text: str) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/cmdline", "rb") as cmdline:
                if text.encode() in cmdline.read():
                    found.append(int(name))
        except (OSError, ValueError):
            continue
    return found


def test_the_command_line_takes_the_model_as_a_backend_option():
    runner = CliRunner()
    options = ["--backend", "minizinc", "-O", f"model={FROM_ONE}", "-O", "base=1"]
    result = runner.invoke(cli, ["count", "8", *options])
    assert result.exit_code == 0 and "92" in result.output, result.output
    result = runner.invoke(cli, ["count", "6", "--backend", "minizinc", "-O", "model=x.mzn"])
    assert result.exit_code == 2
    assert result.output.strip() == "Error: minizinc option model: no file 'x.mzn'"


def test_a_campaign_names_the_model_from_its_folder_and_catches_the_wrong_one(tmp_path):
    folder = tmp_path / "spec"
    folder.mkdir()
    shutil.copy(TOO_STRICT, folder)
    shutil.copy(ONE_DIAGONAL, folder)
    spec = folder / "models.toml"
    spec.write_text(
        textwrap.dedent("""
        [campaign]
        question = "count"
        time_limit = 20
        [[instances]]
        generator = "blocked"
        n = [7]
        blocked = [4]
        seeds = [1]
        [[solvers]]
        backend = "stack"
        [[solvers]]
        backend = "minizinc"
        [[solvers]]
        label = "strict"
        backend = "minizinc"
        options = { model = "queens_too_strict.mzn" }
        [[solvers]]
        label = "diagonal"
        backend = "minizinc"
        options = { model = "queens_one_diagonal.mzn" }
        """)
    )
    (solver,) = [s for s in load_spec(spec).solvers if s.label == "strict"]
    assert solver.options["model"] == str(folder / "queens_too_strict.mzn")
    db = tmp_path / "r.sqlite"
    run = CliRunner().invoke(cli, ["campaign", "run", str(spec), "--db", str(db), "-q"])
    summary = CliRunner().invoke(cli, ["campaign", "summary", str(db)])
    assert "strict on blocked-n7" in summary.output, (run.output, summary.output)
    # A board the model yields that is none is a wrong answer, not a failed run.
    listed = CliRunner().invoke(cli, ["campaign", "summary", str(db), "--json"]).output
    tally = {row["solver"]: row for row in json.loads(listed)}
    assert (tally["diagonal"]["wrong"], tally["diagonal"]["error"]) == (1, 0)
    assert (tally["strict"]["wrong"], tally["minizinc"]["wrong"]) == (1, 0)
    (folder / "queens_too_strict.mzn").unlink()
    with pytest.raises(InvalidInputError, match="no file"):
        load_spec(spec)


def usable_solvers() -> list:
    """The solvers MiniZinc lists and can run here, each a case; a skip without MiniZinc."""
    reason = missing("minizinc")
    if reason is not None:
        return [pytest.param("gecode", marks=pytest.mark.skip(reason=reason))]
    return [s.name for s in listed_solvers() if s.unusable is None]


@pytest.mark.parametrize("solver", usable_solvers())
def test_every_usable_solver_minizinc_lists_runs_the_shipped_and_a_users_model(solver):
    for model in ({}, {"model": FROM_ONE, "base": 1}):
        found = cpqueens.solve(6, backend="minizinc", solver=solver, **model, **GIVEN)
        assert found.solutions == cpqueens.solve(6, backend="stack", **GIVEN).solutions


def test_an_unknown_solver_is_refused_with_the_installed_ones():
    message = refused(InvalidInputError, "got 'nosuch'", "gecode", solver="nosuch")
    assert "gist (interactive" in message


#: Run with MZN_SOLVER_PATH naming a folder of the user's own solver configurations.
OWN_SOLVERS = """
import json, cpqueens
out = {"all": cpqueens.count(8, backend="minizinc", solver="gecodecopy"),
       "model": cpqueens.count(8, backend="minizinc", solver="gecodecopy", model=MODEL, base=1),
       "one": len(cpqueens.solve(8, backend="minizinc", solver="onlyone", limit=1).solutions)}
try:
    cpqueens.count(8, backend="minizinc", solver="onlyone")
except cpqueens.InvalidInputError as error:
    out["refused"] = str(error)
print(json.dumps(out))
"""


def test_a_solver_configuration_of_the_users_own_is_taken_without_a_change(tmp_path):
    gecode = shutil.which("fzn-gecode")
    if gecode is None:
        pytest.skip("needs Gecode's fzn-gecode: apt-get install minizinc (Debian/Ubuntu)")
    for ident, flags in (("gecodecopy", ["-a", "-n", "-s", "-t"]), ("onlyone", ["-s", "-t"])):
        config = {"id": f"org.example.{ident}", "name": ident, "version": "1.0",
                  "mznlib": "-Ggecode", "executable": gecode, "stdFlags": flags,
                  "supportsFzn": True, "needsSolns2Out": True}  # fmt: skip
        (tmp_path / f"{ident}.msc").write_text(json.dumps(config))
    environment = {**os.environ, "MZN_SOLVER_PATH": str(tmp_path)}
    script = OWN_SOLVERS.replace("MODEL", repr(str(FROM_ONE)))
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=environment,
        timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert (out["all"], out["model"], out["one"]) == (92, 92, 1)
    assert "cannot list every solution" in out["refused"] and "gecodecopy" in out["refused"]


def test_the_crosscheck_command_checks_models_and_names_the_wrong_ones():
    models = ["--model", str(TOO_STRICT), "--model", str(ONE_DIAGONAL)]
    result = CliRunner().invoke(cli, ["crosscheck", "4-6", *models, "--backends", "stack"])
    assert result.exit_code == 1, result.output
    assert f"minizinc:{TOO_STRICT} n=4: 1 board for 2 solutions, 1 missing" in result.output
    assert f"! minizinc:{ONE_DIAGONAL} n=6: 1 board for 4 solutions, 1 invalid" in result.output
    right = ["crosscheck", "4-6", "--model", str(FROM_ONE), "-O", "base=1", "-q"]
    assert CliRunner().invoke(cli, right).exit_code == 0
    wrong = CliRunner().invoke(cli, ["crosscheck", "4-6", "--model", str(FROM_ONE), "-O", "base=7"])
    assert wrong.exit_code == 2 and "base must be 0 or 1" in wrong.output
