"""How many nodes a decision tree will have, bounded and estimated before it is built.

Building the tree costs about a kilobyte of memory per node, so
:func:`cpqueens.decision_tree` asks this module first and refuses trees that
would not fit. Counting the nodes exactly would take as long as the search
itself (27 million nodes for n=14), so the size is judged in two steps.

First :func:`~cpqueens.trees.explicit.bounds.size_bounds` bounds the number of graph nodes
from below and from above with a few multiplications per level, without building
anything (:mod:`cpqueens.trees.explicit.bounds`).

A tree whose lower bound exceeds the limit is refused at once (``decision_tree(100)``
in microseconds), and one whose upper bound is within it needs no estimate.
Only between the two is the size estimated:

* the top levels are expanded exactly, level by level, while a level holds at
  most :data:`EXACT_FRONTIER` nodes;
* below that frontier, Knuth's estimator (D. E. Knuth, "Estimating the efficiency
  of backtrack programs", 1975) walks a few random paths down from every frontier
  node (at most :data:`MAX_PATHS` paths in all), and each path contributes the
  product of the branching factors it saw.

Knuth's estimator is unbiased, and starting it from every node of a wide frontier
keeps its spread small (a few percent at n=12..14). When the whole tree fits
within the exact levels, as it does up to n=8, the figure is exact. The random
paths use a fixed seed, so the same question always gets the same answer.

The same estimator serves every tree: it asks a search (:class:`Search`, such as
:class:`~cpqueens.trees.explicit.plain.PlainSearch` or
:class:`~cpqueens.trees.explicit.propagated.PropagatedSearch`) for the root, the branches
of a node and the node below a branch, and knows nothing of queens.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ...errors import InvalidInputError
from .bounds import size_bounds
from .nodes import columns
from .plain import PlainSearch
from .propagated import PropagatedSearch

#: Default limit on the graph nodes of a tree. Each node costs about a kilobyte, so
#: two million nodes stay within about 2 GB; n=12 (856,190 nodes) builds, n=13 does not.
DEFAULT_MAX_NODES = 2_000_000

#: The largest board a decision tree is built for. The searches behind a tree keep
#: every row's squares as an n-bit mask (with propagation, a board is n*n bits), and
#: past this even the first level of a tree is wider than anyone can read.
MAX_TREE_N = 1_000

#: The widest level expanded exactly before switching to random paths.
EXACT_FRONTIER = 2_000

#: Random paths walked down from each frontier node.
PATHS_PER_NODE = 4

#: The most random paths an estimate walks. A frontier too wide for
#: :data:`PATHS_PER_NODE` paths a node gets this many from nodes drawn at random, and
#: a level wider than this is not laid out at all: the paths start from the level
#: above. Up to n=14 neither happens, and the figures are those of four paths a node.
MAX_PATHS = 64_000

#: The fewest random paths an estimate bounded in its steps still walks.
MIN_PATHS = 16


@dataclass(frozen=True)
class TreeSize:
    """The estimated size of a decision tree.

    ``nodes`` counts the queens placed safely (the root excluded), ``attempts``
    the squares tested; ``graph_nodes`` is what the networkx graph will hold:
    the root, the nodes, and with ``include_rejected`` one leaf per failed
    attempt. ``exact`` says whether the figures are counts rather than estimates,
    ``lower_bound`` whether they are only bounds from below.

    >>> TreeSize(nodes=2056, attempts=15720, exact=True, include_rejected=True).graph_nodes
    15721
    """

    nodes: int
    attempts: int
    exact: bool
    include_rejected: bool
    #: True when the figures are lower bounds (:func:`size_bounds`) rather than an
    #: estimate: the tree has at least that many nodes, which already exceed the limit.
    lower_bound: bool = False

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


def check_tree_n(n: int) -> None:
    """Refuse a board larger than a decision tree takes, before anything of its size is made.

    >>> check_tree_n(1000)
    >>> check_tree_n(10**23)
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: n=100,000,000,000,000,000,000,000 is beyond what \
a decision tree takes (n <= 1,000); cpqueens.solve finds solutions of larger boards
    """
    if n > MAX_TREE_N:
        raise InvalidInputError(
            f"n={n:,} is beyond what a decision tree takes (n <= {MAX_TREE_N:,}); "
            "cpqueens.solve finds solutions of larger boards"
        )


def tree_search(
    n: int,
    fixed: tuple[int | None, ...],
    propagation: str = "none",
    order: str = "row",
    blocked: Sequence[int] | None = None,
) -> PlainSearch | PropagatedSearch:
    """The search whose tree :func:`cpqueens.decision_tree` builds for these arguments.

    Blind backtracking row after row is the plain search; anything else propagates.
    ``blocked`` holds each row's blocked columns as a bit mask (None: none blocked).

    >>> type(tree_search(8, (None,) * 8)).__name__
    'PlainSearch'
    >>> type(tree_search(8, (None,) * 8, "forward", "first-fail")).__name__
    'PropagatedSearch'
    """
    if (propagation, order) == ("none", "row"):
        return PlainSearch(n, fixed, blocked)
    return PropagatedSearch(n, fixed, propagation, order, blocked)


def estimate_tree_size(
    n: int,
    fixed: tuple[int | None, ...],
    *,
    include_rejected: bool = False,
    max_depth: int | None = None,
    seed: int = 0,
    propagation: str = "none",
    order: str = "row",
    max_nodes: int | None = DEFAULT_MAX_NODES,
    blocked: Sequence[int] | None = None,
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
    max_nodes : int or None
        When the lower bound of :func:`size_bounds` already passes this many graph
        nodes, that bound comes back at once (``lower_bound=True``) instead of an
        estimate, which would take long for such a tree. None always estimates.
    blocked : sequence of int, optional
        Each row's blocked columns as a bit mask (see
        :func:`cpqueens.trees.explicit.nodes.blocked_rows`); None blocks nothing.

    Returns
    -------
    TreeSize

    Examples
    --------
    >>> from cpqueens.trees.explicit.size import estimate_tree_size
    >>> size = estimate_tree_size(8, (None,) * 8)
    >>> size.nodes, size.attempts, size.exact
    (2056, 15720, True)
    >>> estimate_tree_size(14, (None,) * 14).nodes > 20_000_000
    True
    >>> estimate_tree_size(8, (None,) * 8, propagation="arc").nodes
    768
    >>> size = estimate_tree_size(1000, (None,) * 1000)
    >>> size.lower_bound, size.graph_nodes > 2_000_000
    (True, True)
    """
    # A depth limit beyond n changes nothing: no row is left to branch on.
    depth_limit = n if max_depth is None else max_depth
    if max_nodes is not None:
        bounds = size_bounds(
            n,
            fixed,
            include_rejected=include_rejected,
            depth_limit=depth_limit,
            propagation=propagation,
            cap=max_nodes,
            blocked=blocked,
        )
        if bounds.lower > max_nodes:
            return TreeSize(
                bounds.nodes, bounds.attempts, False, include_rejected, lower_bound=True
            )
    check_tree_n(n)
    search = tree_search(n, fixed, propagation, order, blocked)
    return estimate(search, depth_limit, include_rejected=include_rejected, seed=seed)


def estimate(
    search: Search,
    depth_limit: int,
    *,
    include_rejected: bool,
    seed: int = 0,
    max_steps: int | None = None,
) -> TreeSize:
    """Estimate the size of ``search``'s tree down to ``depth_limit``: exact top levels,
    then Knuth's random paths.

    ``attempts`` counts the squares each expanded node's row offers (its children
    and its rejected leaves). The nodes of the last level are counted, never made,
    and no level wider than :data:`MAX_PATHS` is laid out: the paths then start
    from the level above.

    ``max_steps`` bounds the nodes the estimate makes (calls of ``search.child``),
    for searches whose nodes are dear (propagation on a large board,
    :mod:`cpqueens.trees.explicit.cost`): a level is laid out only within it, and the paths
    share what is left, :data:`MIN_PATHS` of them at the least. None: no bound.

    >>> estimate(PlainSearch(4, (None,) * 4), 4, include_rejected=False)
    TreeSize(nodes=16, attempts=60, exact=True, include_rejected=False, lower_bound=False)
    """
    steps = nodes = attempts = depth = 0
    allowed = float("inf") if max_steps is None else max_steps
    level: list[Any] = [] if search.root is None else [search.root]
    while level and depth < depth_limit and len(level) <= EXACT_FRONTIER:
        offers = [search.branch(node) for node in level]
        wide = sum(branches.bit_count() for _, branches in offers)
        last = depth + 1 >= depth_limit
        if not last and (wide > MAX_PATHS or steps + wide > allowed):
            break  # the paths start from this level instead
        steps += 0 if last else wide
        below = []
        for node, (offered, branches) in zip(level, offers, strict=True):
            attempts += offered
            nodes += branches.bit_count()
            if last:
                continue  # the nodes of the last level are never expanded
            for column in columns(branches):
                child = search.child(node, column)
                if child is not None:
                    below.append(child)
        level = below
        depth += 1
    if not level or depth >= depth_limit:
        return TreeSize(nodes, attempts, exact=True, include_rejected=include_rejected)

    rng = random.Random(seed)
    paths = MAX_PATHS
    if max_steps is not None:
        # A path makes a node at each level it passes, but the last.
        left = (max_steps - steps) // max(1, depth_limit - depth - 1)
        paths = min(paths, max(MIN_PATHS, left))
    if len(level) * PATHS_PER_NODE <= paths and len(level) > EXACT_FRONTIER:
        # The usual frontier: a few paths from every node.
        starts = [start for start in level for _ in range(PATHS_PER_NODE)]
    elif len(level) <= min(EXACT_FRONTIER, paths):
        # A narrow frontier above a level too wide to lay out: more paths a node.
        starts = [start for start in level for _ in range(max(1, paths // len(level)))]
    else:
        starts = [level[rng.randrange(len(level))] for _ in range(paths)]
    sampled_nodes = sampled_attempts = 0.0
    walked = 0
    for start in starts:
        if steps >= allowed:
            break  # out of steps: the paths walked stand for the frontier
        walked += 1
        node, weight = start, 1.0
        for step in range(depth, depth_limit):
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
            if step + 1 >= depth_limit or steps >= allowed:
                break  # the child would not be expanded, or may not be made
            node = search.child(node, (branches & -branches).bit_length() - 1)
            steps += 1
            if node is None:
                break
    # Each path stands for len(level) / walked of the frontier's subtrees.
    share = len(level) / max(1, walked)
    return TreeSize(
        nodes + round(sampled_nodes * share),
        attempts + round(sampled_attempts * share),
        exact=False,
        include_rejected=include_rejected,
    )
