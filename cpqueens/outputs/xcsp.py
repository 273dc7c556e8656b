"""Reading what an XCSP3 solver prints, in the XCSP competitions' conventions.

A solver run on the XCSP3 file cpqueens wrote (one variable array ``q``, the columns
counted from 0) prints:

* ``s SATISFIABLE``, ``s UNSATISFIABLE`` or ``s UNKNOWN``: how its search ended (at
  most one kind of it; ``s UNKNOWN`` never means that there is no solution);
* ``v <instantiation> <list> q[] </list> <values> 1 3 0 2 </values> </instantiation>``:
  a solution, on one ``v`` line or several; several instantiations are several
  solutions (a solver listing every one prints one each);
* ``c`` and ``d`` lines: comments and statistics, left alone.

The pieces are read as :mod:`cpqueens.outputs.xcsp_lines` reads them for ACE too: the
status words, the colours some solvers print even into a pipe (ACE's), taken off
first, and each instantiation, whose list must name ``q[]`` and whose values must be n
columns (whole numbers, no ``*``). Plain ``v`` lines of n whole numbers, without an
instantiation, are read as one solution. Nothing in the text raises: a ``v`` block
that is no board of size n, a solution beside ``s UNSATISFIABLE`` or ``s UNKNOWN``,
``s SATISFIABLE`` with no solution, two different ``s`` lines: each is kept in
``invalid`` with the reason, and the judges call the run wrong.

>>> out = read_xcsp_output('''s SATISFIABLE
... v <instantiation> <list> q[] </list> <values> 1 3 0 2 </values> </instantiation>
... v <instantiation> <list> q[] </list> <values> 2 0 3 1 </values> </instantiation>''', 4)
>>> out.status, out.solutions
('sat', ((1, 3, 0, 2), (2, 0, 3, 1)))
>>> read_xcsp_output("v 1 3 0", 4).problems()
["line 1: the values are 3 columns, not 4: 'v 1 3 0'"]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .parsed_output import BadOutput, ParsedOutput
from .xcsp_lines import (
    END,
    STATUSES,
    Fault,
    read_columns,
    read_instantiation,
    status_words,
    uncolour,
)

#: A fault of one solution's ``v`` text, in words (the ``count`` one says its numbers).
_FAULTS = {
    "shape": "not an instantiation of q[] (<instantiation> <list> q[] </list> "
    "<values> ... </values> </instantiation>)",
    "array": "an instantiation of {found!r}, not of the array q[]",
    "star": "a * among the values (a variable given none)",
    "number": "the values are not whole numbers",
    "count": "the values are {found} columns, not {n}",
}

#: A line of the output (its number from 1, its text) and why it is no answer.
Problem = tuple[int, str, str]


@dataclass(frozen=True)
class XcspOutput:
    """What an XCSP3 solver printed, read: its solutions (0-based columns, as read),
    its status (``sat``, ``unsat``, ``unknown``; None without an ``s`` line or a
    solution), the lines that are no answer (``invalid``: number, text, why), the
    other lines (``notes``), the line each solution starts on and the ``s`` lines'."""

    solutions: tuple[tuple[int, ...], ...]
    status: str | None
    invalid: tuple[Problem, ...] = ()
    notes: tuple[tuple[int, str], ...] = ()
    board_lines: tuple[int, ...] = ()
    status_lines: tuple[int, ...] = ()

    def problems(self) -> list[str]:
        """Each invalid line in words: ``line 3: why: 'text'``."""
        return [
            f"line {number}: {why}: {text.strip()[:60]!r}" for number, text, why in self.invalid
        ]


def read_xcsp_output(text: str | bytes, n: int) -> XcspOutput:
    """Read the output of an XCSP3 solver for a board of size ``n`` (see the module)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    lines = [uncolour(line) for line in text.splitlines()]
    solutions: list[tuple[int, ...]] = []
    starts: list[int] = []
    invalid: list[Problem] = []
    notes: list[tuple[int, str]] = []
    statuses: list[tuple[int, str]] = []
    block: list[tuple[int, str]] = []  # the v lines of a solution not yet ended

    def close() -> None:
        if block:
            board, why = _board(" ".join(value for _, value in block), n)
            if why is None:
                solutions.append(board)
                starts.append(block[0][0])
            else:
                invalid.append((block[0][0], lines[block[0][0] - 1], why))
            block.clear()

    for number, line in enumerate(lines, 1):
        head, _, rest = line.strip().partition(" ")
        if head == "v":
            block.append((number, rest))
            if END.search(rest):
                close()  # one instantiation, one solution
            continue
        close()  # plain v lines end where another line starts
        if head == "s" and rest.strip():
            statuses.append((number, status_words(rest)))
        elif line.strip():
            notes.append((number, line))
    close()
    status = status_of(statuses, lines, invalid)
    if status is None and solutions:
        status = "sat"
    if status in ("unsat", "unknown") and solutions:
        word = "UNSATISFIABLE" if status == "unsat" else "UNKNOWN"
        invalid.append((starts[0], lines[starts[0] - 1], f"a solution beside s {word}"))
    if status == "sat" and not solutions and not invalid:
        number = statuses[0][0]
        invalid.append((number, lines[number - 1], "s SATISFIABLE without a solution (v lines)"))
    return XcspOutput(tuple(solutions), status, tuple(sorted(invalid)), tuple(notes),
                      tuple(starts), tuple(number for number, _ in statuses))  # fmt: skip


def status_of(
    statuses: list[tuple[int, str]], lines: list[str], invalid: list[Problem]
) -> str | None:
    """The one status of the ``s`` lines; an unknown word or a second kind is invalid."""
    status = None
    for number, word in statuses:
        if word not in STATUSES:
            allowed = ", ".join(STATUSES)
            invalid.append((number, lines[number - 1], f"an unknown status (allowed: {allowed})"))
        elif status is None:
            status = STATUSES[word]
        elif STATUSES[word] != status:
            invalid.append((number, lines[number - 1], "a second, different s line"))
    return status


def _board(value: str, n: int) -> tuple[tuple[int, ...], str | None]:
    """The 0-based columns of one solution's ``v`` text, or why it is none."""
    if "<" in value:
        board, fault = read_instantiation(value, n)
    else:
        board, fault = read_columns(value.split(), n)
    return board, None if fault is None else _words(fault, n)


def _words(fault: Fault, n: int) -> str:
    return _FAULTS[fault.kind].format(found=fault.found, n=n)


def xcsp_parsed(text: str, n: int) -> ParsedOutput:
    """The same reading as a :class:`~cpqueens.outputs.parsed_output.ParsedOutput`, for a
    cross-check of every solution: the solutions as boards, the count 0 when the
    output says ``s UNSATISFIABLE``, and every invalid line (``s UNKNOWN`` among them:
    a search that stopped before knowing is no answer) among the ``invalid_lines``.

    >>> parsed = xcsp_parsed("s UNKNOWN", 4)
    >>> parsed.boards, parsed.count, parsed.invalid_lines
    ([], None, ((1, 's UNKNOWN'),))
    """
    return parsed_of(read_xcsp_output(text, n), text, own=("c", "d"))


def parsed_of(
    read: XcspOutput, text: str, *, own: tuple[str, ...], style: str = "xcsp"
) -> ParsedOutput:
    """A competition output's reading (XCSP3's, or a SAT solver's: see
    :mod:`.dimacs`) as a :class:`~cpqueens.outputs.parsed_output.ParsedOutput`;
    ``own``: the first words of the format's comment lines; ``style``: its name."""
    lines = [uncolour(line) for line in text.splitlines()]
    invalid = {(number, line) for number, line, _ in read.invalid}
    said = {(number, lines[number - 1]) for number in read.status_lines}
    if read.status == "unknown":
        invalid |= said
    # The format's own comment and statistics lines are shown no more than its s line.
    own_lines = {(number, line) for number, line in read.notes if line.split()[0] in own}
    captions = tuple(sorted((said | own_lines) - invalid))
    notes = tuple(sorted(set(read.notes) - own_lines - invalid))
    return ParsedOutput(
        boards=list(read.solutions),
        count=0 if read.status == "unsat" and not read.solutions else None,
        style=style if read.solutions else None,
        base=0,
        skipped=tuple(line for _, line in sorted({*notes, *captions, *invalid})),
        board_lines=read.board_lines,
        captions=captions,
        notes=notes,
        invalid_lines=tuple(sorted(invalid)),
        raw=list(read.solutions),
        board_bases=[0] * len(read.solutions),
        board_ends=read.board_lines,
        lines=lines,
    )


def xcsp_answer(text: str, n: int, question: str) -> dict[str, Any]:
    """The answer of an XCSP3 solver to a campaign's ``question`` (``decide``,
    ``count``, ``all``), as :func:`~cpqueens.outputs.answers.read_answer` gives it:
    ``answer``, ``solutions``, ``invalid`` and, when the search was complete, the
    ``count`` (for ``count`` and ``all``, one solution a ``v`` block: a solver must
    print every one). ``s UNKNOWN`` answers ``unknown``, never "no solution".

    >>> xcsp_answer("s UNSATISFIABLE", 3, "count")
    {'answer': 'unsat', 'solutions': [], 'count': 0, 'invalid': []}
    >>> xcsp_answer("s UNKNOWN", 4, "decide")["answer"]
    'unknown'

    Raises
    ------
    BadOutput
        For an output with neither an ``s`` line nor a ``v`` line: no answer at all.
    """
    return answer_of(
        read_xcsp_output(text, n),
        question,
        "no s line (s SATISFIABLE / s UNSATISFIABLE / s UNKNOWN) and no v line",
    )


def answer_of(read: XcspOutput, question: str, nothing: str) -> dict[str, Any]:
    """A competition output's answer to ``question`` (see :func:`xcsp_answer`);
    ``nothing``: what an output with neither an ``s`` nor a ``v`` line lacks."""
    if read.status is None and not read.invalid:
        raise BadOutput(nothing)
    answer = read.status or "unknown"
    solutions = [list(board) for board in read.solutions]
    invalid = read.problems()
    if question == "count":
        count = None if answer == "unknown" else len(solutions)
        return {"answer": answer, "solutions": [], "count": count, "invalid": invalid}
    found: dict[str, Any] = {
        "answer": answer, "solutions": solutions, "invalid": invalid, "stated": None,
    }  # fmt: skip
    if question == "all" and answer != "unknown":
        found["count"] = len(solutions)
    return found
