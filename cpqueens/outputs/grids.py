"""Reading grids, whatever separates their cells: the layouts programs print a row in,
the symbols a grid is drawn with (a queen's, and one or two for the empty squares of
a checkerboard), and boards cut from runs of rows.

>>> rows = ["  Q   - ", "-   - Q ", "Q -   - ", "-   Q   "]   # a checkerboard, two wide
>>> read_grid(rows, 4, None).raw
[(1, 3, 0, 2)]
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from .reader_tools import EMPTY_MARKS, GRID_MARKS, LETTERS, QUEEN_MARKS, VOTERS, Reading


def spaced_cells(line: str) -> list[str] | None:
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


def _shortest(width: int, n: int, loose: bool) -> int:
    """The fewest characters a line of n cells ``width`` wide may keep once trailing
    blanks are cut: a checkerboard row ends in at most one blank square (none below 4);
    a row after its label (``loose``), in any number (a grid drawing only its queens)."""
    if loose:
        return 1
    return width * (n - 2) + 1 if n >= 4 else width * n


def _characters(line: str, n: int, loose: bool = False) -> list[str] | None:
    text = line.rstrip()
    if not text or not _shortest(1, n, loose) <= len(text) <= n:
        return None
    if len(line.strip()) < 2 and not loose:
        return None
    return list(text.ljust(n))  # trailing blank squares may have been cut off


def _fixed_width(width: int, loose: bool = False) -> Callable[[str, int], list[str] | None]:
    def cut(line: str, n: int) -> list[str] | None:
        text = line.rstrip()
        shortest = max(1, _shortest(width, n, loose) - width + 1)
        if not text.strip() or not shortest <= len(text) <= width * n:
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


# Cells of a printed list: "[0, 1, 0, 0]," (a row of a 0/1 matrix, pretty-printed).
_LIST_SEPARATORS = re.compile(r"[\s,;\[\]()]+")


def _listed(line: str, n: int) -> list[str] | None:
    if not any(mark in line for mark in ",[("):
        return None
    parts = [part for part in _LIST_SEPARATORS.split(line) if part]
    return parts if parts and all(len(part) == 1 for part in parts) else None


# A row's label before its cells: its number ("1\t-\tQ\t-", "3 # ").
_ROW_LABEL = re.compile(r"\s*\d{1,3}(?=\D)")


def _labelled(
    layout: Callable[[str, int], list[str] | None],
) -> Callable[[str, int], list[str] | None]:
    def cut(line: str, n: int) -> list[str] | None:
        label = _ROW_LABEL.match(line)
        return layout(line[label.end() :], n) if label else None

    return cut


# A rule drawn between a grid's rows: "---------", "+---+---+".
RULE = re.compile(r"\s*[-=+_|~*]{3,}[-=+_|~* ]*")

#: The layouts tried, the common one first (it wins a tie).
GRID_LAYOUTS: dict[str, Callable[[str, int], list[str] | None]] = {
    "spaced": lambda line, n: spaced_cells(line),
    "listed": _listed,
    "characters": _characters,
    "two-wide": _fixed_width(2),
    "three-wide": _fixed_width(3),
    "bracketed": _bracketed,
    "barred": _barred,
    "labelled, spaced": _labelled(lambda line, n: spaced_cells(line)),
    "labelled, characters": _labelled(lambda line, n: _characters(line, n, loose=True)),
    "labelled, two-wide": _labelled(_fixed_width(2, loose=True)),
    "labelled, three-wide": _labelled(_fixed_width(3, loose=True)),
}
#: A grid's symbols: the queen's, and the empty squares' (two on a checkerboard).
Symbols = tuple[str, frozenset[str]]


def grid_row_shaped(cells: list[str] | None) -> bool:
    """True for cells of two to four grid marks, blanks among them, a queen's mark too."""
    if not cells or len(cells) < 2:
        return False
    symbols = set(cells)
    return (
        2 <= len(symbols) <= 4
        and symbols <= GRID_MARKS | {" "}
        and bool(symbols & set(QUEEN_MARKS))
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
        return [(cells[0], frozenset())] if cells[0] in QUEEN_MARKS else []
    if n == 2:
        # Two squares a row say nothing about which is the queen: known marks only.
        if len(counts) != 2:
            return []
        a, b = counts
        return [
            (queen, frozenset(empty))
            for queen, empty in ((a, b), (b, a))
            if queen in QUEEN_MARKS and empty in EMPTY_MARKS and queen != empty
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
    for cells in rows[:VOTERS]:
        votes.update(_row_votes(cells, n))
    if not votes:
        return None, 0
    rank = {mark: i for i, mark in enumerate(QUEEN_MARKS)}
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
                if len(rows) >= VOTERS:
                    break
        symbols, votes = _grid_symbols(rows, n)
        if symbols is not None and votes > best_votes:
            best, best_votes = (layout, symbols), votes
    return best


def read_grid(lines: list[str], n: int, symbols: tuple[str, str] | None) -> Reading:
    if symbols is None:
        found = _grid_layout(lines, n)
        if found is None:
            return Reading("grid")
        layout, (queen, empties) = found
    else:
        layout, (queen, empties) = GRID_LAYOUTS["spaced"], (symbols[0], frozenset(symbols[1]))
    reading = _read_rows(lines, n, layout, queen, empties, blanks_join=False)
    if (
        n > 1
        and reading.raw
        and sum(len(board) == 1 for board in reading.raw) * 2 > len(reading.raw)
    ):
        # Rows printed a blank line apart ("1\t-\tQ\t-\t-", a blank, the next row):
        # blank lines are then no board's end.
        reading = _read_rows(lines, n, layout, queen, empties, blanks_join=True)
    _take_headers(reading, lines, n)
    return reading


def _read_rows(
    lines: list[str],
    n: int,
    layout: Callable[[str, int], list[str] | None],
    queen: str,
    empties: frozenset[str],
    *,
    blanks_join: bool,
) -> Reading:
    reading = Reading("grid")
    marks = empties | {queen}
    block: list[tuple[int, int | None, bool]] = []  # (line index, column, empty row)
    between: list[int] = []  # rules (and blanks) drawn between the rows of the block so far
    for index, line in enumerate([*lines, None]):
        cells = None if line is None else layout(line, n)
        if cells and len(cells) == n and marks.issuperset(cells):
            queens = cells.count(queen)
            block.append((index, cells.index(queen) if queens == 1 else None, not queens))
            # "+---+---+" between two rows is part of the grid (a blank line is no line).
            reading.used.update(i for i in between if lines[i].strip())
            between = []
            continue
        if (
            block
            and line is not None
            and (RULE.fullmatch(line) or (blanks_join and not line.strip()))
        ):
            between.append(index)
            continue
        between = []
        if block:
            for board in _split_block(block, n):
                reading.add(tuple(column for _, column, _ in board), board[0][0], board[-1][0])
                reading.used.update(i for i, _, _ in board)
            reading.used.update(i for i, _, _ in block)
            block = []
    return reading


def _column_header(line: str, n: int) -> bool:
    """True for a line naming the columns: 1 2 ... n, 0 1 ... n-1, or a b ... ."""
    tokens = [t for t in re.split(r"[\s|,]+", line) if t]
    return len(tokens) == n and (
        tokens in ([str(c) for c in range(n)], [str(c) for c in range(1, n + 1)])
        or tokens in (list(LETTERS[:n]), list(LETTERS[:n].upper()))
    )


def _take_headers(reading: Reading, lines: list[str], n: int) -> None:
    """Count the line naming the columns above each board (past blanks and rules) as
    part of it, and the same line below it."""
    for first, last in zip(reading.where, reading.last, strict=True):
        for start, step in ((first - 1, -1), (last + 1, 1)):
            index = start
            while 0 <= index < len(lines) and (
                not lines[index].strip() or RULE.fullmatch(lines[index])
            ):
                index += step
            if (
                0 <= index < len(lines)
                and index not in reading.used
                and _column_header(lines[index], n)
            ):
                reading.used.add(index)


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
