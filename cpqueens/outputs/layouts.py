"""The readers behind :func:`cpqueens.parse_boards`, one per kind of output.

Each reader goes through the lines of an output and returns a :class:`Reading`:
the boards it found (numbers not yet made 0-based) and the lines it used, so that
the reader that explains the most valid boards can be chosen and the rest of the
lines reported as skipped. Grids are read in :mod:`.grids`; what the readers share
is in :mod:`.reading`.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Sequence
from typing import Any

from .grids import GRID_LAYOUTS, grid_row_shaped, read_grid, spaced_cells
from .reader_tools import (
    COLUMN_OF,
    GRID_MARKS,
    LABEL,
    LETTERS,
    Reading,
    strip_label,
)

_SEPARATORS = r"[\s,;\[\](){}]"
_NUMBERS = re.compile(rf"{_SEPARATORS}*\d{{1,30}}(?:{_SEPARATORS}+\d{{1,30}})*{_SEPARATORS}*")
BARE_INTEGER = re.compile(r"\s*(\d{1,30})\s*")
_WORDS = re.compile(r"[\s,;]+")
# Nesting that a JSON document may have and still be read (boards are two levels deep).
_MAX_DEPTH = 4
# A Python literal larger than this is not handed to ast.literal_eval (slow on huge text).
_MAX_LITERAL = 1_000_000


# Lines that are not boards ---------------------------------------------------------------

# The captions programs print before a board: the articles' "第k种走法", "Solution k:",
# "Board #k", "k.", or a label alone; and the rules drawn between boards.
CAPTION = re.compile(
    r"\s*(?:第\s*\d+\s*种\S*"
    r"|(?:solution|board|answer|result|no\.?)\s*#?\s*\d+\s*[:\uff1a.)]?"
    r"|#?\d{1,9}\s*[:\uff1a.)]"
    r"|#\d{1,9}"
    r"|(?:解法|解)\s*\d+\s*[:\uff1a]?"
    r")\s*",
    re.IGNORECASE,
)
# A number of solutions, in words: "92 solutions", "92 ways", "有92种摆放方法",
# "Total: 92", "solutions = 92", "共92种". A time ("0.5 s") is no count.
_NUMBER = r"(\d{1,3}(?:,\d{3})+|\d{1,30})"
# Words for solutions (a number of "placements" or "nodes" is search effort, no count),
# and the words that may stand between the number and them ("92 differents solutions").
_COUNT_WORDS = r"(?:solutions?|arrangements?|ways|results?|answers?|configurations?)"
_COUNT_ADJECTIVES = (
    r"(?:(?:distinct|differents?|unique|possible|valid|feasible|legal|correct|total|"
    r"such|fundamental|non-attacking)\s+){0,2}"
)
_STATED_COUNT = (
    re.compile(_NUMBER + r"\s*" + _COUNT_ADJECTIVES + _COUNT_WORDS + r"\b", re.IGNORECASE),
    re.compile(r"有\s*" + _NUMBER + r"\s*(?:种|个解)"),
    re.compile(r"共有?\s*" + _NUMBER + r"\s*(?:种|个|钟)?"),
    # "Number of solution for 8 is 92": the size may be named on the way.
    re.compile(
        r"\bnumber of (?:solutions?|ways)\b(?:\s+(?:for|with|of)\s+(?:n\s*=\s*)?\d{1,5}"
        r"(?:\s+queens?)?)?\s*(?:is|are|=|:)\s*" + _NUMBER + r"\s*\.?\s*$",
        re.IGNORECASE,
    ),
    re.compile(
        r"(?:\b(?:total|count|number of solutions|solutions?|found)\b|总数|总计|合计|解的个数)"
        r"[^\d:=\uff1a]{0,30}?(?:[:=\uff1a]|\s)\s*" + _NUMBER + r"\s*\.?\s*$",
        re.IGNORECASE,
    ),
)
_NUMBER_TOKEN = re.compile(r"[-+]?\d+(?:[.,]\d+)?|[-+]?\.\d+")
_TOKEN_SPLIT = re.compile(r"[\s,;|\[\](){}]+")


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
    text = strip_label(line).strip()
    if not text:
        return False
    if text[0] in "[(" and _load(text) not in (None, [], ()):
        return True
    tokens = [t for t in _TOKEN_SPLIT.split(text) if t]
    numbers = sum(bool(_NUMBER_TOKEN.fullmatch(t)) for t in tokens)
    if numbers >= 2 and 2 * numbers >= len(tokens):
        return True  # "-1 -1 -1 -1", "0 1.5 2 3", "0 1 2 x 4"
    cells = spaced_cells(text)
    if (
        cells
        and len(set(cells)) == 2
        and set(cells) <= GRID_MARKS
        and (len(cells) == n or not text.isdigit())
    ):
        return True  # "Q.....": a grid row, of the wrong length here ("10" is a number)
    if any(grid_row_shaped(layout(line, max(n, 2))) for layout in GRID_LAYOUTS.values()):
        return True  # ". .Q. .", "[x][Q][x]", "|Q |  |": a grid row in another layout
    if len(tokens) >= 2 and all(grid_row_shaped(list(token)) for token in tokens):
        return True  # ".♛....  ..♛...": rows of boards printed side by side
    on_board = set(LETTERS[: min(n, len(LETTERS))])
    lower = [t for t in tokens if t.islower() or t.isupper()]
    return (
        len(lower) == len(tokens) > 0
        and all(set(t.lower()) <= on_board for t in tokens)
        and (len(tokens) >= 2 or len(tokens[0]) >= max(2, n - 1))
    )


# Letters, numbers ---------------------------------------------------------------------


def read_letters(lines: list[str], n: int, *, strict: bool) -> Reading:
    """Column letters, one board per word (the CodeProject tree article: ``cgbhfdae``)."""
    reading = Reading("letters")
    if n > len(LETTERS):
        return reading
    # Strict (auto) reading takes only letters on the board: a-d for n = 4.
    letter = f"[a-{LETTERS[n - 1]}]" if strict else "[a-z]"
    word = f"(?:{letter}{{{n}}}|{letter.upper()}{{{n}}})"
    whole_line = re.compile(rf"(?:{LABEL.pattern})?{word}(?:[\s,;]+{word})*[\s,;]*", re.ASCII)
    for index, line in enumerate(lines):
        match = whole_line.fullmatch(line)
        if match is None:
            continue
        words = [w.lower() for w in _WORDS.split(strip_label(line)) if w]
        for w in words:
            reading.add(tuple(map(COLUMN_OF.__getitem__, w)), index)
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
        rest = line if bare else strip_label(line)
        if not _NUMBERS.fullmatch(rest):
            continue
        values = tuple(int(v) for v in re.findall(r"\d+", rest))
        label = line[: len(line) - len(rest)]
        if len(values) == 1 and (n > 1 or (label and not any(ch.isdigit() for ch in label))):
            continue  # "Total: 92" is a summary, not a board of one row ("Solution 1: 1" is)
        # "(1,2) (2,4) (3,1) (4,3)": (row, column) pairs, rows counted from 0 or 1; or
        # (column, row) pairs.
        if paired := pairs_board(values, n):
            reading.pairs, values = paired
        # "3,1,3,0,2": the third row of a CSV table with a solution number first.
        if len(values) == n + 1 and values[0] in (len(reading.raw), len(reading.raw) + 1):
            values = values[1:]
        reading.add(values, index)
        reading.used.add(index)
    return reading


def read_squares(lines: list[str], n: int) -> Reading:
    """Chess squares, one board a line: ``a2 b4 c1 d3`` (the letter the column, the
    number the row, counted from 1), in any order, with an optional label."""
    reading = Reading("squares")
    if n > len(LETTERS):
        return reading
    for index, line in enumerate(lines):
        match = _SQUARES.fullmatch(line)
        if match is None:
            continue
        squares = [
            (int(rank) - 1, COLUMN_OF[file.lower()]) for file, rank in _SQUARE.findall(match[1])
        ]
        if len(squares) < 2 <= n:
            continue
        rows = sorted(row for row, _ in squares)
        if rows == list(range(n)):
            reading.add(tuple(column for _, column in sorted(squares)), index)
        else:  # a row twice, or missing: kept, as printed, to be reported invalid
            reading.add(tuple(column for _, column in squares), index)
        reading.used.add(index)
    return reading


_SQUARE = re.compile(r"([a-zA-Z])(\d{1,2})")
_SQUARES = re.compile(
    rf"(?:{LABEL.pattern})?\s*([a-zA-Z]\d{{1,2}}(?:[\s,;]+[a-zA-Z]\d{{1,2}})*)[\s,;.]*"
)


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
            if paired := pairs_board(value, n):
                reading.pairs = paired[0]
            reading.add(paired[1] if paired else tuple(value), line)
        elif all(isinstance(v, str) for v in value):
            # Rows of a grid (".Q..") or words of letters, read as lines of text.
            for style in ("grid", "letters"):
                found = _read_lines_as(style, list(value), n)
                if found:
                    for board in found:
                        reading.add(board, line)
                    break
        elif paired := _pairs(value, n):
            reading.pairs = paired[0]
            reading.add(paired[1], line)
        elif (board := _one_hot(value, n)) is not None:
            reading.add(board, line)  # [[0, 1, 0, 0], [0, 0, 0, 1], ...]: a 0/1 matrix
        elif all(isinstance(v, (list, tuple, dict)) for v in value):
            for item in value:
                _collect(item, n, reading, depth + 1, line)
        else:
            reading.add(tuple(v if _is_int(v) else None for v in value), line)


def _one_hot(value: list | tuple, n: int) -> tuple | None:
    """The board a 0/1 matrix of n rows of n draws (a queen a 1), or None when
    ``value`` is no such matrix. A row with no 1 or several reads as None."""
    if n < 2 or len(value) != n:
        return None
    if not all(
        isinstance(row, (list, tuple))
        and len(row) == n
        and all(v in (0, 1) and _is_int(v) for v in row)
        for row in value
    ):
        return None
    return tuple(row.index(1) if sum(row) == 1 else None for row in value)


def rows_of(n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The row numbers of a board of (row, column) pairs, counted from 0 or from 1."""
    return tuple(range(n)), tuple(range(1, n + 1))


#: The two orders of a board's pairs: (row, column), the usual, and (column, row).
PAIR_ORDERS = ("(row, column)", "(column, row)")


def pair_order(firsts: tuple, seconds: tuple, n: int) -> str | None:
    """Which of a board's pair coordinates is the row: the one that runs 0, 1, 2... (or
    1, 2, 3...), else the one that holds each row once; None when neither does.

    Both orders of a solution are solutions (a reflection), so validity cannot tell
    them apart: the order the rows are listed in does.

    >>> pair_order((0, 1, 2, 3), (1, 3, 0, 2), 4), pair_order((1, 3, 0, 2), (0, 1, 2, 3), 4)
    ('(row, column)', '(column, row)')
    """
    rows = rows_of(n)
    for coordinates in (lambda c: c, sorted):
        if tuple(coordinates(firsts)) in rows:
            return PAIR_ORDERS[0]
        if tuple(coordinates(seconds)) in rows:
            return PAIR_ORDERS[1]
    return None


def pairs_board(values: Sequence[int], n: int) -> tuple[str, tuple] | None:
    """A board given as ``2 n`` numbers, pairs of coordinates in a row: their order and
    the columns, row by row; None when the numbers are no such board.

    >>> pairs_board((1, 0, 3, 1, 0, 2, 2, 3), 4)
    ('(column, row)', (1, 3, 0, 2))
    """
    if len(values) != 2 * n:
        return None
    firsts, seconds = tuple(values[::2]), tuple(values[1::2])
    order = pair_order(firsts, seconds, n)
    if order is None:
        return None
    rows, columns = (firsts, seconds) if order == PAIR_ORDERS[0] else (seconds, firsts)
    return order, tuple(column for _, column in sorted(zip(rows, columns, strict=True)))


def _pairs(value: list | tuple, n: int) -> tuple[str, tuple] | None:
    """:func:`pairs_board` of one board given as a list of pairs,
    ``[(0, 1), (1, 3), (2, 0), (3, 2)]``."""
    if len(value) != n or not all(
        isinstance(v, (list, tuple)) and len(v) == 2 and _is_int(v[0]) and _is_int(v[1])
        for v in value
    ):
        return None
    return pairs_board([coordinate for pair in value for coordinate in pair], n)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_lines_as(style: str, lines: Sequence[str], n: int) -> list[tuple]:
    if style == "grid":
        return read_grid(list(lines), n, None).raw
    return read_letters(list(lines), n, strict=True).raw
