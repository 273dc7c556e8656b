"""Essence' parameter files (``.param``, ``.eprime-param``), each name with its numbering.

The form written by the blocked n-queens generator of Gent, Jefferson and
Nightingale (CSPLib problem 80) and found in the XCSP 2022 blocked-queens set::

    letting n = 5
    letting blocks = [[1,1],
    [2,4],
    ]

Squares are ``[row, column]`` pairs. Under ``blocks`` and ``queens`` (the queens
given in advance of a completion instance, as cpqueens writes them) they are
numbered from **1**. Under ``init`` they are numbered from **0**: the given queens
as Gent's completion generator (``queens-gen-fast.py``, CSPLib problem 79) and his
reduction of Excluded Diagonals (``queens-diag-transform.py``) print them::

    letting n =  8
    letting init =  [[3, 5], [0, 2]]

A file's numbering is told by its names, and never guessed: a file that gives
``init`` beside ``queens`` or ``blocks`` (two numberings in one file), a row or
column 0 under a name numbered from 1, or a row or column n under ``init``, is
refused with the reason, since such a file may well be numbered the other way.
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
>>> parse_essence("letting n =  8\\nletting init =  [[3, 5], [0, 2]]\\n", "gent.param")
Instance(n=8, fixed=((0, 2), (3, 5)))
"""

from __future__ import annotations

import re

from ..instance import Instance, describe
from .text import SquareAt, Token, TokenStream, check_queens

#: The names an Essence' instance file may give: the board size, the blocked
#: squares, the queens given in advance (numbered from 1, or from 0 under ``init``).
NAMES = ("n", "blocks", "queens", "init")
#: The number of the first row and column under each name that lists squares.
BASES = {"blocks": 1, "queens": 1, "init": 0}
#: Who writes ``init`` files, for the messages.
_INIT_WRITERS = "as Gent's completion generator writes them"

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
    base = _numbering(stream, values)
    queens = _squares(stream, values.get("init", values.get("queens")), n)
    blocked = _squares(stream, values.get("blocks"), n)
    check_queens(queens, blocked, stream.error, base=base)
    return Instance(
        n, fixed=[square for square, _ in queens], blocked=[square for square, _ in blocked]
    )


def _numbering(stream: TokenStream, values: dict[str, tuple[Token, object]]) -> int:
    """The file's first row and column number, told by its names: 0 with ``init``,
    else 1. ``init`` beside a name numbered from 1 is refused at the second one."""
    if "init" not in values:
        return 1
    others = [values[name][0] for name in ("queens", "blocks") if name in values]
    if others:
        init, other = values["init"][0], others[0]
        later = max(init, other, key=lambda token: token.line)
        advice = (
            "a file gives its queens once"
            if other.text == "queens"
            else "give blocked squares with their queens under 'queens', from 1"
        )
        raise stream.error(
            later.line,
            f"'init' (line {init.line}) lists squares from 0, {_INIT_WRITERS}, and "
            f"'{other.text}' (line {other.line}) from 1: the file's numbering cannot be "
            f"told, and is not guessed; {advice}",
        )
    return 0


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
    """The ``[row, column]`` pairs of a matrix as 0-based squares, each checked, read
    from the numbering of its name (:data:`BASES`)."""
    if given is None:
        return []
    token, matrix = given
    base = BASES[token.text]
    what = "blocked square" if token.text == "blocks" else "given queen"
    if not isinstance(matrix, _Matrix):
        raise stream.error(token.line, f"{token.text} must be a matrix of [row, column] pairs")
    squares = []
    for pair, line in zip(matrix, matrix.lines, strict=True):
        whole = isinstance(pair, _Matrix) and all(isinstance(value, int) for value in pair)
        if not (whole and len(pair) == 2):
            raise stream.error(line, f"a {what} must be a [row, column] pair of whole numbers")
        row, column = pair
        if not (base <= row < n + base and base <= column < n + base):
            raise stream.error(line, _off_board(what, token.text, row, column, n))
        squares.append(((row - base, column - base), line))
    return squares


def _off_board(what: str, name: str, row: int, column: int, n: int) -> str:
    """Why ``[row, column]`` under ``name`` is refused: off the board, or on it only
    in the other numbering (then the file's numbering cannot be told)."""
    shown = f"{what} [{row}, {column}]"
    if BASES[name] == 1 and 0 in (row, column) and 0 <= min(row, column) <= max(row, column) < n:
        return (
            f"{shown} has a row or column 0, but '{name}' counts from 1 (rows and "
            f"columns 1..{n}): the file may be numbered from 0, so it is refused rather "
            f"than guessed (queens numbered from 0 go under 'init', {_INIT_WRITERS})"
        )
    if BASES[name] == 0 and n in (row, column) and 0 < min(row, column) <= max(row, column) <= n:
        return (
            f"{shown} has a row or column {n}, but 'init' counts from 0 (rows and columns "
            f"0..{n - 1}, {_INIT_WRITERS}): the file may be numbered from 1, so it is "
            "refused rather than guessed (queens numbered from 1 go under 'queens')"
        )
    first = BASES[name]
    return (
        f"{shown} is off the board: rows and columns run {first}..{n - 1 + first} under "
        f"'{name}' (counted from {first})"
    )


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
