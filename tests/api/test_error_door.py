"""The command line's one error door: whatever a bad input makes Python raise is one
line on standard error and exit status 2; a fault of cpqueens itself is one line and
exit status 70, its traceback shown only when asked for."""

from __future__ import annotations

import sqlite3

import pytest
from click.testing import CliRunner

from cpqueens import api
from cpqueens.cli import cli
from cpqueens.cli.failures import BAD_INPUT, INTERNAL_ERROR, failure

BAD_INPUTS = [
    (RecursionError("maximum recursion depth exceeded"), "nested too deeply"),
    (MemoryError(), "out of memory"),
    (OverflowError("timestamp out of range\nfor platform time_t"), "a number is too large"),
    (sqlite3.OperationalError("no such column: r.instance_id"), "results store cannot be used"),
    (TimeoutError(), "timed out: no answer in time"),
    (PermissionError(13, "Permission denied", "/root/x"), "/root/x: permission denied"),
]


def raising(error):
    def count(*args, **kwargs):
        raise error

    return count


def one_line_error(result) -> str:
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    return lines[0]


@pytest.mark.parametrize(("error", "words"), BAD_INPUTS)
def test_what_bad_input_makes_python_raise_is_one_line(monkeypatch, error, words):
    monkeypatch.setattr(api, "count", raising(error))
    monkeypatch.delenv("CPQUEENS_TRACEBACK", raising=False)
    result = CliRunner().invoke(cli, ["count", "8"])
    assert result.exit_code == BAD_INPUT == 2
    assert words in one_line_error(result)
    assert failure(error)[1] == BAD_INPUT


def test_a_fault_of_cpqueens_says_so_in_one_line(monkeypatch):
    monkeypatch.setattr(api, "count", raising(KeyError("row")))
    monkeypatch.delenv("CPQUEENS_TRACEBACK", raising=False)
    result = CliRunner().invoke(cli, ["count", "8"])
    assert result.exit_code == INTERNAL_ERROR == 70
    line = one_line_error(result)
    assert "internal error" in line and "KeyError: 'row'" in line
    assert "CPQUEENS_TRACEBACK=1" in line


def test_the_traceback_when_asked_for(monkeypatch):
    monkeypatch.setattr(api, "count", raising(KeyError("row")))
    monkeypatch.setenv("CPQUEENS_TRACEBACK", "1")
    result = CliRunner().invoke(cli, ["count", "8"])
    assert isinstance(result.exception, KeyError)


def test_click_and_ctrl_c_keep_their_own_ways(monkeypatch):
    result = CliRunner().invoke(cli, ["count", "x"])
    assert result.exit_code == 2 and "Usage:" in result.output
    monkeypatch.setattr(api, "count", raising(KeyboardInterrupt()))
    result = CliRunner().invoke(cli, ["count", "8"])
    assert result.exit_code == 130
