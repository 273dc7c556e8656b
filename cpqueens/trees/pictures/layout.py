"""A decision tree laid out top-down: its root, its nodes in search order, a tidy
position for each, and the paths to its solutions.

networkx has no layout for trees that keeps edges from crossing, so
:func:`tidy_layout` is a small one in the spirit of Reingold and Tilford: the
leaves take consecutive x positions from left to right in the order of the
search, each parent sits centred over its first and last child, and each level
of the tree is one row of the picture. Subtrees never overlap, so no two edges
cross.

These work on any tree of decision-tree nodes, a part of one too, and need
nothing of matplotlib; :mod:`cpqueens.trees.pictures.drawing` draws with them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...errors import InvalidInputError

if TYPE_CHECKING:
    import networkx as nx


def tree_root(G: nx.DiGraph):
    """The one node without a parent.

    >>> import networkx as nx
    >>> tree_root(nx.DiGraph([(0, 1), (0, 2)]))
    0
    """
    roots = [node for node, degree in G.in_degree() if degree == 0]
    if len(roots) != 1:
        raise InvalidInputError(f"a decision tree has one root; this graph has {len(roots)}")
    return roots[0]


def _preorder(G: nx.DiGraph, root) -> list:
    """Nodes in search order: depth first, children by increasing node id."""
    order, stack = [], [root]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(sorted(G.successors(node), reverse=True))
    return order


def tree_order(G: nx.DiGraph) -> list:
    """The nodes of ``G`` in search order, once ``G`` is a tree: one root, one parent
    for every other node, every node below the root.

    >>> import networkx as nx
    >>> tree_order(nx.DiGraph([(0, 1), (0, 2), (2, 3)]))
    [0, 1, 2, 3]
    >>> tree_order(nx.DiGraph([(0, 1), (2, 3), (3, 2)]))
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: a decision tree has every node below its root; \
nodes 2, 3 are not (they make a cycle)
    """
    root = tree_root(G)
    for node, degree in G.in_degree():
        if degree > 1:
            parents = ", ".join(map(repr, G.predecessors(node)))
            raise InvalidInputError(
                f"a decision tree gives each node one parent; node {node!r} has {degree}: {parents}"
            )
    # One root and at most one parent each: the nodes not below the root make cycles.
    order = _preorder(G, root)
    if len(order) < G.number_of_nodes():
        reached = set(order)
        stray = [node for node in G if node not in reached]
        shown = ", ".join(map(repr, stray[:5])) + (", ..." if len(stray) > 5 else "")
        raise InvalidInputError(
            f"a decision tree has every node below its root; nodes {shown} are not "
            "(they make a cycle)"
        )
    return order


def tidy_layout(G: nx.DiGraph) -> dict:
    """Return ``{node: (x, y)}`` for a top-down drawing of a tree, without edge crossings.

    Leaves get x = 0, 1, 2, ... in search order; a parent is centred over its
    children; y is minus the depth, so the root is on top.

    >>> import cpqueens
    >>> from cpqueens.trees.pictures.layout import tidy_layout
    >>> pos = tidy_layout(cpqueens.decision_tree(4, max_depth=1))
    >>> [pos[node] for node in range(5)]
    [(1.5, 0), (0.0, -1), (1.0, -1), (2.0, -1), (3.0, -1)]
    """
    if G.number_of_nodes() == 0:
        return {}
    order = tree_order(G)
    root = order[0]
    depth = {root: 0}
    for node in order:
        for child in G.successors(node):
            depth[child] = depth[node] + 1
    x: dict = {}
    leaves = 0
    for node in order:  # leaves first, left to right
        if G.out_degree(node) == 0:
            x[node] = float(leaves)
            leaves += 1
    for node in reversed(order):  # then parents, from the bottom up
        if node not in x:
            children = sorted(G.successors(node))
            x[node] = (x[children[0]] + x[children[-1]]) / 2
    return {node: (x[node], -depth[node]) for node in order}


def solution_paths(G: nx.DiGraph) -> nx.DiGraph:
    """Return the subtree made of the solution leaves and their ancestors.

    >>> import cpqueens
    >>> solution_paths(cpqueens.decision_tree(4)).number_of_nodes()
    9
    """
    keep = set()
    for node, is_solution in G.nodes(data="solution"):
        if is_solution and node not in keep:
            keep.add(node)
            keep.update(_ancestors(G, node, keep))
    if not keep:
        keep.add(tree_root(G))
    return G.subgraph(keep)


def collapse_failed(G: nx.DiGraph) -> tuple[nx.DiGraph, dict]:
    """The tree with its failed subtrees hidden, as CP-Profiler shows it: every node
    with a solution below (the root too), and each child of theirs; a child with no
    solution below and more than itself beneath stands for its whole subtree.

    Returns the subtree drawn and ``{node: nodes of its subtree}`` for the nodes that
    stand for a hidden subtree.

    >>> import cpqueens
    >>> shown, collapsed = collapse_failed(cpqueens.decision_tree(4))
    >>> shown.number_of_nodes(), collapsed
    (11, {1: 4, 13: 4})
    """
    order = tree_order(G)
    sizes: dict = {}
    for node in reversed(order):
        sizes[node] = 1 + sum(sizes[child] for child in G.successors(node))
    solved = set(solution_paths(G))
    shown = set(solved)
    collapsed = {}
    for node in solved:
        for child in G.successors(node):
            shown.add(child)
            if child not in solved and sizes[child] > 1:
                collapsed[child] = sizes[child]
    return G.subgraph(shown), dict(sorted(collapsed.items()))


def _ancestors(G: nx.DiGraph, node, known: set):
    while True:
        parents = list(G.predecessors(node))
        if not parents or parents[0] in known:
            return
        node = parents[0]
        yield node
