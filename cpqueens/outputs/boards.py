"""Reading the boards a program printed: grids, column letters, numbers, JSON, or a count.

:func:`parse_boards` turns the text a solver printed, in whatever language it was
written, into column tuples that :func:`cpqueens.crosscheck` can compare. In
``style="auto"`` every reader below is tried and the one that reads the most
valid boards wins; text it cannot read (headers, prose, timings) is skipped and
kept in ``skipped``.

Examples
--------
>>> from cpqueens.outputs.boards import parse_boards
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
from dataclasses import replace

from ..arguments import check_n
from ..board import STYLES as BOARD_STYLES
from ..board import is_valid
from ..errors import InvalidInputError, InvalidTypeError
from .flatzinc import flatzinc_parsed
from .grids import read_grid
from .layouts import (
    BARE_INTEGER,
    is_caption,
    looks_like_board,
    read_document,
    read_json_lines,
    read_letters,
    read_numbers,
    read_squares,
    stated_count,
)
from .parsed_output import Line, ParsedOutput, shorten
from .reader_tools import Reading

#: The styles :func:`parse_boards` reads; "auto" tries them all.
STYLES = (
    "auto", "grid", "zero-plus", "x-dash", "letters", "numbers", "csv", "json", "squares",
    "count", "flatzinc",
)  # fmt: skip
#: The bases of numbered columns: None guesses, 0 or 1 force one.
BASES = (None, 0, 1)
#: What ``ignore=`` takes: a regular expression, or several.
Ignore = str | re.Pattern | Sequence[str | re.Pattern] | None


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
        boards, an object with ``solutions``, or one per line), ``"squares"`` (chess
        squares, one board per line: ``a2 b4 c1 d3``), ``"count"`` (only
        the stated count) or ``"flatzinc"`` (a FlatZinc solver's output for a
        ``.fzn`` file cpqueens wrote: ``q = array1d(...)`` lines, columns from 0
        unless ``base=1``; see :func:`cpqueens.read_flatzinc_output`).
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
    check_style(style)
    check_base(base)
    patterns = compile_ignore(ignore)
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if not isinstance(text, str):
        raise InvalidTypeError(f"text must be a str or bytes, got {type(text).__name__}")
    return read_output(text, n, style, base, patterns)


def read_output(
    text: str, n: int, style: str, base: int | None, patterns: tuple[re.Pattern, ...] = ()
) -> ParsedOutput:
    """:func:`parse_boards` of values already checked (``patterns`` compiled): what
    the checking family calls once a door has checked them."""
    lines, ignored = _leave_out(text.splitlines(), patterns)
    parsed = _parse(lines, n, style, base)
    if style == "auto" and not parsed.boards and "/n" in text:
        # The Queen8 article's program, as printed, writes "/n" where it means a line break.
        retry = _parse(
            _leave_out(text.replace("/n", "\n").splitlines(), patterns)[0], n, style, base
        )
        if retry.boards:
            parsed = retry
    return replace(parsed, ignored=ignored) if ignored else parsed


def check_style(style: object, name: str = "") -> None:
    """Refuse an output style :func:`parse_boards` does not read (``name``: how the
    caller spells the argument, e.g. ``"parse="``)."""
    if style not in STYLES:
        raise InvalidInputError(
            f"unknown output style {name}{style!r}; choose one of: {', '.join(STYLES)}"
        )


def check_base(base: object) -> None:
    """Refuse a base of numbered columns other than None, 0 and 1."""
    if isinstance(base, bool) or base not in BASES:
        raise InvalidInputError(f"base must be None, 0 or 1, got {base!r}")


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
        "squares": lambda lines: read_squares(lines, n),
    }


def _parse(lines: list[str], n: int, style: str, base: int | None) -> ParsedOutput:
    if style == "flatzinc":
        return flatzinc_parsed(lines, n, base)
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
        pairs=reading.pairs if boards else None,
    )


# A line "N=<number>" alone: the size, or, when the number is not the size, the count.
_SIZE_OR_COUNT = re.compile(r"\s*n\s*=\s*(\d{1,30})\s*", re.IGNORECASE)


def _stated_count(line: str, n: int) -> int | None:
    """The number of solutions a line no reader took states (not a caption), or None."""
    if is_caption(line):
        return None
    size = _SIZE_OR_COUNT.fullmatch(line)
    if size:
        # "N=8" names the board; "N=14200" on a board of 12 can only be its count.
        number = int(size[1])
        return number if number != n else None
    # A number tied to a word for solutions is a count, even in a line of numbers and
    # words ("8 queens solutions: 92"); a board no reader took is never one.
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
    return repr(shorten(line.strip(), 60))
