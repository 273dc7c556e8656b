"""The compiled searches that write a compact tree: plain, and under propagation.

This module imports numba at the top, so only :mod:`.compact_build` imports it,
and only when a tree is built: ``import cpqueens`` never pays for it.

Each kernel walks its search depth first with an explicit stack, one level a
queen, and numbers the nodes in the order it makes them (preorder). It runs
twice on a tree: once to count the nodes (``write`` False; it stops as soon as
the count passes ``cap``), then, in arrays of exactly that length, to write them.
The searches are those of :mod:`cpqueens.trees.explicit.plain` and
:mod:`cpqueens.trees.explicit.propagated` (the engine of :mod:`cpqueens.engines.propagation`,
the ``propagate`` backend's), written again over one machine word a row, so
boards up to 64 rows; a node gets the same status as the networkx tree's node of
the same id, and with propagation the same domains, round for round of arc
consistency (the domains a dead end keeps are those at the end of the round that
emptied a row).

Masks are uint64 throughout: numba turns a mix of signed and unsigned integers
into floats.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: The statuses the kernels write (those of :mod:`.compact`).
SOLUTION, FAILURE, BRANCH, REJECTED, CUT = 0, 1, 2, 3, 4
#: Rows with at most this many squares can take a square's last support away
#: (see :mod:`cpqueens.engines.propagation`).
SMALL = 3

ONE = np.uint64(1)
ZERO = np.uint64(0)
_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN_INDEX = np.array(
    [0, 47, 1, 56, 48, 27, 2, 60, 57, 49, 41, 37, 28, 16, 3, 61,
     54, 58, 35, 52, 50, 42, 21, 44, 38, 32, 29, 23, 17, 11, 4, 62,
     46, 55, 26, 59, 40, 36, 15, 53, 34, 51, 20, 43, 31, 22, 10, 45,
     25, 39, 14, 33, 19, 30, 9, 24, 13, 18, 8, 12, 7, 6, 5, 63],
    dtype=np.int64,
)  # fmt: skip


@njit(cache=True, inline="always")
def lowest_column(mask):
    """The index of the lowest set bit of a non-zero uint64 (de Bruijn's multiplication)."""
    return _DEBRUIJN_INDEX[((mask ^ (mask - ONE)) * _DEBRUIJN) >> np.uint64(58)]


@njit(cache=True, inline="always")
def popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@njit(cache=True, inline="always")
def _pop(todo, level):
    """Take the lowest column left to try at ``level``, as its bit."""
    bit = todo[level] & (~todo[level] + ONE)
    todo[level] ^= bit
    return bit


@njit(cache=True, inline="always")
def _record(out, node, parent, depth, row, bit, status):
    """Write one node into ``out`` = (parent, depth, row, column, status) arrays."""
    out[0][node] = parent
    out[1][node] = depth
    out[2][node] = row
    out[3][node] = -1 if bit == ZERO else lowest_column(bit)
    out[4][node] = status


@njit(cache=True, inline="always")
def _kind(solved, failed, depth, depth_limit):
    """A node's status: a solution, a dead end, cut off by the depth limit, or a branch."""
    if solved:
        return SOLUTION
    if failed:
        return FAILURE
    return CUT if depth >= depth_limit else BRANCH


@njit(cache=True)
def plain_tree(offered, full, depth_limit, include_rejected, cap, write, out):
    """Walk (and with ``write`` record) the plain tree; return its node count, or cap + 1.

    ``offered[r]`` is the squares row ``r`` offers; the columns and the two diagonals
    attacked are kept a level, as in :class:`cpqueens.trees.explicit.plain.PlainSearch`.
    """
    n = len(offered)
    cols = np.zeros(n + 1, dtype=np.uint64)
    left = np.zeros(n + 1, dtype=np.uint64)
    right = np.zeros(n + 1, dtype=np.uint64)
    free = np.zeros(n + 1, dtype=np.uint64)
    todo = np.zeros(n + 1, dtype=np.uint64)
    ids = np.zeros(n + 1, dtype=np.int64)
    free[0] = offered[0]
    if write:
        _record(out, 0, -1, 0, -1, ZERO, _kind(False, free[0] == ZERO, 0, depth_limit))
    count = 1
    level = -1
    if depth_limit > 0 and (include_rejected or free[0] != ZERO):
        todo[0] = offered[0] if include_rejected else free[0]
        level = 0
    while level >= 0:
        if todo[level] == ZERO:
            level -= 1
            continue
        bit = _pop(todo, level)
        if count >= cap:
            return cap + 1
        node = count
        count += 1
        below = level + 1
        if free[level] & bit == ZERO:
            if write:
                _record(out, node, ids[level], below, level, bit, REJECTED)
            continue
        c = cols[level] | bit
        lft = ((left[level] | bit) << ONE) & full
        rgt = (right[level] | bit) >> ONE
        safe = ZERO if below == n else offered[below] & ~(c | lft | rgt)
        if write:
            kind = _kind(below == n, safe == ZERO, below, depth_limit)
            _record(out, node, ids[level], below, level, bit, kind)
        if below < n and below < depth_limit and (include_rejected or safe != ZERO):
            cols[below], left[below], right[below], free[below] = c, lft, rgt, safe
            todo[below] = offered[below] if include_rejected else safe
            ids[below] = node
            level = below
    return count


@njit(cache=True)
def _lowest_empty(domains):
    for r in range(len(domains)):
        if domains[r] == ZERO:
            return r
    return -1


@njit(cache=True)
def _changed_small(before, after, rest, out):
    """Fill ``out`` with the rows of ``rest`` whose domain changed and has at most SMALL
    squares, in increasing order; return how many."""
    k = 0
    for r in range(len(after)):
        if (rest >> np.uint64(r)) & ONE and before[r] != after[r] and popcount(after[r]) <= SMALL:
            out[k] = r
            k += 1
    return k


@njit(cache=True)
def _arc(domains, rest, changed, k, full, before):
    """Arc consistency in rounds from the ``k`` rows in ``changed``; the row wiped out or -1.

    A round computes every changed row's kills from the domains at its start, then
    applies them all; it stops after the first round that empties a row.
    """
    n = len(domains)
    while k > 0:
        before[:] = domains
        for i in range(k):
            source = changed[i]
            squares = before[source]
            for other in range(n):
                if other == source:
                    continue
                distance = np.uint64(abs(other - source))
                kill = full
                rest_of = squares
                while rest_of != ZERO:
                    bit = rest_of & (~rest_of + ONE)
                    rest_of ^= bit
                    kill &= bit | (bit << distance) | (bit >> distance)
                domains[other] &= ~(kill & full)
        wiped = _lowest_empty(domains)
        if wiped >= 0:
            return wiped
        k = _changed_small(before, domains, rest, changed)
    return -1


@njit(cache=True)
def _next_row(domains, rest, first_fail):
    best, fewest = -1, 65
    for r in range(len(domains)):
        if (rest >> np.uint64(r)) & ONE:
            if not first_fail:
                return r
            size = popcount(domains[r])
            if size < fewest:
                best, fewest = r, size
    return best


@njit(cache=True)
def propagated_tree(
    offered, root_domains, root_wiped, full, arc, first_fail, depth_limit, include_rejected,
    cap, write, out, out_domains,
):  # fmt: skip
    """Walk (and with ``write`` record) the tree under forward checking or arc consistency.

    ``root_domains`` and ``root_wiped`` are the domains after the fixed queens (and
    their propagation) and the row they wipe out or -1. Returns the node count, or
    cap + 1 once it passes ``cap``.
    """
    n = len(offered)
    domains = np.zeros((n + 1, n), dtype=np.uint64)
    chosen = np.zeros(n + 1, dtype=np.int64)
    rest = np.zeros(n + 1, dtype=np.uint64)
    todo = np.zeros(n + 1, dtype=np.uint64)
    ids = np.zeros(n + 1, dtype=np.int64)
    new = np.zeros(n, dtype=np.uint64)
    before = np.zeros(n, dtype=np.uint64)
    changed = np.zeros(n, dtype=np.int64)
    domains[0] = root_domains
    if write:
        _record(out, 0, -1, 0, -1, ZERO, _kind(False, root_wiped >= 0, 0, depth_limit))
        for other in range(n):
            out_domains[0, other] = root_domains[other]
    count = 1
    level = -1
    if root_wiped < 0 and depth_limit > 0:
        every = ~ZERO if n == 64 else (ONE << np.uint64(n)) - ONE
        first = _next_row(domains[0], every, first_fail)
        chosen[0], rest[0] = first, every & ~(ONE << np.uint64(first))
        todo[0] = offered[first] if include_rejected else domains[0, first]
        level = 0
    while level >= 0:
        if todo[level] == ZERO:
            level -= 1
            continue
        bit = _pop(todo, level)
        if count >= cap:
            return cap + 1
        node = count
        count += 1
        below = level + 1
        r = chosen[level]
        if domains[level, r] & bit == ZERO:
            if write:
                _record(out, node, ids[level], below, r, bit, REJECTED)
                for other in range(n):
                    out_domains[node, other] = domains[level, other]
            continue
        for other in range(n):
            if other == r:
                new[other] = domains[level, other] & bit
            else:
                distance = np.uint64(abs(other - r))
                attacked = bit | (bit << distance) | (bit >> distance)
                new[other] = domains[level, other] & ~attacked & full
        wiped = _lowest_empty(new)
        if wiped < 0 and arc:
            k = _changed_small(domains[level], new, rest[level], changed)
            if k:
                wiped = _arc(new, rest[level], changed, k, full, before)
        left = rest[level]
        kind = _kind(wiped < 0 and left == ZERO, wiped >= 0, below, depth_limit)
        if write:
            _record(out, node, ids[level], below, r, bit, kind)
            for other in range(n):
                out_domains[node, other] = new[other]
        if kind == BRANCH:
            domains[below] = new
            nxt = _next_row(new, left, first_fail)
            chosen[below], rest[below] = nxt, left & ~(ONE << np.uint64(nxt))
            todo[below] = offered[nxt] if include_rejected else new[nxt]
            ids[below] = node
            level = below
    return count


@njit(cache=True)
def sum_up(parent, values):
    """Add each node's value into its parent's, deepest first: in preorder, from the end."""
    for node in range(len(parent) - 1, 0, -1):
        values[parent[node]] += values[node]
    return values
