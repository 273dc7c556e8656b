"""How many nodes a decision tree will have, estimated before it is built.

Building the tree costs about a kilobyte of memory per node, so
:func:`cpqueens.decision_tree` asks this module first and refuses trees that
would not fit. Counting the nodes exactly would take as long as the search
itself (27 million nodes for n=14), so the size is estimated instead:

* the top levels are expanded exactly, level by level, while a level holds at
  most :data:`EXACT_FRONTIER` nodes;
* below that frontier, Knuth's estimator (D. E. Knuth, "Estimating the efficiency
  of backtrack programs", 1975) walks a few random paths down from every frontier
  node, and each path contributes the product of the branching factors it saw.

Knuth's estimator is unbiased, and starting it from every node of a wide frontier
keeps its spread small (a few percent at n=12..14). When the whole tree fits
within the exact levels, as it does up to n=8, the figure is exact. The random
paths use a fixed seed, so the same question always gets the same answer.

The same estimator serves every tree: it asks a search (:class:`Search`, such as
:class:`~cpqueens.trees.plain.PlainSearch` or
:class:`~cpqueens.trees.propagated.PropagatedSearch`) for the root, the branches
of a node and the node below a branch, and knows nothing of queens.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol

from .nodes import columns
from .plain import PlainSearch
from .propagated import PropagatedSearch

#: The widest level expanded exactly before switching to random paths.
EXACT_FRONTIER = 2_000

#: Random paths walked down from each frontier node.
PATHS_PER_NODE = 4


@dataclass(frozen=True)
class TreeSize:
    """The estimated size of a decision tree.

    ``nodes`` counts the queens placed safely (the root excluded), ``attempts``
    the squares tested; ``graph_nodes`` is what the networkx graph will hold:
    the root, the nodes, and with ``include_rejected`` one leaf per failed
    attempt. ``exact`` says whether the figures are counts rather than estimates.

    >>> TreeSize(nodes=2056, attempts=15720, exact=True, include_rejected=True).graph_nodes
    15721
    """

    nodes: int
    attempts: int
    exact: bool
    include_rejected: bool

    @property
    def graph_nodes(self) -> int:
        # Every attempt is either a safe placement (a node) or a rejected leaf.
        return 1 + (self.attempts if self.include_rejected else self.nodes)


class Search(Protocol):
    """What the estimator asks of a search; a node is whatever the search makes it."""

    #: The root when it is expanded, else None.
    root: Any

    def branch(self, node: Any) -> tuple[int, int]:
        """The squares the node's row offers (its attempts), and its children's columns.

        The columns come as a bit mask, so that a random path never lists them.
        """

    def child(self, node: Any, column: int) -> Any:
        """The child on ``column`` when it is expanded further, else None."""


def tree_search(
    n: int, fixed: tuple[int | None, ...], propagation: str = "none", order: str = "row"
) -> PlainSearch | PropagatedSearch:
    """The search whose tree :func:`cpqueens.decision_tree` builds for these arguments.

    Blind backtracking row after row is the plain search; anything else propagates.

    >>> type(tree_search(8, (None,) * 8)).__name__
    'PlainSearch'
    >>> type(tree_search(8, (None,) * 8, "forward", "first-fail")).__name__
    'PropagatedSearch'
    """
    if (propagation, order) == ("none", "row"):
        return PlainSearch(n, fixed)
    return PropagatedSearch(n, fixed, propagation, order)


def estimate_tree_size(
    n: int,
    fixed: tuple[int | None, ...],
    *,
    include_rejected: bool = False,
    max_depth: int | None = None,
    seed: int = 0,
    propagation: str = "none",
    order: str = "row",
) -> TreeSize:
    """Estimate the size of the decision tree of ``n`` queens without building it.

    Parameters
    ----------
    n : int
        Board size.
    fixed : tuple of int or None
        The column of each row's fixed queen, or None (as made by
        :func:`cpqueens.arguments.check_fixed`).
    include_rejected : bool
        Whether the tree will hold the failed attempts (see :attr:`TreeSize.graph_nodes`).
    max_depth : int, optional
        The depth the tree stops at.
    seed : int
        Seed of the random paths.
    propagation, order : str
        Those of :func:`cpqueens.decision_tree`, already checked.

    Returns
    -------
    TreeSize

    Examples
    --------
    >>> from cpqueens.trees.size import estimate_tree_size
    >>> size = estimate_tree_size(8, (None,) * 8)
    >>> size.nodes, size.attempts, size.exact
    (2056, 15720, True)
    >>> estimate_tree_size(14, (None,) * 14).nodes > 20_000_000
    True
    >>> estimate_tree_size(8, (None,) * 8, propagation="arc").nodes
    768
    """
    search = tree_search(n, fixed, propagation, order)
    # A depth limit beyond n changes nothing: no row is left to branch on.
    depth_limit = n if max_depth is None else max_depth
    return estimate(search, depth_limit, include_rejected=include_rejected, seed=seed)


def estimate(
    search: Search, depth_limit: int, *, include_rejected: bool, seed: int = 0
) -> TreeSize:
    """Estimate the size of ``search``'s tree down to ``depth_limit``: exact top levels,
    then Knuth's random paths.

    ``attempts`` counts the squares each expanded node's row offers (its children
    and its rejected leaves).

    >>> estimate(PlainSearch(4, (None,) * 4), 4, include_rejected=False)
    TreeSize(nodes=16, attempts=60, exact=True, include_rejected=False)
    """
    nodes = attempts = depth = 0
    level: list[Any] = [] if search.root is None else [search.root]
    while level and depth < depth_limit and len(level) <= EXACT_FRONTIER:
        below = []
        for node in level:
            offered, branches = search.branch(node)
            attempts += offered
            nodes += branches.bit_count()
            for column in columns(branches):
                child = search.child(node, column)
                if child is not None:
                    below.append(child)
        level = below
        depth += 1
    if not level or depth >= depth_limit:
        return TreeSize(nodes, attempts, exact=True, include_rejected=include_rejected)

    rng = random.Random(seed)
    sampled_nodes = sampled_attempts = 0.0
    for start in level:
        for _ in range(PATHS_PER_NODE):
            node, weight = start, 1.0
            for _ in range(depth, depth_limit):
                offered, branches = search.branch(node)
                sampled_attempts += weight * offered
                branching = branches.bit_count()
                if not branching:
                    break
                weight *= branching
                sampled_nodes += weight
                # Go down through one child chosen uniformly at random: drop the
                # lowest columns (bit tricks, not a list: this loop is the estimate's cost).
                for _ in range(rng.randrange(branching)):
                    branches &= branches - 1
                node = search.child(node, (branches & -branches).bit_length() - 1)
                if node is None:
                    break
    return TreeSize(
        nodes + round(sampled_nodes / PATHS_PER_NODE),
        attempts + round(sampled_attempts / PATHS_PER_NODE),
        exact=False,
        include_rejected=include_rejected,
    )
