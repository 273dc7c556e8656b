"""What a newcomer meets: the probes of a first hour with cpqueens, each a test."""

import sys

import cpqueens


def _printing(text: str) -> cpqueens.Command:
    return cpqueens.Command([sys.executable, "-c", f"print({text!r})"], name="mine")


def test_a_stated_count_that_contradicts_the_boards_is_a_disagreement():
    boards = "\n".join(" ".join(map(str, s)) for s in cpqueens.solutions(8))
    (row,) = cpqueens.crosscheck(8, [_printing(boards + "\nTotal: 95")]).rows
    assert not row.agrees and row.stated_count == 95
    (row,) = cpqueens.crosscheck(8, [_printing(boards + "\nTotal: 92")]).rows
    assert row.agrees and row.stated_count == 92
    # Prose that states no number of solutions stays a note.
    (row,) = cpqueens.crosscheck(8, [_printing(boards + "\nElapsed: 3 s")]).rows
    assert row.agrees and row.notes
