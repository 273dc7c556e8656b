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
from collections.abc import Callable, Sequence
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
        sample = boards[:_SAMPLE]
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
    if any(_grid_row_shaped(layout(line, max(n, 2))) for layout in GRID_LAYOUTS.values()):
        return True  # ". .Q. .", "[x][Q][x]", "|Q |  |": a grid row in another layout
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


# How programs lay out a grid's line, each a way of cutting it into cells. The first
# is the common one ("Q . . .", "Q..."); the others read what it cannot: a checkerboard
# whose light squares are blanks (". .Q. .", one character a cell; "  - Q - ", a
# character and a space a cell), bracketed cells ("[x][Q][x]", "[1][0][0]") and
# cells between bars ("|Q |  |  |"). A blank cell is " ".
_BRACKETED = re.compile(r"\s*(?:\[[^\[\]]{0,3}\]\s*)+")
_BRACKET_CELL = re.compile(r"\[([^\[\]]{0,3})\]")


def _single(cells: list[str]) -> list[str] | None:
    """Cells stripped to their one symbol (blank: " "), or None if one holds more."""
    stripped = [cell.strip() or " " for cell in cells]
    return stripped if all(len(cell) == 1 for cell in stripped) else None


def _shortest(width: int, n: int) -> int:
    """The fewest characters a line of n cells ``width`` wide may keep once trailing
    blanks are cut: a checkerboard row ends in at most one blank square (none below 4)."""
    return width * (n - 2) + 1 if n >= 4 else width * n


def _characters(line: str, n: int) -> list[str] | None:
    text = line.rstrip()
    if not text or not _shortest(1, n) <= len(text) <= n or len(line.strip()) < 2:
        return None
    return list(text.ljust(n))  # trailing blank squares may have been cut off


def _fixed_width(width: int) -> Callable[[str, int], list[str] | None]:
    def cut(line: str, n: int) -> list[str] | None:
        text = line.rstrip()
        if not text.strip() or not _shortest(width, n) - width + 1 <= len(text) <= width * n:
            return None
        text = text.ljust(width * n)
        return _single([text[i : i + width] for i in range(0, width * n, width)])

    return cut


def _bracketed(line: str, n: int) -> list[str] | None:
    if not _BRACKETED.fullmatch(line):
        return None
    return _single(_BRACKET_CELL.findall(line))


def _barred(line: str, n: int) -> list[str] | None:
    text = line.strip()
    if text.count("|") < 2:
        return None
    return _single(text.strip("|").split("|"))


# A rule drawn between a grid's rows: "---------", "+---+---+".
_RULE = re.compile(r"\s*[-=+_|~*]{3,}[-=+_|~* ]*")

#: The layouts tried, the common one first (it wins a tie).
GRID_LAYOUTS: dict[str, Callable[[str, int], list[str] | None]] = {
    "spaced": lambda line, n: _cells(line),
    "characters": _characters,
    "two-wide": _fixed_width(2),
    "three-wide": _fixed_width(3),
    "bracketed": _bracketed,
    "barred": _barred,
}
#: A grid's symbols: the queen's, and the empty squares' (two on a checkerboard).
Symbols = tuple[str, frozenset[str]]


def _grid_row_shaped(cells: list[str] | None) -> bool:
    """True for cells of two to four grid marks, blanks among them, a queen's mark too."""
    if not cells or len(cells) < 2:
        return False
    symbols = set(cells)
    return (
        2 <= len(symbols) <= 4
        and symbols <= _GRID_MARKS | {" "}
        and bool(symbols & set(_QUEEN_MARKS))
    )


def _checkered(cells: list[str], queen: str) -> bool:
    """True when a row's empty squares alternate two symbols, as a checkerboard's do."""
    by_parity: dict[int, set[str]] = {0: set(), 1: set()}
    for column, cell in enumerate(cells):
        if cell != queen:
            by_parity[column % 2].add(cell)
    return all(len(kind) == 1 for kind in by_parity.values()) and (by_parity[0] != by_parity[1])


def _row_votes(cells: list[str], n: int) -> list[Symbols]:
    """The (queen, empties) readings one row of n cells allows."""
    counts = Counter(cells)
    if n == 1:
        return [(cells[0], frozenset())] if cells[0] in _QUEEN_MARKS else []
    if n == 2:
        # Two squares a row say nothing about which is the queen: known marks only.
        if len(counts) != 2:
            return []
        a, b = counts
        return [
            (queen, frozenset(empty))
            for queen, empty in ((a, b), (b, a))
            if queen in _QUEEN_MARKS and empty in _EMPTY_MARKS and queen != empty
        ][:1]
    votes = []
    for queen, times in counts.items():
        empties = frozenset(counts) - {queen}
        if times != 1 or queen == " ":
            continue
        if len(empties) == 1 or (len(empties) == 2 and _checkered(cells, queen)):
            votes.append((queen, empties))
    return votes


def _grid_symbols(rows: list[list[str]], n: int) -> tuple[Symbols | None, int]:
    """The (queen, empties) most rows agree on, and how many rows voted for it."""
    votes: Counter[Symbols] = Counter()
    for cells in rows[:_VOTERS]:
        votes.update(_row_votes(cells, n))
    if not votes:
        return None, 0
    rank = {mark: i for i, mark in enumerate(_QUEEN_MARKS)}
    best = max(votes, key=lambda pair: (votes[pair], -rank.get(pair[0], len(rank))))
    return best, votes[best]


def _grid_layout(
    lines: list[str], n: int
) -> tuple[Callable[[str, int], list[str] | None], Symbols] | None:
    """The layout and symbols that read the most rows of the first lines alike."""
    best = None
    best_votes = 0
    for layout in GRID_LAYOUTS.values():
        rows = []
        for line in lines:
            cells = layout(line, n)
            if cells and len(cells) == n and len(set(cells)) <= 3:
                rows.append(cells)
                if len(rows) >= _VOTERS:
                    break
        symbols, votes = _grid_symbols(rows, n)
        if symbols is not None and votes > best_votes:
            best, best_votes = (layout, symbols), votes
    return best


def read_grid(lines: list[str], n: int, symbols: tuple[str, str] | None) -> Reading:
    reading = Reading("grid")
    if symbols is None:
        found = _grid_layout(lines, n)
        if found is None:
            return reading
        layout, (queen, empties) = found
    else:
        layout, (queen, empties) = GRID_LAYOUTS["spaced"], (symbols[0], frozenset(symbols[1]))
    marks = empties | {queen}
    block: list[tuple[int, int | None, bool]] = []  # (line index, column, empty row)
    rules: list[int] = []  # rules drawn between the rows of the block so far
    for index, line in enumerate([*lines, None]):
        cells = None if line is None else layout(line, n)
        if cells and len(cells) == n and marks.issuperset(cells):
            queens = cells.count(queen)
            block.append((index, cells.index(queen) if queens == 1 else None, not queens))
            reading.used.update(rules)  # "+---+---+" between two rows is part of the grid
            rules = []
            continue
        if block and line is not None and _RULE.fullmatch(line):
            rules.append(index)
            continue
        rules = []
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
        # "(1,2) (2,4) (3,1) (4,3)": (row, column) pairs, rows counted from 0 or 1; or
        # (column, row) pairs.
        order = pair_order(values[::2], values[1::2], n) if len(values) == 2 * n else None
        if order:
            reading.pairs = order
            values = board_of_pairs(values[::2], values[1::2], order)
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
            order = pair_order(tuple(value[::2]), tuple(value[1::2]), n)
            if len(value) == 2 * n and order:
                reading.pairs = order
                reading.add(board_of_pairs(tuple(value[::2]), tuple(value[1::2]), order), line)
            else:
                reading.add(tuple(value), line)
        elif all(isinstance(v, str) for v in value):
            # Rows of a grid (".Q..") or words of letters, read as lines of text.
            for style in ("grid", "letters"):
                found = _read_lines_as(style, list(value), n)
                if found:
                    for board in found:
                        reading.add(board, line)
                    break
        elif order := _pairs(value, n):
            reading.pairs = order
            firsts, seconds = tuple(v[0] for v in value), tuple(v[1] for v in value)
            reading.add(board_of_pairs(firsts, seconds, order), line)
        elif all(isinstance(v, (list, tuple, dict)) for v in value):
            for item in value:
                _collect(item, n, reading, depth + 1, line)
        else:
            reading.add(tuple(v if _is_int(v) else None for v in value), line)


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


def board_of_pairs(firsts: tuple, seconds: tuple, order: str) -> tuple:
    """The columns, row by row, of a board given as pairs in ``order``."""
    rows, columns = (firsts, seconds) if order == PAIR_ORDERS[0] else (seconds, firsts)
    return tuple(column for _, column in sorted(zip(rows, columns, strict=True)))


def _pairs(value: list | tuple, n: int) -> str | None:
    """The order of one board given as pairs, ``[(0, 1), (1, 3), (2, 0), (3, 2)]``, or
    None when ``value`` is no such board."""
    if len(value) != n or not all(
        isinstance(v, (list, tuple)) and len(v) == 2 and _is_int(v[0]) and _is_int(v[1])
        for v in value
    ):
        return None
    return pair_order(tuple(v[0] for v in value), tuple(v[1] for v in value), n)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_lines_as(style: str, lines: Sequence[str], n: int) -> list[tuple]:
    if style == "grid":
        return read_grid(list(lines), n, None).raw
    return read_letters(list(lines), n, strict=True).raw
