"""Which answers are wrong: each board checked against its instance, then the runs
of an instance checked against each other.

A run is **wrong** when

1. a board it reports does not solve the instance (two queens attacking, a given
   queen moved, a queen on a blocked square, a board of the wrong size), or it
   printed something that claims to be a board and is none; for ``all``, a board
   reported twice;
2. it says ``unsat`` of an instance on which any run, of any solver, produced a
   verified solution;
3. (``count`` and ``all``) its count differs from the count that a strict majority
   of the solver configurations with a complete answer on that instance agree on.
   With no strict majority the instance is *disputed*: no run is called wrong, and
   the campaign reports the instance (and fails) all the same, since at least one
   count must be wrong.

The first is decided when the run ends (and stored as its status); the others
whenever results are read, so that they take every run in the file into account.

>>> from cpqueens import Instance
>>> board_fault(Instance(4, blocked=[(0, 1)]), [1, 3, 0, 2])
'a queen on the blocked square (0, 1)'
>>> board_fault(Instance(4), [2, 0, 3, 1]) is None
True
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from ..instances import Instance

#: Statuses that answer the question (solved runs).
SOLVED = ("sat", "unsat")


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
            return f"row {row} has no queen on the board (column {column!r})"
        if column in columns:
            return f"two queens in column {column}"
        if row + column in sums or row - column in differences:
            return f"the queen of row {row} is attacked on a diagonal"
        columns.add(column)
        sums.add(row + column)
        differences.add(row - column)
    for row, column in instance.fixed:
        if board[row] != column:
            return f"the given queen ({row}, {column}) was moved"
    blocked = instance.blocked_set
    for row, column in enumerate(board):
        if (row, column) in blocked:
            return f"a queen on the blocked square ({row}, {column})"
    return None


def answer_fault(instance: Instance, question: str, answer: dict[str, Any]) -> str | None:
    """Why a run's own answer is wrong on its face (rule 1), or None."""
    if answer.get("invalid"):
        return f"printed a board that is none: {answer['invalid'][0]}"
    solutions = answer.get("solutions") or []
    for board in solutions:
        fault = board_fault(instance, board)
        if fault is not None:
            return f"reported a board that does not solve the instance: {fault}"
    if answer.get("answer") == "sat" and question != "count" and not solutions:
        return "said sat without a solution"
    if question == "all" and len({tuple(b) for b in solutions}) != len(solutions):
        return "reported the same solution twice"
    return None


def solutions_hash(solutions: Iterable[Sequence[int]]) -> str:
    """A hash of a set of boards, the same whatever their order."""
    boards = sorted(tuple(board) for board in solutions)
    return hashlib.sha256(json.dumps(boards).encode()).hexdigest()[:16]


def judge(rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """Add ``verdict`` and ``verdict_reason`` to every run (rules 2 and 3).

    ``verdict`` is the run's status, or ``wrong`` when another run shows it wrong.
    Returns the rows and the labels of the disputed instances.
    """
    by_instance: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        row["verdict"], row["verdict_reason"] = row["status"], row.get("reason")
        by_instance[row["instance_hash"]].append(row)
    disputed = []
    for runs in by_instance.values():
        proof = next((r for r in runs if r["status"] == "sat" and r["question"] != "count"), None)
        # A count is no proof (it is not checked board by board): counts that
        # disagree are settled by the majority below.
        for run in runs:
            if run["status"] == "unsat" and proof is not None:
                run["verdict"] = "wrong"
                run["verdict_reason"] = f"said unsat; {proof['solver']} found a verified solution"
        for question in ("count", "all"):
            asked = [r for r in runs if r["question"] == question]
            if _disputed_counts(asked) and runs[0]["instance"] not in disputed:
                disputed.append(runs[0]["instance"])
    return rows, disputed


def _disputed_counts(runs: list[dict[str, Any]]) -> bool:
    """Apply rule 3 to the runs of one instance and question; True without a strict majority.

    For ``all`` the answers compared are the count and the set of solutions (its hash).
    """
    complete = [r for r in runs if r["status"] in SOLVED and r["count"] is not None]
    if not complete:
        return False
    per_config: dict[str, Counter] = defaultdict(Counter)
    for run in complete:
        per_config[run["solver_hash"]][(run["count"], run.get("solutions_hash"))] += 1
    # Each configuration votes once, with the answer it gave most often.
    votes = Counter(answers.most_common(1)[0][0] for answers in per_config.values())
    (leading, top) = votes.most_common(1)[0]
    if len(votes) == 1:
        return False
    if top * 2 <= len(per_config):
        return True
    for run in complete:
        if (run["count"], run.get("solutions_hash")) != leading and run["verdict"] != "wrong":
            run["verdict"] = "wrong"
            run["verdict_reason"] = (
                f"counted {run['count']}; {top} of {len(per_config)} solvers agree on "
                f"{leading[0]}" + (" (a different set of solutions)" if run["count"] == leading[0]
                                   else "")
            )  # fmt: skip
    return False
