"""Reading what a SAT solver prints, in the SAT competitions' conventions.

A solver run on the DIMACS CNF file cpqueens wrote (square ``(r, c)`` is variable
``r * n + c + 1``; see :mod:`cpqueens.instances.formats.cnf`) prints:

* ``s SATISFIABLE``, ``s UNSATISFIABLE`` or ``s UNKNOWN``;
* ``v`` lines: the model, one literal a variable (``-5`` false, ``5`` true), over one
  ``v`` line or several, ended by ``0``;
* ``c`` lines: comments and statistics, left alone.

Its exit status says the same (10 satisfiable, 20 unsatisfiable), so neither is a
failure (:class:`~cpqueens.Command` takes them for a ``"cnf"`` command). The model is
read as a board: each row's square variables, exactly one of them true; a row with
no queen or two, a square given no value or both, a word that is no literal are each
kept in ``invalid`` with the reason, and the judges call the run wrong. The
variables past the squares (an encoding's own) are the solver's business.

>>> out = read_dimacs_output('''c a comment
... s SATISFIABLE
... v -1 2 -3 -4 -5 -6 -7 8 9 -10 -11 -12
... v -13 -14 15 -16 0''', 4)
>>> out.status, out.solutions
('sat', ((1, 3, 0, 2),))
>>> read_dimacs_output("s SATISFIABLE\\nv 1 2 -3 -4 0", 2).problems()
["line 2: row 0 (counted from 0) holds 2 queens, row 1 (counted from 0) holds 0 queens: \
'v 1 2 -3 -4 0'"]
"""

from __future__ import annotations

from typing import Any

from ..board import rows_named
from .parsed_output import ParsedOutput
from .xcsp import Problem, XcspOutput, answer_of, parsed_of, status_of
from .xcsp_lines import status_words, uncolour

#: The exit statuses of a SAT solver that are answers, not failures.
ANSWER_STATUSES = (10, 20)


def read_dimacs_output(text: str | bytes, n: int) -> XcspOutput:
    """Read the output of a SAT solver for a board of size ``n`` (see the module)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    lines = [uncolour(line) for line in text.splitlines()]
    invalid: list[Problem] = []
    notes: list[tuple[int, str]] = []
    statuses: list[tuple[int, str]] = []
    model: list[str] = []
    first = None  # the line the model starts on
    for number, line in enumerate(lines, 1):
        head, _, rest = line.strip().partition(" ")
        if head == "v":
            first = first or number
            model += rest.split()
        elif head == "s" and rest.strip():
            statuses.append((number, status_words(rest)))
        elif line.strip():
            notes.append((number, line))
    solutions: tuple[tuple[int, ...], ...] = ()
    if first is not None:
        board, why = _board(model, n)
        if why is None:
            solutions = (board,)
        else:
            invalid.append((first, lines[first - 1], why))
    status = status_of(statuses, lines, invalid)
    if status is None and solutions:
        status = "sat"
    if status in ("unsat", "unknown") and first is not None:
        word = "UNSATISFIABLE" if status == "unsat" else "UNKNOWN"
        invalid.append((first, lines[first - 1], f"a model beside s {word}"))
    if status == "sat" and first is None:
        number = statuses[0][0]
        invalid.append((number, lines[number - 1], "s SATISFIABLE without a model (v lines)"))
    starts = (first,) if solutions else ()
    return XcspOutput(solutions, status, tuple(sorted(invalid)), tuple(notes), starts,
                      tuple(number for number, _ in statuses))  # fmt: skip


def _board(words: list[str], n: int) -> tuple[tuple[int, ...], str | None]:
    """The board a model's literals say, or why they say none."""
    values: dict[int, bool] = {}
    clashes: list[int] = []
    for word in words:
        try:
            literal = int(word)
        except ValueError:
            return (), f"{word[:20]!r} is no literal (a whole number)"
        if literal == 0:
            break  # the end of the model
        if values.get(abs(literal), literal > 0) != (literal > 0):
            clashes.append(abs(literal))
        values[abs(literal)] = literal > 0
    problems = [f"variable {v} is both true and false" for v in clashes[:1]]
    board = []
    for row in range(n):
        squares = range(row * n + 1, row * n + n + 1)
        unset = [v for v in squares if v not in values]
        queens = [v - row * n - 1 for v in squares if values.get(v)]
        if len(queens) != 1:
            problems.append(f"{rows_named(row)} holds {len(queens)} queens")
        if unset:
            problems.append(f"square {unset[0]}, in {rows_named(row)}, has no value")
        board.append(queens[0] if queens else -1)
    if problems:
        return (), ", ".join(problems[:3])
    return tuple(board), None


def dimacs_parsed(text: str, n: int) -> ParsedOutput:
    """The reading as a :class:`~cpqueens.outputs.parsed_output.ParsedOutput` (see
    :func:`~cpqueens.outputs.xcsp.xcsp_parsed`): the model's board, the count
    0 for ``s UNSATISFIABLE``, ``s UNKNOWN`` and every invalid line among the invalid.

    >>> dimacs_parsed("s UNSATISFIABLE", 3).count
    0
    """
    return parsed_of(read_dimacs_output(text, n), text, own=("c",), style="dimacs")


def dimacs_answer(text: str, n: int, question: str) -> dict[str, Any]:
    """The answer of a SAT solver to ``question`` (see
    :func:`~cpqueens.outputs.xcsp.xcsp_answer`): a model is one solution.

    >>> dimacs_answer("s UNSATISFIABLE", 3, "decide")["answer"]
    'unsat'
    """
    return answer_of(read_dimacs_output(text, n), question, "no s line and no v line")
