"""ACE's faults, each its own outcome in one line: a missing Java, jar or pycsp3, a JVM
that crashes, hangs, answers after the limit, prints a malformed v line, a wrong or
repeated board, contradicts itself, claims UNSATISFIABLE on a satisfiable instance,
or leaves a child behind; and nothing survives the run.

The JVM is a shell script named by ``CPQUEENS_JAVA`` (the backend runs it as it runs
Java: ``JAVA [flags] -jar JAR instance.xml [ACE's options]``), and the jar a file
named by ``CPQUEENS_ACE_JAR``, so these tests need neither Java nor pycsp3."""

from __future__ import annotations

import os
import time

import pytest

import cpqueens
from cpqueens import Instance
from cpqueens.errors import BackendUnavailableError, SolverError
from cpqueens.solvers import REGISTRY

#: The two solutions of n = 4, as ACE prints them.
V_1302 = "v <instantiation id='sol1' type='solution'> <list> q[] </list> <values> 1 3 0 2 </values> </instantiation>"  # noqa: E501
V_2031 = "v <instantiation id='sol2' type='solution'> <list> q[] </list> <values> 2 0 3 1 </values> </instantiation>"  # noqa: E501
COMPLETE = "d COMPLETE EXPLORATION"


@pytest.fixture
def fake(tmp_path, monkeypatch):
    """Make a fake Java of a shell script's body; its folder for files is ``$OUT``."""
    jar = tmp_path / "ACE-9.9.jar"
    jar.write_bytes(b"not a jar")
    monkeypatch.setenv("CPQUEENS_ACE_JAR", str(jar))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("OUT", str(tmp_path))

    def make(*lines: str) -> None:
        script = tmp_path / "java"
        script.write_text("#!/bin/sh\n" + "\n".join(lines) + "\n")
        script.chmod(0o755)
        monkeypatch.setenv("CPQUEENS_JAVA", str(script))

    return make


def printing(*lines: str) -> str:
    """A shell line that prints ``lines``."""
    return "printf '%s\\n' " + " ".join(f'"{line}"' for line in lines)


def test_a_well_behaved_fake_is_read_like_ace(fake):
    fake(printing(V_1302, V_2031, "s SATISFIABLE", "d FOUND SOLUTIONS  2", COMPLETE))
    result = cpqueens.solve(4, backend="ace")
    assert sorted(result.solutions) == [(1, 3, 0, 2), (2, 0, 3, 1)] and result.complete
    assert result.stats["solver"] == "ACE 9.9"


@pytest.mark.parametrize(
    ("lines", "said"),
    [
        ([V_1302.replace("0 2", "x 2"), "s SATISFIABLE"], "values are not columns"),
        ([V_1302.replace(" 2 <", " <"), "s SATISFIABLE"], "3 values for 4 rows"),
        (["v 1 3 0 2", "s SATISFIABLE"], "a v line without an instantiation"),
        ([V_1302.replace("q[]", "x[]"), "s SATISFIABLE"], "the array q\\[\\] alone is read"),
        (["v <instantiation> <list> q[] </list>"], "an unfinished v line"),
        (["s SATISFIED"], "an unknown status line"),
        ([V_1302, "s SATISFIABLE", "s UNSATISFIABLE"], "two status lines"),
        ([V_1302.replace("0 2", "* 2"), "s SATISFIABLE"], "a \\* among its values"),
        ([V_1302.replace("0 2", "-1 2"), "s SATISFIABLE"], "values are not columns"),
        ([V_1302, "s OPTIMUM FOUND"], "an unknown status line"),
        ([V_1302.replace("</instantiation>", "</instantiation> x"), "s SATISFIABLE"],
         "cannot read"),
    ],
    ids=["letters", "short", "bare", "other-array", "unfinished", "status", "two-statuses",
         "star", "negative", "optimum", "trailing"],
)  # fmt: skip
def test_a_malformed_output_is_an_error_of_one_line(fake, lines, said):
    fake(printing(*lines, COMPLETE))
    with pytest.raises(SolverError, match=said) as caught:
        cpqueens.solve(4, backend="ace")
    assert "\n" not in str(caught.value) and str(caught.value).startswith("ACE printed")


def test_colours_are_taken_off_and_no_other_control_sequence(fake):
    fake(printing(f"\x1b[92m{V_1302}\x1b[0m", "\x1b[1;32ms SATISFIABLE\x1b[0m", COMPLETE))
    assert list(cpqueens.solve(4, backend="ace", limit=1).solutions) == [(1, 3, 0, 2)]
    fake(printing(V_1302, "\x1b[2Ks SATISFIABLE", COMPLETE))
    with pytest.raises(SolverError, match="ended without an answer"):
        cpqueens.solve(4, backend="ace")


@pytest.mark.parametrize(
    ("lines", "said"),
    [
        ([V_1302.replace("1 3 0 2", "0 1 2 3"), "s SATISFIABLE"], "not a solution"),
        ([V_1302, V_1302, "s SATISFIABLE"], "printed the solution .* twice"),
        (["s SATISFIABLE"], "said s SATISFIABLE and printed no solution"),
        ([V_1302, "s UNSATISFIABLE"], "said s UNSATISFIABLE after printing 1"),
        ([V_1302, V_2031, "s SATISFIABLE", "d FOUND SOLUTIONS  3"], "states 3 solution"),
    ],
    ids=["wrong-board", "twice", "sat-without-board", "unsat-with-board", "stated-count"],
)
def test_an_answer_wrong_on_its_face_is_an_error_of_one_line(fake, lines, said):
    fake(printing(*lines, COMPLETE))
    with pytest.raises(SolverError, match=said) as caught:
        cpqueens.solve(4, backend="ace")
    assert "\n" not in str(caught.value)


def test_a_jvm_that_crashes_says_how_and_its_last_words(fake):
    fake(
        "echo 'ACE v9.9'",
        "echo 'Exception in thread \"main\" java.lang.NullPointerException' >&2",
        "exit 1",
    )
    with pytest.raises(SolverError, match=r"exit status 1.*NullPointerException") as caught:
        cpqueens.solve(4, backend="ace")
    assert "\n" not in str(caught.value)


def test_a_java_too_old_for_ace_says_which_java_to_install(fake):
    fake(
        "echo 'Error: LinkageError occurred while loading main class Head' >&2",
        "echo '  java.lang.UnsupportedClassVersionError: Head has been compiled by a "
        "more recent version of the Java Runtime' >&2",
        "exit 1",
    )
    with pytest.raises(SolverError, match=r"Java 17.*apt-get install default-jre-headless"):
        cpqueens.solve(4, backend="ace")


def test_a_java_that_cannot_be_started_says_why(fake, tmp_path, monkeypatch):
    fake("exit 0")
    program = tmp_path / "java-without-interpreter"
    program.write_bytes(b"\x00\x01 not a program")
    program.chmod(0o755)
    monkeypatch.setenv("CPQUEENS_JAVA", str(program))
    with pytest.raises(SolverError, match=r"cannot run .*java-without-interpreter.*format"):
        cpqueens.solve(4, backend="ace")


def test_a_jvm_killed_by_a_signal_says_so(fake):
    fake("kill -SEGV $$")
    with pytest.raises(SolverError, match="killed by SIGSEGV"):
        cpqueens.solve(4, backend="ace")


def test_unknown_without_a_time_limit_is_an_error(fake):
    fake(printing("s UNKNOWN", "d INCOMPLETE EXPLORATION"))
    with pytest.raises(SolverError, match=r"without a time limit \(s UNKNOWN"):
        cpqueens.solve(4, backend="ace")


def test_unknown_at_its_own_time_limit_is_a_time_out(fake):
    fake(printing(V_1302, "s SATISFIABLE", "d INCOMPLETE EXPLORATION"))
    result = cpqueens.solve(4, backend="ace", time_limit=30)
    assert result.stats["timed_out"] and not result.complete
    assert result.solutions == ((1, 3, 0, 2),)


def test_unsatisfiable_on_a_satisfiable_instance_is_a_disagreement_of_the_crosscheck(fake):
    fake(printing("s UNSATISFIABLE", "d FOUND SOLUTIONS  0", COMPLETE))
    assert cpqueens.solve(6, backend="ace").solutions == ()  # nothing to see from here
    decided = cpqueens.crosscheck([Instance(6)], ["ace", "stack"], "tree")
    (ace,) = [row for row in decided.rows if row.backend == "ace"]
    assert not decided.ok and not ace.agrees
    assert (ace.answer, ace.reference_answer) == ("unsat", "sat")
    listed = cpqueens.crosscheck([Instance(6)], ["ace", "stack"], "tree", question="all")
    (ace,) = [row for row in listed.rows if row.backend == "ace"]
    assert not listed.ok and len(ace.missing) == 4 and ace.count == 0


def test_a_hanging_jvm_is_killed_at_the_time_limit_with_its_children(fake, tmp_path):
    fake("sleep 60 &", 'echo $! > "$OUT/child"', 'echo $$ > "$OUT/jvm"', "wait")
    started = time.monotonic()
    result = cpqueens.solve(8, backend="ace", time_limit=1.0)
    assert time.monotonic() - started < 1.0 + 0.5 + 1.5
    assert result.stats["timed_out"] and result.solutions == ()
    for name in ("child", "jvm"):
        assert not _alive(int((tmp_path / name).read_text())), name


def test_an_answer_after_the_limit_is_not_taken(fake):
    fake("sleep 3", printing(V_1302, V_2031, "s SATISFIABLE", COMPLETE))
    started = time.monotonic()
    result = cpqueens.solve(4, backend="ace", time_limit=0.5)
    assert time.monotonic() - started < 0.5 + 0.5 + 1.5
    assert result.stats["timed_out"] and result.solutions == () and not result.complete


def test_a_child_left_behind_by_a_jvm_that_answered_is_killed(fake, tmp_path):
    fake(
        "sleep 60 &",
        'echo $! > "$OUT/child"',
        printing(V_1302, V_2031, "s SATISFIABLE", COMPLETE),
    )
    assert cpqueens.count(4, backend="ace") == 2
    assert not _alive(int((tmp_path / "child").read_text()))


def test_the_jvm_is_killed_once_the_limit_of_solutions_is_met(fake, tmp_path):
    fake('echo $$ > "$OUT/jvm"', printing(V_1302), "sleep 60")
    started = time.monotonic()
    result = cpqueens.solve(4, backend="ace", limit=1)
    assert time.monotonic() - started < 10 and result.solutions == ((1, 3, 0, 2),)
    assert not _alive(int((tmp_path / "jvm").read_text()))


def test_a_java_that_is_not_there_says_what_to_install(fake, monkeypatch, tmp_path):
    monkeypatch.setenv("CPQUEENS_JAVA", str(tmp_path / "no-java"))
    with pytest.raises(BackendUnavailableError, match="CPQUEENS_JAVA="):
        cpqueens.solve(4, backend="ace")
    monkeypatch.delenv("CPQUEENS_JAVA")
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(BackendUnavailableError, match="apt-get install default-jre-headless"):
        cpqueens.solve(4, backend="ace")
    assert not REGISTRY["ace"].is_available()


def test_a_jar_that_is_not_there_is_named(fake, monkeypatch, tmp_path):
    fake("exit 0")
    monkeypatch.setenv("CPQUEENS_ACE_JAR", str(tmp_path / "ACE-0.jar"))
    with pytest.raises(BackendUnavailableError, match=r"CPQUEENS_ACE_JAR=.*not a file"):
        cpqueens.solve(4, backend="ace")


def test_without_pycsp3_the_package_to_install_is_named_once(fake, monkeypatch):
    fake("exit 0")
    monkeypatch.delenv("CPQUEENS_ACE_JAR")
    monkeypatch.setattr(type(REGISTRY["ace"]), "requires", "cpqueens_no_such_module")
    with pytest.raises(BackendUnavailableError, match=r"install it with: pip install pycsp3$"):
        cpqueens.solve(4, backend="ace")


def test_a_failing_run_in_a_campaign_is_an_error_of_one_line(fake):
    from cpqueens.campaigns.execute import execute

    fake("echo 'java.lang.OutOfMemoryError: Java heap space' >&2", "exit 3")
    task = {
        "question": "decide",
        "time_limit": 10,
        "instance": Instance(6),
        "solver": {"label": "ace", "backend": "ace", "options": {}},
    }
    out = execute(task)
    assert "exit status 3" in out["error"] and "OutOfMemoryError" in out["error"]
    assert "\n" not in out["error"]


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet collected, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            data = stat.read()
    except OSError:
        return False
    return data[data.rindex(b")") + 2 :].split()[0] not in (b"Z", b"X")


def test_relative_paths_of_java_and_the_jar_are_read_where_they_are_given(
    fake, monkeypatch, tmp_path
):
    # ACE runs in a folder of its own: "./java" and "ACE-9.9.jar" are resolved when
    # read, against the folder the user stands in, not left for the JVM's folder.
    from cpqueens.solvers.ace.runtime import ace_jar, java_program

    fake("exit 0")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CPQUEENS_ACE_JAR", "ACE-9.9.jar")
    monkeypatch.setenv("CPQUEENS_JAVA", "./java")
    assert ace_jar() == tmp_path / "ACE-9.9.jar"
    assert java_program() == str(tmp_path / "java")
