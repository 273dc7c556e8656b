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
"""

from __future__ import annotations

import random
from dataclasses import dataclass

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
    """

    nodes: int
    attempts: int
    exact: bool
    include_rejected: bool

    @property
    def graph_nodes(self) -> int:
        # Every attempt is either a safe placement (a node) or a rejected leaf.
        return 1 + (self.attempts if self.include_rejected else self.nodes)


def _candidates(n: int, fixed_column: int | None) -> int:
    return (1 << n) - 1 if fixed_column is None else 1 << fixed_column


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

    ``fixed`` is the per-row tuple of :func:`cpqueens.api.check_fixed`;
    ``propagation`` and ``order`` are those of :func:`cpqueens.decision_tree`
    (already checked), and the same method estimates a propagating tree.

    >>> from cpqueens.trees.size import estimate_tree_size
    >>> size = estimate_tree_size(8, (None,) * 8)
    >>> size.nodes, size.attempts, size.exact
    (2056, 15720, True)
    >>> estimate_tree_size(14, (None,) * 14).nodes > 20_000_000
    True
    >>> estimate_tree_size(8, (None,) * 8, propagation="arc").nodes
    768
    """
    full = (1 << n) - 1
    depth_limit = n if max_depth is None else min(n, max_depth)
    if (propagation, order) != ("none", "row"):
        from .propagated import estimate

        return estimate(
            n,
            fixed,
            propagation,
            order,
            include_rejected=include_rejected,
            depth_limit=depth_limit,
            seed=seed,
        )
    nodes = attempts = 0
    # A level is a list of (columns, left diagonals, right diagonals) bit masks.
    level = [(0, 0, 0)]
    depth = 0
    while level and depth < depth_limit and len(level) <= EXACT_FRONTIER:
        candidates = _candidates(n, fixed[depth])
        width = candidates.bit_count()
        below = []
        for cols, left, right in level:
            attempts += width
            free = candidates & ~(cols | left | right)
            while free:
                bit = free & -free
                free ^= bit
                below.append((cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1))
        nodes += len(below)
        level = below
        depth += 1
    if not level or depth == depth_limit:
        return TreeSize(nodes, attempts, exact=True, include_rejected=include_rejected)

    rng = random.Random(seed)
    sampled_nodes = sampled_attempts = 0.0
    for start in level:
        for _ in range(PATHS_PER_NODE):
            cols, left, right = start
            weight = 1.0
            for row in range(depth, depth_limit):
                candidates = _candidates(n, fixed[row])
                sampled_attempts += weight * candidates.bit_count()
                free = candidates & ~(cols | left | right)
                branching = free.bit_count()
                if not branching:
                    break
                weight *= branching
                sampled_nodes += weight
                # Pick one safe square uniformly at random and go down through it.
                for _ in range(rng.randrange(branching)):
                    free &= free - 1
                bit = free & -free
                cols, left, right = cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1
    return TreeSize(
        nodes + round(sampled_nodes / PATHS_PER_NODE),
        attempts + round(sampled_attempts / PATHS_PER_NODE),
        exact=False,
        include_rejected=include_rejected,
    )
