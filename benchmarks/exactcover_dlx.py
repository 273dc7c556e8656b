"""Dancing links for the n-queens exact cover, for ``bench_exactcover.py --dlx``.

The other way to run Algorithm X: Knuth's doubly linked lists (Algorithm D of TAOCP
7.2.2.1, as in his DLX1), compiled with numba like the backend's bitsets, and
searching the same tree: the primary items (rows and columns) are listed in the
backend's tie order, so the first item of fewest options in the list is the item
the backend chooses; each item's options are in increasing order of the other
coordinate. So the node counts must be equal, which checks both, and the times
compare the two data structures alone.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cpqueens.solvers.exactcover.kernels import middle_out


def build(n: int, allowed: list[int]) -> tuple[np.ndarray, ...]:
    """The links of the exact cover of an n x n board with the free squares ``allowed``.

    Returns ``(top, up, down, left, right, length)``: Knuth's TOP, ULINK, DLINK
    (nodes), LLINK, RLINK (items; the primary ones circular from 0, the secondary
    ones on a list of their own) and LEN. Spacers between options have TOP <= 0,
    ULINK the first node of the option before, DLINK the last node of the one after.
    """
    names = []
    for index in middle_out(n):
        names += [("row", index), ("column", index)]
    primary = len(names)
    names += [("sum", k) for k in range(2 * n - 1)] + [("difference", k) for k in range(2 * n - 1)]
    number = {name: k + 1 for k, name in enumerate(names)}
    items = len(names)
    options = [(r, c) for r in range(n) for c in range(n) if allowed[r] >> c & 1]
    size = items + 2 + 5 * len(options)
    top, up, down = (np.zeros(size, np.int64) for _ in range(3))
    left, right = np.zeros(items + 2, np.int64), np.zeros(items + 2, np.int64)
    length = np.zeros(items + 1, np.int64)
    for k in range(1, items + 1):
        up[k] = down[k] = k
    cycles = (list(range(primary + 1)), [*range(primary + 1, items + 1), items + 1])
    for cycle in cycles:
        for a, b in zip(cycle, cycle[1:] + cycle[:1], strict=True):
            right[a], left[b] = b, a
    spacer = p = items + 1
    for r, c in options:
        first = p + 1
        for name in (("row", r), ("column", c), ("sum", r + c), ("difference", r - c + n - 1)):
            p += 1
            item = number[name]
            top[p] = item
            length[item] += 1
            up[p], down[up[item]] = up[item], p
            down[p], up[item] = item, p
        p += 1
        top[p], up[p], down[spacer] = -spacer, first, p - 1
        spacer = p
    return top[: p + 1], up[: p + 1], down[: p + 1], left, right, length


@njit(cache=True)
def _hide(p, top, up, down, length):
    q = p + 1
    while q != p:
        x, u, d = top[q], up[q], down[q]
        if x <= 0:
            q = u
        else:
            down[u], up[d] = d, u
            length[x] -= 1
            q += 1


@njit(cache=True)
def _unhide(p, top, up, down, length):
    q = p - 1
    while q != p:
        x, u, d = top[q], up[q], down[q]
        if x <= 0:
            q = d
        else:
            down[u], up[d] = q, q
            length[x] += 1
            q -= 1


@njit(cache=True)
def _cover(i, top, up, down, left, right, length):
    p = down[i]
    while p != i:
        _hide(p, top, up, down, length)
        p = down[p]
    right[left[i]], left[right[i]] = right[i], left[i]


@njit(cache=True)
def _uncover(i, top, up, down, left, right, length):
    right[left[i]], left[right[i]] = i, i
    p = up[i]
    while p != i:
        _unhide(p, top, up, down, length)
        p = up[p]


@njit(cache=True)
def decide(n, top, up, down, left, right, length):
    """Algorithm X with dancing links to the first solution: returns (found, nodes)."""
    chosen = np.zeros(n + 1, np.int64)  # the option tried at each level
    items = np.zeros(n + 1, np.int64)  # the item chosen at each level
    level = 0
    nodes = 0
    entering = True
    while True:
        if entering:
            if right[0] == 0:
                return 1, nodes
            best = n + 1  # more options than any item has
            i = right[0]
            p = i
            while p != 0 and best > 0:  # the first item of fewest options
                if length[p] < best:
                    best, i = length[p], p
                p = right[p]
            _cover(i, top, up, down, left, right, length)
            items[level] = i
            chosen[level] = down[i]
        else:
            p = chosen[level] - 1  # take back the option tried at this level
            while p != chosen[level]:
                j = top[p]
                if j <= 0:
                    p = down[p]
                else:
                    _uncover(j, top, up, down, left, right, length)
                    p -= 1
            chosen[level] = down[chosen[level]]
        i = items[level]
        if chosen[level] == i:  # no option left: back to the level above
            _uncover(i, top, up, down, left, right, length)
            if level == 0:
                return 0, nodes
            level -= 1
            entering = False
            continue
        nodes += 1
        p = chosen[level] + 1
        while p != chosen[level]:
            j = top[p]
            if j <= 0:
                p = up[p]
            else:
                _cover(j, top, up, down, left, right, length)
                p += 1
        level += 1
        entering = True
