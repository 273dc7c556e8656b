"""Figures read off a built decision tree: its solutions and a summary of its nodes.

They work on any graph whose nodes carry the attributes of
:data:`cpqueens.trees.explicit.nodes.NODE_ATTRIBUTES`, such as the trees built by
:func:`cpqueens.decision_tree` or read back by :func:`cpqueens.read_tree`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...board import Solution

if TYPE_CHECKING:
    import networkx as nx


def tree_solutions(G: nx.DiGraph) -> set[Solution]:
    """Return the solutions read off the solution leaves of a decision tree.

    Works on any graph whose nodes carry ``solution`` and ``placement``, such as
    the trees built by :func:`~cpqueens.decision_tree` or read back by
    :func:`cpqueens.read_tree`.

    >>> import cpqueens
    >>> len(cpqueens.tree_solutions(cpqueens.decision_tree(8)))
    92
    >>> cpqueens.tree_solutions(cpqueens.decision_tree(6, fixed={0: 1}))
    {(1, 3, 5, 0, 2, 4)}
    """
    return {tuple(data["placement"]) for _, data in G.nodes(data=True) if data.get("solution")}


@dataclass(frozen=True)
class TreeSummary:
    """The figures of a decision tree, as :func:`tree_summary` counts them.

    The nodes of a tree are counted below the root, as everywhere in cpqueens (the
    2,056 nodes of n=8, the ``nodes`` of a search's ``stats``): :attr:`nodes`;
    ``graph_nodes`` adds the root, as networkx counts it.

    Attributes
    ----------
    graph_nodes : int
        Every node of the graph: the root, the queens placed and the rejected leaves.
    edges : int
        Every edge of the graph (one per node below the root).
    queens_placed : int
        The nodes below the root that place a queen: the ``nodes`` of the search's
        ``stats``.
    rejected : int
        The rejected leaves (failed attempts), 0 unless built with ``include_rejected``.
    solutions : int
        The distinct solutions on the solution leaves.
    dead_ends : int
        The queens placed below which no square is left (a domain wiped out, with
        propagation).
    wiped_out : int
        The row the fixed queens or the blocked squares wipe out at the root of a
        propagating tree, else -1.
    """

    graph_nodes: int
    edges: int
    queens_placed: int
    rejected: int
    solutions: int
    dead_ends: int
    wiped_out: int

    @property
    def nodes(self) -> int:
        """The nodes below the root: the queens placed and the rejected leaves.

        >>> import cpqueens
        >>> tree_summary(cpqueens.decision_tree(8)).nodes
        2056
        """
        return self.graph_nodes - 1


def tree_summary(G: nx.DiGraph) -> TreeSummary:
    """Count the nodes, solutions and dead ends of a decision tree.

    Parameters
    ----------
    G : networkx.DiGraph
        A decision tree, root 0 (built, or read back from a file).

    Returns
    -------
    TreeSummary

    Examples
    --------
    >>> import cpqueens
    >>> from cpqueens.trees.explicit.summary import tree_summary
    >>> tree_summary(cpqueens.decision_tree(6, include_rejected=True))
    TreeSummary(graph_nodes=895, edges=894, queens_placed=152, rejected=742, solutions=4, \
dead_ends=46, wiped_out=-1)
    >>> tree_summary(cpqueens.decision_tree(5, {0: 0, 2: 2}, propagation="arc")).wiped_out
    0
    """
    placed = rejected = dead_ends = 0
    for node, data in G.nodes(data=True):
        if not node:  # the root places no queen
            continue
        if data["rejected"]:
            rejected += 1
        else:
            placed += 1
            dead_ends += bool(data["dead_end"])
    return TreeSummary(
        graph_nodes=G.number_of_nodes(),
        edges=G.number_of_edges(),
        queens_placed=placed,
        rejected=rejected,
        solutions=len(tree_solutions(G)),
        dead_ends=dead_ends,
        wiped_out=G.nodes[0].get("wiped_out", -1),
    )
