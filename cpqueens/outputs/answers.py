"""Reading an external solver's answer the way the competitions print it.

* ``s SATISFIABLE``, ``s UNSATISFIABLE`` or ``s UNKNOWN``: the status line (at most
  one kind of it);
* ``v ...``: the columns of a solution, row by row (0- or 1-based, told as
  :func:`cpqueens.parse_boards` tells numbers; XCSP's ``<instantiation>`` tags are
  read too);
* ``c ...``: a comment, left alone;
* anything else: boards in any form :func:`cpqueens.parse_boards` reads, or a count
  (a bare integer line, or JSON ``{"count": ...}``).

Without an ``s`` line, a board means SATISFIABLE; for ``count`` a count is enough.
With ``parse="flatzinc"`` the output is a FlatZinc solver's instead (see
:mod:`.flatzinc`): its solutions, and the end of its search as the status.
Nothing is trusted here: the boards come back as read, valid or not, and the run's
parent checks them against the instance.

>>> read_answer("s SATISFIABLE\\nv 2 4 1 3\\n", 4, "decide")["solutions"]
[[1, 3, 0, 2]]
>>> read_answer("c no queen fits\\ns UNSATISFIABLE\\n", 3, "decide")["answer"]
'unsat'
>>> read_answer("92\\n", 8, "count")["count"]
92
>>> read_answer("s SATISFIABLE\\nv 1 3 0 2\\nc 2 solutions\\nTotal: 2", 4, "decide")["stated"]
2
"""

from __future__ import annotations

import re
from typing import Any

from .boards import read_output
from .flatzinc import read_flatzinc_output
from .parsed_output import BadOutput, says_nothing
from .xcsp_lines import END as _END_OF_INSTANTIATION
from .xcsp_lines import STATUSES

_TAG = re.compile(r"<list>.*?</list>|<[^>]*>", re.DOTALL)


def read_answer(
    text: str, n: int, question: str, parse: str = "auto", *, silence: str | None = None
) -> dict[str, Any]:
    """The answer a solver printed: ``answer``, ``solutions``, ``count``, ``invalid``,
    and (but for ``count``) ``stated``, the count it states beside them, or None.

    ``n`` and ``parse`` (a style of :func:`cpqueens.parse_boards`) are taken as
    checked. ``invalid`` lists the lines that claim a board and are none (a board of the
    wrong size, a row without a queen): the parent calls such a run wrong. Raises
    :class:`BadOutput` for an output that answers nothing or contradicts itself;
    with ``silence="unsat"``, an output with no status, no board and no count says
    there is no solution (as a program listing solutions prints none).
    """
    if parse == "flatzinc":
        return _flatzinc_answer(text, n, question)
    silent = says_nothing(text)
    if silent:
        # Silence from a program that exited 0: it found no solution (parsed.py says
        # why every judge reads it so).
        silence = "unsat"
    statuses, values, rest = _split(text)
    if len(set(statuses)) > 1:
        raise BadOutput(f"the output has two status lines: s {statuses[0]} and s {statuses[-1]}")
    if statuses and statuses[0] not in STATUSES:
        allowed = ", ".join(STATUSES)
        raise BadOutput(f"unknown status line 's {statuses[0]}' (allowed: {allowed})")
    status = STATUSES[statuses[0]] if statuses else None
    solutions: list[list[int | None]] = []
    invalid: list[str] = []
    count: int | None = None
    if values:
        # One board an <instantiation> (an output listing several has one a v line);
        # v lines without one are one board, the competitions' way of splitting a line.
        joined = " ".join(values)
        split = _END_OF_INSTANTIATION.search(joined)
        boards = _END_OF_INSTANTIATION.split(joined) if split else [joined]
        lines = "\n".join(_TAG.sub(" ", board) for board in boards if board.strip())
        parsed = read_output(lines, n, "numbers", None)
        solutions += [list(board) for board in parsed.boards]
        invalid += [line for _, line in parsed.invalid_lines]
        if not parsed.boards and not parsed.invalid_lines:
            invalid.append("v " + " ".join(values)[:60])
    if rest.strip():
        parsed = read_output(rest, n, parse, None)
        solutions += [list(board) for board in parsed.boards]
        invalid += [line for _, line in parsed.invalid_lines]
        count = parsed.count
    if question == "count":
        if status == "unknown":
            return {"answer": "unknown", "solutions": [], "count": None, "invalid": []}
        if count is None:
            count = 0 if status == "unsat" or silent else (len(solutions) if solutions else None)
        if count is None:
            raise BadOutput("no count in the output (a line holding the number is expected)")
        if status == "unsat" and count:
            raise BadOutput(f"s UNSATISFIABLE with a count of {count}")
        return {"answer": "sat" if count else "unsat", "solutions": [], "count": count,
                "invalid": []}  # fmt: skip
    if status is None:
        if solutions or invalid:
            status = "sat"
        elif count == 0:
            status = "unsat"
        elif silence is not None and count is None:
            status = silence
        else:
            raise BadOutput("no status line (s SATISFIABLE / s UNSATISFIABLE / s UNKNOWN) "
                            "and no board in the output")  # fmt: skip
    if status == "sat" and not solutions and not invalid:
        raise BadOutput("s SATISFIABLE without a solution (v lines or a board are expected)")
    if status in ("unsat", "unknown") and (solutions or invalid):
        word = "UNSATISFIABLE" if status == "unsat" else "UNKNOWN"
        # A board next to "no solution" is a claim checked like any other.
        invalid.append(f"s {word} printed with a board")
    # ``stated``: the count the output states outside its s/v/c lines ("Total: 92").
    answer: dict[str, Any] = {
        "answer": status, "solutions": solutions, "invalid": invalid, "stated": count,
    }  # fmt: skip
    if question == "all" and status != "unknown":
        answer["count"] = len(solutions)
        if count is not None and count != len(solutions):
            invalid.append(f"states {count} solutions and prints {len(solutions)}")
    return answer


def _flatzinc_answer(text: str, n: int, question: str) -> dict[str, Any]:
    """The answer of a FlatZinc solver: ``==========`` says every solution was printed,
    ``=====UNSATISFIABLE=====`` none exists; a search not run to its end answers
    ``unknown`` to ``count`` and ``all``, and ``sat`` to ``decide`` with a solution.

    >>> _flatzinc_answer("q = array1d(1..1, [0]);\\n----------\\n==========", 1, "count")
    {'answer': 'sat', 'solutions': [], 'count': 1, 'invalid': []}
    """
    read = read_flatzinc_output(text, n)
    if read.status == "error":
        raise BadOutput("the FlatZinc solver printed =====ERROR=====")
    solutions = [list(board) for board in read.solutions]
    invalid = read.problems()
    if question == "count":
        if not read.complete:
            return {"answer": "unknown", "solutions": [], "count": None, "invalid": []}
        count = len(solutions)
        return {"answer": "sat" if count else "unsat", "solutions": [], "count": count,
                "invalid": invalid}  # fmt: skip
    answer = read.answer if question == "decide" or read.complete else "unknown"
    found: dict[str, Any] = {
        "answer": answer, "solutions": solutions, "invalid": invalid, "stated": None,
    }  # fmt: skip
    if question == "all" and read.complete:
        found["count"] = len(solutions)
    return found


def _split(text: str) -> tuple[list[str], list[str], str]:
    """The status words, the value words and the other lines."""
    statuses: list[str] = []
    values: list[str] = []
    rest: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        head, _, tail = stripped.partition(" ")
        if head == "s" and tail:
            statuses.append(" ".join(tail.split()).upper())
        elif head == "v" or stripped == "v":
            values.append(tail)
        elif head == "c" or stripped == "c":
            continue
        else:
            rest.append(line)
    return statuses, values, "\n".join(rest)
