"""Reading the boards a program printed: grids, column letters, numbers, JSON, or a count.

:func:`parse_boards` turns the text a solver printed, in whatever language it was
written, into column tuples that :func:`cpqueens.crosscheck` can compare. In
``style="auto"`` every reader below is tried and the one that reads the most
valid boards wins; text it cannot read (headers, prose, timings) is skipped and
kept in ``skipped``.

Examples
--------
>>> from cpqueens.checking.parsing import parse_boards
>>> text = '''第1种走法
... + + 0 +
... 0 + + +
... + + + 0
... + 0 + +
... 4皇后问题有1种摆放方法。'''
>>> parsed = parse_boards(text, 4)
>>> parsed.boards, parsed.style
([(2, 0, 3, 1)], 'grid')
>>> parse_boards("cgbhfdae", 8).boards
[(2, 6, 1, 7, 5, 3, 0, 4)]
>>> parse_boards("2 4 1 3", 4).boards        # holds n and no 0: 1-based
[(1, 3, 0, 2)]
>>> parse_boards("Press any key to continue...\\n92", 8).count
92
"""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..api import check_n
from ..board import STYLES as BOARD_STYLES
from ..board import is_valid
from ..errors import InvalidInputError, InvalidTypeError

#: The styles :func:`parse_boards` reads; "auto" tries them all.
STYLES = ("auto", "grid", "zero-plus", "x-dash", "letters", "numbers", "csv", "json", "count")
#: The bases of numbered columns: None guesses, 0 or 1 force one.
BASES = (None, 0, 1)

# Marks a program might use for a queen, most likely first: they decide which of two
# symbols is the queen when the grid itself cannot tell (n = 1 or 2).
_QUEEN_MARKS = "Q0xX1#*♛♕●■@Oq"
_EMPTY_MARKS = ".+-_0o□·"
# A label before a board on the same line: "Solution 3:", "3:", "3)", "第3种:".
_COLONS = ":\uff1a"  # ASCII and full-width
_LABEL = re.compile(rf"\s*(?:[^\W\d][^{_COLONS}]{{0,40}}[{_COLONS}]|\d{{1,9}}\s*[{_COLONS})])\s*")
_SEPARATORS = r"[\s,;\[\](){}]"
_NUMBERS = re.compile(rf"{_SEPARATORS}*\d{{1,30}}(?:{_SEPARATORS}+\d{{1,30}})*{_SEPARATORS}*")
_BARE_INTEGER = re.compile(r"\s*(\d{1,30})\s*")
_WORDS = re.compile(r"[\s,;]+")
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
# Nesting that a JSON document may have and still be read (boards are two levels deep).
_MAX_DEPTH = 4
# A Python literal larger than this is not handed to ast.literal_eval (slow on huge text).
_MAX_LITERAL = 1_000_000


@dataclass(frozen=True)
class ParsedOutput:
    """What :func:`parse_boards` read from a program's output.

    Attributes
    ----------
    boards : list of tuple
        One tuple of 0-based columns per board, in the order printed. A board that
        could not be a solution (a row with no queen or two, a wrong length, a
        column off the board) is kept, with None for an unreadable row, so that a
        cross-check reports it as invalid.
    count : int or None
        The number of solutions the output states: the last line that is a bare
        integer (or a JSON ``count``), or None.
    style : str or None
        The reader that read the boards (``"grid"``, ``"letters"``, ``"numbers"``,
        ``"json"``), ``"count"`` when only a count was read, None when nothing was.
    base : int or None
        For numbers and JSON, 1 when the columns were read as 1-based, 0 when as
        0-based, None otherwise (or when boards of both kinds were read).
    skipped : tuple of str
        The non-blank lines that were not read as part of a board or a count.
    """

    boards: list[tuple] = field(default_factory=list)
    count: int | None = None
    style: str | None = None
    base: int | None = None
    skipped: tuple[str, ...] = ()


@dataclass
class _Reading:
    """One reader's result before the best reader is chosen."""

    style: str
    raw: list[tuple] = field(default_factory=list)  # boards, numbers not yet rebased
    used: set[int] = field(default_factory=set)  # indices of the lines read
    numbered: bool = False  # True when raw holds numbers still to rebase
    count: int | None = None

    def boards(self, n: int, base: int | None) -> tuple[list[tuple], int | None]:
        """The boards, 0-based, and the base their numbers were read in."""
        return _rebase(self.raw, n, base) if self.numbered else (self.raw, None)

    def score(self, n: int, base: int | None) -> tuple[int, int]:
        """How many valid boards, then how many boards: the best reader reads the most."""
        boards, _ = self.boards(n, base)
        return sum(is_valid(b, n) for b in boards), len(boards)


def parse_boards(
    text: str | bytes, n: int, style: str = "auto", base: int | None = None
) -> ParsedOutput:
    """Read the boards of size ``n`` that a program printed.

    Parameters
    ----------
    text : str or bytes
        The program's output (bytes are decoded as UTF-8, bad bytes replaced).
    n : int
        The board size.
    style : str
        ``"auto"`` (default: try every reader, keep the one that reads the most
        valid boards), ``"grid"`` (any two symbols, one queen per line: ``Q``/``.``,
        ``0``/``+``, ``x``/``-``, ``1``/``0``, spaced or not), ``"zero-plus"`` and
        ``"x-dash"`` (grids with those symbols only), ``"letters"`` (column letters,
        one board per word), ``"numbers"`` or ``"csv"`` (one board per line of
        numbers separated by spaces or commas), ``"json"`` (a JSON or Python list of
        boards, an object with ``solutions``, or one per line) or ``"count"`` (only
        the stated count).
    base : {None, 0, 1}
        Whether numbered columns start at 0 or 1. None guesses board by board: a
        board that holds ``n`` and no 0 is 1-based (and when no board holds a 0,
        every board is).

    Returns
    -------
    ParsedOutput
        ``boards`` (0-based column tuples, in the order printed), ``count``,
        ``style``, ``base`` and ``skipped``.

    Raises
    ------
    InvalidInputError
        For an unknown style or base, or a bad ``n``. Nothing in ``text`` raises:
        what cannot be read is skipped.

    Examples
    --------
    >>> import cpqueens
    >>> board = (1, 3, 0, 2)
    >>> cpqueens.parse_boards(cpqueens.render(board, "x-dash"), 4).boards
    [(1, 3, 0, 2)]
    >>> cpqueens.parse_boards('{"solutions": [[1, 3, 0, 2], [2, 0, 3, 1]]}', 4).boards
    [(1, 3, 0, 2), (2, 0, 3, 1)]
    >>> prose = cpqueens.parse_boards("8皇后问题有92种摆放方法。", 8)
    >>> prose.boards, prose.count, prose.skipped
    ([], None, ('8皇后问题有92种摆放方法。',))
    """
    n = check_n(n)
    if style not in STYLES:
        raise InvalidInputError(
            f"unknown output style {style!r}; choose one of: {', '.join(STYLES)}"
        )
    if isinstance(base, bool) or base not in BASES:
        raise InvalidInputError(f"base must be None, 0 or 1, got {base!r}")
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if not isinstance(text, str):
        raise InvalidTypeError(f"text must be a str or bytes, got {type(text).__name__}")
    parsed = _parse(text, n, style, base)
    if style == "auto" and not parsed.boards and "/n" in text:
        # Article 000's program, as printed, writes "/n" where it means a line break.
        retry = _parse(text.replace("/n", "\n"), n, style, base)
        if retry.boards:
            return retry
    return parsed


def _parse(text: str, n: int, style: str, base: int | None) -> ParsedOutput:
    lines = text.splitlines()
    whole = _read_document(text, n) if style in ("auto", "json") else None
    if whole is not None:
        return _finish(whole, lines, n, base, skip_all=False)
    readers: dict[str, Callable[[], _Reading]] = {
        "json": lambda: _read_json_lines(lines, n),
        "grid": lambda: _read_grid(lines, n, None),
        "letters": lambda: _read_letters(lines, n, strict=style == "auto"),
        "numbers": lambda: _read_numbers(lines, n),
    }
    if style == "count":
        chosen = _Reading("count")
    elif style == "auto":
        # Ties go to the first reader: a grid line of 1s and 0s is also a line of numbers.
        readings = [read() for read in readers.values()]
        chosen = max(readings, key=lambda r: r.score(n, base))
    elif style in ("zero-plus", "x-dash"):
        chosen = _read_grid(lines, n, BOARD_STYLES[style])
    else:
        chosen = readers["numbers" if style == "csv" else style]()
    return _finish(chosen, lines, n, base, skip_all=True)


def _finish(
    reading: _Reading, lines: list[str], n: int, base: int | None, *, skip_all: bool
) -> ParsedOutput:
    count = reading.count
    counted = set()
    if skip_all:
        # The last bare integer states the count (a line read as a board too, when n = 1).
        for index, line in enumerate(lines):
            match = _BARE_INTEGER.fullmatch(line)
            if match and (index not in reading.used or n == 1):
                count = int(match[1])
                counted.add(index)
    boards, used_base = reading.boards(n, base)
    if boards:
        style: str | None = reading.style
    else:
        style = "count" if count is not None else None
    skipped = (
        tuple(
            line
            for index, line in enumerate(lines)
            if line.strip() and index not in reading.used and index not in counted
        )
        if skip_all
        else ()
    )
    return ParsedOutput(boards=boards, count=count, style=style, base=used_base, skipped=skipped)


def _rebase(raw: list[tuple], n: int, base: int | None) -> tuple[list[tuple], int | None]:
    """Make numbered boards 0-based, guessing the base of each when not given."""
    if base is not None:
        return [tuple(c - base if isinstance(c, int) else c for c in b) for b in raw], base
    holds_zero = any(0 in b for b in raw)
    every_one_based = not holds_zero and any(n in b for b in raw)
    bases = [1 if every_one_based or (n in b and 0 not in b) else 0 for b in raw]
    boards = [
        tuple(c - shift if isinstance(c, int) else c for c in b)
        for b, shift in zip(raw, bases, strict=True)
    ]
    kinds = set(bases)
    return boards, kinds.pop() if len(kinds) == 1 else None


def _strip_label(line: str) -> str:
    match = _LABEL.match(line)
    return line[match.end() :] if match else line


# Grids -------------------------------------------------------------------------------


def _cells(line: str) -> list[str] | None:
    """The cells of a grid line: spaced symbols, or the characters of one word."""
    parts = line.replace("|", " ").split()
    if not parts:
        return None
    if all(len(part) == 1 for part in parts):
        return parts
    return list(parts[0]) if len(parts) == 1 else None


def _grid_symbols(rows: list[list[str]], n: int) -> tuple[str, str] | None:
    """The (queen, empty) pair most lines agree on: the symbol that occurs once per line."""
    votes: Counter[tuple[str, str]] = Counter()
    for cells in rows:
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


def _read_grid(lines: list[str], n: int, symbols: tuple[str, str] | None) -> _Reading:
    reading = _Reading("grid")
    cells_of = [_cells(line) for line in lines]
    if symbols is None:
        candidates = [c for c in cells_of if c is not None and len(c) == n and len(set(c)) <= 2]
        symbols = _grid_symbols(candidates, n)
        if symbols is None:
            return reading
    queen, empty = symbols
    block: list[tuple[int, int | None, bool]] = []  # (line index, column, empty row)
    for index, cells in enumerate([*cells_of, None]):
        if cells is not None and len(cells) == n and set(cells) <= {queen, empty}:
            queens = [c for c, cell in enumerate(cells) if cell == queen]
            block.append((index, queens[0] if len(queens) == 1 else None, not queens))
            continue
        if block:
            for board in _split_block(block, n):
                reading.raw.append(tuple(column for _, column, _ in board))
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


def _read_letters(lines: list[str], n: int, *, strict: bool) -> _Reading:
    """Column letters, one board per word (article 001: ``cgbhfdae``)."""
    reading = _Reading("letters")
    if n > len(_LETTERS):
        return reading
    allowed = _LETTERS[:n]
    for index, line in enumerate(lines):
        words = [w for w in _WORDS.split(_strip_label(line)) if w]
        if not words or not all(len(w) == n and w.isascii() and w.isalpha() for w in words):
            continue
        if not all(w.islower() or w.isupper() for w in words):
            continue
        words = [w.lower() for w in words]
        if strict and not all(set(w) <= set(allowed) for w in words):
            continue
        reading.raw.extend(tuple(_LETTERS.index(ch) for ch in w) for w in words)
        reading.used.add(index)
    return reading


def _read_numbers(lines: list[str], n: int) -> _Reading:
    """One board per line of numbers; an index column before the board is dropped."""
    reading = _Reading("numbers", numbered=True)
    for index, line in enumerate(lines):
        bare = _BARE_INTEGER.fullmatch(line)
        if bare and n > 1:
            continue  # a count, not a board
        rest = line if bare else _strip_label(line)
        if not _NUMBERS.fullmatch(rest):
            continue
        values = tuple(int(v) for v in re.findall(r"\d+", rest))
        label = line[: len(line) - len(rest)]
        if len(values) == 1 and (n > 1 or (label and not any(ch.isdigit() for ch in label))):
            continue  # "Total: 92" is a summary, not a board of one row ("Solution 1: 1" is)
        # "3,1,3,0,2": the third row of a CSV table with a solution number first.
        if len(values) == n + 1 and values[0] in (len(reading.raw), len(reading.raw) + 1):
            values = values[1:]
        reading.raw.append(values)
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


def _read_document(text: str, n: int) -> _Reading | None:
    """The whole output as one JSON document or Python literal, when it is one."""
    value = _load(text)
    if value is None:
        return None
    reading = _Reading("json", numbered=True)
    _collect(value, n, reading, 0)
    if not reading.raw and reading.count is None:
        return None
    reading.used = set(range(len(text.splitlines())))
    return reading


def _read_json_lines(lines: list[str], n: int) -> _Reading:
    reading = _Reading("json", numbered=True)
    for index, line in enumerate(lines):
        value = _load(line)
        if value is not None:
            before = len(reading.raw), reading.count
            _collect(value, n, reading, 0)
            if (len(reading.raw), reading.count) != before:
                reading.used.add(index)
    return reading


def _collect(value: Any, n: int, reading: _Reading, depth: int) -> None:
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
                _collect(inner, n, reading, depth + 1)
                break
        count = value.get("count")
        if _is_int(count):
            reading.count = count
    elif isinstance(value, (list, tuple)) and value:
        if all(_is_int(v) for v in value):
            reading.raw.append(tuple(value))
        elif all(isinstance(v, str) for v in value):
            # Rows of a grid (".Q..") or words of letters, read as lines of text.
            for style in ("grid", "letters"):
                found = _read_lines_as(style, list(value), n)
                if found:
                    reading.raw.extend(found)
                    break
        elif all(isinstance(v, (list, tuple, dict)) for v in value):
            for item in value:
                _collect(item, n, reading, depth + 1)
        else:
            reading.raw.append(tuple(v if _is_int(v) else None for v in value))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_lines_as(style: str, lines: Sequence[str], n: int) -> list[tuple]:
    if style == "grid":
        return _read_grid(list(lines), n, None).raw
    return _read_letters(list(lines), n, strict=True).raw
