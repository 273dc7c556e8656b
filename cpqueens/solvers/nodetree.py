"""A tree of position nodes with parent pointers (the CodeProject tree article).

The CodeProject tree article (C#, ``Position`` class; see the source articles in
docs/backends.md) grows the search tree one ``Position(line, row, parent)`` node at a
time. ``WalkThroughTree`` tries every square of the next line;
the threat check walks up the parent chain, comparing the candidate's column with
each queen above and their column distance with their line distance. Children are
not stored: the parent pointers are all the tree needs.

The article counts 2,056 nodes and 15,720 attempts for n=8, and 27,358,552 nodes and
377,901,398 attempts for n=14; this backend reports the same figures. The test suite
checks n=8; n=14 takes minutes in Python, so a benchmark reproduces it:
``python benchmarks/bench_backends.py --sizes 8 --repeat 1 --backends tree --tree-14``.

Blocked squares (blocked n-queens) are an extension, not in the article. A blocked
square is simply not a candidate: ``WalkThroughTree`` leaves it out of its line's
squares, as it leaves out all but the given square of a line whose queen is fixed,
and the threat check is unchanged. With them the figures mean exactly this:

* a **node** is a ``Position`` made, one per candidate square found safe; a blocked
  square never becomes one;
* an **attempt** is one candidate square handed to the threat check; a blocked square
  is never tried, so ``attempts`` is, over every position expanded (the root and
  each node above the last line), the number of candidates of the line below it:
  ``n``, minus that line's blocked squares, or 1 for a fixed line.

>>> import cpqueens
>>> r = cpqueens.solve(4, backend="tree", blocked=[(0, 1)])
>>> r.solutions, r.stats["nodes"], r.stats["attempts"]
(((2, 0, 3, 1),), 12, 47)

There the root tries the first line's 3 open squares and each of the 11 nodes above
the last line the 4 squares of the line below it: 3 + 11 * 4 = 47 attempts; the
twelfth node is the solution's last queen.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..board import Solution
from ._candidates import row_candidates
from .base import Backend
from .problem import Problem
from .run import SearchRun, check_interval


class Position:
    """A queen on ``line`` (1-based; the root is line 0) in ``column``, below ``parent``."""

    __slots__ = ("column", "line", "parent")

    def __init__(self, line: int, column: int, parent: Position | None):
        self.line = line
        self.column = column
        self.parent = parent

    def is_safe(self, column: int) -> bool:
        """Would a queen on the next line in ``column`` be safe from every queen above?"""
        line = self.line + 1
        above = self
        while above.parent is not None:
            distance = line - above.line
            if column == above.column or abs(column - above.column) == distance:
                return False
            above = above.parent
        return True

    def columns(self) -> Solution:
        """The columns from the first line down to this node (PrintSolution)."""
        path = []
        node = self
        while node.parent is not None:
            path.append(node.column)
            node = node.parent
        return tuple(reversed(path))


class TreeBackend(Backend):
    """Tree walk over parent-linked position nodes, threat check upwards (CodeProject tree).

    See Also
    --------
    RecursiveBackend : the same tree without node objects (Queen8, getAccessRows).
    cpqueens.decision_tree : the same tree built explicitly as a networkx graph.
    """

    name = "tree"
    summary = "tree walk over parent-linked nodes, threat check up the parents"
    source = "the CodeProject tree article (C# Position tree, WalkThroughTree)"
    recurses = True
    supports_blocked = True

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        n = problem.n
        # Read the clock more often as a node's work grows with the board.
        interval = check_interval(n * n)
        # Each line's candidates: all its squares, its fixed one, or its unblocked ones.
        candidates_of = row_candidates(problem)
        nodes = attempts = 0

        def walk_through_tree(position: Position) -> Iterator[Solution]:
            nonlocal nodes, attempts
            if position.line == n:
                yield position.columns()
                return
            row = position.line  # 0-based row of the next line
            for column in candidates_of[row]:
                attempts += 1
                if position.is_safe(column):
                    nodes += 1
                    if nodes % interval == 0:
                        run.check_time()
                    yield from walk_through_tree(Position(position.line + 1, column, position))

        try:
            yield from walk_through_tree(Position(0, -1, None))
        finally:
            run.stats.update(nodes=nodes, attempts=attempts)
