"""Essence' parameter files (``.param``, ``.eprime-param``), 1-based.

The form written by the blocked n-queens generator of Gent, Jefferson and
Nightingale (CSPLib problem 80) and found in the XCSP 2022 blocked-queens set::

    letting n = 5
    letting blocks = [[1,1],
    [2,4],
    ]

Squares are ``[row, column]`` pairs numbered from 1. The queens given in advance
of a completion instance are listed the same way under the name ``queens``.
Whitespace and line breaks may fall anywhere, a comma may trail before ``]``,
``$`` starts a comment, ``letting x be ...`` is read like ``letting x = ...``, a
``language ESSENCE' 1.0`` line is skipped and a matrix may carry its index
domain (``[[1,1]; int(1..1)]``). Any other name is refused, so that a misspelt
``block`` is not silently read as no blocked square at all.

>>> from cpqueens import Instance
>>> text = format_essence(Instance(5, fixed={2: 2}, blocked=[(0, 0), (1, 3)]))
>>> print(text, end="")
$ 5-queens: 2 blocked squares, 1 given queen; [row, column] from 1
letting n = 5
letting blocks = [
  [1, 1],
  [2, 4]
]
letting queens = [
  [3, 3]
]
>>> parse_essence(text, "x.param")
Instance(n=5, fixed=((2, 2),), blocked=((0, 0), (1, 3)))
"""

from __future__ import annotations

import re

from ._text import SquareAt, Token, TokenStream, check_queens, describe
from .instance import Instance

#: The names an Essence' instance file may give: the board size, the blocked
#: squares, the queens given in advance.
NAMES = ("n", "blocks", "queens")

_LANGUAGE = re.compile(r"^[ \t]*language\b[^\n]*", re.MULTILINE)


def looks_like_essence(text: str) -> bool:
    """Whether ``text`` opens as an Essence' parameter file: its first word, comments
    and a ``language`` line aside, is ``letting``.

    >>> looks_like_essence("$ made by hand\\nletting n = 4\\n"), looks_like_essence("n = 4;")
    (True, False)
    """
    for raw in _LANGUAGE.sub("", text).splitlines():
        line = raw.split("$", 1)[0].strip()
        if line:
            return line.split()[0] == "letting"
    return False


def parse_essence(text: str, source: str = "<text>") -> Instance:
    """Read an Essence' parameter file's text; ``source`` names it in errors."""
    # The language line holds "1.0", no whole number: blank it, keeping the lines.
    stream = TokenStream(_LANGUAGE.sub("", text), source, "$")
    values: dict[str, tuple[Token, object]] = {}
    while stream.peek() is not None:
        keyword = stream.next("name")
        if keyword.text != "letting":
            raise stream.error(keyword.line, f"'letting' is expected, got {keyword.text!r}")
        name = stream.next("name")
        if name.text not in NAMES:
            raise stream.error(
                name.line,
                f"unknown name {name.text!r}; an instance file gives {', '.join(NAMES)}",
            )
        if name.text in values:
            raise stream.error(name.line, f"{name.text!r} is given twice")
        if not stream.accept("="):
            word = stream.accept("name")
            if word is None or word.text != "be":
                token = stream.peek()
                got = "the end of the file" if token is None else repr(token.text)
                raise stream.error(
                    name.line if token is None else token.line, f"'=' is expected, got {got}"
                )
        values[name.text] = (name, _value(stream))
    n = stream.board_size(values.get("n"), "'letting n = ...'")
    queens = _squares(stream, values.get("queens"), n)
    blocked = _squares(stream, values.get("blocks"), n)
    check_queens(queens, blocked, stream.error, base=1)
    return Instance(
        n, fixed=[square for square, _ in queens], blocked=[square for square, _ in blocked]
    )


def _value(stream: TokenStream) -> object:
    """A whole number, or a matrix: ``[value, ...]`` with an optional trailing comma
    and an optional ``; index domain`` before the closing bracket."""
    number = stream.accept("int")
    if number is not None:
        return number.value
    opening = stream.peek()
    if opening is None or opening.kind != "[":
        got = "the end of the file" if opening is None else repr(opening.text)
        line = stream.last_line if opening is None else opening.line
        raise stream.error(line, f"a whole number or a matrix [...] is expected, got {got}")
    stream.position += 1
    items: list[object] = []
    lines: list[int] = []
    while stream.peek() is not None and stream.peek().kind not in ("]", ";"):
        token = stream.peek()
        lines.append(token.line)
        items.append(_value(stream))
        if not stream.accept(","):
            break
    if stream.accept(";"):
        _skip_domain(stream, opening)
    else:
        closing = stream.peek()
        if closing is None:
            raise stream.error(stream.last_line, f"the '[' of line {opening.line} is never closed")
        if closing.kind != "]":
            raise stream.error(closing.line, f"',' or ']' is expected, got {closing.text!r}")
        stream.position += 1
    return _Matrix(items, lines, opening.line)


def _skip_domain(stream: TokenStream, opening: Token) -> None:
    """Pass over an index domain such as ``int(1..3)`` up to the matrix's own ``]``."""
    depth = 0
    while True:
        token = stream.peek()
        if token is None:
            raise stream.error(stream.last_line, f"the '[' of line {opening.line} is never closed")
        stream.position += 1
        if token.kind == "[":
            depth += 1
        elif token.kind == "]":
            if depth == 0:
                return
            depth -= 1


class _Matrix(list):
    """A matrix's items, with the line each starts on (for errors)."""

    def __init__(self, items: list[object], lines: list[int], line: int):
        super().__init__(items)
        self.lines = lines
        self.line = line


def _squares(stream: TokenStream, given: tuple[Token, object] | None, n: int) -> list[SquareAt]:
    """The 1-based ``[row, column]`` pairs of a matrix as 0-based squares, each checked."""
    if given is None:
        return []
    token, matrix = given
    what = "blocked square" if token.text == "blocks" else "given queen"
    if not isinstance(matrix, _Matrix):
        raise stream.error(token.line, f"{token.text} must be a matrix of [row, column] pairs")
    squares = []
    for pair, line in zip(matrix, matrix.lines, strict=True):
        whole = isinstance(pair, _Matrix) and all(isinstance(value, int) for value in pair)
        if not (whole and len(pair) == 2):
            raise stream.error(line, f"a {what} must be a [row, column] pair of whole numbers")
        row, column = pair
        if not (1 <= row <= n and 1 <= column <= n):
            raise stream.error(
                line,
                f"{what} [{row}, {column}] is off the board: rows and columns run "
                f"1..{n} in an Essence' file (counted from 1)",
            )
        squares.append(((row - 1, column - 1), line))
    return squares


def format_essence(instance: Instance) -> str:
    """The instance as an Essence' parameter file (1-based), one pair a line.

    ``blocks`` and ``queens`` are written only when not empty: an empty matrix
    has no type in Essence' without an annotation that the readers of these files
    do not expect.
    """
    lines = [f"$ {describe(instance)}; [row, column] from 1", f"letting n = {instance.n}"]
    for name, squares in (("blocks", instance.blocked), ("queens", instance.fixed)):
        if squares:
            pairs = ",\n".join(f"  [{row + 1}, {column + 1}]" for row, column in squares)
            lines.append(f"letting {name} = [\n{pairs}\n]")
    return "\n".join(lines) + "\n"
