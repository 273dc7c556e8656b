"""Judging one answer of a target: every board verified, then the decision, the count
and the solution set against a reference's.

A finding is the first thing wrong, in this order: a fault of the target (it crashed,
timed out, printed garbage or without end), a board that solves nothing (an invalid
board), the decision, the count, then solutions missing and solutions extra (one
listed twice, or one the reference lacks). Shrinking keeps a failure of the same kind,
so the order is part of the definition of each kind.

>>> from cpqueens import Instance
>>> from cpqueens.fuzzing.targets import Answer
>>> reference = Expected(sat=True, count=2, boards=frozenset({(1, 3, 0, 2), (2, 0, 3, 1)}))
>>> judge(Instance(4), "all", Answer("sat", ((1, 3, 0, 2),), 1), reference)
Finding(kind='missing solutions', expected='2 solutions', observed='1 missing: cadb')
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..board import is_valid, to_letters
from ..checking.cases import extra_kind
from ..instances import Instance
from .targets import Answer

#: The kinds of failure of one answer, in the order they are looked for.
ANSWER_KINDS = (
    "crash",
    "timeout",
    "garbage",
    "endless output",
    "invalid board",
    "wrong decision",
    "wrong count",
    "missing solutions",
    "extra solutions",
)


@dataclass(frozen=True)
class Expected:
    """A reference's answer: whether there is a solution, how many, and which."""

    sat: bool
    count: int | None = None
    boards: frozenset[tuple[int, ...]] | None = None


@dataclass(frozen=True)
class Finding:
    """What is wrong with an answer: its kind, what was expected, what was seen."""

    kind: str
    expected: str
    observed: str


def decision_word(sat: bool | None) -> str:
    return {True: "satisfiable", False: "unsatisfiable", None: "unknown"}[sat]


def shown(board: tuple) -> str:
    """A board, short: its column letters when it is a board of letters' size."""
    try:
        if all(isinstance(c, int) and 0 <= c < 26 for c in board) and board:
            return to_letters(board)
    except Exception:
        pass
    return repr(list(board))


def why_not_solution(board: tuple, instance: Instance) -> str | None:
    """Why ``board`` solves nothing of ``instance``, or None when it is a solution."""
    if len(board) != instance.n:
        return f"{len(board)} rows on a board of {instance.n}"
    if not all(isinstance(c, int) and 0 <= c < instance.n for c in board):
        return "a row without a queen, or a column off the board"
    if not is_valid(board, instance.n):
        return "queens attack each other"
    kind = extra_kind(board, instance)
    if kind == "wrong fixed":
        return "a given queen moved"
    if kind == "wrong blocked":
        return "a queen on a blocked square"
    return None


def judge(
    instance: Instance, question: str, answer: Answer, reference: Expected | None
) -> Finding | None:
    """The first thing wrong with ``answer`` to ``question`` on ``instance``, or None.

    With no reference (None), only the target's faults and its boards are judged.
    """
    if answer.fault:
        return Finding(answer.status, "an answer", answer.message or answer.status)
    for claim in answer.claims:
        if claim.startswith("states "):  # "states 5 solutions and prints 4"
            return Finding("wrong count", "the count of the boards printed", claim)
        return Finding("invalid board", "a solution of the instance", claim)
    for board in answer.boards:
        why = why_not_solution(board, instance)
        if why is not None:
            return Finding("invalid board", "a solution of the instance", f"{shown(board)}: {why}")
    if reference is None or answer.status == "unknown":
        return None
    sat = bool(answer.boards) or bool(answer.count) or answer.status == "sat"
    if sat != reference.sat:
        return Finding("wrong decision", decision_word(reference.sat), decision_word(sat))
    if question == "count" and answer.count != reference.count:
        return Finding("wrong count", f"{reference.count:,} solutions", f"{answer.count:,}")
    if question != "all" or reference.boards is None:
        return None
    listed = Counter(answer.boards)
    missing = sorted(reference.boards - listed.keys())
    if missing:
        return Finding("missing solutions", f"{len(reference.boards):,} solutions",
                       f"{len(missing):,} missing: {shown(missing[0])}")  # fmt: skip
    repeated = sorted(board for board, times in listed.items() if times > 1)
    extra = sorted(listed.keys() - reference.boards)
    if repeated or extra:
        board = (repeated or extra)[0]
        what = "listed twice" if repeated else "not the reference's"
        return Finding("extra solutions", f"{len(reference.boards):,} solutions",
                       f"{sum(listed.values()):,} listed; {shown(board)} {what}")  # fmt: skip
    return None
