"""The ``sat`` backend in a child process, for the solvers pysat cannot stop.

Kissat and Lingeling can be neither interrupted nor given a budget in pysat, so a
call with a time limit runs their search here, in a process of its own that the
caller kills at the deadline (:func:`cpqueens.solvers.sat.backend.models_in_child`).

Protocol: the problem comes on standard input as one JSON object (``n``, ``fixed``,
``blocked`` as a list of ``[row, column]`` pairs, ``limit``, ``options``); each
solution goes to standard output as soon as it is found, as a ``v`` line of 0-based
columns in the SAT competitions' manner, the end of each block (one column of row 0)
as ``c block``, and the run ends with ``c stats`` and the search's figures as JSON,
then ``s DONE``.
"""

from __future__ import annotations

import json
import sys

from ...board import Solution
from ..problem import Problem
from ..run import SearchRun
from .backend import find_models


def main() -> int:
    spec = json.loads(sys.stdin.read())
    problem = Problem(
        n=spec["n"],
        fixed=tuple(spec["fixed"]),
        blocked=frozenset((row, column) for row, column in spec.get("blocked", ())),
        limit=spec["limit"],
        options=spec["options"],
    )
    run = SearchRun()
    out = sys.stdout

    def write(solution: Solution) -> None:
        # At once: the caller may kill this process at its deadline, any moment now.
        out.write("v " + " ".join(map(str, solution)) + "\n")
        out.flush()

    for _ in find_models(problem, run, on_solution=write):
        out.write("c block\n")
        out.flush()
    out.write("c stats " + json.dumps(run.stats) + "\ns DONE\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
