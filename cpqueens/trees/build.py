"""The search tree of the n-queens backtracker, built explicitly as a networkx graph.

Node 0 is the root, the empty board. Each other node is one queen placed safely:
its parent is the board one row up, its children the safe squares of the next
row, in column order. Node ids follow the order of the search (a preorder walk),
so a smaller id was visited earlier.

Every node carries the same attributes:

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

The graph attributes ``n``, ``fixed`` (row -> column), ``include_rejected``,
``max_depth``, ``propagation`` and ``order`` record how the tree was asked for.
The default tree is the one the hand-written backtrackers walk, so its size is
their ``stats``: the nodes below the root are ``stats["nodes"]``, and with
rejected attempts the non-root nodes are ``stats["attempts"]``.

With ``propagation="forward"`` or ``"arc"`` the tree is the one of the
``propagate`` backend (:mod:`cpqueens.trees.propagated`): a node is a queen placed
on a square of its row's domain, the rows may come in first-fail order, and two
more attributes say what propagation did:

=============  ==============================================================
``pruned``     tuple of the (row, column) squares removed from other rows'
               domains at this node (at the root: by the fixed queens)
``wiped_out``  the row left with no square at a dead end, else -1
=============  ==============================================================

There ``placement`` holds the columns of rows 0 down to the lowest row with a
queen, -1 for a row without one yet (the same tuple as before when the rows come
in order), and ``dead_end`` marks exactly the nodes where a domain was wiped out.

See :mod:`cpqueens.trees.readwrite` to export and read trees, :mod:`cpqueens.trees.drawing` to
draw them and :mod:`cpqueens.trees.size` for the size estimate behind ``max_nodes``.
"""

from __future__ import annotations

import gc
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..arguments import check_fixed, check_int, check_n
from ..board import Solution
from ..errors import TreeTooLargeError
from .size import estimate_tree_size

if TYPE_CHECKING:
    import networkx as nx

#: Default limit on the nodes of a tree. Each node costs about a kilobyte, so two
#: million nodes stay within about 2 GB; n=12 (856,190 nodes) builds, n=13 does not.
DEFAULT_MAX_NODES = 2_000_000

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


def decision_tree(
    n: int,
    fixed: Mapping[int, int] | None = None,
    *,
    propagation: str = "none",
    order: str = "row",
    include_rejected: bool = False,
    max_depth: int | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> nx.DiGraph:
    """Build the backtracking search tree of ``n`` queens as a ``networkx.DiGraph``.

    Parameters
    ----------
    n : int
        Board size, at least 1.
    fixed : mapping of int to int, optional
        Queens placed in advance, row -> column: a fixed row offers one square only.
    propagation : {"none", "forward", "arc"}
        ``"none"``: blind backtracking, a node for each safe square of the next
        row. ``"forward"``: forward checking; each square left in the chosen row's
        domain is a node, and placing it removes the squares it attacks from the
        unplaced rows. ``"arc"``: forward checking followed by arc consistency
        between the unplaced rows, to its fixpoint. A node that empties a domain
        is a dead end.
    order : {"row", "first-fail"}
        The row placed next: the lowest unplaced one, or the one with the fewest
        squares left (ties to the lowest; needs ``propagation``).
    include_rejected : bool
        Also add each square that failed the safety check, as a leaf with
        ``rejected=True`` (the "attempts" of the search); with propagation, each
        square of the chosen row that propagation had already removed.
    max_depth : int, optional
        Stop growing the tree below this depth (0 keeps only the root). Nodes whose
        safe children were cut off get ``truncated=True``.
    max_nodes : int
        Refuse, before building anything, a tree estimated to exceed this many
        graph nodes (root and rejected leaves included), and stop if the real
        tree outgrows it all the same.

    Returns
    -------
    networkx.DiGraph
        Root 0, edges from parent to child; node and graph attributes as described
        in :mod:`cpqueens.trees.build`.

    Raises
    ------
    TreeTooLargeError
        When the tree would exceed ``max_nodes``; the message gives the estimate.
    InvalidInputError
        For an unknown ``propagation`` or ``order``, and for ``order="first-fail"``
        without propagation.

    Examples
    --------
    >>> import cpqueens
    >>> G = cpqueens.decision_tree(8)
    >>> G.number_of_nodes() - 1, sum(1 for _, s in G.nodes(data="solution") if s)
    (2056, 92)
    >>> cpqueens.decision_tree(8, include_rejected=True).number_of_nodes() - 1
    15720
    >>> G = cpqueens.decision_tree(4)
    >>> G.nodes[1]
    {'row': 0, 'column': 0, 'depth': 1, 'placement': (0,), 'solution': False, \
'dead_end': False, 'rejected': False, 'truncated': False}
    >>> sorted(cpqueens.tree_solutions(G))
    [(1, 3, 0, 2), (2, 0, 3, 1)]
    >>> G = cpqueens.decision_tree(8, propagation="arc", order="first-fail")
    >>> G.number_of_nodes() - 1, sum(1 for _, d in G.nodes(data="dead_end") if d)
    (738, 164)
    >>> G.nodes[1]["pruned"][:4], G.nodes[1]["wiped_out"]
    (((1, 0), (1, 1), (2, 0), (2, 2)), -1)
    """
    import networkx as nx

    n = check_n(n)
    per_row = check_fixed(fixed, n)
    if max_depth is not None:
        max_depth = check_int(max_depth, "max_depth", 0)
    max_nodes = check_int(max_nodes, "max_nodes", 1)
    include_rejected = bool(include_rejected)
    plain = (propagation, order) == ("none", "row")
    if not plain:
        # Only the propagating trees touch the solvers' code: the plain tree, the
        # reference of crosscheck, shares none with the backends it checks.
        from ..engines.propagation import check_search

        propagation, order = check_search(propagation, order)

    size = estimate_tree_size(
        n,
        per_row,
        include_rejected=include_rejected,
        max_depth=max_depth,
        propagation=propagation,
        order=order,
    )
    if size.graph_nodes > max_nodes:
        raise _too_large(n, size.graph_nodes, max_nodes, exact=size.exact)

    G = nx.DiGraph(
        n=n,
        fixed={row: col for row, col in enumerate(per_row) if col is not None},
        include_rejected=include_rejected,
        max_depth=max_depth,
        propagation=propagation,
        order=order,
    )
    depth_limit = n if max_depth is None else max_depth
    # A million small dicts make the cyclic garbage collector run over and over
    # while nothing is garbage yet; pausing it halves the build time at n=12.
    collecting = gc.isenabled()
    gc.disable()
    try:
        if plain:
            _grow(G, n, per_row, include_rejected, depth_limit, max_nodes)
        else:
            from . import propagated

            def too_large(count: int) -> TreeTooLargeError:
                return _too_large(n, count, max_nodes, exact=False)

            propagated.grow(
                G,
                n,
                per_row,
                propagation,
                order,
                include_rejected,
                depth_limit,
                max_nodes,
                too_large,
            )
    finally:
        if collecting:
            gc.enable()
    return G


def _too_large(n: int, estimate: int, max_nodes: int, *, exact: bool) -> TreeTooLargeError:
    about = "" if exact else "about "
    return TreeTooLargeError(
        f"the decision tree for n={n} would have {about}{estimate:,} nodes, more than "
        f"max_nodes={max_nodes:,} (about 1 kB of memory each); build a partial tree "
        f"instead with max_depth=... (stop at a depth) or fixed={{row: column}} "
        f"(queens placed in advance), or raise max_nodes if the memory is there",
        estimate=estimate,
        max_nodes=max_nodes,
    )


def _grow(
    G: nx.DiGraph,
    n: int,
    fixed: tuple[int | None, ...],
    include_rejected: bool,
    depth_limit: int,
    max_nodes: int,
) -> None:
    """Fill ``G`` with the search tree by an iterative depth-first walk (see
    :func:`_node_writer` for how nodes are added)."""
    full = (1 << n) - 1
    masks = [full if col is None else 1 << col for col in fixed] + [0]
    new_node = _node_writer(G)

    def next_free(depth: int, cols: int, left: int, right: int) -> int:
        return masks[depth] & ~(cols | left | right) if depth < n else 0

    root_free = next_free(0, 0, 0, 0)
    new_node(0, None, _attributes(-1, -1, 0, (), n, root_free, depth_limit, rejected=False))
    count = 1
    # A frame is one node being expanded: its id, depth, board masks, placement and
    # the columns of its row still to try, in increasing order.
    stack = []
    # A dead end is still expanded when its failed attempts are wanted.
    expand = (lambda free: True) if include_rejected else bool
    if depth_limit > 0 and expand(root_free):
        stack.append((0, 0, 0, 0, 0, (), _columns(masks[0], root_free, include_rejected)))
    while stack:
        parent, depth, cols, left, right, placement, todo = stack[-1]
        column = next(todo, None)
        if column is None:
            stack.pop()
            continue
        count += 1
        if count > max_nodes:
            raise _too_large(n, count, max_nodes, exact=False)
        bit = 1 << column
        child = (*placement, column)
        if (cols | left | right) & bit:
            new_node(count - 1, parent, _attributes(depth, column, depth + 1, child, n, 0, 0, True))
            continue
        cols_, left_, right_ = cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1
        free = next_free(depth + 1, cols_, left_, right_)
        new_node(
            count - 1,
            parent,
            _attributes(depth, column, depth + 1, child, n, free, depth_limit, rejected=False),
        )
        if depth + 1 < depth_limit and expand(free):
            todo_ = _columns(masks[depth + 1], free, include_rejected)
            stack.append((count - 1, depth + 1, cols_, left_, right_, child, todo_))


def _node_writer(G: nx.DiGraph):
    """A function ``new_node(id, parent, attributes)`` adding a node and its edge to a new ``G``.

    It writes networkx's own adjacency dicts (``_node``, ``_succ``, ``_pred``, one
    shared edge dict per edge, exactly as ``add_edge`` would) instead of calling
    ``add_node``/``add_edge`` a million times: that is a third faster, and the graph
    is brand new, so no view or cache of it exists yet.
    """
    node_data, succ, pred = G._node, G._succ, G._pred

    def new_node(node_id: int, parent: int | None, attributes: dict) -> None:
        node_data[node_id] = attributes
        succ[node_id] = {}
        if parent is None:
            pred[node_id] = {}
        else:
            edge: dict = {}
            succ[parent][node_id] = edge
            pred[node_id] = {parent: edge}

    return new_node


def _columns(candidates: int, free: int, include_rejected: bool):
    """Iterate over the columns to try in a row, in order: every candidate or only safe ones."""
    wanted = candidates if include_rejected else free
    return (column for column in range(wanted.bit_length()) if wanted >> column & 1)


def _attributes(
    row: int,
    column: int,
    depth: int,
    placement: Solution,
    n: int,
    free: int,
    depth_limit: int,
    rejected: bool,
) -> dict:
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


def tree_solutions(G: nx.DiGraph) -> set[Solution]:
    """Return the solutions read off the solution leaves of a decision tree.

    Works on any graph whose nodes carry ``solution`` and ``placement``, such as
    the trees built by :func:`decision_tree` or read back by
    :func:`cpqueens.read_tree`.

    >>> import cpqueens
    >>> len(cpqueens.tree_solutions(cpqueens.decision_tree(8)))
    92
    >>> cpqueens.tree_solutions(cpqueens.decision_tree(6, fixed={0: 1}))
    {(1, 3, 5, 0, 2, 4)}
    """
    return {tuple(data["placement"]) for _, data in G.nodes(data=True) if data.get("solution")}
