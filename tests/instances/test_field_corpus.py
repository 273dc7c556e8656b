"""The field's published instances, read as published, answered as published.

Every instance file under tests/data/field has its published answer in the
``answers.csv`` of its folder (tests/data/field/README.md says where each set and
its answers come from); cpqueens reads each file and its answer must be the
published one, each satisfiable answer a board that cpqueens' checker accepts.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

import cpqueens
from cpqueens.checking.cases import solves

FIELD = Path(__file__).parents[1] / "data" / "field"
#: The backend that decides these boards fastest (n up to 56, hundreds of blocks).
DECIDER = "exactcover"


def published() -> list[tuple[Path, dict[str, str]]]:
    rows = []
    for answers in sorted(FIELD.rglob("answers.csv")):
        with open(answers, newline="") as handle:
            rows += [(answers.parent / row["file"], row) for row in csv.DictReader(handle)]
    return rows


def test_every_file_has_its_published_answer():
    listed = {path for path, _ in published()}
    files = {
        path for path in FIELD.rglob("*")
        if path.is_file() and path.name not in ("answers.csv", "README.md")
    }  # fmt: skip
    assert files == listed, f"without a published answer: {sorted(files - listed)}"
    assert len(listed) >= 24


@pytest.mark.slow
@pytest.mark.parametrize(("path", "row"), published(), ids=lambda value: getattr(value, "name", ""))
def test_the_answer_is_the_published_one(path, row):
    options = {"diagonals": int(row["diagonals"])} if row.get("diagonals") else {}
    instance = cpqueens.read_instance(path, **options)
    result = cpqueens.solve(instance, backend=DECIDER, limit=1)
    assert result.complete or result.solutions  # decided: a board, or the search ended
    answer = "sat" if result.solutions else "unsat"
    assert answer == row["answer"], f"{path.name}: cpqueens says {answer}"
    for solution in result.solutions:
        assert solves(solution, instance)
