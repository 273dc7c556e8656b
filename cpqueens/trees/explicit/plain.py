"""The plain decision tree: blind backtracking, one row after the other.

:func:`cpqueens.decision_tree` comes here when ``propagation="none"``. A node is a
queen placed on a square of the next row that no queen above attacks; with
``include_rejected`` the attacked squares appear too, as ``rejected`` leaves in
column order among the real children. A blocked square is never offered: it is
neither a node nor a rejected leaf, as if the board had no such square. This is
the tree the hand-written backtrackers walk, and the reference of
:func:`cpqueens.crosscheck`, so it is written from the rules alone and shares no
code with any backend.

The board is held as three bit masks: the columns taken, and the squares of the
next row attacked along each diagonal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from ...board import Solution
from .nodes import Batch, GrowingSearch, candidates, columns_to_try, node_attributes, walk

#: A board seen from the row about to be placed: (row, columns, left and right diagonals).
Masks = tuple[int, int, int, int]


class PlainSearch(GrowingSearch):
    """The plain search of one board: rows in order, a queen on any safe square.

    It grows the tree (:meth:`nodes`, into a graph :meth:`grow`) and answers the
    questions of the size estimate (:mod:`cpqueens.trees.explicit.size`): ``root``,
    ``branch`` and ``child``. ``blocked`` holds each row's blocked columns as a bit
    mask (None: none blocked).

    >>> search = PlainSearch(4, (None,) * 4)
    >>> search.branch(search.root)
    (4, 15)
    >>> bin(search.safe(search.child(search.root, 0)))
    '0b1100'
    >>> search = PlainSearch(4, (None,) * 4, blocked=[0b0011, 0, 0, 0])  # (0, 0), (0, 1)
    >>> search.branch(search.root)
    (2, 12)
    """

    def __init__(self, n: int, fixed: tuple[int | None, ...], blocked: Sequence[int] | None = None):
        self.n = n
        self.full = (1 << n) - 1
        blocked = blocked or [0] * n
        # The squares each row offers, blocked ones left out; the row below the last offers none.
        self.offered = [candidates(fixed, row, n, blocked[row]) for row in range(n)] + [0]
        self.widths = [offered.bit_count() for offered in self.offered]
        self.root: Masks = (0, 0, 0, 0)

    def safe(self, masks: Masks) -> int:
        """The squares of the row about to be placed that no queen attacks."""
        row, cols, left, right = masks
        return self.offered[row] & ~(cols | left | right)

    def child(self, masks: Masks, column: int) -> Masks:
        """The board one row down, after a queen on ``column`` of the current row."""
        row, cols, left, right = masks
        bit = 1 << column
        return row + 1, cols | bit, ((left | bit) << 1) & self.full, (right | bit) >> 1

    def branch(self, masks: Masks) -> tuple[int, int]:
        """The squares the current row offers (attempts), and the safe ones (children)."""
        return self.widths[masks[0]], self.safe(masks)

    def nodes(
        self,
        *,
        include_rejected: bool,
        depth_limit: int,
        max_nodes: int,
        too_large: Callable[[int], Exception],
    ) -> Iterator[Batch]:
        """The nodes of the plain tree, in batches (see :func:`cpqueens.trees.explicit.nodes.walk`).

        >>> import networkx as nx
        >>> G = nx.DiGraph()
        >>> PlainSearch(4, (None,) * 4).grow(
        ...     G, include_rejected=False, depth_limit=4, max_nodes=100, too_large=ValueError
        ... )
        >>> G.number_of_nodes() - 1, [p for _, p in G.nodes(data="placement") if len(p) == 4]
        (16, [(1, 3, 0, 2), (2, 0, 3, 1)])
        """
        n = self.n

        def frame(masks: Masks, free: int, placement: Solution) -> tuple | None:
            """What ``children`` needs to expand a node, or None for a leaf."""
            # A dead end is still expanded when its failed attempts are wanted.
            if masks[0] < depth_limit and (include_rejected or free):
                return masks, free, placement
            return None

        def children(node: tuple[Masks, int, Solution]) -> Iterator[tuple[dict, tuple | None]]:
            masks, free, placement = node
            row = masks[0]
            for column in columns_to_try(self.offered[row], free, include_rejected):
                child = (*placement, column)
                if not free >> column & 1:
                    yield node_attributes(row, column, row + 1, child, n, 0, 0, True), None
                    continue
                below = self.child(masks, column)
                safe = self.safe(below)
                attributes = node_attributes(
                    row, column, row + 1, child, n, safe, depth_limit, False
                )
                yield attributes, frame(below, safe, child)

        root_free = self.safe(self.root)
        root = node_attributes(-1, -1, 0, (), n, root_free, depth_limit, rejected=False)
        start = frame(self.root, root_free, ())
        return walk(root, start, children, max_nodes=max_nodes, too_large=too_large)
