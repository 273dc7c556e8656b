"""Judging one isolated run of a campaign: its status from how it ended and what it
answered, every board it reports checked against its instance.

A run is **wrong** on its face when a board it reports does not solve the instance
(two queens attacking, a given queen moved, a queen on a blocked square, a board of
the wrong size), when it printed something that claims to be a board and is none,
when it says ``sat`` with no solution, when its proof of "no solution" (a SAT solver
given ``{proof}``) is not accepted, or (``all``) when it reports a board twice.
Whether its answer agrees with the other runs' is judged across runs, by
:mod:`cpqueens.campaigns.verify`.

>>> from cpqueens import Instance
>>> board_fault(Instance(4, blocked=[(0, 1)]), [1, 3, 0, 2])
'a queen on the blocked square in column 1 of row 0 (counted from 0)'
>>> board_fault(Instance(4), [2, 0, 3, 1]) is None
True
>>> run_verdict(Instance(4), "decide", {"answer": "sat", "solutions": [[1, 3, 0, 2]]},
...             ended="answered", wall=0.2, time_limit=10, memory_limit_mb=2000)
('sat', None)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..board import rows_named
from ..display.numbers import seconds
from ..instances import Instance
from ..programs.process_trees import exit_words


def run_verdict(
    instance: Instance,
    question: str,
    answer: dict[str, Any] | None,
    *,
    ended: str,
    wall: float,
    time_limit: float,
    memory_limit_mb: int,
    exit: int | None = None,
) -> tuple[str, str | None]:
    """The status of a run and why: ``sat``, ``unsat``, ``unknown`` (the time limit),
    ``memout``, ``error`` or ``wrong``, with a reason (None for an answer that stands).

    ``answer`` is what the run sent back (None when nothing), ``ended`` how it ended
    (``"answered"``, ``"timeout"``, ``"memout"`` or ``"crashed"``), ``wall`` its
    seconds and ``exit`` its exit status.
    """
    if ended == "timeout":
        return "unknown", "killed at the time limit"
    if ended == "memout":
        return "memout", f"past the memory limit of {memory_limit_mb} MB"
    if ended == "crashed" or answer is None:
        return "error", f"the run's process died ({exit_words(exit)})"
    if "error" in answer:
        return "error", answer["error"]
    fault = answer_fault(instance, question, answer)
    if fault is not None:
        return "wrong", fault
    status = answer["answer"]
    if status in ("sat", "unsat") and wall > time_limit:
        return "unknown", f"answered after the time limit ({seconds(wall)})"
    return status, None


def answer_fault(instance: Instance, question: str, answer: dict[str, Any]) -> str | None:
    """Why a run's own answer is wrong on its face, or None."""
    if answer.get("invalid"):
        return f"printed a board that is none: {answer['invalid'][0]}"
    solutions = answer.get("solutions") or []
    for board in solutions:
        fault = board_fault(instance, board)
        if fault is not None:
            return f"reported a board that does not solve the instance: {fault}"
    proof = answer.get("proof")
    if proof is not None and proof["verdict"] != "proved":
        said = f" ({proof['words']})" if proof["words"] else ""
        return f"said unsat; its proof: {proof['verdict'].upper()}{said}"
    if answer.get("answer") == "sat" and question != "count" and not solutions:
        return "said sat without a solution"
    if question == "all" and len({tuple(b) for b in solutions}) != len(solutions):
        return "reported the same solution twice"
    return None


def board_fault(instance: Instance, board: Sequence[object]) -> str | None:
    """Why ``board`` does not solve ``instance``, or None when it does.

    Checked here from scratch, sharing nothing with the solvers: size, columns in
    range, one queen per column and per diagonal, the given queens in place, no
    queen on a blocked square.
    """
    n = instance.n
    if len(board) != n:
        return f"a board of {len(board)} rows for n = {n}"
    columns, sums, differences = set(), set(), set()
    for row, column in enumerate(board):
        if isinstance(column, bool) or not isinstance(column, int) or not 0 <= column < n:
            return f"{rows_named(row)} has no queen on the board (column {column!r})"
        if column in columns:
            return f"two queens in column {column}"
        if row + column in sums or row - column in differences:
            return f"the queen of {rows_named(row)} is attacked on a diagonal"
        columns.add(column)
        sums.add(row + column)
        differences.add(row - column)
    for row, column in instance.fixed:
        if board[row] != column:
            return f"the queen given in column {column} of {rows_named(row)} was moved"
    blocked = instance.blocked_set
    for row, column in enumerate(board):
        if (row, column) in blocked:
            return f"a queen on the blocked square in column {column} of {rows_named(row)}"
    return None
