"""The readers behind :func:`cpqueens.parse_boards`, one per kind of output.

Each reader goes through the lines of an output and returns a :class:`Reading`:
the boards it found (numbers not yet made 0-based) and the lines it used, so that
the reader that explains the most valid boards can be chosen and the rest of the
lines reported as skipped.
"""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..board import is_valid

# Marks a program might use for a queen, most likely first: they decide which of two
# symbols is the queen when the grid itself cannot tell (n = 1 or 2).
_QUEEN_MARKS = "Q0xX1#*♛♕●■@Oq"
_EMPTY_MARKS = ".+-_0o□·"
# A label before a board on the same line: "Solution 3:", "3:", "3)", "第3种:".
_COLONS = ":\uff1a"  # ASCII and full-width
_LABEL = re.compile(rf"\s*(?:[^\W\d][^{_COLONS}]{{0,40}}[{_COLONS}]|\d{{1,9}}\s*[{_COLONS})])\s*")
_SEPARATORS = r"[\s,;\[\](){}]"
_NUMBERS = re.compile(rf"{_SEPARATORS}*\d{{1,30}}(?:{_SEPARATORS}+\d{{1,30}})*{_SEPARATORS}*")
BARE_INTEGER = re.compile(r"\s*(\d{1,30})\s*")
_WORDS = re.compile(r"[\s,;]+")
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_COLUMN_OF = {letter: column for column, letter in enumerate(_LETTERS)}
# Nesting that a JSON document may have and still be read (boards are two levels deep).
_MAX_DEPTH = 4
# Grid lines that vote on the symbols, boards checked to rank the readers: a
# program prints them all alike.
_VOTERS = 2000
_SAMPLE = 2000
# A Python literal larger than this is not handed to ast.literal_eval (slow on huge text).
_MAX_LITERAL = 1_000_000


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

    def score(self, n: int, base: int | None) -> tuple[int, int]:
        """How many valid boards, then how many boards: the best reader reads the most.

        Validity is judged on the first boards only: a program prints all alike,
        and checking a few hundred thousand boards for each reader would be slow.
        """
        boards, _ = self.boards(n, base)
        return sum(is_valid(b, n) for b in boards[:_SAMPLE]), len(boards)


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


def _strip_label(line: str) -> str:
    match = _LABEL.match(line)
    return line[match.end() :] if match else line


# Lines that are not boards ---------------------------------------------------------------

# The captions programs print before a board: the articles' "第k种走法", "Solution k:",
# "Board #k", "k.", or a label alone; and the rules drawn between boards.
CAPTION = re.compile(
    r"\s*(?:第\s*\d+\s*种\S*"
    r"|(?:solution|board|answer|result|no\.?)\s*#?\s*\d+\s*[:\uff1a.)]?"
    r"|#?\d{1,9}\s*[:\uff1a.)]"
    r")\s*",
    re.IGNORECASE,
)
# A number of solutions, in words: "92 solutions", "92 ways", "有92种摆放方法",
# "Total: 92", "solutions = 92", "共92种". A time ("0.5 s") is no count.
_NUMBER = r"(\d{1,3}(?:,\d{3})+|\d{1,30})"
_COUNT_WORDS = r"(?:solutions?|placements?|arrangements?|ways)"
_STATED_COUNT = (
    re.compile(
        _NUMBER + r"\s*(?:distinct\s+|different\s+|unique\s+)?" + _COUNT_WORDS + r"\b",
        re.IGNORECASE,
    ),
    re.compile(r"有\s*" + _NUMBER + r"\s*(?:种|个解)"),
    re.compile(r"共\s*" + _NUMBER + r"\s*(?:种|个)?"),
    re.compile(
        r"(?:\b(?:total|count|number of solutions|solutions?|found)\b|总数|总计|合计|解的个数)"
        r"[^\d:=\uff1a]{0,30}?(?:[:=\uff1a]|\s)\s*" + _NUMBER + r"\s*\.?\s*$",
        re.IGNORECASE,
    ),
)
_NUMBER_TOKEN = re.compile(r"[-+]?\d+(?:[.,]\d+)?|[-+]?\.\d+")
_TOKEN_SPLIT = re.compile(r"[\s,;|\[\](){}]+")
_GRID_MARKS = set(_QUEEN_MARKS + _EMPTY_MARKS + "Xx")


_RULE_MARKS = set("-=_*~#+.")


def stated_count(line: str) -> int | None:
    """The number of solutions a line of prose states, or None when it states none.

    A count a program prints beside its boards is a claim, checked like its boards.

    >>> [stated_count(line) for line in ("Total: 95", "n=8: 92 solutions in 0.3 s",
    ...  "8皇后问题有92种摆放方法。", "14,772,512 distinct solutions", "time: 12 s")]
    [95, 92, 92, 14772512, None]
    """
    for pattern in _STATED_COUNT:
        match = pattern.search(line)
        if match:
            return int(match[1].replace(",", ""))
    return None


def is_caption(line: str) -> bool:
    """True for a caption or a rule of a kind programs print around boards: the
    articles' "第k种走法", "Solution k:", "Board #k", "k.", and lines drawn with one
    mark ("-----", "= = =")."""
    marks = set(line) - set(" \t")
    return bool(CAPTION.fullmatch(line)) or (len(marks) == 1 and marks <= _RULE_MARKS)


def looks_like_board(line: str, n: int) -> bool:
    """True for a line that is shaped like (part of) a board: numbers, a grid row, a
    row of column letters or a JSON list, whether or not it is a valid one.

    A line like this that no reader took as a board is an invalid board, never prose.
    """
    text = _strip_label(line).strip()
    if not text:
        return False
    if text[0] in "[(" and _load(text) not in (None, [], ()):
        return True
    tokens = [t for t in _TOKEN_SPLIT.split(text) if t]
    numbers = sum(bool(_NUMBER_TOKEN.fullmatch(t)) for t in tokens)
    if numbers >= 2 and 2 * numbers >= len(tokens):
        return True  # "-1 -1 -1 -1", "0 1.5 2 3", "0 1 2 x 4"
    cells = _cells(text)
    if (
        cells
        and len(set(cells)) == 2
        and set(cells) <= _GRID_MARKS
        and (len(cells) == n or not text.isdigit())
    ):
        return True  # "Q.....": a grid row, of the wrong length here ("10" is a number)
    on_board = set(_LETTERS[: min(n, len(_LETTERS))])
    lower = [t for t in tokens if t.islower() or t.isupper()]
    return (
        len(lower) == len(tokens) > 0
        and all(set(t.lower()) <= on_board for t in tokens)
        and (len(tokens) >= 2 or len(tokens[0]) >= max(2, n - 1))
    )


# Grids -------------------------------------------------------------------------------


def _cells(line: str) -> list[str] | None:
    """The cells of a grid line: spaced symbols, or the characters of one word."""
    parts = line.replace("|", " ").split()
    if len(parts) == 1:
        return list(parts[0])
    # Spaced cells are single symbols: as many parts as characters.
    return parts if parts and len(parts) == sum(map(len, parts)) else None


def _grid_symbols(rows: list[list[str]], n: int) -> tuple[str, str] | None:
    """The (queen, empty) pair most lines agree on: the symbol that occurs once per line."""
    votes: Counter[tuple[str, str]] = Counter()
    for cells in rows[:_VOTERS]:
        counts = Counter(cells)
        if n == 1 and cells[0] in _QUEEN_MARKS:
            votes[(cells[0], "")] += 1
        elif len(counts) == 2:
            (a, times_a), (b, times_b) = counts.most_common()
            if times_b == 1 and times_a == n - 1 and n > 2:
                votes[(b, a)] += 1
            elif n == 2:
                # Two squares a row say nothing about which is the queen: known marks only.
                for queen, empty in ((a, b), (b, a)):
                    if queen in _QUEEN_MARKS and empty in _EMPTY_MARKS and queen != empty:
                        votes[(queen, empty)] += 1
                        break
    if not votes:
        return None
    rank = {mark: i for i, mark in enumerate(_QUEEN_MARKS)}
    return max(votes, key=lambda pair: (votes[pair], -rank.get(pair[0], len(rank))))


def read_grid(lines: list[str], n: int, symbols: tuple[str, str] | None) -> Reading:
    reading = Reading("grid")
    cells_of = [_cells(line) for line in lines]
    if symbols is None:
        candidates = [c for c in cells_of if c and len(c) == n and len(set(c)) <= 2]
        symbols = _grid_symbols(candidates, n)
        if symbols is None:
            return reading
    queen, empty = symbols
    block: list[tuple[int, int | None, bool]] = []  # (line index, column, empty row)
    for index, cells in enumerate([*cells_of, None]):
        if cells and len(cells) == n:
            queens = cells.count(queen)
            if queens + cells.count(empty) == n:
                block.append((index, cells.index(queen) if queens == 1 else None, not queens))
                continue
        if block:
            for board in _split_block(block, n):
                reading.add(tuple(column for _, column, _ in board), board[0][0], board[-1][0])
                reading.used.update(i for i, _, _ in board)
            reading.used.update(i for i, _, _ in block)
            block = []
    return reading


def _split_block(block: list[tuple[int, int | None, bool]], n: int) -> list[list]:
    """Cut a run of grid rows into boards of n rows.

    Rows of empty squares at either end, or between two boards, are separators (a
    line of dashes between x-dash boards); a run that is still not a whole number
    of boards ends with a short board, which a cross-check reports as invalid.
    """
    start, stop = 0, len(block)
    while start < stop and block[start][2]:
        start += 1
    while stop > start and block[stop - 1][2]:
        stop -= 1
    rows = block[start:stop]
    if len(rows) % n:
        kept: list = []
        for row in rows:
            if not (row[2] and len(kept) % n == 0):
                kept.append(row)
        if len(kept) % n == 0:
            rows = kept
    return [rows[i : i + n] for i in range(0, len(rows), n)]


# Letters, numbers ---------------------------------------------------------------------


def read_letters(lines: list[str], n: int, *, strict: bool) -> Reading:
    """Column letters, one board per word (article 001: ``cgbhfdae``)."""
    reading = Reading("letters")
    if n > len(_LETTERS):
        return reading
    # Strict (auto) reading takes only letters on the board: a-d for n = 4.
    letter = f"[a-{_LETTERS[n - 1]}]" if strict else "[a-z]"
    word = f"(?:{letter}{{{n}}}|{letter.upper()}{{{n}}})"
    whole_line = re.compile(rf"(?:{_LABEL.pattern})?{word}(?:[\s,;]+{word})*[\s,;]*", re.ASCII)
    for index, line in enumerate(lines):
        match = whole_line.fullmatch(line)
        if match is None:
            continue
        words = [w.lower() for w in _WORDS.split(_strip_label(line)) if w]
        for w in words:
            reading.add(tuple(map(_COLUMN_OF.__getitem__, w)), index)
        reading.used.add(index)
    return reading


def read_numbers(lines: list[str], n: int) -> Reading:
    """One board per line of numbers: columns, or (row, column) pairs; an index column
    before the board is dropped."""
    reading = Reading("numbers", numbered=True)
    for index, line in enumerate(lines):
        bare = BARE_INTEGER.fullmatch(line)
        if bare and n > 1:
            continue  # a count, not a board
        rest = line if bare else _strip_label(line)
        if not _NUMBERS.fullmatch(rest):
            continue
        values = tuple(int(v) for v in re.findall(r"\d+", rest))
        label = line[: len(line) - len(rest)]
        if len(values) == 1 and (n > 1 or (label and not any(ch.isdigit() for ch in label))):
            continue  # "Total: 92" is a summary, not a board of one row ("Solution 1: 1" is)
        # "(1,2) (2,4) (3,1) (4,3)": (row, column) pairs, rows counted from 0 or 1.
        if len(values) == 2 * n and values[::2] in rows_of(n):
            values = values[1::2]
        # "3,1,3,0,2": the third row of a CSV table with a solution number first.
        if len(values) == n + 1 and values[0] in (len(reading.raw), len(reading.raw) + 1):
            values = values[1:]
        reading.add(values, index)
        reading.used.add(index)
    return reading


# JSON and Python literals -------------------------------------------------------------


def _load(text: str) -> Any:
    """A JSON document or a Python literal (``print(solutions)``), or None."""
    text = text.strip()
    if not text or text[0] not in "[{(":
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        pass
    if len(text) > _MAX_LITERAL:
        return None
    try:
        return ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return None


def read_document(text: str, n: int) -> Reading | None:
    """The whole output as one JSON document or Python literal, when it is one."""
    value = _load(text)
    if value is None:
        return None
    reading = Reading("json", numbered=True, document=True)
    _collect(value, n, reading, 0, 0)
    # "[]" (or {"solutions": []}) is an answer too: no solution.
    empty = value in ([], ()) or (isinstance(value, dict) and value.get("solutions") == [])
    if not reading.raw and reading.count is None and not empty:
        return None
    reading.used = set(range(len(text.splitlines())))
    return reading


def read_json_lines(lines: list[str], n: int) -> Reading:
    reading = Reading("json", numbered=True)
    for index, line in enumerate(lines):
        value = _load(line)
        if value is not None:
            before = len(reading.raw), reading.count
            _collect(value, n, reading, 0, index)
            if (len(reading.raw), reading.count) != before:
                reading.used.add(index)
    return reading


def _collect(value: Any, n: int, reading: Reading, depth: int, line: int) -> None:
    """Add the boards (and count) held in a loaded JSON value to ``reading``."""
    if depth > _MAX_DEPTH or isinstance(value, bool):
        return
    if _is_int(value):
        reading.count = value
    elif isinstance(value, dict):
        for key in ("solutions", "boards", "solution", "board", "columns", "queens"):
            if key in value:
                inner = value[key]
                if key in ("solution", "board", "columns", "queens"):
                    inner = [inner]
                _collect(inner, n, reading, depth + 1, line)
                break
        count = value.get("count")
        if _is_int(count):
            reading.count = count
    elif isinstance(value, (list, tuple)) and value:
        if all(_is_int(v) for v in value):
            # "(1, 1)" for n = 1 is one (row, column) pair, not a board of two rows.
            flat_pairs = len(value) == 2 * n and tuple(value[::2]) in rows_of(n)
            reading.add(tuple(value[1::2] if flat_pairs else value), line)
        elif all(isinstance(v, str) for v in value):
            # Rows of a grid (".Q..") or words of letters, read as lines of text.
            for style in ("grid", "letters"):
                found = _read_lines_as(style, list(value), n)
                if found:
                    for board in found:
                        reading.add(board, line)
                    break
        elif _pairs(value, n):
            reading.add(tuple(column for _, column in value), line)
        elif all(isinstance(v, (list, tuple, dict)) for v in value):
            for item in value:
                _collect(item, n, reading, depth + 1, line)
        else:
            reading.add(tuple(v if _is_int(v) else None for v in value), line)


def rows_of(n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The row numbers of a board of (row, column) pairs, counted from 0 or from 1."""
    return tuple(range(n)), tuple(range(1, n + 1))


def _pairs(value: list | tuple, n: int) -> bool:
    """True for one board as (row, column) pairs: ``[(0, 1), (1, 3), (2, 0), (3, 2)]``."""
    if len(value) != n or not all(
        isinstance(v, (list, tuple)) and len(v) == 2 and _is_int(v[0]) and _is_int(v[1])
        for v in value
    ):
        return False
    return tuple(row for row, _ in value) in rows_of(n)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_lines_as(style: str, lines: Sequence[str], n: int) -> list[tuple]:
    if style == "grid":
        return read_grid(list(lines), n, None).raw
    return read_letters(list(lines), n, strict=True).raw
