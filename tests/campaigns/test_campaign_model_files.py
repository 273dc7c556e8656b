"""A campaign's model file is part of its solver: edited, it is another configuration."""

from __future__ import annotations

import shutil
import sqlite3
import textwrap
from pathlib import Path

import pytest
from backend_sets import missing
from click.testing import CliRunner

from cpqueens.campaigns.spec import load_spec
from cpqueens.cli import cli

MODEL = Path(__file__).resolve().parents[2] / "examples" / "models" / "queens_from_one.mzn"


@pytest.fixture
def spec(tmp_path):
    shutil.copy(MODEL, tmp_path / "mine.mzn")
    path = tmp_path / "spec.toml"
    path.write_text(
        textwrap.dedent("""
        [campaign]
        question = "count"
        time_limit = 30
        [[instances]]
        generator = "plain"
        n = [5]
        [[solvers]]
        label = "mine"
        backend = "minizinc"
        options = { model = "mine.mzn", base = 1 }
        """)
    )
    return path


def runs_in(db: Path) -> int:
    with sqlite3.connect(db) as store:
        return store.execute("SELECT count(*) FROM runs").fetchone()[0]


def test_the_key_follows_the_content_not_only_the_path(spec):
    (before,) = load_spec(spec).solvers
    (again,) = load_spec(spec).solvers
    assert before.key == again.key
    model = spec.parent / "mine.mzn"
    model.write_text(model.read_text() + "% edited\n")
    (after,) = load_spec(spec).solvers
    assert after.key != before.key and after.options == before.options


def test_an_edited_model_is_run_again(spec, tmp_path):
    if missing("minizinc"):
        pytest.skip(missing("minizinc"))
    db = tmp_path / "runs.sqlite"
    for expected in (1, 1):
        result = CliRunner().invoke(cli, ["campaign", "run", str(spec), "--db", str(db), "-q"])
        assert result.exit_code == 0, result.output
        assert runs_in(db) == expected  # the second run finds its answer done
    model = spec.parent / "mine.mzn"
    model.write_text(model.read_text() + "% edited\n")
    result = CliRunner().invoke(cli, ["campaign", "run", str(spec), "--db", str(db), "-q"])
    assert result.exit_code == 0, result.output
    assert runs_in(db) == 2
