"""Solvers from elsewhere as programs: FlatZinc solvers (``fzn-gecode``) and XCSP3 solvers
(ACE run as ``java -jar``), in cross-checks and campaigns, and every way they fail.

``tests/programs/fake_solver.py`` stands in for a solver of either format that
misbehaves on request: it says UNSATISFIABLE of a satisfiable board, UNKNOWN, prints a
malformed solution, crashes, is killed by a signal, hangs with a child of its own, or
answers after the time limit. Each becomes its own status with one line saying what
happened, and nothing it started outlives the run.
"""

from __future__ import annotations

import importlib.util
import pathlib
import shutil
import sys
import time

import pytest
from click.testing import CliRunner

import cpqueens
from cpqueens import Instance, InvalidInputError, random_blocked, random_completion
from cpqueens.campaigns.spec import load_spec
from cpqueens.checking.flatzinc_flags import flatzinc_flags
from cpqueens.cli import cli

FAKE = str(pathlib.Path(__file__).parents[1] / "programs" / "fake_solver.py")
#: Plain, blocked and completion instances, satisfiable and not, n = 4..10.
INSTANCES = [
    random_blocked(7, 20, seed=6),
    random_blocked(7, 20, seed=1),
    random_completion(8, 3, seed=20),
    random_completion(8, 3, seed=1),
    Instance(8, fixed={0: 0}, blocked=[(1, 2)]),
    random_completion(10, 4, seed=2, from_solution=True),
]


def fzn_gecode() -> str:
    found = shutil.which("fzn-gecode")
    if found is None:
        pytest.skip(
            "needs Gecode's FlatZinc solver fzn-gecode on the PATH: apt-get install flatzinc"
        )
    return found


def ace_command() -> str:
    """``java -jar <ACE's jar in pycsp3> {instance}``, found without importing pycsp3."""
    spec = importlib.util.find_spec("pycsp3")
    if spec is None or spec.origin is None:
        pytest.skip("ACE comes in the pycsp3 package: pip install 'cpqueens[ace]'")
    jars = sorted((pathlib.Path(spec.origin).parent / "solvers" / "ace").glob("ACE-*.jar"))
    if not jars:
        pytest.skip("pycsp3 is installed without its ACE jar (pycsp3/solvers/ace/ACE-*.jar)")
    if shutil.which("java") is None:
        pytest.skip(
            "ACE runs on Java 17: java is not on PATH (apt-get install default-jre-headless)"
        )
    return f"java -jar {jars[-1]} {{instance}}"


def fake(fmt: str, fault: str = "none", *extra: str) -> str:
    flags = "{flags}" if fmt == "fzn" else "-a"
    return f"{sys.executable} {FAKE} {fmt} {{instance}} {flags} --fault {fault} {' '.join(extra)}"


# --- the flags and the names ------------------------------------------------------------


def test_the_flags_follow_the_question_and_the_time_limit():
    assert flatzinc_flags("all") == flatzinc_flags("count") == ["-a"]
    assert flatzinc_flags("decide") == flatzinc_flags("some") == []
    assert flatzinc_flags("decide", 0.0001) == ["-t", "1"]  # -t 0 would be no limit
    solver = cpqueens.FlatZincSolver("fzn-chuffed", options=["-f"], time_limit=1.5)
    assert solver.argv(6, "a.fzn") == ["fzn-chuffed", "-a", "-t", "1500", "-f", "a.fzn"]
    assert solver.argv(6, "a.fzn", "decide") == ["fzn-chuffed", "-t", "1500", "-f", "a.fzn"]
    assert cpqueens.FlatZincSolver(expect="some").argv(6, "a.fzn") == ["fzn-gecode", "a.fzn"]
    assert solver.parse == "flatzinc" and solver.instance_format == "fzn"
    command = cpqueens.Command("fzn-gecode {flags} {instance}", instance_format="fzn")
    assert command.parse == "flatzinc"  # a FlatZinc file's solver prints FlatZinc


def test_flags_and_flatzinc_solvers_are_refused_where_they_mean_nothing(tmp_path):
    with pytest.raises(InvalidInputError, match=r"\{flags\}.*instance_format=\"fzn\""):
        cpqueens.Command("solver {flags} {instance}", instance_format="xcsp")
    with pytest.raises(InvalidInputError, match="one of: all, count, decide, some; got 'sum'"):
        flatzinc_flags("sum")
    with pytest.raises(InvalidInputError, match="program is empty"):
        cpqueens.FlatZincSolver(" ")
    base = {"campaign": {"time_limit": 5}, "instances": [{"generator": "plain", "n": [4]}]}
    refusals = {
        "give exactly one of backend": {"flatzinc": "fzn-gecode", "command": "x {instance}"},
        'flatzinc = ... is read as format = "fzn"': {"flatzinc": "fzn-gecode", "format": "json"},
        "flatzinc must name a FlatZinc solver": {"flatzinc": ""},
        r"\{flags\} stands for a FlatZinc solver's flags": {"command": "x {flags} {instance}"},
        "options are for a backend": {"flatzinc": "fzn-gecode", "options": {"p": 2}},
    }
    for words, table in refusals.items():
        with pytest.raises(InvalidInputError, match=r"\[\[solvers\]\] #1: " + words):
            load_spec({**base, "solvers": [table]})
    (config,) = load_spec({**base, "solvers": [{"flatzinc": "fzn-gecode -p 2"}]}).solvers
    assert (config.label, config.command) == ("fzn-gecode", "fzn-gecode {flags} -p 2 {instance}")
    assert (config.format, config.parse) == ("fzn", "flatzinc")


def test_xml_is_another_name_of_xcsp():
    code = (
        "import sys; print('<instance format=\"XCSP3\"' in open(sys.argv[1]).read(), sys.argv[1])"
    )
    for name in ("xcsp", "xml"):
        printed = cpqueens.Command([sys.executable, "-c", code, "{instance}"], instance_format=name)
        written, path = printed.run(4).stdout.split()
        assert written == "True" and path.endswith("queens-4.xml")


# --- fzn-gecode and ACE for real --------------------------------------------------------


def test_fzn_gecode_agrees_with_the_backends_on_boards_and_instances():
    fzn_gecode()
    solver = cpqueens.FlatZincSolver()
    decided = cpqueens.crosscheck([*range(1, 9), *INSTANCES], [solver, "stack"])
    assert decided.ok, decided
    listed = cpqueens.crosscheck(INSTANCES[:5], [solver, "exactcover"], question="all")
    assert listed.ok, listed
    assert [row.count for row in listed.rows[::2]] == [2, 0, 3, 0, 4]


def test_crosscheck_flatzinc_on_the_command_line(tmp_path, monkeypatch):
    fzn_gecode()
    monkeypatch.chdir(tmp_path)
    cpqueens.write_instance(INSTANCES[0], tmp_path / "b7.json")
    runner = CliRunner()
    args = ["crosscheck", "1-7", "--instance", "b7.json", "--flatzinc", "fzn-gecode"]
    result = runner.invoke(cli, [*args, "--backends", "stack", "--timeout", "30"])
    assert result.exit_code == 0, result.output
    assert "fzn-gecode" in result.output and "agree with the reference" in result.output
    refused = runner.invoke(cli, [*args, "--parse", "count"])
    assert refused.exit_code == 2 and "--parse apply to --command programs" in refused.output
    both = ["--flatzinc", "fzn-gecode", "--flatzinc", "fzn-gecode -p 1"]
    two = runner.invoke(cli, ["crosscheck", "4-6", *both])  # options of its own, a row of its own
    assert two.exit_code == 0 and "fzn-gecode -p 1" in two.output, two.output
    empty = runner.invoke(cli, ["crosscheck", "4", "--flatzinc", " "])
    assert (
        empty.exit_code == 2 and "--flatzinc must name a FlatZinc solver's program" in empty.output
    )
    missing = runner.invoke(cli, ["crosscheck", "4", "--flatzinc", "fzn-nowhere"])
    assert missing.exit_code == 2
    assert "program not found: 'fzn-nowhere' (not on the PATH)" in missing.output


#: The first four of INSTANCES, as a campaign's generators make them.
GENERATED = [
    {"generator": "blocked", "n": [7], "blocked": [20], "seeds": [6, 1]},
    {"generator": "completion", "n": [8], "queens": [3], "seeds": [20, 1]},
]


def race(tmp_path, question: str, solvers: list[dict]) -> dict:
    """Run a campaign of ``solvers`` and exactcover; each run's (verdict, count) by
    (instance, solver), every one checked to be exactcover's."""
    spec = {
        "campaign": {"question": question, "time_limit": 30},
        "instances": GENERATED,
        "solvers": [{"backend": "exactcover"}, *solvers],
    }
    db = tmp_path / f"{question}.sqlite"
    report = cpqueens.run_campaign(spec, db, workers=2)
    assert report.ok, report.headline()
    runs = cpqueens.load_results(db)
    answers = {(r["instance"], r["solver"]): (r["verdict"], r["count"]) for r in runs}
    assert len(answers) == 4 * (1 + len(solvers))
    for (instance, _), answer in answers.items():
        assert answer == answers[(instance, "exactcover")], (instance, answers)
    return answers


@pytest.mark.parametrize(("question", "fmt"), [("decide", "xcsp"), ("all", "fzn")])
def test_a_campaign_races_gecode_and_any_xcsp_or_flatzinc_command(tmp_path, question, fmt):
    fzn_gecode()
    answers = race(tmp_path, question, [
        {"flatzinc": "fzn-gecode"},
        {"label": "mine", "command": fake(fmt), "format": fmt},
    ])  # fmt: skip
    verdicts = sorted(verdict for (_, solver), (verdict, _) in answers.items()
                      if solver == "fzn-gecode")  # fmt: skip
    assert verdicts == ["sat", "sat", "unsat", "unsat"]


def test_a_campaign_runs_ace_as_an_xcsp_command(tmp_path):
    # ACE run as the user would: java -jar on the .xml file, read as the competitions say.
    race(tmp_path, "decide", [{"label": "ace", "command": ace_command(), "format": "xcsp"}])


# --- faults -------------------------------------------------------------------------------


CROSSCHECK_FAULTS = {
    # fault: (the row's status, words of its one line)
    "unsat": ("FAIL", None),
    "malformed": ("FAIL", None),  # counted invalid: see below
    "crash": ("ERROR", "exited with status 1; standard error ends: Exception in thread main"),
    "signal": ("ERROR", "killed by signal SIGKILL; nothing on standard error"),
}


@pytest.mark.parametrize("fmt", ["xcsp", "fzn"])
def test_every_fault_of_a_program_is_its_own_row_in_a_crosscheck(fmt):
    blocked = Instance(6, blocked=[(0, 1)])
    programs = {fault: cpqueens.Command(fake(fmt, fault), instance_format=fmt, timeout=30)
                for fault in CROSSCHECK_FAULTS}  # fmt: skip
    report = cpqueens.crosscheck([6, blocked], programs)
    for row in report.rows:
        status, words = CROSSCHECK_FAULTS[row.backend]
        assert row.status == status and not row.agrees, row
        said = " ".join(str(fault.detail) for fault in row.faults) + (row.error or "")
        assert words is None or words in said, (row.backend, said)
    assert all(row.invalid_count == 1 for row in report.rows if row.backend == "malformed")
    # Saying UNSATISFIABLE of a satisfiable board is a wrong answer, with the witness.
    wrong = [row for row in report.rows if row.backend == "unsat"]
    assert wrong[0].missing_count == 4 or "states 0 solutions" in wrong[0].faults[0].detail
    assert wrong[1].answer == "unsat" and "the reference found" in wrong[1].faults[0].detail
    # UNKNOWN is never "no solution": a decision left open, never one that agrees.
    unknown = cpqueens.Command(fake(fmt, "unknown"), instance_format=fmt)
    (row,) = cpqueens.crosscheck(blocked, [unknown]).rows
    assert row.answer == "unknown" and row.timed_out


def test_a_hanging_solver_and_its_child_are_killed_at_the_timeout(tmp_path):
    pids = tmp_path / "pids"
    hangs = cpqueens.Command(fake("fzn", "hang", "--pidfile", str(pids)),
                             instance_format="fzn", timeout=1.0)  # fmt: skip
    start = time.perf_counter()
    (row,) = cpqueens.crosscheck(6, [hangs]).rows
    assert time.perf_counter() - start < 20
    assert row.status == "ERROR"
    assert row.error == "timed out after 1 s (killed with the processes it started)"
    for pid in map(int, pids.read_text().split()):
        assert not alive(pid), f"process {pid} outlived its run"


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting for its new parent has ended)."""
    for _ in range(50):
        try:
            state = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return False
        if state in ("Z", "X"):
            return False
        time.sleep(0.1)
    return True


CAMPAIGN_FAULTS = {
    # label: (fault, format, verdict, words of its reason)
    "unsat-fzn": ("unsat", "fzn", "wrong", "said unsat; exactcover found a verified solution"),
    "unsat-xcsp": ("unsat", "xcsp", "wrong", "said unsat; exactcover found a verified solution"),
    "unknown-fzn": ("unknown", "fzn", "unknown", None),
    "unknown-xcsp": ("unknown", "xcsp", "unknown", None),
    "malformed-fzn": ("malformed", "fzn", "wrong", "q holds 2 columns, not 6"),
    "malformed-xcsp": ("malformed", "xcsp", "wrong", "the values are not whole numbers"),
    "crash-fzn": ("crash", "fzn", "error", "exited with status 1"),
    "signal-xcsp": ("signal", "xcsp", "error", "killed by signal SIGKILL"),
    "hang-fzn": ("hang", "fzn", "unknown", "killed at the time limit"),
    "late-fzn": ("late", "fzn", "unknown", "the time limit"),
}


def test_every_fault_of_a_program_is_its_own_status_in_a_campaign(tmp_path):
    pids = tmp_path / "pids"
    solvers = [{"backend": "exactcover"}]
    for label, (fault, fmt, _, _) in CAMPAIGN_FAULTS.items():
        extra = ("--pidfile", str(pids)) if fault == "hang" else ("--late", "2.1")
        solvers.append({"label": label, "command": fake(fmt, fault, *extra), "format": fmt})
    # ACE's pieces missing: the Java program, the jar (where there is a Java to say so).
    missing = {"no-java": ("no-such-java -jar ACE.jar {instance}", "program not found")}
    if shutil.which("java") is not None:
        missing["no-jar"] = ("java -jar /no/such/ACE.jar {instance}", "Unable to access jarfile")
    solvers += [{"label": label, "command": command, "format": "xcsp"}
                for label, (command, _) in missing.items()]  # fmt: skip
    spec = {
        "campaign": {"time_limit": 2.0, "question": "decide"},
        "instances": [{"generator": "plain", "n": [6]}],
        "solvers": solvers,
    }
    db = tmp_path / "faults.sqlite"
    report = cpqueens.run_campaign(spec, db, workers=2)
    assert not report.ok
    runs = {run["solver"]: run for run in cpqueens.load_results(db)}
    assert runs["exactcover"]["verdict"] == "sat"
    for label, (_, _, verdict, words) in CAMPAIGN_FAULTS.items():
        run = runs[label]
        reason = run["verdict_reason"] or ""
        assert run["verdict"] == verdict, (label, run["verdict"], reason)
        assert words is None or words in reason, (label, reason)
        assert "\n" not in reason  # one line
    for label, (_, words) in missing.items():
        assert runs[label]["verdict"] == "error" and words in runs[label]["verdict_reason"]
    time.sleep(0.2)
    for pid in map(int, pids.read_text().split()):
        assert not alive(pid), f"process {pid} outlived its run"


# --- an XCSP3 solver's output, read -------------------------------------------------------

V = "v <instantiation> <list> q[] </list> <values> {} </values> </instantiation>"


@pytest.mark.parametrize(
    ("text", "status", "solutions", "why"),
    [
        # ACE's colours, even into a pipe; an instantiation over several v lines.
        ("\x1b[92ms SATISFIABLE\x1b[0m\n\x1b[92m\nv\x1b[0m <instantiation> <list> q[] </list>\n"
         "v <values> 1 3 0 2 </values> </instantiation>\nd FOUND SOLUTIONS 1",
         "sat", [(1, 3, 0, 2)], None),
        (f"s SATISFIABLE\n{V.format('1 3 0 2')}\n{V.format('2 0 3 1')}", "sat",
         [(1, 3, 0, 2), (2, 0, 3, 1)], None),
        ("v 1 3 0 2", "sat", [(1, 3, 0, 2)], None),  # plain v lines, no s line
        ("c nothing\ns UNKNOWN", "unknown", [], None),
        ("s SATISFIABLE\nc no v line", "sat", [], "s SATISFIABLE without a solution (v lines)"),
        (f"s UNSATISFIABLE\n{V.format('1 3 0 2')}", "unsat", [(1, 3, 0, 2)],
         "a solution beside s UNSATISFIABLE"),
        ("s SATISFIABLE\ns UNSATISFIABLE\nv 1 3 0 2", "sat", [(1, 3, 0, 2)],
         "a second, different s line"),
        ("s MAYBE", None, [], "an unknown status (allowed: SATISFIABLE, UNSATISFIABLE, UNKNOWN)"),
        (f"s SATISFIABLE\n{V.format('1 3 0')}", "sat", [], "the values are 3 columns, not 4"),
        # The pieces read as ACE's reader reads them (cpqueens/outputs/xcsp_lines.py).
        (f"s SATISFIABLE\n{V.format('1 * 0 2')}", "sat", [],
         "a * among the values (a variable given none)"),
        (f"s SATISFIABLE\n{V.format('1 -3 0 2')}", "sat", [], "the values are not whole numbers"),
        (f"s SATISFIABLE\n{V.replace('q[]', 'x[]').format('1 3 0 2')}", "sat", [],
         "an instantiation of 'x[]', not of the array q[]"),
        (f"s OPTIMUM FOUND\n{V.format('1 3 0 2')}", "sat", [(1, 3, 0, 2)],
         "an unknown status (allowed: SATISFIABLE, UNSATISFIABLE, UNKNOWN)"),
        ("\x1b[2Ks UNSATISFIABLE", None, [], None),  # not a colour: no s line
    ],
)  # fmt: skip
def test_an_xcsp3_solvers_output_is_read_with_every_fault_named(text, status, solutions, why):
    from cpqueens.outputs.xcsp import read_xcsp_output

    read = read_xcsp_output(text, 4)
    assert (read.status, list(read.solutions)) == (status, solutions)
    assert [reason for _, _, reason in read.invalid] == ([] if why is None else [why])
