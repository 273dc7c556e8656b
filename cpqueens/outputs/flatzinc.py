"""Reading what a FlatZinc solver prints: the solutions, and how its search ended.

A FlatZinc solver (``fzn-gecode``, OR-Tools' ``fzn-cp-sat``, ``fzn-chuffed``...) run
on a ``.fzn`` file that cpqueens wrote prints, as the FlatZinc specification says:

* ``q = array1d(1..n, [c0, c1, ...]);``: a solution, the columns row by row, counted
  from **0** (the file's own numbering; ``base=1`` reads a model that counts from 1);
* ``----------`` after each solution;
* ``==========`` when the search is complete: every solution was printed (``-a``);
* ``=====UNSATISFIABLE=====`` (none exists), ``=====UNKNOWN=====`` (stopped before
  knowing), ``=====ERROR=====`` (the solver failed);
* ``%`` lines: comments and statistics (``%%%mzn-stat: ...``), left alone.

:func:`read_flatzinc_output` reads it into a :class:`FlatZincOutput`: the solutions
and the :data:`STATUSES` word, in MiniZinc's names. Nothing in the text raises: a
line that claims a solution and is none (a board of the wrong size, a solution
never ended by ``----------``, a solution next to ``=====UNSATISFIABLE=====``) is
kept in ``invalid`` with the reason, and the judges call the run wrong. Boards come
back as read, valid or not; :func:`flatzinc_parsed` gives the same reading as the
:class:`~cpqueens.outputs.parsed_output.ParsedOutput` that ``parse="flatzinc"`` makes.

>>> out = read_flatzinc_output('''q = array1d(1..4, [1, 3, 0, 2]);
... ----------
... q = array1d(1..4, [2, 0, 3, 1]);
... ----------
... ==========''', 4)
>>> out.solutions, out.status, out.complete
(((1, 3, 0, 2), (2, 0, 3, 1)), 'all_solutions', True)
>>> read_flatzinc_output("=====UNSATISFIABLE=====", 3).answer
'unsat'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..arguments import check_n
from ..errors import InvalidInputError, InvalidTypeError
from .parsed_output import ParsedOutput

#: How a FlatZinc solver's run ended, in MiniZinc's names: every solution printed
#: (``==========``), some printed and the search not finished, none exists, not known
#: (``=====UNKNOWN=====``, or nothing printed), the solver failed.
STATUSES = ("all_solutions", "satisfied", "unsatisfiable", "unknown", "error")
#: The lines that end a solution and a search.
SEPARATOR = "----------"
COMPLETE = "=========="
_MARKERS = {
    "=====UNSATISFIABLE=====": "unsatisfiable",
    # A satisfaction problem has nothing to be unbounded: what is left is unsatisfiable.
    "=====UNSATorUNBOUNDED=====": "unsatisfiable",
    "=====UNKNOWN=====": "unknown",
    "=====ERROR=====": "error",
}
_ASSIGNMENT = re.compile(r"([A-Za-z][A-Za-z0-9_]*)\s*=\s*(.*?)\s*;")
_ARRAY = re.compile(r"array1d\(\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*,\s*\[(.*)\]\s*\)|\[(.*)\]", re.DOTALL)
_INTEGER = re.compile(r"\s*(-?\d{1,30})\s*")

#: A line of the output (its number from 1, its text) and why it is no solution.
Problem = tuple[int, str, str]


@dataclass(frozen=True)
class FlatZincOutput:
    """What a FlatZinc solver printed, read.

    Attributes
    ----------
    solutions : tuple of tuple
        Each solution printed and ended by ``----------``, as 0-based columns row by
        row, in the order printed (a column off the board kept as read).
    status : str
        One of :data:`STATUSES`.
    invalid : tuple of (int, str, str)
        The lines that claim a solution and are none, or contradict the rest (their
        number, their text, why).
    notes : tuple of (int, str)
        Comments, statistics and anything else printed: shown, not judged.
    board_lines : tuple of int
        The line (from 1) each solution was printed on.

    Examples
    --------
    :func:`cpqueens.read_flatzinc_output` gives one:

    >>> import cpqueens
    >>> out = cpqueens.read_flatzinc_output('''% a comment
    ... q = array1d(1..4, [1, 3, 0, 2]);
    ... ----------
    ... q = array1d(1..4, [2, 0, 3, 1]);
    ... ----------
    ... ==========''', 4)
    >>> out.solutions, out.board_lines, out.notes
    (((1, 3, 0, 2), (2, 0, 3, 1)), (2, 4), ((1, '% a comment'),))
    >>> out.status, out.complete, out.answer
    ('all_solutions', True, 'sat')

    A line that claims a solution and is none is kept, with the reason:

    >>> bad = cpqueens.read_flatzinc_output('''q = array1d(1..4, [1, 3, 0]);
    ... ----------
    ... =====UNKNOWN=====''', 4)
    >>> bad.solutions, bad.status, bad.answer
    ((), 'unknown', 'unknown')
    >>> bad.problems()
    ["line 1: q holds 3 columns, not 4: 'q = array1d(1..4, [1, 3, 0]);'"]
    """

    solutions: tuple[tuple[int, ...], ...]
    status: str
    invalid: tuple[Problem, ...] = ()
    notes: tuple[tuple[int, str], ...] = ()
    board_lines: tuple[int, ...] = ()

    @property
    def complete(self) -> bool:
        """True when the search ran to its end: every solution is printed (none, for
        ``=====UNSATISFIABLE=====``)."""
        return self.status in ("all_solutions", "unsatisfiable")

    @property
    def answer(self) -> str:
        """The decision, in cpqueens' words: ``sat`` (a solution printed), ``unsat``
        or ``unknown`` (the search stopped, or the solver failed, before knowing)."""
        if self.solutions:
            return "sat"
        return "unsat" if self.status == "unsatisfiable" else "unknown"

    def problems(self) -> list[str]:
        """Each invalid line in words: ``line 3: why: 'text'``."""
        return [
            f"line {number}: {why}: {text.strip()[:60]!r}" for number, text, why in self.invalid
        ]


def read_flatzinc_output(text: str | bytes, n: int, *, base: int = 0) -> FlatZincOutput:
    """Read the output of a FlatZinc solver run on an n-queens model such as the
    ``.fzn`` files cpqueens writes (an output array ``q`` of the n columns).

    Parameters
    ----------
    text : str or bytes
        What the solver printed (bytes are decoded as UTF-8, bad bytes replaced).
    n : int
        The board size.
    base : {0, 1}
        The number of the first column: 0 for the files cpqueens writes.

    Returns
    -------
    FlatZincOutput
        The solutions (0-based) and the status; the lines that are no solution.

    Raises
    ------
    InvalidInputError
        For a bad ``n`` or ``base``; nothing in ``text`` raises.

    Examples
    --------
    >>> import cpqueens
    >>> out = cpqueens.read_flatzinc_output('''q = array1d(1..4, [1, 3, 0, 2]);
    ... ----------
    ... q = array1d(1..4, [2, 0, 3, 1]);
    ... ----------
    ... ==========''', 4)
    >>> out.solutions, out.status
    (((1, 3, 0, 2), (2, 0, 3, 1)), 'all_solutions')

    A model that counts its columns from 1, stopped after one solution (bytes, as a
    program's output comes):

    >>> one = cpqueens.read_flatzinc_output(b"q = [2, 4, 1, 3];\\n----------\\n", 4, base=1)
    >>> one.solutions, one.status, one.complete
    (((1, 3, 0, 2),), 'satisfied', False)
    >>> cpqueens.read_flatzinc_output("=====UNSATISFIABLE=====", 3).answer
    'unsat'
    """
    n = check_n(n)
    if isinstance(base, bool) or base not in (0, 1):
        raise InvalidInputError(f"base must be 0 or 1, got {base!r}")
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if not isinstance(text, str):
        raise InvalidTypeError(f"text must be a str or bytes, got {type(text).__name__}")
    return _read(text.splitlines(), n, base)


def _read(lines: list[str], n: int, base: int) -> FlatZincOutput:
    solutions: list[tuple[int, ...]] = []
    where: list[int] = []
    invalid: list[Problem] = []
    notes: list[tuple[int, str]] = []
    pending: tuple[int, str, tuple[int, ...] | None] | None = None  # a q not yet ended
    status: str | None = None
    status_line = 0
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("%"):
            notes.append((number, line))
        elif stripped == SEPARATOR:
            if pending is None:
                invalid.append((number, line, "---------- with no solution before it"))
            elif pending[2] is not None:
                solutions.append(pending[2])
                where.append(pending[0])
            pending = None
        elif stripped == COMPLETE or stripped in _MARKERS:
            if status is not None:
                invalid.append((number, line, f"a second end of the search (line {status_line})"))
                continue
            status, status_line = _MARKERS.get(stripped, "all_solutions"), number
        elif (match := _ASSIGNMENT.fullmatch(stripped)) and match[1] == "q":
            if status is not None:
                invalid.append((number, line, "a solution after the end of the search"))
                continue
            if pending is not None:
                invalid.append((pending[0], pending[1], "a solution not ended by ----------"))
            board, why = _board(match[2], n, base)
            if why is not None:
                invalid.append((number, line, why))
            pending = (number, line, board)
        else:
            notes.append((number, line))
    if pending is not None:
        invalid.append((pending[0], pending[1], "a solution not ended by ----------"))
    if status is None:
        status = "satisfied" if solutions else "unknown"
    elif status == "all_solutions" and not solutions:
        why = "no solution printed (a search that finds none prints =====UNSATISFIABLE=====)"
        invalid.append((status_line, lines[status_line - 1], why))
    elif status in ("unsatisfiable", "unknown") and solutions:
        why = f"printed after {len(solutions)} solution{'' if len(solutions) == 1 else 's'}"
        invalid.append((status_line, lines[status_line - 1], why))
    return FlatZincOutput(
        tuple(solutions), status, tuple(sorted(invalid)), tuple(notes), tuple(where)
    )


def _board(value: str, n: int, base: int) -> tuple[tuple[int, ...] | None, str | None]:
    """The 0-based columns of ``array1d(1..n, [...])`` (or ``[...]``), or why it is none."""
    match = _ARRAY.fullmatch(value.strip())
    if match is None:
        return None, "q is not an array of whole numbers"
    if match[3] is not None and (int(match[1]), int(match[2])) != (1, n):
        return None, f"q is indexed {match[1]}..{match[2]}, not 1..{n}"
    items = match[3] if match[3] is not None else match[4]
    numbers = [_INTEGER.fullmatch(item) for item in items.split(",")] if items.strip() else []
    if not all(numbers):
        return None, "q is not an array of whole numbers"
    if len(numbers) != n:
        return None, f"q holds {len(numbers)} columns, not {n}"
    return tuple(int(number[1]) - base for number in numbers), None


def flatzinc_parsed(lines: list[str], n: int, base: int | None) -> ParsedOutput:
    """The reading of ``parse="flatzinc"``: the solutions as boards; the count, when
    the search was complete, is how many were printed. Every invalid line, and every
    end of the search that says the run did not finish (``=====UNKNOWN=====``,
    ``=====ERROR=====``), is among the ``invalid_lines``, so that a cross-check holds
    it against the run; the format's own lines (``----------``, the other ends of the
    search, ``%`` comments and statistics) are captions. ``base`` None is 0."""
    start = 0 if base is None else base
    read = _read(lines, n, start)
    invalid = {(number, text) for number, text, _ in read.invalid}
    captions = set()
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if _MARKERS.get(stripped) in ("unknown", "error"):
            invalid.add((number, line))
        elif stripped in (SEPARATOR, COMPLETE) or stripped in _MARKERS or stripped[:1] == "%":
            captions.add((number, line))
    captions -= invalid
    notes = set(read.notes) - captions - invalid
    return ParsedOutput(
        boards=list(read.solutions),
        count=len(read.solutions) if read.complete else None,
        style="flatzinc" if read.solutions else None,
        base=start,
        skipped=tuple(text for _, text in sorted(captions | notes | invalid)),
        board_lines=read.board_lines,
        captions=tuple(sorted(captions)),
        notes=tuple(sorted(notes)),
        invalid_lines=tuple(sorted(invalid)),
        raw=[tuple(column + start for column in board) for board in read.solutions],
        board_bases=[start] * len(read.solutions),
        board_ends=read.board_lines,
        lines=lines,
    )
