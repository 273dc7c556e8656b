"""crosscheck: every backend agrees with the decision tree, and real faults are caught."""

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from backend_sets import ENUMERATING, present, skip_if_any_missing

import cpqueens
from cpqueens.checking.row import EXAMPLES

ROOT = Path(__file__).resolve().parents[2]


def correct(n):
    return list(cpqueens.solutions(n, backend="stack"))


def drops_one(n):
    return correct(n)[1:]


def repeats_one(n):
    found = correct(n)
    return found + found[-1:]


def adds_an_invalid_board(n):
    return [*correct(n), tuple(range(n))]


def raises_halfway(n):
    yield from correct(n)[:1]
    raise RuntimeError("solver crashed")


def test_every_registry_backend_agrees_with_the_tree(enumerating_backend):
    report = cpqueens.crosscheck(range(1, 9), [enumerating_backend])
    assert report.ok, str(report)
    assert [row.count for row in report.rows] == [1, 0, 0, 2, 10, 4, 40, 92]


def test_default_backends_are_every_available_enumerating_backend():
    report = cpqueens.crosscheck(6)
    assert [row.backend for row in report.rows] == present(ENUMERATING)
    assert report.ok and not report.failures
    skip_if_any_missing(ENUMERATING, "the cross-check's default backends")


@pytest.mark.parametrize(
    ("solver", "fault"),
    [
        (drops_one, "missing"),
        (repeats_one, "duplicated"),
        (adds_an_invalid_board, "invalid"),
    ],
)
def test_catches_faults(solver, fault):
    report = cpqueens.crosscheck([6, 8], [solver, "stack"])
    assert not report.ok
    assert [row.backend for row in report.failures] == [solver.__name__] * 2
    for row in report.failures:
        assert getattr(row, f"{fault}_count") == 1
        assert len(getattr(row, fault)) == 1
        others = {"missing", "extra", "invalid", "duplicated"} - {fault}
        assert not any(getattr(row, f"{kind}_count") for kind in others)
        assert row.error is None and row.status == "FAIL"
    assert f"{fault} " in str(report)


def test_the_reported_boards_are_the_faulty_ones():
    report = cpqueens.crosscheck(8, [drops_one, repeats_one, adds_an_invalid_board])
    dropped, repeated, invalid = report.rows
    assert dropped.missing == (correct(8)[0],) and dropped.count == 91
    assert repeated.duplicated == (correct(8)[-1],) and repeated.count == 93
    assert invalid.invalid == (tuple(range(8)),)


def test_a_solver_that_raises_gets_an_error_row():
    report = cpqueens.crosscheck(6, {"crashy": raises_halfway, "fine": correct})
    crashy, fine = report.rows
    assert crashy.error == "RuntimeError: solver crashed"
    assert crashy.count == 1 and not crashy.agrees and crashy.status == "ERROR"
    assert fine.agrees
    assert "solver crashed" in str(report)


def test_extra_solutions_against_a_smaller_reference():
    def pinned(n):
        return cpqueens.solutions(n, fixed={0: 1})

    report = cpqueens.crosscheck(6, ["stack"], reference=pinned)
    (row,) = report.rows
    assert row.extra_count == 3 and row.reference_count == 1 and not row.agrees
    assert report.reference == "pinned"


def test_first_few_examples_and_totals():
    report = cpqueens.crosscheck(8, [lambda n: []])
    (row,) = report.rows
    assert row.backend == "<lambda>"
    assert row.missing_count == 92 and len(row.missing) == EXAMPLES
    assert list(row.missing) == sorted(row.missing)


def test_accepts_numpy_like_boards_and_lists():
    report = cpqueens.crosscheck(5, [lambda n: [list(s) for s in correct(n)]])
    assert report.ok


def test_records_are_json():
    report = cpqueens.crosscheck([4, 5], [drops_one, "recursive"])
    records = report.to_records()
    assert len(records) == 4
    text = json.dumps(records)
    assert json.loads(text)[0]["missing"] == [list(correct(4)[0])]
    assert set(records[0]) >= {"n", "backend", "count", "reference_count", "agrees", "elapsed"}


def test_rows_are_frozen_dataclasses():
    import dataclasses

    row = cpqueens.crosscheck(4, ["stack"]).rows[0]
    assert isinstance(row, cpqueens.CrossCheckRow)
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.agrees = False


def test_reference_can_be_a_registry_backend_beyond_the_tree():
    with pytest.raises(cpqueens.TreeTooLargeError, match="max_depth"):
        cpqueens.crosscheck(14, ["stack"])
    report = cpqueens.crosscheck(9, ["recursive"], reference="stack")
    assert report.ok and report.reference == "stack"


def test_time_limit_marks_slow_backends_timed_out_not_wrong():
    report = cpqueens.crosscheck(11, ["recursive"], reference="stack", time_limit=0.001)
    (row,) = report.rows
    assert row.timed_out and row.agrees and row.error is None and row.status == "timed out"
    assert row.missing_count == 0
    assert report.agrees and report.ok and report.timed_out == (row,) and not report.failures


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"ns": 0}, ValueError, "n must be a positive integer, got 0"),
        ({"ns": []}, ValueError, "ns holds no board size"),
        ({"ns": "8"}, TypeError, "n must be an integer"),
        ({"ns": 4.0}, TypeError, "ns must be a board size, an Instance or an iterable"),
        ({"ns": 4, "backends": ["nope"]}, cpqueens.UnknownBackendError, "valid backends"),
        ({"ns": 4, "backends": [42]}, TypeError, "registry names or callables"),
        ({"ns": 4, "backends": []}, ValueError, "backends is empty"),
        ({"ns": 4, "backends": [correct, correct]}, ValueError, "two backends are labelled"),
        ({"ns": 4, "reference": "nope"}, cpqueens.UnknownBackendError, "valid backends"),
    ],
)
def test_bad_arguments_fail_before_running(kwargs, error, match):
    with pytest.raises(error, match=match):
        cpqueens.crosscheck(**kwargs)


def test_example_runs(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "check_my_solver.py")],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=tmp_path,
        check=True,
    )
    assert "my_solver agrees: True" in done.stdout
    assert "FAIL" in done.stdout


def gives_up_after_two(n):
    yield from correct(n)[:2]
    raise cpqueens.SearchTimeoutError("gave up at my own time limit", partial=2)


def gives_up_after_a_wrong_board(n):
    yield tuple(range(n))
    raise cpqueens.SearchTimeoutError("gave up at my own time limit", partial=1)


def test_a_registry_backend_stopped_by_the_time_limit_agrees_so_far():
    # The tree reference stops at n=12; propagate lists n=12 in well under a second.
    report = cpqueens.crosscheck(12, ["stack"], reference="propagate", time_limit=0.2)
    (row,) = report.rows
    assert report.agrees and report.timed_out == (row,)
    assert row.timed_out and row.count < row.reference_count and row.missing_count == 0


def test_timeouts_fail_counts_a_time_out_as_a_failure():
    report = cpqueens.crosscheck(
        12, ["stack"], reference="propagate", time_limit=0.2, timeouts_fail=True
    )
    assert not report.agrees and not report.ok
    assert report.failures == report.timed_out == report.rows
    assert "counted as failures" in str(report)


def test_a_function_that_times_out_is_judged_on_what_it_found():
    report = cpqueens.crosscheck(6, {"patient": gives_up_after_two, "fine": correct})
    patient, fine = report.rows
    assert patient.timed_out and patient.agrees and patient.error is None
    assert patient.count == 2 and patient.missing_count == 0
    assert not fine.timed_out and fine.status == "ok"
    assert report.agrees and report.timed_out == (patient,)
    text = str(report)
    assert "timed out after 2 boards (the reference has 4)" in text
    assert "none disagrees; 1 of 2 timed out" in text


def test_a_wrong_board_before_the_time_out_still_disagrees():
    report = cpqueens.crosscheck(6, [gives_up_after_a_wrong_board])
    (row,) = report.rows
    assert row.timed_out and not row.agrees and row.status == "FAIL"
    assert row.invalid == (tuple(range(6)),) and row.missing_count == 0
    assert not report.agrees and report.failures == report.timed_out == (row,)
    assert "1 of 1 disagree" in str(report)


def test_an_extra_board_before_the_time_out_still_disagrees():
    def pinned(n):
        return cpqueens.solutions(n, fixed={0: 1})

    def strays_then_gives_up(n):
        yield from sorted(set(correct(n)) - set(pinned(n)))[:1]
        raise cpqueens.SearchTimeoutError("gave up", partial=1)

    (row,) = cpqueens.crosscheck(6, [strays_then_gives_up], reference=pinned).rows
    assert row.timed_out and row.extra_count == 1 and not row.agrees


def test_a_function_may_return_a_result_cut_short_by_its_time_limit():
    def cut_short(n):
        result = cpqueens.solve(n, backend="stack", limit=1)
        return dataclasses.replace(result, stats={**result.stats, "timed_out": True})

    (row,) = cpqueens.crosscheck(6, [cut_short]).rows
    assert row.timed_out and row.agrees and row.count == 1


def test_a_plain_timeout_error_is_still_an_error():
    # A TimeoutError of one's own (a socket, a lock) is a crash, not the time limit.
    def network(n):
        raise TimeoutError("the server did not answer")

    (row,) = cpqueens.crosscheck(6, [network]).rows
    assert not row.timed_out and row.status == "ERROR" and "server" in row.error


def test_an_incomplete_result_without_a_time_out_is_an_error(monkeypatch):
    real = cpqueens.solve

    def unsure(n, backend="recursive", **options):
        return dataclasses.replace(real(n, backend=backend, **options), complete=False)

    monkeypatch.setattr("cpqueens.checking.compare.solve", unsure)
    (row,) = cpqueens.crosscheck(6, ["stack"]).rows
    assert not row.timed_out and row.status == "ERROR"
    assert "without vouching that they are all" in row.error


def test_timed_out_records_are_json():
    (record,) = cpqueens.crosscheck(6, [gives_up_after_two]).to_records()
    assert json.loads(json.dumps(record))["timed_out"] is True
    assert record["status"] == "timed out" and record["agrees"] is True


def test_timeouts_fail_must_be_a_bool():
    with pytest.raises(TypeError, match="timeouts_fail must be True or False, got 'yes'"):
        cpqueens.crosscheck(4, ["stack"], timeouts_fail="yes")
