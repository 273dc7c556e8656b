"""The real outputs of public n-queens programs (tests/data/outputs, README.md there
says where each comes from) are read as their programs meant them: every board, the
count each states, and a cross-check that agrees. An output cpqueens cannot read is
reported as unreadable, never as agreeing or disagreeing."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

import cpqueens

CORPUS = Path(__file__).parents[1] / "data" / "outputs"
#: Outputs cpqueens does not read yet, and why: each must be unreadable (E), never judged.
UNREAD = {
    "rosetta-python-side": "boards printed side by side, ten to a band, and a table of counts",
}


def outputs() -> list[dict[str, str]]:
    with open(CORPUS / "index.csv", newline="") as handle:
        return list(csv.DictReader(handle))


def test_every_output_is_listed_with_its_source():
    listed = {row["file"] for row in outputs()}
    assert listed == {path.name for path in CORPUS.glob("*.txt")}
    assert len({row["file"].rsplit("-n", 1)[0] for row in outputs()}) >= 15
    assert len({row["language"] for row in outputs()}) >= 6
    readme = (CORPUS / "README.md").read_text(encoding="utf-8")
    assert all(row["file"] in readme for row in outputs())


@pytest.mark.parametrize("row", outputs(), ids=lambda row: row["file"])
def test_a_public_program_s_output_is_read_as_it_was_meant(row):
    text = (CORPUS / row["file"]).read_text(encoding="utf-8")
    n = int(row["n"])
    parsed = cpqueens.parse_boards(text, n)
    checked, _ = cpqueens.check_output(text, n)
    if row["file"].rsplit("-n", 1)[0] in UNREAD:
        assert checked.error is not None and not checked.agrees
        return
    boards = int(row["boards"] or 0)
    assert len(parsed.boards) == boards, (parsed.style, parsed.invalid_lines[:3])
    assert parsed.count == (int(row["count"]) if row["count"] else None)
    assert not parsed.invalid_lines and parsed.mixed is None
    if boards:
        # A set closed under reflection: a program listing by columns agrees too.
        assert set(parsed.boards) == set(cpqueens.solutions(n))
    assert checked.agrees and checked.error is None, checked.error


#: Where each square of a grid row stands in a program's line (column -> character).
SQUARES = {
    "rosetta-c-bits": lambda line, n: [2 * c for c in range(n)],  # a square and a space
    "rosetta-c-checker": lambda line, n: list(range(n)),  # a character a square
    "leetcode-cpp-bars": lambda line, n: [1 + c for c in range(n)],  # "|.Q..|"
    "thealgorithms-c-tabs": lambda line, n: [i + 1 for i, ch in enumerate(line) if ch == "\t"],
}


@pytest.mark.parametrize("name", sorted(SQUARES))
def test_a_program_printing_every_board_one_column_off_is_caught(name):
    """Each queen moved one square right (the last to the first), in the program's own
    layout and colours: the same output, wrong, whatever its count says."""
    text = (CORPUS / f"{name}-n8.txt").read_text(encoding="utf-8")
    original = cpqueens.parse_boards(text, 8)
    assert len(original.boards) == 92
    lines = text.split("\n")
    for first, last in zip(original.board_lines, original.board_ends, strict=True):
        for index in range(first - 1, last):
            if lines[index].count("Q") == 1:
                lines[index] = _moved(lines[index], SQUARES[name](lines[index], 8))
    checked, parsed = cpqueens.check_output("\n".join(lines), 8)
    assert not checked.agrees and checked.error is None, checked.error
    assert len(parsed.boards) == 92 and checked.invalid_count > 0


def _moved(line: str, squares: list[int]) -> str:
    """The row with its queen one square right; the square it leaves takes the colour
    of the squares two away (a checkerboard's colours alternate)."""
    chars = list(line.ljust(squares[-1] + 1))
    column = next(c for c, at in enumerate(squares) if chars[at] == "Q")
    target = (column + 1) % len(squares)
    same_colour = next(
        squares[c] for c in range(column % 2, len(squares), 2) if c not in (column, target)
    )
    chars[squares[column]] = chars[same_colour]
    chars[squares[target]] = "Q"
    return "".join(chars)
