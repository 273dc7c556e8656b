"""Proofs beyond cpqueens' own: a SAT solver's output read as the competitions print it,
its "no solution" held to the DRAT proof it writes to ``{proof}``, and a campaign
that proves every unsatisfiable and counted answer, a proof outranking a vote."""

from __future__ import annotations

import importlib.util
import shutil
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

import cpqueens
from cpqueens.campaigns.run_verdicts import run_verdict
from cpqueens.campaigns.store import Store
from cpqueens.cli import cli
from cpqueens.errors import InvalidInputError
from cpqueens.outputs.dimacs import dimacs_answer, read_dimacs_output

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("dratify") is None,
    reason="certifying needs dratify: pip install '.[certify]'",
)

# A SAT solver written for the tests: pysat's CaDiCaL, which writes a DRUP proof, run on
# the DIMACS file; its proof is then damaged as the command line asks (drop its last
# line, or keep none).
SOLVER = textwrap.dedent(
    """
    import sys
    from pysat.formula import CNF
    from pysat.solvers import Solver

    formula, proof, damage = sys.argv[1], sys.argv[2], sys.argv[3]
    with Solver(name="cadical153", bootstrap_with=CNF(from_file=formula).clauses,
                with_proof=True) as solver:
        if solver.solve():
            print("s SATISFIABLE")
            print("v " + " ".join(map(str, solver.get_model())) + " 0")
            sys.exit(10)
        lines = solver.get_proof()
    if damage == "last":
        lines = lines[:-1]
    elif damage == "all":
        lines = []
    if damage != "none-written":
        with open(proof, "w") as out:
            out.write("\\n".join(lines) + "\\n")
    print("s UNSATISFIABLE")
    sys.exit(20)
    """
)


@pytest.fixture(scope="module")
def solver(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("solver") / "sat_solver.py"
    path.write_text(SOLVER)
    return path


def sat_command(solver: Path, damage: str = "intact", name: str | None = None):
    return cpqueens.Command(
        [sys.executable, str(solver), "{instance}", "{proof}", damage],
        instance_format="cnf",
        name=name or damage,
    )


# Reading a SAT solver's output -----------------------------------------------------


def test_a_model_is_read_as_the_board_its_squares_say():
    board = (1, 3, 0, 2)
    true = {row * 4 + column + 1 for row, column in enumerate(board)}
    literals = [v if v in true else -v for v in range(1, 17)] + [17, -18]  # two of its own
    text = "c solving\ns SATISFIABLE\nv " + " ".join(map(str, literals[:9]))
    text += "\nv " + " ".join(map(str, literals[9:])) + " 0\n"
    read = read_dimacs_output(text, 4)
    assert (read.status, read.solutions, read.invalid) == ("sat", (board,), ())
    assert dimacs_answer(text, 4, "decide")["solutions"] == [list(board)]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("s SATISFIABLE\nv 1 -2 -3 -4 0", "row 1 (counted from 0) holds 0 queens"),
        ("s SATISFIABLE\nv 1 2 -3 4 0", "row 0 (counted from 0) holds 2 queens"),
        ("s SATISFIABLE\nv 1 -2 -3 0", "square 4, in row 1 (counted from 0), has no value"),
        ("s SATISFIABLE\nv 1 -1 -2 -3 4 0", "variable 1 is both true and false"),
        ("s SATISFIABLE\nv 1 x 0", "'x' is no literal"),
        ("s UNSATISFIABLE\nv -1 2 3 -4 0", "a model beside s UNSATISFIABLE"),
        ("s SATISFIABLE", "s SATISFIABLE without a model"),
    ],
)
def test_a_model_that_is_no_board_is_invalid_saying_why(text, why):
    problems = read_dimacs_output(text, 2).problems()
    assert problems and why in problems[0]


@pytest.mark.slow
def test_a_sat_solver_exits_10_and_20_and_is_read_as_a_decision(solver):
    command = sat_command(solver, "none")
    report = cpqueens.crosscheck(range(1, 7), [command, "stack"])
    assert report.ok
    rows = {row.n: row for row in report.rows if row.backend == "none"}
    assert rows[6].compared == "some" and rows[6].count == 1  # one model
    blocked = cpqueens.Instance(6, blocked=[(0, c) for c in range(3)])
    assert cpqueens.crosscheck([blocked], [command, "stack"]).ok


# {proof}: the solver's "no solution" held to its proof -----------------------------------


def test_an_intact_proof_of_no_solution_is_proved(solver):
    report = cpqueens.crosscheck([2, 3], [sat_command(solver), "stack"])
    assert report.ok
    for row in report.rows:
        if row.backend == "intact":
            assert row.agrees and row.proof.startswith("no solution: PROVED by dratify")


@pytest.mark.parametrize(
    ("damage", "verdict"),
    [("last", "REFUSED"), ("all", "REFUSED"), ("none-written", "REFUSED")],
)
def test_a_damaged_or_missing_proof_makes_the_row_disagree(solver, damage, verdict):
    report = cpqueens.crosscheck([3], [sat_command(solver, damage), "stack"])
    (row,) = [row for row in report.rows if row.backend == damage]
    assert not row.agrees and not report.ok
    (fault,) = [fault for fault in row.faults if fault.kind == "unproved"]
    assert fault.detail.startswith(f"says no solution; its proof: {verdict}")
    assert "PROVED" not in str(report)


def test_an_unsatisfiable_instance_s_proof_is_checked_in_a_decision(solver):
    blocked = cpqueens.Instance(6, blocked=[(0, 1), (0, 2), (0, 3), (0, 4), (1, 1), (2, 2)])
    assert cpqueens.solve(blocked, backend="stack").count == 0
    good, bad = sat_command(solver), sat_command(solver, "last")
    report = cpqueens.crosscheck([blocked], [good, bad, "stack"])
    rows = {row.backend: row for row in report.rows}
    assert rows["intact"].agrees and rows["intact"].proof
    assert not rows["last"].agrees and "REFUSED" in rows["last"].proof


def test_a_proof_is_only_for_a_sat_solver_given_dimacs():
    with pytest.raises(InvalidInputError, match=r'\{proof\}.*instance_format="cnf"'):
        cpqueens.Command("cadical {instance} {proof}", instance_format="xcsp")
    with pytest.raises(InvalidInputError, match=r"\{proof\}.*needs \{instance\}"):
        cpqueens.Command("cadical {n} {proof}", instance_format="cnf")


@pytest.mark.slow
@pytest.mark.skipif(
    shutil.which("cadical") is None, reason="needs cadical: apt-get install cadical"
)
def test_cadical_s_text_proofs_are_proved_and_its_binary_ones_said_unread():
    text = cpqueens.Command("cadical -q --no-binary {instance} {proof}", instance_format="cnf")
    binary = cpqueens.Command("cadical -q {instance} {proof}", instance_format="cnf", name="bin")
    report = cpqueens.crosscheck(range(1, 7), [text, binary, "stack"])
    rows = {(row.backend, row.n): row for row in report.rows}
    assert all(rows[text.name, n].agrees for n in range(1, 7))
    assert "PROVED" in rows[text.name, 3].proof
    assert not rows["bin", 3].agrees and "binary DRAT" in rows["bin", 3].proof
    assert rows["bin", 6].agrees  # a model needs no proof


def test_a_campaign_run_whose_proof_is_refused_is_wrong():
    answer = {"answer": "unsat", "solutions": [], "proof": {"verdict": "refused", "words": "x"}}
    status, reason = run_verdict(cpqueens.Instance(3), "decide", answer, ended="answered",
                                 wall=0.1, time_limit=10, memory_limit_mb=100)  # fmt: skip
    assert status == "wrong" and reason == "said unsat; its proof: REFUSED (x)"


def test_a_campaign_refuses_proof_for_another_format(tmp_path):
    spec = {"campaign": {}, "instances": [{"generator": "plain", "n": [4]}],
            "solvers": [{"command": "s {instance} {proof}", "format": "json"}]}  # fmt: skip
    with pytest.raises(InvalidInputError, match='give format = "cnf"'):
        cpqueens.run_campaign(spec, tmp_path / "r.sqlite")


# A certified campaign ----------------------------------------------------------------


def wrong_counter(count: int, who: str) -> str:
    """A program stating ``count`` solutions whatever it is asked (``who`` makes two of
    them two configurations)."""
    return f"{sys.executable} -c \"print('{count} solutions')  # {who}\""


@pytest.mark.slow
def test_a_certified_campaign_proves_each_answer_once_and_a_proof_outranks_a_vote(tmp_path):
    spec = {
        "campaign": {"question": "count", "time_limit": 60, "certify": True},
        "instances": [{"generator": "plain", "n": [3, 6]}],
        # Two of three solvers agree on a wrong count of n=6 (3, where there are 4).
        "solvers": [
            {"backend": "stack"},
            {"label": "three", "command": wrong_counter(3, "one"), "parse": "count"},
            {"label": "also-three", "command": wrong_counter(3, "two"), "parse": "count"},
        ],
    }
    voted = {**spec, "campaign": {**spec["campaign"], "certify": False}}
    by_vote = cpqueens.run_campaign(voted, tmp_path / "voted.sqlite", workers=2)
    assert ("stack", "plain-n6") in {(w["solver"], w["instance"]) for w in by_vote.wrong}
    db = tmp_path / "r.sqlite"
    report = cpqueens.run_campaign(spec, db, workers=2)
    wrong = {(w["solver"], w["instance"]) for w in report.wrong}
    assert ("stack", "plain-n6") not in wrong
    assert {("three", "plain-n6"), ("also-three", "plain-n6")} <= wrong
    assert "plain-n6" not in report.disputed
    summary = {entry["solver"]: entry for entry in report.summary}
    assert summary["stack"]["proved"] == 2  # n=3 (no solution) and n=6 (4 solutions)
    assert summary["three"]["proved"] == 0
    with Store(db, create=False) as store:
        kept = store.certificates()
    assert sorted((c["claim"], c["count"], c["verdict"]) for c in kept.values()) == [
        ("count", 4, "proved"),
        ("unsatisfiable", 0, "proved"),
    ]
    # Run again: nothing is proved twice.
    before = {key: value["seconds_to_check"] for key, value in kept.items()}
    cpqueens.run_campaign(spec, db)
    with Store(db, create=False) as store:
        assert {k: v["seconds_to_check"] for k, v in store.certificates().items()} == before


@pytest.mark.slow
def test_the_summary_shows_proved_only_for_a_certified_campaign(tmp_path):
    spec = tmp_path / "c.toml"
    spec.write_text(
        '[campaign]\nquestion = "decide"\ncertify = true\n'
        '[[instances]]\ngenerator = "blocked"\nn = [8]\nblocked = [30, 50]\nseeds = [1, 2]\n'
        '[[solvers]]\nbackend = "stack"\n'
    )
    db = tmp_path / "r.sqlite"
    run = CliRunner().invoke(cli, ["campaign", "run", str(spec), "--db", str(db), "-q"])
    assert run.exit_code == 0, run.output
    assert "proved" in run.output.splitlines()[1]
    rows = cpqueens.campaigns.runner.load_results(db)
    assert {row["proved"] for row in rows} <= {"yes", "board"}
    assert any(row["proved"] == "yes" for row in rows)  # an unsatisfiable one, proved
    plain = tmp_path / "p.toml"
    plain.write_text(spec.read_text().replace("certify = true\n", ""))
    run = CliRunner().invoke(cli, ["campaign", "run", str(plain), "--db", str(tmp_path / "p")])
    assert "proved" not in run.output.splitlines()[1]


def test_certify_must_be_true_or_false(tmp_path):
    spec = {"campaign": {"certify": 1}, "instances": [{"generator": "plain", "n": [4]}],
            "solvers": [{"backend": "stack"}]}  # fmt: skip
    with pytest.raises(cpqueens.errors.InvalidTypeError, match=r"\[campaign\] certify must"):
        cpqueens.run_campaign(spec, tmp_path / "r.sqlite")
