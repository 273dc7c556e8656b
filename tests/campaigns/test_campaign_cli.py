"""The campaign commands at the edges: options given in any order, missing folders,
files only read, runs that ended in an error, spec errors that say where they are."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

import cpqueens
from cpqueens.campaigns.spec import load_spec
from cpqueens.cli import cli
from cpqueens.cli.campaigns import RUNS_FAILED
from cpqueens.errors import InvalidInputError, UnknownBackendError

CLEAN = """
[campaign]
time_limit = 5
[[instances]]
generator = "blocked"
n = [6]
blocked = [4, 8]
seeds = [1]
[[solvers]]
backend = "stack"
"""
#: With a solver whose program is not there: every run of it ends in an error.
SPEC = CLEAN + '[[solvers]]\nlabel = "mine"\ncommand = "./no-such-solver {instance}"\n'


def invoke(*args: str):
    return CliRunner().invoke(cli, [str(arg) for arg in args])


def one_line_error(result, *words: str) -> None:
    """Exit status 2 and one line that says ``words``."""
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    for word in words:
        assert word in lines[0], result.output


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    """A campaign's file: ``stack`` answers, ``mine`` is a program that is not there."""
    folder = tmp_path_factory.mktemp("campaign")
    (folder / "c.toml").write_text(SPEC)
    db = folder / "r.sqlite"
    result = invoke("campaign", "run", folder / "c.toml", "--db", db, "-q")
    assert result.output.startswith(("ERROR", "campaign 'c'")), result.output
    return db


def fingerprint(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}


# --- options -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--transition", "-o", "x.png"], "--transition"),
        (["--transition", "density", "--effort", "-o", "x.png"], "--effort"),
        (["--scatter", "stack", "-o", "x.png"], "--scatter"),
    ],
)
def test_an_option_is_never_taken_as_a_value(tmp_path, args, option):
    result = invoke("campaign", "plot", tmp_path / "r.sqlite", *args)
    one_line_error(result, option, "'-o'")
    assert "Missing option" not in result.output


@pytest.mark.slow
def test_transition_plot_with_the_output_after_it(results, tmp_path):
    out = tmp_path / "t.png"
    result = invoke("campaign", "plot", results, "--transition", "density", "-o", out)
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"\x89PNG")
    result = invoke("campaign", "plot", results, "--transition", "colour", "-o", out)
    one_line_error(result, "'colour'", "density")


# --- results files -------------------------------------------------------------------


def test_a_missing_folder_is_named(tmp_path):
    (tmp_path / "c.toml").write_text(SPEC)
    for args in (
        ["summary", tmp_path / "nowhere" / "r.sqlite"],
        ["plot", tmp_path / "nowhere" / "r.sqlite", "--cactus", "-o", tmp_path / "c.png"],
        ["run", tmp_path / "c.toml", "--db", tmp_path / "nowhere" / "r.sqlite"],
    ):
        result = invoke("campaign", *args)
        one_line_error(result, "the folder", "nowhere", "does not exist")
        assert "not a cpqueens results file" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.toml"]
    with pytest.raises(InvalidInputError, match=r"the folder .* does not exist"):
        cpqueens.run_campaign(tmp_path / "c.toml", tmp_path / "nowhere" / "r.sqlite")


def test_reading_writes_nothing(results, tmp_path):
    before = fingerprint(results.parent)
    for args in (["summary", results], ["summary", results, "--json"]):
        invoke("campaign", *args)
    cpqueens.load_results(results)
    assert fingerprint(results.parent) == before  # no schema, no journal files left
    empty, other = tmp_path / "empty.sqlite", tmp_path / "other.sqlite"
    empty.touch()
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    before = fingerprint(tmp_path)
    one_line_error(invoke("campaign", "summary", empty), "cannot read", "holds no results")
    one_line_error(invoke("campaign", "summary", other), "not a cpqueens results store")
    # Nor is another program's database written to by a campaign.
    (tmp_path / "c.toml").write_text(SPEC)
    one_line_error(invoke("campaign", "run", tmp_path / "c.toml", "--db", other), "notes")
    (tmp_path / "c.toml").unlink()
    assert fingerprint(tmp_path) == before


# --- runs that ended in an error ------------------------------------------------------


def test_runs_that_failed_to_run_are_shown_and_fail_the_campaign(results, tmp_path):
    line = "  error: mine, 2 of 2 runs; the first: "
    (tmp_path / "c.toml").write_text(SPEC)  # campaign "c" again: every run is in the file
    report = cpqueens.run_campaign(tmp_path / "c.toml", results, workers=1)
    assert (report.ran, report.skipped) == (0, 4)
    assert not report.ok and not report.wrong
    assert [(e["solver"], e["errors"], e["runs"]) for e in report.errors] == [("mine", 2, 2)]
    assert "no-such-solver" in report.errors[0]["reason"]
    assert report.headline().startswith("ERROR: 2 runs ended in an error (by mine)")

    result = invoke("campaign", "run", tmp_path / "c.toml", "--db", results)
    assert result.exit_code == RUNS_FAILED == 4, result.output
    first, second = result.output.splitlines()[:2]
    assert first.startswith("ERROR: 2 runs ended in an error (by mine)")
    assert second.startswith(line) and "no-such-solver" in second

    result = invoke("campaign", "summary", results)
    assert result.exit_code == RUNS_FAILED, result.output
    first, second = result.output.splitlines()[:2]
    assert first == "ERROR: 2 runs ended in an error (by mine); none of the other 2 runs is wrong"
    assert second.startswith(line) and "no-such-solver" in second
    result = invoke("campaign", "summary", results, "--json")
    assert result.exit_code == RUNS_FAILED
    assert {row["solver"]: row["error"] for row in json.loads(result.output)}["mine"] == 2


def test_a_clean_campaign_still_exits_0(tmp_path):
    spec = tmp_path / "c.toml"
    spec.write_text(CLEAN)
    result = invoke("campaign", "run", spec, "--db", tmp_path / "r.sqlite", "-q")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("campaign 'c': no wrong answer")
    assert invoke("campaign", "summary", tmp_path / "r.sqlite").exit_code == 0


# --- spec errors ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "where"),
    [
        (
            '[[solvers]]\nlabel = "glucose"\nbackend = "sat"\nformat = "dzn"',
            "[[solvers]] 'glucose'",
        ),
        ('[[solvers]]\nlabel = "ec"\nbackend = "nosuch"', "[[solvers]] 'ec': unknown backend"),
        ('[[solvers]]\nbackend = "stack"\ncolour = 1', "[[solvers]] #2: unknown key 'colour'"),
        ('[[instances]]\ngenerator = "blocked"\nn = [8]\nblockd = [1]', "[[instances]] #2"),
    ],
)
def test_spec_errors_name_the_file_and_the_entry(tmp_path, entry, where):
    spec = tmp_path / "c.toml"
    spec.write_text(
        textwrap.dedent("""
        [[instances]]
        generator = "plain"
        n = [4]
        [[solvers]]
        backend = "exactcover"
        """)
        + entry
        + "\n"
    )
    with pytest.raises(InvalidInputError) as caught:
        load_spec(spec)
    assert str(caught.value).startswith(f"{spec}: {where}")
    result = invoke("campaign", "run", spec, "--db", tmp_path / "r.sqlite")
    one_line_error(result, f"{spec}: {where}")
    assert not (tmp_path / "r.sqlite").exists()


def test_an_unknown_backend_keeps_its_type():
    with pytest.raises(UnknownBackendError, match=r"^\[\[solvers\]\] 'ec': unknown backend"):
        load_spec(
            {
                "instances": [{"generator": "plain", "n": [4]}],
                "solvers": [{"label": "ec", "backend": "nosuch"}],
            }
        )
