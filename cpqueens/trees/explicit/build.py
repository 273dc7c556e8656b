"""The search tree of the n-queens backtracker, built explicitly as a networkx graph.

Node 0 is the root, the empty board. Each other node is one queen placed safely:
its parent is the board one row up, its children the safe squares of the next
row, in column order. Node ids follow the order of the search (a preorder walk),
so a smaller id was visited earlier. The attributes every node carries
(``row``, ``column``, ``depth``, ``placement``, ``solution``, ``dead_end``,
``rejected``, ``truncated``) are described in :mod:`cpqueens.trees.explicit.nodes`.

The graph attributes ``n``, ``fixed`` (row -> column), ``blocked`` (the sorted
tuple of blocked (row, column) squares), ``include_rejected``, ``max_depth``,
``propagation`` and ``order`` record how the tree was asked for. A blocked square
is never a node: the search does not try it at all.
The default tree is the one the hand-written backtrackers walk
(:mod:`cpqueens.trees.explicit.plain`), so its size is their ``stats``: the nodes below the
root are ``stats["nodes"]``, and with rejected attempts the non-root nodes are
``stats["attempts"]``.

With ``propagation="forward"`` or ``"arc"`` the tree is the one of the
``propagate`` backend (:mod:`cpqueens.trees.explicit.propagated`): a node is a queen placed
on a square of its row's domain, the rows may come in first-fail order, and two
more attributes, ``pruned`` and ``wiped_out``, say what propagation did.

This module is the front: it checks the arguments, asks whether the tree fits
(the cheap bounds of :mod:`cpqueens.trees.explicit.bounds` first, the estimate of
:mod:`cpqueens.trees.explicit.size` only when the limit lies between them) and, with propagation,
:mod:`cpqueens.trees.explicit.cost` what its nodes cost in memory and time, and lets the
plain or the propagating grower build it. See :mod:`cpqueens.trees.explicit.summary`
for the figures of a built tree, :mod:`cpqueens.trees.files.readwrite` to export and read trees and
:mod:`cpqueens.trees.pictures.drawing` to draw them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from ...arguments import Square, check_int
from ...engines.propagation import check_search
from ...errors import TreeTooLargeError
from ...instances import Instance, as_instance
from .bounds import size_bounds
from .cost import Budget, TreePrice, format_bytes, format_seconds, tree_price
from .nodes import NODE_ATTRIBUTES, PROPAGATION_ATTRIBUTES, blocked_rows
from .size import DEFAULT_MAX_NODES, MAX_TREE_N, check_tree_n, estimate, tree_search
from .summary import tree_solutions

if TYPE_CHECKING:
    import networkx as nx

__all__ = [
    "DEFAULT_MAX_NODES",
    "MAX_TREE_N",
    "NODE_ATTRIBUTES",
    "PROPAGATION_ATTRIBUTES",
    "decision_tree",
    "tree_solutions",
]


def decision_tree(
    n: int | Instance,
    fixed: Mapping[int, int] | None = None,
    *,
    blocked: Iterable[Square] | None = None,
    propagation: str = "none",
    order: str = "row",
    include_rejected: bool = False,
    max_depth: int | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> nx.DiGraph:
    """Build the backtracking search tree of ``n`` queens as a ``networkx.DiGraph``.

    Parameters
    ----------
    n : int or Instance
        Board size, from 1 to :data:`~cpqueens.trees.explicit.size.MAX_TREE_N` (1,000), or an
        :class:`~cpqueens.Instance` (its fixed queens and blocked squares then come
        with it).
    fixed : mapping of int to int, optional
        Queens placed in advance, row -> column: a fixed row offers one square only.
    blocked : iterable of (int, int), optional
        Squares no queen may occupy, ``(row, column)``, 0-based. A blocked square is
        never tried: it is not a node, and with ``include_rejected`` not a rejected
        leaf either, as if the board had no such square. With propagation a row
        whose every square is blocked wipes the root out.
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
        tree outgrows it all the same. A tree known to be far larger (by the bounds
        of :func:`cpqueens.trees.explicit.bounds.size_bounds`) is refused at once, without an
        estimate; one known to fit is built without one. A tree with propagation
        is priced as well (:mod:`cpqueens.trees.explicit.cost`): its nodes keep the squares
        they pruned and take longer to make, the more the larger the board (about
        2.5 kB and 0.1 ms a node at n=100), so it may have no more nodes than a
        budget of 2 GB and 30 s pays for (raised with ``max_nodes`` above its
        default); a tree priced beyond it is refused at once, with its price.

    Returns
    -------
    networkx.DiGraph
        Root 0, edges from parent to child; node and graph attributes as described
        in :mod:`cpqueens.trees.explicit.build` and :mod:`cpqueens.trees.explicit.nodes`.

    Raises
    ------
    TreeTooLargeError
        When the tree would exceed ``max_nodes``, or with propagation cost more
        memory or build time than its budget; the message gives the estimate (and
        the price) and how to ask for a smaller tree.
    InvalidInputError
        For ``n`` beyond 1,000, an unknown ``propagation`` or ``order``, and for
        ``order="first-fail"`` without propagation, a blocked square off the board,
        a fixed queen on a blocked square, and an Instance given with ``fixed`` or
        ``blocked`` as well.

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
    >>> G = cpqueens.decision_tree(6, blocked=[(0, 1), (0, 4)])
    >>> G.graph["blocked"], sorted(cpqueens.tree_solutions(G))
    (((0, 1), (0, 4)), [(2, 5, 1, 4, 0, 3), (3, 0, 4, 1, 5, 2)])
    """
    # The tree's size limit before anything of size n is made: n rows may not even fit.
    instance = as_instance(n, fixed, blocked, largest=check_tree_n)
    n = instance.n
    per_row = instance.fixed_per_row()
    squares = instance.blocked_set
    masks = blocked_rows(squares, n) if squares else None
    if max_depth is not None:
        max_depth = check_int(max_depth, "max_depth", 0)
    max_nodes = check_int(max_nodes, "max_nodes", 1)
    include_rejected = bool(include_rejected)
    propagation, order = check_search(propagation, order)

    depth_limit = n if max_depth is None else max_depth
    bounds = size_bounds(
        n,
        per_row,
        include_rejected=include_rejected,
        depth_limit=depth_limit,
        propagation=propagation,
        cap=max_nodes,
        blocked=masks,
    )
    if bounds.lower > max_nodes:
        raise _too_large(n, bounds.lower, max_nodes, exact=False, at_least=True)
    # A node with propagation costs more than a plain one, the more the larger the
    # board: such a tree is priced, and may have no more nodes than its budget pays for.
    price = None
    cap = max_nodes
    if propagation != "none":
        price = tree_price(n, per_row, propagation, order, depth_limit)
        cap = min(max_nodes, price.most_nodes(Budget.of(max_nodes)))
        if bounds.lower > cap:
            raise _too_costly(n, bounds.lower, price, max_nodes, exact=False, at_least=True)
    search = tree_search(n, per_row, propagation, order, masks)
    if bounds.upper > cap:
        steps = None if price is None else price.steps()
        size = estimate(search, depth_limit, include_rejected=include_rejected, max_steps=steps)
        if size.graph_nodes > max_nodes:
            raise _too_large(n, size.graph_nodes, max_nodes, exact=size.exact)
        if price is not None and size.graph_nodes > cap:
            raise _too_costly(n, size.graph_nodes, price, max_nodes, exact=size.exact)

    # Only now, for a tree that is built: a refusal never waits for networkx to load.
    import networkx as nx

    G = nx.DiGraph(
        n=n,
        fixed={row: col for row, col in enumerate(per_row) if col is not None},
        blocked=tuple(sorted(squares)),
        include_rejected=include_rejected,
        max_depth=max_depth,
        propagation=propagation,
        order=order,
    )

    def too_large(count: int) -> TreeTooLargeError:
        # The estimate was under the limit, but the real tree outgrew it.
        if price is None or count > max_nodes:
            return _too_large(n, count, max_nodes, exact=False)
        return _too_costly(n, count, price, max_nodes, exact=False, at_least=True)

    search.grow(
        G,
        include_rejected=include_rejected,
        depth_limit=depth_limit,
        max_nodes=cap,
        too_large=too_large,
    )
    return G


def _too_large(
    n: int, nodes: int, max_nodes: int, *, exact: bool, at_least: bool = False
) -> TreeTooLargeError:
    about = "at least " if at_least else "" if exact else "about "
    return TreeTooLargeError(
        f"the decision tree for n={n} would have {about}{nodes:,} nodes, more than "
        f"max_nodes={max_nodes:,} (about 1 kB of memory each); build a partial tree "
        f"instead with max_depth=... (stop at a depth) or fixed={{row: column}} "
        f"(queens placed in advance), or raise max_nodes if the memory is there",
        estimate=nodes,
        max_nodes=max_nodes,
        at_least=at_least,
    )


def _too_costly(
    n: int, nodes: int, price: TreePrice, max_nodes: int, *, exact: bool, at_least: bool = False
) -> TreeTooLargeError:
    about = "at least " if at_least else "" if exact else "about "
    budget = Budget.of(max_nodes)
    memory, seconds = price.memory(nodes), price.seconds(nodes)
    keeps = f"keeps about {price.pruned:,} pruned squares and " if price.pruned else ""
    cost = (
        f"about {format_bytes(memory)} of memory and {format_seconds(seconds)} to build, "
        f"more than the budget of {format_bytes(budget.memory)} and "
        f"{format_seconds(budget.seconds)}"
    )
    return TreeTooLargeError(
        f"the decision tree for n={n} would have {about}{nodes:,} nodes, {cost} that "
        f"max_nodes={max_nodes:,} allows (at n={n} a node with propagation {keeps}takes about "
        f"{format_seconds(price.node_seconds)}); "
        "build a smaller tree with max_depth=... (stop at a depth) or fixed={row: column} "
        "(queens placed in advance), or the plain tree with propagation='none' (about 1 kB "
        "a node), or raise max_nodes (the budget grows with it) if the memory and the time "
        "are there",
        estimate=nodes,
        max_nodes=max_nodes,
        at_least=at_least,
        memory=memory,
        seconds=seconds,
        cost=cost,
    )
