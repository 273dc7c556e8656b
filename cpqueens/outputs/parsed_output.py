"""What was read from a program's output: the boards, the count it states, and how
every other line was taken (:class:`ParsedOutput`), with where each board was
printed (:class:`Origin`).

:func:`cpqueens.parse_boards` makes these; the judges of the checking family read
them and never the raw text, so that a fault can name the line it was printed on.

>>> origin = Origin(3, 3, "1 2 3 4", 1, (1, 2, 3, 4))
>>> origin.describe()
"printed 1-based on line 3: '1 2 3 4'"
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

#: A line of the output: its number (from 1) and its text.
Line = tuple[int, str]
#: The most characters of a board's printed line(s) kept to trace a fault back.
ORIGIN_TEXT = 200


def shorten(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, ``...`` marking the cut.

    >>> shorten("abcdefgh", 6), shorten("abc", 6)
    ('abc...', 'abc')
    """
    return text if len(text) <= width else text[: width - 3] + "..."


def says_nothing(output: str | Sequence[str]) -> bool:
    """True for an output of blanks only.

    This is how every judge of the checking family (a cross-check, ``verify``,
    campaigns, the bug hunter) reads the silence of a program that exited 0: it
    found no solution. A program that fails says so by its exit status. An XCSP3
    solver is the exception: the competitions' format makes its ``s`` line the answer,
    so its silence is no answer (:func:`~.xcsp.xcsp_answer`).

    >>> says_nothing(" \\n\\n"), says_nothing(["", "92"])
    (True, False)
    """
    lines = output.splitlines() if isinstance(output, str) else output
    return not any(line.strip() for line in lines)


class BadOutput(Exception):
    """An output that cannot be read as an answer (the run's error, in one line)."""


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
        return f"printed{based} on {where}: {shorten(shown, 80)!r}"


@dataclass(frozen=True)
class ParsedOutput:
    """What :func:`cpqueens.parse_boards` read from a program's output.

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
    pairs : str or None
        For boards printed as pairs of coordinates, their order: ``"(row, column)"``
        or ``"(column, row)"`` (the coordinate listed 0, 1, 2... is the row); else None.

    Examples
    --------
    :func:`cpqueens.parse_boards` gives one:

    >>> import cpqueens
    >>> parsed = cpqueens.parse_boards('''Solutions of 4-queens:
    ... Solution 1: 2 4 1 3
    ... Solution 2: 3 1 4 2
    ... 2''', 4)
    >>> parsed.boards, parsed.count, parsed.style, parsed.base
    ([(1, 3, 0, 2), (2, 0, 3, 1)], 2, 'numbers', 1)
    >>> parsed.board_lines, parsed.notes, parsed.invalid_lines
    ((2, 3), ((1, 'Solutions of 4-queens:'),), ())
    >>> parsed.origin(0).describe()
    "printed 1-based on line 2: 'Solution 1: 2 4 1 3'"
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
    pairs: str | None = None
    # Where each board was printed, for tracing a fault back (see origin()).
    raw: Sequence[tuple] = field(default=(), repr=False, compare=False)
    board_bases: Sequence[int | None] = field(default=(), repr=False, compare=False)
    board_ends: tuple[int, ...] = field(default=(), repr=False, compare=False)
    lines: Sequence[str] = field(default=(), repr=False, compare=False)
    document: bool = field(default=False, repr=False, compare=False)

    @property
    def silent(self) -> bool:
        """True when the output holds no line but blanks: a program that exits 0 and
        prints nothing has found no solution, and that is its answer (see
        :func:`says_nothing`)."""
        return not self.ignored and says_nothing(self.lines)

    def origin(self, index: int) -> Origin:
        """How board ``index`` (of ``boards``) was printed: its line(s) and its base.

        >>> from cpqueens import parse_boards
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
        return Origin(first, last, self._text(first, last), base, printed)

    def unread_origins(self) -> tuple[Origin, ...]:
        """Where each of ``invalid_lines`` was printed: its number and its text.

        >>> from cpqueens import parse_boards
        >>> parse_boards("bdac\\n-1 -1 -1 -1", 4).unread_origins()
        (Origin(line=2, last_line=2, text='-1 -1 -1 -1', base=None, printed=None),)
        """
        return tuple(
            Origin(number, number, self._text(number, number), None, None)
            for number, _ in self.invalid_lines
        )

    def first_skipped(self, width: int = 80) -> str | None:
        """The first line read as no board and no count, stripped and cut to ``width``."""
        return shorten(self.skipped[0].strip(), width) if self.skipped else None

    def _text(self, first: int, last: int) -> str | None:
        if first > len(self.lines):
            return None
        return shorten("\n".join(self.lines[first - 1 : last]), ORIGIN_TEXT)
