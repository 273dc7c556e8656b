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

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from ..arguments import check_n
from ..board import STYLES as BOARD_STYLES
from ..board import is_valid
from ..errors import InvalidInputError, InvalidTypeError
from .readers import (
    BARE_INTEGER,
    Reading,
    is_caption,
    looks_like_board,
    read_document,
    read_grid,
    read_json_lines,
    read_letters,
    read_numbers,
    stated_count,
)

#: The styles :func:`parse_boards` reads; "auto" tries them all.
STYLES = ("auto", "grid", "zero-plus", "x-dash", "letters", "numbers", "csv", "json", "count")
#: The bases of numbered columns: None guesses, 0 or 1 force one.
BASES = (None, 0, 1)
#: What ``ignore=`` takes: a regular expression, or several.
Ignore = str | re.Pattern | Sequence[str | re.Pattern] | None


#: A line of the output: its number (from 1) and its text.
Line = tuple[int, str]


@dataclass(frozen=True)
class ParsedOutput:
    """What :func:`parse_boards` read from a program's output.

    Every non-blank line is accounted for: read as (part of) a board, as the stated
    count, as a caption, as a note, as an invalid board, or ignored on request.

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
        The non-blank lines that were not read as part of a board or a count (and
        not ignored): captions, notes and invalid lines.
    board_lines : tuple of int
        The line (from 1) where each board starts.
    captions : tuple of (int, str)
        Lines of a kind printed around boards: the articles' numbered captions
        ("第k种走法"), "Solution k:" and "Board #k"
        prefixes, "k.", and rules ("-----").
    notes : tuple of (int, str)
        Lines of prose, no board at all (a header, a timing): shown, not judged.
    invalid_lines : tuple of (int, str)
        Lines shaped like a board (numbers, a grid row, column letters, a JSON list)
        that are not one in the format the output was read in: invalid boards.
    ignored : tuple of (int, str)
        The lines that matched ``ignore``, left out before reading.
    mixed : str or None
        What is mixed, when the output mixes conventions (0- and 1-based boards, or
        boards in two formats), else None.
    """

    boards: list[tuple] = field(default_factory=list)
    count: int | None = None
    style: str | None = None
    base: int | None = None
    skipped: tuple[str, ...] = ()
    board_lines: tuple[int, ...] = ()
    captions: tuple[Line, ...] = ()
    notes: tuple[Line, ...] = ()
    invalid_lines: tuple[Line, ...] = ()
    ignored: tuple[Line, ...] = ()
    mixed: str | None = None
    # Where each board was printed, for tracing a fault back (see origin()).
    raw: Sequence[tuple] = field(default=(), repr=False, compare=False)
    board_bases: Sequence[int | None] = field(default=(), repr=False, compare=False)
    board_ends: tuple[int, ...] = field(default=(), repr=False, compare=False)
    lines: Sequence[str] = field(default=(), repr=False, compare=False)
    document: bool = field(default=False, repr=False, compare=False)

    def origin(self, index: int) -> Origin:
        """How board ``index`` (of ``boards``) was printed: its line(s) and its base.

        >>> parsed = parse_boards("Solution 1: 2 4 1 3\\nSolution 2: 1 2 3 4", 4)
        >>> parsed.boards[1], parsed.origin(1)
        ((0, 1, 2, 3), Origin(line=2, last_line=2, text='Solution 2: 1 2 3 4', base=1, \
printed=(1, 2, 3, 4)))
        """
        base = self.board_bases[index] if index < len(self.board_bases) else None
        printed = self.raw[index] if base is not None and index < len(self.raw) else None
        if self.document or index >= len(self.board_lines):
            # One JSON document: its line says nothing; the numbers as printed do.
            return Origin(None, None, None, base, printed)
        first = self.board_lines[index]
        last = self.board_ends[index] if index < len(self.board_ends) else first
        text = "\n".join(self.lines[first - 1 : last]) if self.lines else None
        if text is not None and len(text) > ORIGIN_TEXT:
            text = text[: ORIGIN_TEXT - 3] + "..."
        return Origin(first, last, text, base, printed)


#: The most characters of a board's printed line(s) kept to trace a fault back.
ORIGIN_TEXT = 200


@dataclass(frozen=True)
class Origin:
    """Where a board was printed in a program's output, and how.

    ``line`` and ``last_line`` number the lines from 1 (the same for a board on one
    line; a grid spans n lines), None when the whole output was one JSON document;
    ``text`` is what those lines held (cut to 200 characters); ``base`` is 0 or 1
    for numbered boards (numbers, JSON), None for grids and letters; ``printed`` is
    then the numbers as printed, before they were made 0-based.
    """

    line: int | None
    last_line: int | None
    text: str | None
    base: int | None
    printed: tuple | None

    def describe(self) -> str:
        """``printed 1-based on line 3: '1 2 3 4'``, or ``""`` when nothing is known.

        >>> Origin(3, 3, "1 2 3 4", 1, (1, 2, 3, 4)).describe()
        "printed 1-based on line 3: '1 2 3 4'"
        >>> Origin(None, None, None, 1, (1, 2, 3, 4)).describe()
        'printed 1-based as (1, 2, 3, 4)'
        """
        based = f" {self.base}-based" if self.base is not None else ""
        if self.line is None:
            return f"printed{based} as {self.printed}" if self.printed is not None else ""
        where = (
            f"line {self.line}"
            if self.last_line in (None, self.line)
            else (f"lines {self.line}-{self.last_line}")
        )
        shown = " / ".join(part.strip() for part in (self.text or "").splitlines())
        shown = shown if len(shown) <= 80 else shown[:77] + "..."
        return f"printed{based} on {where}: {shown!r}"


def parse_boards(
    text: str | bytes,
    n: int,
    style: str = "auto",
    base: int | None = None,
    *,
    ignore: Ignore = None,
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
        every board is); an output with boards of both kinds is ``mixed``.
    ignore : str, compiled pattern, or a sequence of them, optional
        Lines in which one of these regular expressions matches (``re.search``) are
        left out before reading and listed in ``ignored``: a program's prose that
        should not even be noted, or a line it prints that is no board.

    Returns
    -------
    ParsedOutput
        ``boards`` (0-based column tuples, in the order printed), ``count``,
        ``style``, ``base``; and how every other line was taken: ``captions``,
        ``notes``, ``invalid_lines``, ``ignored``, ``mixed``.

    Raises
    ------
    InvalidInputError
        For an unknown style or base, a bad ``n`` or a bad ``ignore`` pattern.
        Nothing in ``text`` raises: what cannot be read is reported.

    Examples
    --------
    >>> import cpqueens
    >>> board = (1, 3, 0, 2)
    >>> cpqueens.parse_boards(cpqueens.render(board, "x-dash"), 4).boards
    [(1, 3, 0, 2)]
    >>> cpqueens.parse_boards('{"solutions": [[1, 3, 0, 2], [2, 0, 3, 1]]}', 4).boards
    [(1, 3, 0, 2), (2, 0, 3, 1)]
    >>> stated = cpqueens.parse_boards("第1种走法\\n8皇后问题有92种摆放方法。", 8)
    >>> stated.boards, stated.count, stated.captions   # a stated count is a claim
    ([], 92, ((1, '第1种走法'),))
    >>> odd = cpqueens.parse_boards("Four queens\\nbdac\\ncadb\\n-1 -1 -1 -1", 4)
    >>> odd.boards, odd.notes, odd.invalid_lines
    ([(1, 3, 0, 2), (2, 0, 3, 1)], ((1, 'Four queens'),), ((4, '-1 -1 -1 -1'),))
    """
    n = check_n(n)
    if style not in STYLES:
        raise InvalidInputError(
            f"unknown output style {style!r}; choose one of: {', '.join(STYLES)}"
        )
    if isinstance(base, bool) or base not in BASES:
        raise InvalidInputError(f"base must be None, 0 or 1, got {base!r}")
    patterns = compile_ignore(ignore)
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if not isinstance(text, str):
        raise InvalidTypeError(f"text must be a str or bytes, got {type(text).__name__}")
    lines, ignored = _leave_out(text.splitlines(), patterns)
    parsed = _parse(lines, n, style, base)
    if style == "auto" and not parsed.boards and "/n" in text:
        # Article 000's program, as printed, writes "/n" where it means a line break.
        retry = _parse(
            _leave_out(text.replace("/n", "\n").splitlines(), patterns)[0], n, style, base
        )
        if retry.boards:
            parsed = retry
    return replace(parsed, ignored=ignored) if ignored else parsed


def compile_ignore(ignore: Ignore) -> tuple[re.Pattern, ...]:
    """The patterns of ``ignore=`` compiled, or a clear error naming the bad one."""
    if ignore is None:
        return ()
    items = [ignore] if isinstance(ignore, (str, re.Pattern)) else ignore
    try:
        items = list(items)
    except TypeError:
        raise InvalidTypeError(
            f"ignore must be a pattern or a sequence of patterns, got {type(ignore).__name__}"
        ) from None
    patterns = []
    for item in items:
        if isinstance(item, re.Pattern):
            patterns.append(item)
            continue
        if not isinstance(item, str):
            raise InvalidTypeError(
                f"ignore patterns must be str or compiled patterns, got {item!r}"
            )
        try:
            patterns.append(re.compile(item))
        except re.error as error:
            raise InvalidInputError(f"bad ignore pattern {item!r}: {error}") from None
    return tuple(patterns)


def _leave_out(lines: list[str], patterns: tuple[re.Pattern, ...]) -> tuple[list[str], tuple]:
    """Blank the lines an ``ignore`` pattern matches (line numbers stay as printed)."""
    if not patterns:
        return lines, ()
    ignored = []
    kept = []
    for number, line in enumerate(lines, 1):
        if line.strip() and any(p.search(line) for p in patterns):
            ignored.append((number, line))
            kept.append("")
        else:
            kept.append(line)
    return kept, tuple(ignored)


def _readers(n: int, style: str) -> dict[str, Callable[[list[str]], Reading]]:
    return {
        "json": lambda lines: read_json_lines(lines, n),
        "grid": lambda lines: read_grid(lines, n, None),
        "letters": lambda lines: read_letters(lines, n, strict=style == "auto"),
        "numbers": lambda lines: read_numbers(lines, n),
    }


def _parse(lines: list[str], n: int, style: str, base: int | None) -> ParsedOutput:
    whole = read_document("\n".join(lines), n) if style in ("auto", "json") else None
    if whole is not None:
        return _finish(whole, lines, n, base, skip_all=False)
    readers = _readers(n, style)
    if style == "count":
        chosen = Reading("count")
    elif style == "auto":
        # Ties go to the first reader: a grid line of 1s and 0s is also a line of numbers.
        readings = [read(lines) for read in readers.values()]
        chosen = max(readings, key=lambda r: r.score(n, base))
    elif style in ("zero-plus", "x-dash"):
        chosen = read_grid(lines, n, BOARD_STYLES[style])
    else:
        chosen = readers["numbers" if style == "csv" else style](lines)
    parsed = _finish(chosen, lines, n, base, skip_all=True)
    if style == "auto" and parsed.mixed is None and parsed.invalid_lines:
        # Board-shaped lines left over: are they boards in a second format?
        second = _second_format(parsed, lines, n, base, chosen.style, readers)
        if second:
            parsed = replace(parsed, mixed=second)
    return parsed


def _second_format(
    parsed: ParsedOutput,
    lines: list[str],
    n: int,
    base: int | None,
    first: str,
    readers: dict[str, Callable[[list[str]], Reading]],
) -> str | None:
    """Say so when the lines the chosen reader left hold valid boards of another format."""
    left = {number - 1 for number, _ in parsed.invalid_lines}
    rest = [line if index in left else "" for index, line in enumerate(lines)]
    for name, read in readers.items():
        if name == first:
            continue
        other = read(rest)
        boards, _ = other.boards(n, base)
        for board, index in zip(boards, other.where, strict=True):
            if is_valid(board, n):
                where = parsed.board_lines[0] if parsed.board_lines else 1
                return (
                    f"boards in two formats: {first} (line {where}) "
                    f"and {name} (line {index + 1}: {_shown(lines[index])})"
                )
    return None


def _finish(
    reading: Reading, lines: list[str], n: int, base: int | None, *, skip_all: bool
) -> ParsedOutput:
    count = reading.count
    counted = set()
    if skip_all:
        # The last bare integer states the count (for n = 1, "1" is a board of numbers
        # too; a grid's "0" is not).
        for index, line in enumerate(lines):
            match = BARE_INTEGER.fullmatch(line)
            if match and (index not in reading.used or (n == 1 and reading.numbered)):
                count = int(match[1])
                counted.add(index)
            elif index not in reading.used and (stated := _stated_count(line, n)) is not None:
                # "Total: 95" is a claim like a bare "95": checked, not a note.
                count = stated
                counted.add(index)
    boards, used_base = reading.boards(n, base)
    if boards:
        style: str | None = reading.style
    else:
        style = "count" if count is not None else None
    kinds: dict[str, list[Line]] = {"captions": [], "notes": [], "invalid_lines": []}
    if skip_all:
        for index, line in enumerate(lines):
            if not line.strip() or index in reading.used or index in counted:
                continue
            if is_caption(line):
                kind = "captions"
            elif looks_like_board(line, n):
                kind = "invalid_lines"
            else:
                kind = "notes"
            kinds[kind].append((index + 1, line))
    skipped = tuple(
        line for _, line in sorted(kinds["captions"] + kinds["notes"] + kinds["invalid_lines"])
    )
    if not reading.numbered:
        bases: Sequence[int | None] = ()
    elif base is not None:
        bases = [base] * len(reading.raw)
    else:
        bases = reading.bases(n)
    return ParsedOutput(
        boards=boards,
        count=count,
        style=style,
        base=used_base,
        skipped=skipped,
        board_lines=tuple(index + 1 for index in reading.where),
        captions=tuple(kinds["captions"]),
        notes=tuple(kinds["notes"]),
        invalid_lines=tuple(kinds["invalid_lines"]),
        mixed=_mixed_bases(reading, n, lines) if base is None else None,
        raw=reading.raw,
        board_bases=bases,
        board_ends=tuple(index + 1 for index in reading.last),
        lines=lines,
        document=reading.document,
    )


def _stated_count(line: str, n: int) -> int | None:
    """The number of solutions a line of prose states (not a caption, not shaped like
    a board), or None."""
    if is_caption(line) or looks_like_board(line, n):
        return None
    return stated_count(line)


def _mixed_bases(reading: Reading, n: int, lines: list[str]) -> str | None:
    """Say so when some numbered boards are 0-based and others 1-based."""
    first_of: dict[int, int] = {}
    for board_base, index in zip(reading.bases(n), reading.where, strict=False):
        first_of.setdefault(board_base, index)
    if len(first_of) < 2:
        return None
    zero, one = first_of[0], first_of[1]
    return (
        f"0-based boards (line {zero + 1}: {_shown(lines[zero])}) and 1-based boards "
        f"(line {one + 1}: {_shown(lines[one])})"
    )


def _shown(line: str) -> str:
    line = line.strip()
    return repr(line if len(line) <= 60 else line[:57] + "...")
