"""crosscheck: every backend agrees with the decision tree, and real faults are caught."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import cpqueens
from cpqueens.checking.compare import EXAMPLES

ROOT = Path(__file__).resolve().parent.parent


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
    expected = [i.name for i in cpqueens.backends() if i.available and i.enumerates]
    assert [row.backend for row in report.rows] == expected
    assert report.ok and not report.failures


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


def test_time_limit_marks_slow_backends():
    report = cpqueens.crosscheck(11, ["recursive"], reference="stack", time_limit=0.001)
    (row,) = report.rows
    assert not row.agrees and "time_limit" in row.error


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"ns": 0}, ValueError, "n must be a positive integer, got 0"),
        ({"ns": []}, ValueError, "ns holds no board size"),
        ({"ns": "8"}, TypeError, "n must be an integer"),
        ({"ns": 4.0}, TypeError, "ns must be an integer or an iterable"),
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
