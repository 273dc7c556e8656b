"""The bug hunter: its instances, relations, judging and shrinking, each checked against
an independent computation; its hunts of wrong solvers, faulty programs and correct ones
(no false alarm); its budget, its seed and its resumption."""

from __future__ import annotations

import dataclasses
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cpqueens
from cpqueens.fuzzing.families import FAMILIES, draw
from cpqueens.fuzzing.judging import Expected, judge
from cpqueens.fuzzing.relations import Relation
from cpqueens.fuzzing.shrinking import shrink
from cpqueens.fuzzing.targets import Answer
from cpqueens.fuzzing.transforms import SYMMETRIES, map_instance, map_solution
from cpqueens.solvers import REGISTRY, get_backend

ROOT = Path(__file__).resolve().parents[2]
MUTANTS = ROOT / "tests" / "programs" / "mutants"


def program(name: str, **options) -> cpqueens.Command:
    return cpqueens.Command([sys.executable, "-S", str(MUTANTS / f"{name}.py"), "{instance}"],
                            name=name, **options)  # fmt: skip


def solutions_of(instance):
    return {tuple(s) for s in cpqueens.solutions(instance, backend="stack")}


# The instances drawn


def test_the_same_seed_draws_the_same_instances_and_another_seed_others():
    first = [draw(3, index, max_n=10) for index in range(200)]
    assert first == [draw(3, index, max_n=10) for index in range(200)]
    assert first != [draw(4, index, max_n=10) for index in range(200)]


def test_every_family_and_every_edge_shape_is_drawn_within_the_size_asked():
    drawn = [draw(0, index, max_n=12) for index in range(2000)]
    assert {d.family for d in drawn} == set(FAMILIES)
    assert all(1 <= d.instance.n <= 12 for d in drawn)
    shapes = {d.shape for d in drawn}
    for shape in ("blocked row", "attacking queens", "edge queens", "many solutions",
                  "near transition", "completion", "mixed", "diagonals"):  # fmt: skip
        assert shape in shapes
    tiny = sum(d.instance.n <= 4 for d in drawn)
    assert tiny > 0.2 * len(drawn)  # tiny boards weighted
    # A row wholly blocked, given queens attacking each other, boards past 255 solutions.
    assert any(
        any(all((row, c) in d.instance.blocked_set for c in range(d.instance.n))
            for row in range(d.instance.n))
        for d in drawn if d.shape == "blocked row"
    )  # fmt: skip
    attacking = [d.instance for d in drawn if d.shape == "attacking queens"]
    assert attacking and all(cpqueens.count(i, backend="stack") == 0 for i in attacking[:20])
    many = [d.instance for d in drawn if d.shape == "many solutions" and d.instance.plain]
    assert any(cpqueens.count(i) > 255 for i in many)


def test_an_excluded_diagonals_instance_is_drawn_with_its_diagonals():
    drawn = [draw(0, index, max_n=8, families=["diagonals"]) for index in range(50)]
    assert all(d.instance.diagonals is not None for d in drawn)


# The relations, checked against solutions worked out for each instance


@pytest.mark.parametrize("index", range(1, 8))
def test_each_symmetry_maps_the_solutions_of_an_instance_onto_those_of_its_image(index):
    symmetry = SYMMETRIES[index]
    for number in range(12):
        instance = draw(11, number, max_n=7).instance
        image = map_instance(symmetry, instance)
        if image is None:
            continue
        mapped = {map_solution(symmetry, s, instance.n) for s in solutions_of(instance)}
        assert mapped == solutions_of(image), (symmetry.name, instance)


def test_the_eight_symmetries_are_eight_different_maps_of_a_board():
    board = (0, 4, 7, 5, 2, 6, 1, 3)  # a solution of n=8 with no symmetry of its own
    images = {map_solution(s, board, 8) for s in SYMMETRIES}
    assert len(images) == 8 and images == set(cpqueens.symmetries(board))


def test_blocking_keeps_exactly_the_solutions_without_a_queen_there():
    rng = random.Random(5)
    for _ in range(20):
        instance = draw(2, rng.randrange(500), max_n=7).instance
        n = instance.n
        square = (rng.randrange(n), rng.randrange(n))
        block = Relation("block", square)
        partner = block.partner(instance)
        if partner is None:
            continue
        before, after = solutions_of(instance), solutions_of(partner)
        assert after == {s for s in before if s[square[0]] != square[1]}
        right = Answer("sat" if after else "unsat", tuple(after), len(after))
        full = Answer("sat" if before else "unsat", tuple(before), len(before))
        assert block.violated("all", full, right, n) is None
        if before - after:  # a solution the partner keeps that it may not have
            wrong = Answer("sat", tuple(before), len(before))
            assert block.violated("all", full, wrong, n) is not None


# Judging


def test_each_kind_of_wrong_answer_is_named():
    inst = cpqueens.Instance(4)
    both = frozenset({(1, 3, 0, 2), (2, 0, 3, 1)})
    ref = Expected(True, 2, both)
    cases = {
        "invalid board": Answer("sat", ((0, 1, 2, 3),), 1),
        "wrong decision": Answer("unsat", (), 0),
        "missing solutions": Answer("sat", ((1, 3, 0, 2),), 1),
        "extra solutions": Answer("sat", ((1, 3, 0, 2), (2, 0, 3, 1), (2, 0, 3, 1)), 3),
        "crash": Answer("crash", message="boom"),
        "timeout": Answer("timeout"),
    }
    for kind, answer in cases.items():
        assert judge(inst, "all", answer, ref).kind == kind
    assert judge(inst, "count", Answer("sat", (), 3), ref).kind == "wrong count"
    assert judge(inst, "all", Answer("sat", tuple(both), 2), ref) is None
    blocked = cpqueens.Instance(4, blocked=[(0, 1)])
    assert "blocked" in judge(blocked, "all", Answer("sat", ((1, 3, 0, 2),), 1), None).observed


# Shrinking


def test_shrinking_keeps_the_failure_and_ends_with_fewest_parts_then_smallest_board():
    def fails(instance, moved):  # a queen given in the last row, on a board of 5 or more
        return instance.n >= 5 and any(row == instance.n - 1 for row, _ in instance.fixed)

    start = cpqueens.Instance(9, fixed={8: 4, 2: 2}, blocked=[(1, 1), (5, 7), (3, 0)])
    assert fails(start, None)
    shrunk = shrink(start, fails)
    assert shrunk.complete
    assert shrunk.instance == cpqueens.Instance(5, fixed={4: 0})


# Hunts


def test_max_failures_holds_with_workers_finding_failures_at_once():
    def answers_nothing(instance):
        return []

    report = cpqueens.fuzz(answers_nothing, budget=20, seed=3, max_n=6, workers=2,
                           max_failures=1)  # fmt: skip
    assert len(report.failures) == 1


def test_a_wrong_function_is_caught_and_shrunk_to_the_smallest_board():
    def forgets_the_last(instance):
        return sorted(cpqueens.solutions(instance, backend="stack"))[:-1]

    report = cpqueens.fuzz(forgets_the_last, budget=20, seed=1, max_n=6, max_failures=1)
    (failure,) = report.failures
    assert (failure.kind, failure.instance) in {
        ("wrong decision", cpqueens.Instance(1)),
        ("missing solutions", cpqueens.Instance(4)),
    }
    assert failure.minimal and not failure.flaky and failure.seed == 1
    assert failure.reproduce.startswith("forgets_the_last(cpqueens.Instance(")


@pytest.mark.slow
def test_failures_of_the_same_minimal_instance_are_one_seen_several_times():
    def forgets_the_last(instance):
        return sorted(cpqueens.solutions(instance, backend="stack"))[:-1]

    report = cpqueens.fuzz(forgets_the_last, budget=6, seed=2, max_n=5)
    keys = [f.key for f in report.failures]
    assert len(keys) == len(set(keys))
    assert sum(f.seen for f in report.failures) >= len(report.failures)
    sizes = [f.size for f in report.failures if not f.flaky]
    assert sizes == sorted(sizes)  # smallest first


@pytest.mark.slow
def test_a_failure_that_does_not_show_again_is_flaky_and_not_shrunk(tmp_path):
    # Each call runs in a child process of its own: "once" is kept in a file.
    first = tmp_path / "answered"

    def wrong_once(instance):
        right = list(cpqueens.solutions(instance, backend="stack"))
        if len(right) > 1 and not first.exists():
            first.touch()
            return right[1:]
        return right

    report = cpqueens.fuzz(wrong_once, budget=4, seed=0, max_n=6, families=["plain"])
    flaky = [f for f in report.failures if f.flaky]
    assert len(report.failures) == 1 and flaky
    assert flaky[0].instance == flaky[0].original


@pytest.mark.slow
def test_relations_alone_catch_a_wrong_solver_with_no_reference():
    report = cpqueens.fuzz(program("mirror"), reference=None, budget=30, seed=0, max_n=6,
                           max_failures=1)  # fmt: skip
    assert report.reference is None
    (failure,) = report.failures
    assert failure.kind in ("relation", "invalid board")
    if failure.kind == "relation":
        assert failure.partner is not None and failure.relation


@pytest.mark.slow
def test_the_faults_of_a_program_are_failures_of_their_own_kinds(tmp_path):
    script = tmp_path / "faulty.py"
    script.write_text(
        "import json, sys, time\n"
        "n = json.load(open(sys.argv[1]))['n']\n"
        "if n == 1: print('s MAYBE')\n"
        "elif n == 2: raise SystemExit(3)\n"
        "elif n == 3:\n"
        "    while True: print('x' * 1000)\n"
        "elif n == 4: time.sleep(60)\n"
    )
    command = cpqueens.Command([sys.executable, "-S", str(script), "{instance}"], name="faulty",
                               max_output=2**20)  # fmt: skip
    report = cpqueens.fuzz(command, budget=20, seed=0, max_n=4, time_limit=0.5, families=["plain"])
    kinds = {f.instance.n: f.kind for f in report.failures}
    assert kinds == {1: "garbage", 2: "crash", 3: "endless output"}
    # Slow is not wrong: the time-out is reported apart.
    assert {f.instance.n: f.kind for f in report.timeouts} == {4: "timeout"}


@pytest.mark.slow
def test_a_function_that_crashes_or_hangs_is_reported_and_the_hunt_goes_on():
    def fragile(instance):
        if instance.n == 2:
            raise ZeroDivisionError("n = 2")
        if instance.n == 3:
            time.sleep(30)
        return cpqueens.solutions(instance, backend="stack")

    report = cpqueens.fuzz(fragile, budget=15, seed=0, max_n=4, time_limit=0.5, families=["plain"])
    kinds = {(f.kind, f.instance.n) for f in report.failures + report.timeouts}
    assert ("crash", 2) in kinds and ("timeout", 3) in kinds
    assert report.tried > 4


@pytest.mark.slow
def test_the_budget_holds_with_a_program_that_never_answers(tmp_path):
    script = tmp_path / "sleeper.py"
    script.write_text("import time\ntime.sleep(600)\n")
    command = cpqueens.Command([sys.executable, "-S", str(script), "{instance}"])
    started = time.monotonic()
    cpqueens.fuzz(command, budget=2, time_limit=60, seed=0)
    assert time.monotonic() - started < 4


def test_a_function_that_kills_its_process_is_a_crash_and_the_hunt_goes_on():
    # A native solver's segmentation fault ends the process it runs in: the hunt's own
    # would lose every finding. Each call runs in a child, so it is one finding.
    def segfaults_at_5(instance):
        if instance.n == 5:
            os.kill(os.getpid(), signal.SIGSEGV)
        return cpqueens.solutions(instance, backend="stack")

    report = cpqueens.fuzz(segfaults_at_5, budget=4, seed=0, max_n=6, families=["plain"])
    # (A second one may be another n=5 board whose shrinking the budget cut short.)
    assert {(f.kind, f.instance.n) for f in report.failures} == {("crash", 5)}, str(report)
    failure = report.failures[0]
    assert failure.instance == cpqueens.Instance(5)
    assert "SIGSEGV" in failure.observed
    assert report.tried > 6  # and the hunt went on after it


def test_a_call_past_its_limit_is_ended_not_left_running_beside_the_next(tmp_path):
    # A thread cannot be stopped: a call that timed out there ran on beside the next
    # one (two z3 solves at once crash). A call in a child is ended, all of it.
    pids = tmp_path / "pids"

    def hangs_at_3(instance):
        if instance.n == 3:
            with open(pids, "a") as out:
                out.write(f"{os.getpid()}\n")
            time.sleep(60)
        return cpqueens.solutions(instance, backend="stack")

    report = cpqueens.fuzz(hangs_at_3, budget=5, seed=0, max_n=4, time_limit=0.3,
                           families=["plain"])  # fmt: skip
    assert {(f.kind, f.instance.n) for f in report.timeouts} == {("timeout", 3)}
    assert not report.failures
    started = [int(line) for line in pids.read_text().split()]
    assert started
    for pid in started:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_a_result_that_is_not_complete_proves_nothing():
    # A function's search stopped by its time limit (complete=False) lists some
    # solutions only: neither missing solutions nor a wrong decision.
    def stopped_early(instance):
        result = cpqueens.solve(instance, backend="stack", limit=None)
        return dataclasses.replace(result, solutions=result.solutions[: result.count // 2],
                                   count=result.count // 2, complete=False)  # fmt: skip

    report = cpqueens.fuzz(stopped_early, budget=4, seed=0, max_n=8)
    assert report.tried > 5
    assert not report.failures and not report.timeouts, str(report)

    # The same answers, complete, are wrong: the check above is not blind.
    def wrong(instance):
        return dataclasses.replace(stopped_early(instance), complete=True)

    assert cpqueens.fuzz(wrong, budget=4, seed=0, max_n=8, max_failures=1).failures


def test_a_slow_answer_given_more_time_once_is_not_a_time_out():
    def slow(instance):
        time.sleep(0.6)  # past the limit of 0.4 s, within three times it
        return cpqueens.solutions(instance, backend="stack")

    report = cpqueens.fuzz(slow, budget=6, seed=0, max_n=5, time_limit=0.4, families=["plain"])
    assert report.tried >= 2
    assert not report.failures and not report.timeouts, str(report)


def test_time_outs_do_not_count_toward_max_failures():
    def slow_at_2_wrong_at_4(instance):
        if instance.n == 2:
            time.sleep(30)
        found = sorted(cpqueens.solutions(instance, backend="stack"))
        return found[1:] if instance.n == 4 else found

    report = cpqueens.fuzz(slow_at_2_wrong_at_4, budget=30, seed=0, max_n=5, time_limit=0.3,
                           families=["plain"], max_failures=1)  # fmt: skip
    assert [f.instance.n for f in report.failures] == [4]
    assert report.failures[0].kind == "missing solutions"


@pytest.mark.slow
def test_a_rerun_that_ran_out_of_time_leaves_a_failure_not_confirmed(tmp_path):
    # Endless output the first time, no answer the next: the rerun proves nothing
    # either way, so the failure is neither confirmed nor "flaky".
    script = tmp_path / "once_endless.py"
    script.write_text(
        "import os, sys, time\n"
        f"marker = {str(tmp_path / 'first')!r}\n"
        "if not os.path.exists(marker):\n"
        "    open(marker, 'w').close()\n"
        "    while True: print('x' * 1000)\n"
        "time.sleep(60)\n"
    )
    command = cpqueens.Command([sys.executable, "-S", str(script), "{instance}"],
                               name="once_endless", max_output=2**20)  # fmt: skip
    report = cpqueens.fuzz(command, budget=8, seed=0, max_n=1, time_limit=0.5,
                           families=["plain"], max_failures=1)  # fmt: skip
    (failure,) = report.failures
    assert failure.kind == "endless output"
    assert not failure.confirmed and not failure.flaky
    assert "not confirmed: the run again did not finish" in str(report)
    assert "flaky" not in str(report)


@pytest.mark.slow
def test_a_setting_that_changes_the_answer_is_caught_by_the_options_relation(tmp_path, monkeypatch):
    # A bug planted in the isolated runs' processes (they start Python afresh, and
    # read sitecustomize from PYTHONPATH): stack loses a solution with tried="tested".
    (tmp_path / "sitecustomize.py").write_text(
        "from cpqueens.solvers.stack import StackBackend\n"
        "search = StackBackend.search\n"
        "def planted(self, problem, run):\n"
        "    found = list(search(self, problem, run))\n"
        "    if problem.options.get('tried') == 'tested':\n"
        "        found = found[:-1]\n"
        "    yield from found\n"
        "StackBackend.search = planted\n"
    )
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])
    )
    report = cpqueens.fuzz("stack", reference=None, relations=["options"], budget=30, seed=0,
                           max_n=6, max_failures=1)  # fmt: skip
    (failure,) = report.failures
    assert failure.kind == "relation", str(report)
    assert failure.relation == "options: tried=tested instead of its default", str(report)
    assert failure.instance.n <= 4  # shrunk: n=1 has one solution to lose


def test_a_command_told_neither_the_size_nor_the_instance_is_refused():
    with pytest.raises(cpqueens.InvalidInputError, match=r"neither \{n\}.*nor \{instance\}"):
        cpqueens.fuzz(cpqueens.Command("echo 92"), budget=5)


@pytest.mark.slow
def test_a_program_told_only_the_size_tries_each_size_once_and_stops():
    command = cpqueens.Command([sys.executable, str(ROOT / "examples" / "myqueens.py"), "{n}"],
                               name="myqueens")  # fmt: skip
    started = time.monotonic()
    report = cpqueens.fuzz(command, budget=120, seed=0, max_n=7)
    assert time.monotonic() - started < 60  # long before the budget ends
    assert report.tried == 7 and report.by_family == {"plain": dict.fromkeys(range(1, 8), 1)}
    assert report.exhausted and "every board size 1..7 was tried" in str(report)
    assert report.ok, str(report)


def test_a_backends_options_are_hunted_and_checked_at_the_door():
    report = cpqueens.fuzz("sat", options={"solver": "glucose4"}, budget=3, seed=0, max_n=6)
    assert report.target == "sat (solver=glucose4)" and report.ok, str(report)
    assert report.tried >= 1
    from cpqueens.fuzzing.targets import Target

    line = Target("sat", 5, {"solver": "glucose4"}).reproduce(cpqueens.Instance(4), "all")
    assert "backend='sat', solver='glucose4'" in line
    refusals = [({"solver": "nope"}, "sat option solver must be one of .*glucose4"),
                ({"solvr": "x"}, "unknown option.*solvr.*solver, encoding")]  # fmt: skip
    for options, message in refusals:
        with pytest.raises(cpqueens.InvalidInputError, match=message):
            cpqueens.fuzz("sat", options=options, budget=1)

    def solver(instance):
        return []

    with pytest.raises(cpqueens.InvalidInputError, match="a backend's"):
        cpqueens.fuzz(solver, options={"solver": "x"}, budget=1)


@pytest.mark.slow
def test_a_correct_program_on_a_busy_machine_is_not_reported_failing(tmp_path):
    # Two processes keep both cores busy: a run gets about two thirds of a core, and
    # its limit is stretched for that (report.load says by how much).
    command = program("correct")
    instance = tmp_path / "nine.json"
    cpqueens.write_instance(cpqueens.Instance(9), instance)
    started = time.monotonic()
    assert subprocess.run(command.argv(9, str(instance)), capture_output=True).returncode == 0
    free = time.monotonic() - started
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        time.sleep(0.5)
        report = cpqueens.fuzz(command, budget=15, seed=0, max_n=9, families=["plain"],
                               time_limit=max(1.0, 1.2 * free))  # fmt: skip
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
    assert report.ok and not report.timeouts, str(report)
    assert report.tried >= 3
    others, _, factor = report.load
    assert others >= 1 and factor > 1, report.load
    assert "machine busy" in str(report)


@pytest.mark.slow
def test_the_instances_a_hunt_tries_depend_on_its_seed_alone(tmp_path):
    def seen_by(seed):
        # Each call runs in a child process of its own: what it saw is kept in a file.
        log = tmp_path / f"seen-{seed}-{time.monotonic_ns()}.txt"

        def solver(instance):
            with open(log, "a") as seen:
                seen.write(repr((instance.n, instance.fixed, instance.blocked)) + "\n")
            return cpqueens.solutions(instance, backend="stack")

        cpqueens.fuzz(solver, budget=1.5, seed=seed, max_n=5, relations=[])
        return log.read_text().splitlines()

    first, again = seen_by(7), seen_by(7)
    common = min(len(first), len(again))
    assert common > 5 and first[:common] == again[:common]
    assert first[:common] != seen_by(8)[:common]


@pytest.mark.slow
def test_a_hunt_kept_in_a_file_resumes_where_it_stopped(tmp_path):
    state = tmp_path / "hunt.json"

    def solver(instance):
        return cpqueens.solutions(instance, backend="stack")

    first = cpqueens.fuzz(solver, budget=3, seed=4, max_n=5, state=state)
    second = cpqueens.fuzz(solver, budget=3, seed=4, max_n=5, state=state)
    assert second.tried > first.tried > 0
    with pytest.raises(cpqueens.InvalidInputError, match=r"holds another hunt.*seed"):
        cpqueens.fuzz(solver, budget=1, seed=5, max_n=5, state=state)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"question": "some"}, "question must be one of"),
        ({"budget": -1}, "budget"),
        ({"max_n": 40}, "max_n must be at most 16"),
        ({"families": ["square"]}, "families must name some of"),
        ({"relations": ["rotation"]}, "relations must be some of"),
        ({"relations": ["formats"]}, "needs second_format"),
        ({"reference": "stack"}, "cannot vouch for itself"),
        ({"reference": "qs"}, "does not search the whole space"),
    ],
)
def test_bad_arguments_are_refused_before_any_run(arguments, message):
    with pytest.raises(cpqueens.CPQueensError, match=message):
        cpqueens.fuzz("stack", **arguments)


def test_a_backend_that_searches_only_part_of_the_space_is_asked_to_decide():
    with pytest.raises(cpqueens.InvalidInputError, match="question='decide'"):
        cpqueens.fuzz("minconflicts", question="all", budget=1)


# No false alarms


def _hunted(name):
    info = get_backend(name).info()
    return info.available, ("all" if info.exhaustive else "decide")


@pytest.mark.slow
@pytest.mark.parametrize("name", list(REGISTRY))
def test_a_correct_backend_shows_no_failure(name):
    available, question = _hunted(name)
    if not available:
        pytest.skip(f"{name} is not installed here")
    # A local search runs until its time limit on an instance with no solution; ace
    # starts a Java machine for every run.
    # The budget counts the start of the warm process (imports, compiled code loaded),
    # which a busy machine slows: a hunt that tried nothing is given a longer one.
    limit = 5.0 if question == "all" else 0.5
    for budget in (10 if name == "ace" else 4, 20):
        report = cpqueens.fuzz(name, question=question, budget=budget, time_limit=limit, seed=0,
                               max_n=7)  # fmt: skip
        assert report.ok, str(report)
        if report.tried:
            break
    assert report.tried >= 1


@pytest.mark.slow
def test_the_correct_control_program_shows_no_failure_on_any_question():
    for question in ("all", "decide"):
        report = cpqueens.fuzz(program("correct"), question=question, budget=4, seed=1, max_n=8,
                               workers=2)  # fmt: skip
        assert report.ok, str(report)
        assert report.tried > 10


@pytest.mark.slow
def test_the_c_example_shows_no_failure(tmp_path):
    if shutil.which("cc") is None:
        pytest.skip("no C compiler (cc) on this machine")
    exe = tmp_path / "queens"
    subprocess.run(["cc", "-O2", "-o", str(exe), str(ROOT / "examples" / "queens.c")], check=True)
    report = cpqueens.fuzz(cpqueens.Command(f"{exe} {{n}}", name="queens.c"), budget=4, max_n=10)
    assert report.ok, str(report)
    assert set(report.by_family) == {"plain"} and report.tried > 5


def test_hunts_on_a_dask_cluster_find_what_local_hunts_find(cluster):
    report = cpqueens.fuzz(program("last_row_crash"), budget=30, seed=0, max_n=5,
                           scheduler=cluster.scheduler_address, max_failures=1)  # fmt: skip
    (failure,) = report.failures
    assert failure.kind == "crash" and failure.instance.fixed
