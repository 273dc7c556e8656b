"""What a node of a decision tree is, and the one depth-first walk that grows every tree.

The ground floor of :mod:`cpqueens.trees`: it imports nothing from the family.
The plain tree (:mod:`cpqueens.trees.explicit.plain`) and the propagating one
(:mod:`cpqueens.trees.explicit.propagated`) differ only in how a node's children are made;
both write their nodes with :func:`node_attributes`, grow with :func:`walk` and
fill a graph with :func:`add_tree` (:class:`GrowingSearch`).
Both start from the squares each row offers (:func:`candidates`), where a blocked
square is missing: it is never tried, so it is never a node of any kind.

Every node carries the attributes of :data:`NODE_ATTRIBUTES`:

=============  ==============================================================
``row``        0-based row of the queen this node places (-1 for the root)
``column``     0-based column of that queen (-1 for the root)
``depth``      queens on the board at this node (0 for the root)
``placement``  tuple of the columns from row 0 down to this node
``solution``   True for a full board (depth n): a solution leaf
``dead_end``   True when no square of the next row is safe (and not a solution)
``rejected``   True for a failed attempt (only with ``include_rejected=True``)
``truncated``  True when ``max_depth`` cut off this node's safe children
=============  ==============================================================

and a tree built with propagation adds those of :data:`PROPAGATION_ATTRIBUTES`:

=============  ==============================================================
``pruned``     tuple of the (row, column) squares removed from other rows'
               domains at this node (at the root: by the fixed queens)
``wiped_out``  the row left with no square at a dead end, else -1
=============  ==============================================================

There ``placement`` holds the columns of rows 0 down to the lowest row with a
queen, -1 for a row without one yet (the same tuple as the plain tree's when the
rows come in order), and ``dead_end`` marks exactly the nodes where a domain was
wiped out.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from ...board import Solution

if TYPE_CHECKING:
    import networkx as nx

#: The attributes of every node, in the order the exporters write them.
NODE_ATTRIBUTES = (
    "row",
    "column",
    "depth",
    "placement",
    "solution",
    "dead_end",
    "rejected",
    "truncated",
)

#: The further attributes of every node of a tree built with propagation.
PROPAGATION_ATTRIBUTES = ("pruned", "wiped_out")

#: Whatever a grower keeps about a node to make its children later.
State = TypeVar("State")


def candidates(fixed: Sequence[int | None], row: int, n: int, blocked: int = 0) -> int:
    """The squares a row offers before any queen is placed, as a bit mask of columns.

    A fixed row offers its one square, any other row all ``n`` but its ``blocked``
    ones (a bit mask too). A blocked square is never offered, so it is never
    tried: neither a node nor a failed attempt.

    >>> bin(candidates((None, 2), 0, 4)), bin(candidates((None, 2), 1, 4))
    ('0b1111', '0b100')
    >>> bin(candidates((None, 2), 0, 4, blocked=0b0101))
    '0b1010'
    """
    return ((1 << n) - 1) & ~blocked if fixed[row] is None else 1 << fixed[row]


def blocked_rows(blocked: Iterable[tuple[int, int]], n: int) -> list[int]:
    """Per row, the bit mask of its blocked columns (bit ``c`` for column ``c``).

    >>> blocked_rows([(0, 1), (0, 3), (2, 0)], 3)
    [10, 0, 1]
    """
    masks = [0] * n
    for row, column in blocked:
        masks[row] |= 1 << column
    return masks


def columns(mask: int) -> list[int]:
    """The columns of a bit mask, in increasing order.

    >>> columns(0b10110)
    [1, 2, 4]
    """
    # A list, not a generator: a row has a handful of columns, and building the
    # list at once is faster than resuming a generator for each. One step a column
    # found (its lowest bit), not one a column of the row: most rows have few left.
    found = []
    while mask:
        lowest = mask & -mask
        found.append(lowest.bit_length() - 1)
        mask ^= lowest
    return found


def columns_to_try(offered: int, allowed: int, include_rejected: bool) -> list[int]:
    """The columns a node tries in its row, in increasing order.

    Every square the row offers when the failed attempts are wanted, else only
    the ``allowed`` ones (safe, or left in the row's domain).

    >>> columns_to_try(0b1111, 0b0101, False), columns_to_try(0b1111, 0b0101, True)
    ([0, 2], [0, 1, 2, 3])
    """
    return columns(offered if include_rejected else allowed)


def node_attributes(
    row: int,
    column: int,
    depth: int,
    placement: Solution,
    n: int,
    free: int,
    depth_limit: int,
    rejected: bool,
) -> dict:
    """The attributes of one node (see the table above).

    ``free`` is anything true when the node has a square to go on with (the safe
    squares of the next row, or "no domain wiped out"); ``depth_limit`` is the
    depth below which children are cut off.

    >>> node_attributes(0, 1, 1, (1,), 4, 0, 4, rejected=False)["dead_end"]
    True
    >>> node_attributes(1, 3, 2, (1, 3), 4, 0b1, 2, rejected=False)["truncated"]
    True
    """
    below = depth < n and not rejected
    return {
        "row": row,
        "column": column,
        "depth": depth,
        "placement": placement,
        "solution": depth == n and not rejected,
        "dead_end": below and not free,
        "rejected": rejected,
        "truncated": below and bool(free) and depth >= depth_limit,
    }


#: The nodes a walk hands on at a time: enough that adding them costs networkx a few
#: calls a batch, few enough that a batch's attributes are still in the processor's
#: cache when networkx copies them (4,096 a batch took a tenth longer at n=12).
BATCH = 256


class Batch(NamedTuple):
    """Nodes of a tree in the order of the walk: their ``ids``, their ``attributes``, and
    the edges from their parents (none to the root).

    Each id is one int object, used again in the edges: a graph made from batches
    keeps one object a node, as a graph grown node by node does.
    """

    ids: list[int]
    attributes: list[dict]
    edges: list[tuple[int, int]]


def walk(
    root: dict,
    start: State | None,
    children: Callable[[State], Iterator[tuple[dict, State | None]]],
    *,
    max_nodes: int,
    too_large: Callable[[int], Exception],
) -> Iterator[Batch]:
    """Grow a tree depth first, with an explicit stack, and hand its nodes on in batches.

    Parameters
    ----------
    root : dict
        The root's attributes; the root is node 0.
    start : object or None
        What ``children`` needs to expand the root, or None to leave it a leaf.
    children : callable
        ``children(state)`` yields, for each child of a node in order, the child's
        attributes and its own state, or None when the child is not expanded.
    max_nodes : int
        The most nodes the tree may hold; one more raises ``too_large(count)``.
    too_large : callable
        Makes the error to raise from the node count reached.

    Node ids follow the order of the walk: a preorder numbering, children in the
    order ``children`` yields them. :func:`add_tree` puts the batches in a graph.

    >>> def children(depth):  # a complete binary tree of depth 2
    ...     for side in (0, 1):
    ...         yield {"side": side}, (depth + 1 if depth + 1 < 2 else None)
    >>> [batch] = walk({}, 0, children, max_nodes=10, too_large=ValueError)
    >>> batch.ids, batch.edges
    ([0, 1, 2, 3, 4, 5, 6], [(0, 1), (1, 2), (1, 3), (0, 4), (4, 5), (4, 6)])
    """
    ids, attributes, edges = [0], [root], []
    count = 1
    # A frame is one node being expanded: its id and the iterator of its children.
    stack = [] if start is None else [(0, children(start))]
    # A million small dicts make the cyclic garbage collector run over and over
    # while nothing is garbage yet; pausing it halves the build time at n=12.
    collecting = gc.isenabled()
    gc.disable()
    try:
        while stack:
            parent, todo = stack[-1]
            for child, state in todo:
                if count >= max_nodes:
                    # The nodes made so far go first: a check of them finds a wrong
                    # one before this error of one node too many.
                    yield Batch(ids, attributes, edges)
                    raise too_large(count + 1)
                node = count
                count += 1
                ids.append(node)
                attributes.append(child)
                edges.append((parent, node))
                if state is not None:  # go down; this node's other children come later
                    stack.append((node, children(state)))
                    break
            else:
                stack.pop()
            if len(ids) >= BATCH:
                yield Batch(ids, attributes, edges)
                ids, attributes, edges = [], [], []
        yield Batch(ids, attributes, edges)
    finally:
        if collecting:
            gc.enable()


def add_tree(G: nx.DiGraph, batches: Iterable[Batch]) -> None:
    """Add the nodes of a walk, their edges and their attributes to the new graph ``G``.

    A batch at a time, through networkx's own ``add_nodes_from`` and
    ``add_edges_from``; each node's attributes are copied into the dict networkx
    makes for it (``G.nodes[node]``), and the walk's own are dropped with their batch.

    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> add_tree(G, [Batch([0, 1], [{"depth": 0}, {"depth": 1}], [(0, 1)])])
    >>> list(G.edges), G.nodes[1]
    ([(0, 1)], {'depth': 1})
    """

    nodes = G.nodes
    for batch in batches:
        G.add_nodes_from(batch.ids)
        G.add_edges_from(batch.edges)
        for node, attributes in zip(batch.ids, batch.attributes, strict=True):
            nodes[node].update(attributes)


class GrowingSearch:
    """What a search that grows a tree offers: ``nodes(include_rejected=...,
    depth_limit=..., max_nodes=..., too_large=...)``, the batches of its tree's nodes
    (see :func:`walk`), and :meth:`grow`, the tree they make in a graph."""

    nodes: Callable[..., Iterator[Batch]]

    def grow(self, G: nx.DiGraph, **options: Any) -> None:
        """Fill the new graph ``G`` with the tree ``nodes(**options)`` makes (:func:`add_tree`)."""
        add_tree(G, self.nodes(**options))
