"""A tree given by its parents, put in order: depths, levels, ranks among siblings, preorder.

Array helpers shared by :mod:`cpqueens.trees.compare` (which walks two trees level by
level) and :mod:`cpqueens.trees.files.cpprofiler` (which reads a database whose node ids
need not come in preorder). Each is a handful of numpy passes, none a loop over nodes.
"""

from __future__ import annotations

import numpy as np


def levels_of(depth: np.ndarray) -> list[np.ndarray]:
    """The nodes at each depth, in preorder within a depth.

    >>> [level.tolist() for level in levels_of(np.array([0, 1, 2, 1]))]
    [[0], [1, 3], [2]]
    """
    by_depth = np.argsort(depth, kind="stable")
    bounds = np.searchsorted(depth[by_depth], np.arange(int(depth.max()) + 2))
    return [by_depth[bounds[d] : bounds[d + 1]] for d in range(len(bounds) - 1)]


def sibling_index_by(parent: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Each node's rank among its siblings ordered by ``key`` (-1 for the root).

    >>> sibling_index_by(np.array([-1, 0, 0, 0]), np.array([-1, 5, 2, 9])).tolist()
    [-1, 1, 0, 2]
    """
    order, starts = _siblings(parent, key)
    rank = np.empty(len(parent), dtype=np.int64)
    rank[order] = np.arange(len(order)) - starts
    rank[parent < 0] = -1
    return rank


def _siblings(parent: np.ndarray, key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The nodes grouped by parent, siblings by ``key``, and for each place in that
    order the place where its group starts."""
    order = np.lexsort((key, parent))
    grouped = parent[order]
    first = np.r_[True, grouped[1:] != grouped[:-1]]
    return order, np.maximum.accumulate(np.where(first, np.arange(len(order)), 0))


def depths(parent: np.ndarray) -> np.ndarray:
    """Each node's depth, from a parent array (-1 at the root) with no cycle.

    >>> depths(np.array([-1, 0, 1, 0])).tolist()
    [0, 1, 2, 1]
    """
    depth = (parent >= 0).astype(np.int64)
    jump = parent.astype(np.int64)
    while (up := jump >= 0).any():  # pointer doubling: log2(depth) rounds
        depth[up] += depth[jump[up]]
        jump[up] = jump[jump[up]]
    return depth


def preorder_positions(parent: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Each node's place in the preorder of the tree ``parent``, siblings by ``key``.

    >>> preorder_positions(np.array([-1, 0, 0, 1]), np.array([0, 1, 0, 0])).tolist()
    [0, 2, 1, 3]
    """
    levels = levels_of(depths(parent))
    size = np.ones(len(parent), dtype=np.int64)
    for nodes in reversed(levels[1:]):
        np.add.at(size, parent[nodes], size[nodes])
    # Before a node come its parent, then its elder siblings' subtrees.
    order, starts = _siblings(parent, key)
    sizes = size[order]
    before = np.cumsum(sizes) - sizes
    offset = np.empty(len(parent), dtype=np.int64)
    offset[order] = before - before[starts]
    position = np.zeros(len(parent), dtype=np.int64)
    for nodes in levels[1:]:
        position[nodes] = position[parent[nodes]] + 1 + offset[nodes]
    return position
