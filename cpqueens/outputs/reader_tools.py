"""What every reader of a program's output shares: a :class:`Reading` (the boards one
reader found, the lines it used), the marks a grid is drawn with, and how numbered
columns are made 0-based.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..board import is_valid

# Marks a program might use for a queen, most likely first: they decide which of two
# symbols is the queen when the grid itself cannot tell (n = 1 or 2).
QUEEN_MARKS = "Q0xX1#*♛♕●■@Oq"
EMPTY_MARKS = ".+-_0o□·"
# A label before a board on the same line: "Solution 3:", "3:", "3)", "第3种:".
_COLONS = ":\uff1a"  # ASCII and full-width
LABEL = re.compile(rf"\s*(?:[^\W\d][^{_COLONS}]{{0,40}}[{_COLONS}]|\d{{1,9}}\s*[{_COLONS})])\s*")
LETTERS = "abcdefghijklmnopqrstuvwxyz"
COLUMN_OF = {letter: column for column, letter in enumerate(LETTERS)}
# Grid lines that vote on the symbols, boards checked to rank the readers: a
# program prints them all alike.
VOTERS = 2000
SAMPLE = 2000


# Every mark a grid row may hold, its queen's and its empty squares'.
GRID_MARKS = set(QUEEN_MARKS + EMPTY_MARKS + "Xx")


@dataclass
class Reading:
    """One reader's result before the best reader is chosen."""

    style: str
    raw: list[tuple] = field(default_factory=list)  # boards, numbers not yet rebased
    used: set[int] = field(default_factory=set)  # indices of the lines read
    numbered: bool = False  # True when raw holds numbers still to rebase
    count: int | None = None
    where: list[int] = field(default_factory=list)  # the (first) line of each board
    last: list[int] = field(default_factory=list)  # the last line of each board
    document: bool = False  # True when the whole output was read as one document
    pairs: str | None = None  # the order of (row, column) pairs, when boards were pairs

    def add(self, board: tuple, line: int, last: int | None = None) -> None:
        self.raw.append(board)
        self.where.append(line)
        self.last.append(line if last is None else last)

    def boards(self, n: int, base: int | None) -> tuple[list[tuple], int | None]:
        """The boards, 0-based, and the base their numbers were read in."""
        return rebase(self.raw, n, base) if self.numbered else (self.raw, None)

    def bases(self, n: int) -> list[int]:
        """The base each numbered board is read in when none is given (see :func:`rebase`)."""
        return guess_bases(self.raw, n) if self.numbered else []

    def score(self, n: int, base: int | None) -> tuple[int, int, int]:
        """How many valid boards, then boards of the right shape, then boards: the best
        reader reads the most.

        Validity is judged on the first boards only: a program prints all alike,
        and checking a few hundred thousand boards for each reader would be slow.
        """
        boards, _ = self.boards(n, base)
        sample = boards[:SAMPLE]
        return (
            sum(is_valid(b, n) for b in sample),
            sum(is_board_shaped(b, n) for b in sample),
            len(boards),
        )


def is_board_shaped(board: tuple, n: int) -> bool:
    """True for n columns on the board, one a row: a board, if not always a solution."""
    return len(board) == n and all(
        isinstance(c, int) and not isinstance(c, bool) and 0 <= c < n for c in board
    )


def rebase(raw: list[tuple], n: int, base: int | None) -> tuple[list[tuple], int | None]:
    """Make numbered boards 0-based, guessing the base of each when not given."""
    if base is not None:
        return [tuple(c - base if isinstance(c, int) else c for c in b) for b in raw], base
    bases = guess_bases(raw, n)
    boards = [
        tuple(c - shift if isinstance(c, int) else c for c in b)
        for b, shift in zip(raw, bases, strict=True)
    ]
    kinds = set(bases)
    return boards, kinds.pop() if len(kinds) == 1 else None


def guess_bases(raw: list[tuple], n: int) -> list[int]:
    """1 for a board that holds ``n`` and no 0 (or for every board, when none holds a 0)."""
    holds_zero = any(0 in b for b in raw)
    every_one_based = not holds_zero and any(n in b for b in raw)
    return [1 if every_one_based or (n in b and 0 not in b) else 0 for b in raw]


def strip_label(line: str) -> str:
    match = LABEL.match(line)
    return line[match.end() :] if match else line
