"""What the text readers share: errors that name the file and line, and a tokenizer.

The Essence' and MiniZinc readers walk the same small tokens (whole numbers,
names, brackets and punctuation), so that a bad number or a stray character is
reported the same way, with its line, whatever the format.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterator
from dataclasses import dataclass

from ...arguments import check_n
from ...errors import InvalidInputError


def located(source: str, line: int | None, message: str) -> InvalidInputError:
    """An error about ``source`` (a file name), at ``line`` when it is known.

    >>> str(located("a.param", 3, "bad number 'x'"))
    "a.param:3: bad number 'x'"
    >>> str(located("a.json", None, "no board size"))
    'a.json: no board size'
    """
    where = source if line is None else f"{source}:{line}"
    return InvalidInputError(f"{where}: {message}")


def line_of(text: str, position: int) -> int:
    """The 1-based line of the character at ``position`` in ``text``."""
    return text.count("\n", 0, position) + 1


@dataclass(frozen=True)
class Token:
    """One token: ``kind`` is "int", "name", "bool" or the punctuation itself."""

    kind: str
    text: str
    line: int

    @property
    def value(self) -> int:
        return int(self.text)


# A number is read up to the first character that cannot continue a word, so that
# "5x" and "1.5" are one bad number (said as such), not two good tokens; ".." after a
# number is MiniZinc's range, not a decimal point.
_TOKEN = re.compile(
    r"""(?P<space>\s+)
      | (?P<number>-?\d(?:\w|\.(?!\.))*)
      | (?P<name>[A-Za-z_][\w']*)
      | (?P<punct>\.\.|[\[\](),;=:])
    """,
    re.VERBOSE,
)
_INTEGER = re.compile(r"-?\d+")


def tokens(text: str, source: str, comment: str) -> Iterator[Token]:
    """The tokens of ``text``, comments (``comment`` to the end of a line) left out.

    >>> [t.text for t in tokens("letting n = 5 $ board size", "f", "$")]
    ['letting', 'n', '=', '5']
    >>> list(tokens("n = 5.5;", "f.dzn", "%"))
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: f.dzn:1: bad number '5.5': a whole number is expected
    """
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split(comment, 1)[0]
        position = 0
        while position < len(line):
            match = _TOKEN.match(line, position)
            if match is None:
                raise located(source, number, f"unexpected character {line[position]!r}")
            position = match.end()
            if match["space"]:
                continue
            if match["number"]:
                if not _INTEGER.fullmatch(match["number"]):
                    raise located(
                        source,
                        number,
                        f"bad number {match['number']!r}: a whole number is expected",
                    )
                yield Token("int", match["number"], number)
            elif match["name"]:
                word = match["name"]
                yield Token("bool" if word in ("true", "false") else "name", word, number)
            else:
                yield Token(match["punct"], match["punct"], number)


class TokenStream:
    """Tokens read one at a time, each refusal naming the file and the line."""

    def __init__(self, text: str, source: str, comment: str):
        self.items = list(tokens(text, source, comment))
        self.source = source
        self.position = 0
        # Where the file ends, for "missing ..." errors: the last line that holds text.
        self.last_line = max(1, len(text.splitlines()))

    def peek(self) -> Token | None:
        return self.items[self.position] if self.position < len(self.items) else None

    def next(self, expected: str) -> Token:
        """The next token, which must be of kind ``expected``."""
        token = self.peek()
        if token is None:
            raise self.error(self.last_line, f"the file ends where {_what(expected)} is expected")
        if token.kind != expected:
            raise self.error(token.line, f"{_what(expected)} is expected, got {token.text!r}")
        self.position += 1
        return token

    def accept(self, kind: str) -> Token | None:
        """The next token when it is of kind ``kind`` (then consumed), else None."""
        token = self.peek()
        if token is not None and token.kind == kind:
            self.position += 1
            return token
        return None

    def error(self, line: int | None, message: str) -> InvalidInputError:
        return located(self.source, line, message)

    def check_name(
        self, name: Token, names: tuple[str, ...], given: Container[str], what: str
    ) -> None:
        """Refuse, at its line, a name that ``what`` (the kind of file) does not give, or
        one already in ``given`` (the names read so far)."""
        if name.text not in names:
            raise self.error(
                name.line, f"unknown name {name.text!r}; {what} gives {', '.join(names)}"
            )
        if name.text in given:
            raise self.error(name.line, f"{name.text!r} is given twice")

    def board_size(self, given: tuple[Token, object] | None, spelled: str) -> int:
        """The board size a file gives (its token and value), checked, or an error at
        its line; ``spelled`` is how the format writes it, for a file without one."""
        if given is None:
            raise self.error(self.last_line, f"the board size is missing: no {spelled} in the file")
        token, n = given
        if not isinstance(n, int):
            raise self.error(token.line, "n must be a whole number")
        try:
            return check_n(n)
        except InvalidInputError as error:
            raise self.error(token.line, str(error)) from None


def _what(kind: str) -> str:
    return {"int": "a whole number", "name": "a name", "bool": "true or false"}.get(
        kind, repr(kind)
    )


#: A square and the line of the file it was read from.
SquareAt = tuple[tuple[int, int], "int | None"]


def check_queens(
    queens: list[SquareAt],
    blocked: list[SquareAt],
    refuse: Callable[[int | None, str], Exception],
    base: int,
) -> None:
    """Refuse two queens given on one row, or a queen on a blocked square, at its line.

    Each square comes with its line; ``base`` is 0 or 1, how the file counts rows and
    columns, so that the message shows the squares as the file writes them.
    """
    closed = {square for square, _ in blocked}
    rows: dict[int, int] = {}
    for (row, column), line in queens:
        shown = f"[{row + base}, {column + base}]"
        if rows.get(row, column) != column:
            raise refuse(
                line,
                f"two queens given on row {row + base} (columns {rows[row] + base} and "
                f"{column + base}); at most one queen a row",
            )
        rows[row] = column
        if (row, column) in closed:
            raise refuse(line, f"the queen given on {shown} stands on a blocked square")
