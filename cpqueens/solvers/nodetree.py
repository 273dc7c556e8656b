"""A tree of position nodes with parent pointers (article 001).

Article 001 (C#, ``Position`` class) grows the search tree one ``Position(line, row,
parent)`` node at a time. ``WalkThroughTree`` tries every square of the next line;
the threat check walks up the parent chain, comparing the candidate's column with
each queen above and their column distance with their line distance. Children are
not stored: the parent pointers are all the tree needs.

The article counts 2,056 nodes and 15,720 attempts for n=8, and 27,358,552 nodes and
377,901,398 attempts for n=14; this backend reports the same figures. The test suite
checks n=8; n=14 takes minutes in Python, so a benchmark reproduces it:
``python benchmarks/bench_backends.py --sizes 8 --repeat 1 --backends tree --tree-14``.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..board import Solution
from .base import Backend, Problem, SearchRun, check_interval


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
    """Tree walk over parent-linked position nodes with an upward threat check (article 001).

    See Also
    --------
    RecursiveBackend : the same tree without node objects (articles 000/004).
    cpqueens.decision_tree : the same tree built explicitly as a networkx graph.
    """

    name = "tree"
    summary = "tree walk over parent-linked nodes, threat check up the parents"
    source = "article 001 (Position tree, WalkThroughTree)"
    recurses = True

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        n, fixed = problem.n, problem.fixed
        # Read the clock more often as a node's work grows with the board.
        interval = check_interval(n * n)
        nodes = attempts = 0

        def walk_through_tree(position: Position) -> Iterator[Solution]:
            nonlocal nodes, attempts
            if position.line == n:
                yield position.columns()
                return
            row = position.line  # 0-based row of the next line
            candidates = range(n) if fixed[row] is None else (fixed[row],)
            for column in candidates:
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
