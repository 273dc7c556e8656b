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

from collections.abc import Callable
from dataclasses import dataclass, field

from ..arguments import check_n
from ..board import STYLES as BOARD_STYLES
from ..errors import InvalidInputError, InvalidTypeError
from .readers import (
    BARE_INTEGER,
    Reading,
    read_document,
    read_grid,
    read_json_lines,
    read_letters,
    read_numbers,
)

#: The styles :func:`parse_boards` reads; "auto" tries them all.
STYLES = ("auto", "grid", "zero-plus", "x-dash", "letters", "numbers", "csv", "json", "count")
#: The bases of numbered columns: None guesses, 0 or 1 force one.
BASES = (None, 0, 1)


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
    whole = read_document(text, n) if style in ("auto", "json") else None
    if whole is not None:
        return _finish(whole, lines, n, base, skip_all=False)
    readers: dict[str, Callable[[], Reading]] = {
        "json": lambda: read_json_lines(lines, n),
        "grid": lambda: read_grid(lines, n, None),
        "letters": lambda: read_letters(lines, n, strict=style == "auto"),
        "numbers": lambda: read_numbers(lines, n),
    }
    if style == "count":
        chosen = Reading("count")
    elif style == "auto":
        # Ties go to the first reader: a grid line of 1s and 0s is also a line of numbers.
        readings = [read() for read in readers.values()]
        chosen = max(readings, key=lambda r: r.score(n, base))
    elif style in ("zero-plus", "x-dash"):
        chosen = read_grid(lines, n, BOARD_STYLES[style])
    else:
        chosen = readers["numbers" if style == "csv" else style]()
    return _finish(chosen, lines, n, base, skip_all=True)


def _finish(
    reading: Reading, lines: list[str], n: int, base: int | None, *, skip_all: bool
) -> ParsedOutput:
    count = reading.count
    counted = set()
    if skip_all:
        # The last bare integer states the count (a line read as a board too, when n = 1).
        for index, line in enumerate(lines):
            match = BARE_INTEGER.fullmatch(line)
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
