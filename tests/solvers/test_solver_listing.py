"""Where each solver comes from: ``cpqueens backends`` (every registered backend: its
origin, its versions here, what installs it) and ``cpqueens solvers`` (the FlatZinc
programs, MiniZinc's solvers and ACE found here, with how to use each)."""

from __future__ import annotations

import json
import pathlib
import shutil
import sys
import time

import pytest
from click.testing import CliRunner

import cpqueens
from cpqueens.cli import cli
from cpqueens.solvers import REGISTRY, provenance
from cpqueens.solvers.installed import external_solvers, flatzinc_programs
from cpqueens.solvers.provenance import program_version, version_in

FAKE = pathlib.Path(__file__).parents[1] / "programs" / "fake_solver.py"
#: The keys ``cpqueens backends --json`` had before the origins: kept as they were.
KEPT_KEYS = {"name", "summary", "source", "available", "requires", "enumerates", "fixed",
             "randomized", "lexicographic", "time_limit", "workers", "max_n", "options",
             "blocked", "exhaustive", "solvers"}  # fmt: skip


def program(folder: pathlib.Path, name: str, body: str) -> pathlib.Path:
    path = folder / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


def test_every_backend_says_where_it_comes_from_and_what_installs_it():
    for info in cpqueens.backends():
        backend = REGISTRY[info.name]
        assert info.origin and info.version, info.name
        if backend.package is None and not backend.programs:
            assert info.origin == "cpqueens' own Python code" and info.install is None
            assert info.version == f"cpqueens {cpqueens.__version__}"
            continue
        assert info.install.startswith(f"pip install {backend.install_hint}"), info.name
        for name, install in backend.programs:
            assert f"program {name}" in info.origin and install in info.install
        if info.available:
            assert "missing" not in info.version, (info.name, info.version)
    minizinc, ace = (REGISTRY[name].info() for name in ("minizinc", "ace"))
    assert "apt-get install minizinc" in minizinc.install
    assert "apt-get install default-jre-headless" in ace.install
    if ace.available:
        assert ace.version.startswith("ACE ") and ", java " in ace.version


def test_backends_json_keeps_its_keys_and_adds_the_origins():
    listed = json.loads(CliRunner().invoke(cli, ["backends", "--json"]).output)
    assert [entry["name"] for entry in listed] == list(REGISTRY)
    for entry in listed:
        assert KEPT_KEYS | {"origin", "version", "install", "missing"} == set(entry)


def test_backends_says_what_installs_a_missing_one(monkeypatch):
    monkeypatch.setattr(type(REGISTRY["cpsat"]), "is_available", lambda self: False)
    out = CliRunner().invoke(cli, ["backends"]).output
    assert "Where each comes from" in out
    assert "cpsat: Python package ortools (ortools " in out
    assert "missing, install: pip install ortools" in " ".join(out.split())
    assert "[needs: pip install ortools]" in " ".join(out.split())


def test_a_program_version_is_read_from_what_it_says(tmp_path, monkeypatch):
    says = program(tmp_path, "says", 'echo "Some Solver, version 3.4.5 (build 7)"\n')
    helps = program(tmp_path, "helps", '[ "$1" = --help ] && echo " - Version: 1.2" ; exit 1\n')
    hangs = program(tmp_path, "hangs", "sleep 60\n")
    assert program_version(str(says)) == "3.4.5"
    assert program_version(str(helps)) == "1.2"
    monkeypatch.setattr(provenance, "VERSION_TIMEOUT", 0.3)
    start = time.perf_counter()
    assert program_version(str(hangs)) is None  # asked once, then given up
    assert time.perf_counter() - start < 5
    assert program_version(str(tmp_path / "missing")) is None
    assert version_in('openjdk version "17.0.15" 2025-04-15') == "17.0.15"


def test_flatzinc_programs_on_the_path_are_listed_and_run(tmp_path):
    fzn = program(
        tmp_path,
        "fzn-mine",
        '[ "$1" = --version ] && echo "fzn-mine 0.3.1" && exit 0\n'
        f'exec {sys.executable} {FAKE} fzn "$@"\n',
    )
    program(tmp_path, "fzn-notes", "exit 0\n").chmod(0o644)  # not a program: not listed
    listed = {solver.name: solver for solver in flatzinc_programs(str(tmp_path))}
    mine = listed["fzn-mine"]
    assert (mine.kind, mine.found, mine.version) == ("FlatZinc", True, "0.3.1")
    assert mine.origin == f"program {fzn}" and "fzn-notes" not in listed
    # fzn-gecode is named even where it is missing, with the command that installs it.
    gecode = listed["fzn-gecode"]
    assert not gecode.found and gecode.install == "apt-get install flatzinc"
    # What is listed runs: a FlatZinc solver, cross-checked.
    report = cpqueens.crosscheck([4, 5], [cpqueens.FlatZincSolver(str(fzn))])
    assert report.ok and report.rows[0].backend == "fzn-mine"


def test_solvers_lists_flatzinc_minizinc_and_ace_as_found_here():
    found = {solver.name: solver for solver in external_solvers()}
    ace = found["ACE"]
    assert ace.kind == "XCSP3" and ace.found == REGISTRY["ace"].is_available()
    if not ace.found:
        assert ace.install
    gecode = found["fzn-gecode"]
    assert gecode.found == (shutil.which("fzn-gecode") is not None)
    if REGISTRY["minizinc"].is_available():
        assert any(s.kind == "MiniZinc" and s.found for s in found.values())
        assert all(s.note for s in found.values() if s.kind == "MiniZinc" and not s.found)
    result = CliRunner().invoke(cli, ["solvers", "--json"])
    assert result.exit_code == 0
    listed = json.loads(result.output)
    assert {entry["name"] for entry in listed} == set(found)
    assert set(listed[0]) == {"name", "kind", "found", "origin", "version", "use", "install",
                              "note"}  # fmt: skip
    text = CliRunner().invoke(cli, ["solvers"])
    assert text.exit_code == 0 and "ACE" in text.output and "use: " in text.output


@pytest.mark.parametrize("command", [["backends"], ["solvers"]])
def test_the_listings_take_little_time(command):
    CliRunner().invoke(cli, command)  # versions asked once a process
    start = time.perf_counter()
    assert CliRunner().invoke(cli, command).exit_code == 0
    assert time.perf_counter() - start < 2


def test_a_broken_minizinc_is_a_line_of_the_listing(monkeypatch):
    from cpqueens.solvers.minizinc import solvers as minizinc_solvers

    if not REGISTRY["minizinc"].is_available():
        pytest.skip("needs the minizinc backend: pip install minizinc; apt-get install minizinc")

    def broken():
        raise RuntimeError("minizinc: error while loading shared libraries")

    monkeypatch.setattr(minizinc_solvers, "listed_solvers", broken)
    (row,) = [s for s in external_solvers() if s.kind == "MiniZinc"]
    assert (
        not row.found and row.note == "RuntimeError: minizinc: error while loading shared libraries"
    )
