"""Excluded Diagonals files (CSPLib problem 79), as Gent's generator writes them::

    n =  10
    numdiags =  14
    diags =  [[4, 1], [2, 1], [14, 0], [8, 1], [8, 0], [7, 0], [3, 1], [12, 1], [18, 0],
    [5, 0], [14, 1], [0, 0], [15, 1], [17, 1]]

No ``letting``: the board size, how many diagonals the file lists, and the diagonals
as ``[k, kind]`` pairs, rows and columns counted from 0: ``[k, 1]`` is the sum
diagonal row + column = k, ``[k, 0]`` the difference diagonal row - column =
k - (n - 1). No queen may stand on an excluded diagonal.

A file is not one instance but many: the generator lists a maximal set of diagonals
in a random order, and an instance is the file with a number d, its FIRST d
diagonals (any other subset is not a valid sample, says its documentation). So the
reader asks for d, and refuses a file read without it, saying how many diagonals it
holds, rather than guessing. The instance is written back in the same form, its d
diagonals in order (``numdiags = d``), byte for byte as the generator prints it, so
that Gent's own scripts read what cpqueens writes.

>>> text = "n =  4\\nnumdiags =  3\\ndiags =  [[3, 1], [0, 0], [6, 1]]\\n"
>>> inst = parse_diagonals(text, "d.param", 2)
>>> inst
Instance(n=4, diagonals=((3, 1), (0, 0)))
>>> print(format_diagonals(inst), end="")
n =  4
numdiags =  2
diags =  [[3, 1], [0, 0]]
>>> parse_diagonals(text, "d.param", None)
Traceback (most recent call last):
...
cpqueens.errors.InvalidInputError: d.param: an Excluded Diagonals file (CSPLib problem \
79) of 3 diagonals, each first D of them an instance: say which D (diagonals=D, or \
--diagonals D), from 0 to 3
"""

from __future__ import annotations

import re

from ...arguments import check_int
from ...errors import InvalidInputError
from ..instance import Diagonal, Instance
from .text import Token, TokenStream

#: The names an Excluded Diagonals file gives, in the order the generator writes them.
NAMES = ("n", "numdiags", "diags")

# The first word of the file, comment lines ($ ...) aside, and its "="; and a list.
_OPENING = re.compile(r"\A(?:\s*\$[^\n]*\n)*\s*(?:n|numdiags|diags)\s*=")
_LIST = re.compile(r"\b(?:num)?diags\s*=")


def looks_like_diagonals(text: str) -> bool:
    """Whether ``text`` is an Excluded Diagonals file: ``n =``, ``numdiags =`` or
    ``diags =`` first (an Essence' file opens with ``letting``), and ``diags`` or
    ``numdiags`` given.

    >>> looks_like_diagonals("n =  8\\nnumdiags =  0\\ndiags =  []")
    True
    >>> looks_like_diagonals("letting n = 8"), looks_like_diagonals("n = 8;")
    (False, False)
    """
    return _OPENING.match(text) is not None and _LIST.search(text) is not None


def parse_diagonals(
    text: str, source: str = "<text>", diagonals: object = None, *, stem: str | None = None
) -> Instance:
    """Read an Excluded Diagonals file's text and take its first ``diagonals`` (d) pairs.

    ``source`` names the file in errors. Without d the file is refused, with the number
    of diagonals it holds; a d past them is refused with the range. With ``stem`` (the
    file's stem) the instance is named after it and d: ``diag-10-4-1-d6``.
    """
    stream = TokenStream(text, source, "$")
    values: dict[str, tuple[Token, object]] = {}
    while stream.peek() is not None:
        name = stream.next("name")
        stream.check_name(name, NAMES, values, "an Excluded Diagonals file")
        stream.next("=")
        values[name.text] = (name, _pairs(stream) if name.text == "diags" else _number(stream))
    n = stream.board_size(values.get("n"), "'n = ...'")
    for missing in ("numdiags", "diags"):
        if missing not in values:
            raise stream.error(stream.last_line, f"no '{missing} = ...' in the file")
    pairs = _checked(stream, values["diags"][1], n)  # type: ignore[arg-type]
    token, stated = values["numdiags"]
    if stated != len(pairs):
        raise stream.error(
            token.line, f"numdiags = {stated}, but diags lists {len(pairs)} diagonals"
        )
    if diagonals is None:
        raise stream.error(
            None,
            f"an Excluded Diagonals file (CSPLib problem 79) of {len(pairs)} diagonals, "
            "each first D of them an instance: say which D (diagonals=D, or --diagonals "
            f"D), from 0 to {len(pairs)}",
        )
    d = check_int(diagonals, "diagonals", 0)
    if d > len(pairs):
        raise stream.error(
            None,
            f"diagonals={d} is out of range: the file holds {len(pairs)} diagonals, and an "
            f"instance is its first D, D from 0 to {len(pairs)}",
        )
    try:
        return Instance(n, diagonals=pairs[:d], name=None if stem is None else name_of(stem, d))
    except InvalidInputError as error:  # the squares past the bound, in the file's words
        raise stream.error(None, str(error)) from None


def name_of(stem: str, d: int) -> str:
    """The name of the instance of a file's first ``d`` diagonals: its stem and d (a
    stem that already ends so, a file cpqueens wrote, is kept).

    >>> name_of("diag-10-4-1", 6), name_of("diag-10-4-1-d6", 6)
    ('diag-10-4-1-d6', 'diag-10-4-1-d6')
    """
    return stem if stem.endswith(f"-d{d}") else f"{stem}-d{d}"


def _number(stream: TokenStream) -> int:
    return stream.next("int").value


def _pairs(stream: TokenStream) -> list[tuple[tuple[int, int], int]]:
    """``[[k, kind], ...]`` (a comma may trail), each pair with its line."""
    opening = stream.next("[")
    pairs: list[tuple[tuple[int, int], int]] = []
    while stream.peek() is not None and stream.peek().kind == "[":
        start = stream.next("[")
        k = stream.next("int").value
        stream.next(",")
        kind = stream.next("int").value
        stream.next("]")
        pairs.append(((k, kind), start.line))
        if not stream.accept(","):
            break
    if stream.peek() is None:
        raise stream.error(stream.last_line, f"the '[' of line {opening.line} is never closed")
    stream.next("]")
    return pairs


def _checked(
    stream: TokenStream, pairs: list[tuple[tuple[int, int], int]], n: int
) -> list[Diagonal]:
    """Every pair of the file checked (not only the first d: a bad pair is a bad file),
    at its line."""
    seen: dict[Diagonal, int] = {}
    for (k, kind), line in pairs:
        if kind not in (0, 1):
            raise stream.error(
                line, f"[{k}, {kind}]: the kind of a diagonal is 1 (sum) or 0 (difference)"
            )
        if not 0 <= k <= 2 * n - 2:
            raise stream.error(
                line,
                f"[{k}, {kind}] is off the board: diagonals run over 0..{2 * n - 2} "
                f"on a {n}-board (counted from 0, differences offset by n - 1)",
            )
        if (k, kind) in seen:
            raise stream.error(
                line, f"[{k}, {kind}] is listed twice (first on line {seen[(k, kind)]})"
            )
        seen[(k, kind)] = line
    return list(seen)


def format_diagonals(instance: Instance) -> str:
    """An Excluded Diagonals instance as a problem 79 file of its ``d`` diagonals, as the
    generator prints it (no comment: Gent's scripts read every number in the file)."""
    if instance.diagonals is None:
        raise InvalidInputError(
            "only an Excluded Diagonals instance (made with diagonals=) is written as one"
        )
    listed = ", ".join(f"[{k}, {kind}]" for k, kind in instance.diagonals)
    return f"n =  {instance.n}\nnumdiags =  {len(instance.diagonals)}\ndiags =  [{listed}]\n"
