"""Which runs are wrong in the light of the others: the runs of an instance checked
against each other, whenever results are read.

A run is **wrong** when

1. its own answer is wrong on its face: a board that does not solve the instance,
   something printed that claims to be a board and is none, or (``all``) a board
   reported twice. This is decided when the run ends, by
   :func:`cpqueens.campaigns.run_verdicts.run_verdict`, and stored as its status;
2. it says ``unsat`` of an instance on which any run, of any solver, produced a
   verified solution;
3. (``count`` and ``all``) its count differs from the count that a strict majority
   of the solver configurations with a complete answer on that instance agree on.
   With no strict majority the instance is *disputed*: no run is called wrong, and
   the campaign reports the instance (and fails) all the same, since at least one
   count must be wrong.

Rules 2 and 3 take every run in the file into account.

>>> rows = [{"status": "sat", "reason": None, "question": "decide", "instance_hash": "i",
...          "instance": "a", "solver": "one"},
...         {"status": "unsat", "reason": None, "question": "decide", "instance_hash": "i",
...          "instance": "a", "solver": "two"}]
>>> [row["verdict"] for row in judge(rows)[0]]
['sat', 'wrong']
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

#: Statuses that answer the question (solved runs).
SOLVED = ("sat", "unsat")


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
