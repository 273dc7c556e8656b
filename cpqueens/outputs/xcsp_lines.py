"""The pieces of an XCSP3 solver's output, in the XCSP competitions' conventions.

A solver run on the XCSP3 file of an n-queens instance (one variable array ``q``, the
columns counted from 0) prints how its search ended on an ``s`` line (``s
SATISFIABLE``, ``s UNSATISFIABLE``, ``s UNKNOWN``), each solution as one
``<instantiation>`` of ``q`` on one ``v`` line or several, and comments and statistics
on ``c`` and ``d`` lines. This module reads the pieces once:
:mod:`cpqueens.solvers.ace.output` reads ACE's output a line at a time with them,
:mod:`cpqueens.outputs.xcsp` a whole output.

* The colours some solvers print even into a pipe (ACE's: SGR sequences such as
  ``\\x1b[92m``) are taken off; any other control sequence stays and makes its line
  unreadable.
* A status is one of :data:`STATUSES`, in any case and spacing; ``s OPTIMUM FOUND``
  is an optimisation problem's answer and no answer to n-queens.
* An instantiation is read whole: its ``<list>`` names the array (``q[]``), its
  ``<values>`` are n columns, each a whole number of at most nine digits; a ``*``
  (a variable given no value) or a compact form (``0x3``) is no column.

>>> status("  satisfiable ")
'sat'
>>> read_instantiation(
...     "<instantiation> <list> q[] </list> <values> 1 3 0 2 </values> </instantiation>", 4)
((1, 3, 0, 2), None)
>>> read_instantiation(
...     "<instantiation> <list> q[] </list> <values> 1 * 0 2 </values> </instantiation>", 4)
((), Fault(kind='star', found=''))
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: The ``s`` words, as cpqueens names the answers.
STATUSES = {"SATISFIABLE": "sat", "UNSATISFIABLE": "unsat", "UNKNOWN": "unknown"}
#: A colour (an SGR sequence), taken off every line before it is read.
COLOUR = re.compile(r"\x1b\[[0-9;]*m")
#: The end of one instantiation, and so of one solution.
END = re.compile(r"</instantiation\s*>")
_INSTANTIATION = re.compile(
    r"\s*<instantiation\b[^>]*>\s*<list>\s*(?P<list>[^<]*?)\s*</list>\s*"
    r"<values>\s*(?P<values>[^<]*?)\s*</values>\s*</instantiation\s*>\s*",
    re.DOTALL,
)
_VALUES = re.compile(r"<values\s*>(.*?)</values\s*>", re.DOTALL)
_COLUMN = re.compile(r"[0-9]{1,9}")


@dataclass(frozen=True)
class Fault:
    """Why one solution's text is no board: its ``kind``, ``shape`` (no instantiation
    as the format writes it), ``array`` (the list names other variables, ``found``),
    ``star`` (a ``*`` among the values), ``number`` (a value that is no whole number)
    or ``count`` (not n values; ``found`` says how many)."""

    kind: str
    found: str = ""


def uncolour(line: str) -> str:
    """``line`` without the colours a solver printed in it."""
    return COLOUR.sub("", line)


def status_words(words: str) -> str:
    """The words of an ``s`` line (after the ``s``), as :data:`STATUSES` spells them."""
    return " ".join(words.split()).upper()


def status(words: str) -> str | None:
    """The status an ``s`` line's words say (``sat``, ``unsat``, ``unknown``), or None
    for words that are no status."""
    return STATUSES.get(status_words(words))


def is_instantiation(text: str) -> bool:
    """Whether ``text`` (a ``v`` line's, without the ``v``) starts an instantiation."""
    return text.lstrip().startswith("<instantiation")


def read_columns(words: list[str], n: int, base: int = 0) -> tuple[tuple[int, ...], Fault | None]:
    """The columns that ``words`` (the values of one solution) say, counted from 0 for
    values counted from ``base``; or no columns and the :class:`Fault`."""
    if "*" in " ".join(words):
        return (), Fault("star")
    if not all(_COLUMN.fullmatch(word) for word in words):
        return (), Fault("number")
    if len(words) != n:
        return (), Fault("count", str(len(words)))
    return tuple(int(word) - base for word in words), None


def read_instantiation(
    text: str, n: int, array: str = "q", base: int = 0
) -> tuple[tuple[int, ...], Fault | None]:
    """The columns of one ``<instantiation>`` of ``array`` (the text of its ``v``
    lines, without the ``v``), as :func:`read_columns` reads its values; or no columns
    and the :class:`Fault`. Its values are judged before its frame, so that a solution
    cut short says what is wrong with what it holds."""
    values = _VALUES.search(text)
    if values is None:
        return (), Fault("shape")
    board, fault = read_columns(values[1].split(), n, base)
    if fault is not None and fault.kind != "count":
        return (), fault
    match = _INSTANTIATION.fullmatch(text)
    if match is None:
        return (), Fault("shape")
    if match["list"] != f"{array}[]":
        return (), Fault("array", match["list"])
    return board, fault
