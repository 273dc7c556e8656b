"""The row-by-row kernels of the ``bitmask`` backend: listing, counting below fixed queens.

This module imports numba at the top, so only :mod:`cpqueens.solvers.bitmask`
imports it, and only when a search starts: ``import cpqueens`` never pays for it.

Every kernel walks the board row by row with three machine words: the occupied
columns, and the two diagonal families shifted by one square per row. A square's
column is bit ``c``, so taking the lowest set bit first visits columns in increasing
order and yields solutions in lexicographic order. ``allowed[r]`` restricts row ``r``
to its fixed queen, or to its squares that are not blocked (the whole row on a plain
board): a row's free squares are ``allowed[r] & ~(cols | left | right)``, so blocked
squares join the attacked ones and are never tried. Counting without fixed queens or
blocked squares goes through start constellations instead (:mod:`.counting`),
compiled with numba as here and cached on disk.

The search keeps an explicit stack, one entry per row, instead of recursing:
``avail[r]`` holds the squares of row ``r`` still to try, ``cols``, ``left`` and
``right`` the masks that row starts from, ``queens[r]`` the column chosen there.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: Board sizes the kernels accept: masks are int64 and a diagonal mask is shifted
#: left once per row, so its highest bit stays below 2 * 32.
MAX_N = 32


@njit(cache=True)
def _column(bit):
    column = 0
    while bit > 1:
        bit >>= 1
        column += 1
    return column


@njit(cache=True)
def _complete_rows(n, allowed, base, queens, out):
    """Count the completions of rows ``base..n-1`` below the queens ``queens[:base]``.

    Adds the solutions to ``out[0]`` and the nodes to ``out[1]``.
    """
    cols = np.zeros(n + 1, np.int64)
    left = np.zeros(n + 1, np.int64)
    right = np.zeros(n + 1, np.int64)
    avail = np.zeros(n + 1, np.int64)
    c = np.int64(0)
    lf = np.int64(0)
    rt = np.int64(0)
    for row in range(base):
        bit = np.int64(1) << queens[row]
        if (c | lf | rt) & bit:
            return
        c |= bit
        lf = (lf | bit) << 1
        rt = (rt | bit) >> 1
    if base == n:
        out[0] += 1
        return
    last = n - 1
    cols[base] = c
    left[base] = lf
    right[base] = rt
    avail[base] = allowed[base] & ~(c | lf | rt)
    row = base
    found = np.int64(0)
    nodes = np.int64(0)
    while row >= base:
        free = avail[row]
        if free == 0:
            row -= 1
            continue
        bit = free & -free
        avail[row] = free ^ bit
        nodes += 1
        if row == last:
            found += 1
            continue
        c = cols[row] | bit
        lf = (left[row] | bit) << 1
        rt = (right[row] | bit) >> 1
        row += 1
        cols[row] = c
        left[row] = lf
        right[row] = rt
        avail[row] = allowed[row] & ~(c | lf | rt)
    out[0] += found
    out[1] += nodes


@njit(cache=True)
def count_prefixes(n, allowed, prefixes):
    """Count the completions of each placement of the first rows; returns [solutions, nodes]."""
    base = prefixes.shape[1]
    queens = np.zeros(n, np.int64)
    total = np.zeros(2, np.int64)
    for i in range(prefixes.shape[0]):
        for row in range(base):  # a loop compiles much faster than a slice assignment
            queens[row] = prefixes[i, row]
        _complete_rows(n, allowed, base, queens, total)
    total[1] += prefixes.shape[0] * base
    return total


@njit(cache=True, inline="always")
def _resumed_row(state, allowed, avail, cols, left, right):
    """The row a chunked walk resumes at; ``state[0] == -1`` starts it at the empty board."""
    row = state[0]
    if row == -1:
        row = 0
        cols[0] = 0
        left[0] = 0
        right[0] = 0
        avail[0] = allowed[0]
    return row


@njit(cache=True, inline="always")
def _descend(row, bit, allowed, avail, cols, left, right):
    """Place the queen ``bit`` on ``row`` and ready the next row's free squares."""
    row += 1
    cols[row] = cols[row - 1] | bit
    left[row] = (left[row - 1] | bit) << 1
    right[row] = (right[row - 1] | bit) >> 1
    avail[row] = allowed[row] & ~(cols[row] | left[row] | right[row])
    return row


@njit(cache=True)
def enumerate_chunk(n, allowed, state, avail, cols, left, right, queens, out, budget):
    """Resume a lexicographic enumeration and write up to ``len(out)`` solutions into ``out``.

    ``state`` holds [row, nodes, finished]; ``row == -1`` asks for a fresh start.
    Returns how many rows of ``out`` were filled. The call also returns after about
    ``budget`` nodes, so that the caller can look at the clock between calls.
    """
    last = n - 1
    row = _resumed_row(state, allowed, avail, cols, left, right)
    nodes = np.int64(0)
    filled = 0
    capacity = out.shape[0]
    while row >= 0 and filled < capacity and nodes < budget:
        free = avail[row]
        if free == 0:
            row -= 1
            continue
        bit = free & -free
        avail[row] = free ^ bit
        nodes += 1
        queens[row] = _column(bit)
        if row == last:
            for column in range(n):  # a loop compiles much faster than a slice assignment
                out[filled, column] = queens[column]
            filled += 1
            continue
        row = _descend(row, bit, allowed, avail, cols, left, right)
    state[0] = row
    state[1] += nodes
    if row < 0:
        state[2] = 1
    return filled


@njit(cache=True)
def count_chunk(n, allowed, state, avail, cols, left, right, budget):
    """Resume a count of the placements ``allowed`` permits, for about ``budget`` nodes.

    ``state`` holds [row, nodes, finished, solutions]; ``row == -1`` asks for a fresh
    start. The same walk as :func:`enumerate_chunk`, counting instead of writing the
    solutions out, so that a count in this process can look at the clock between
    calls (a time limit then holds however long the whole count would take).
    """
    last = n - 1
    row = _resumed_row(state, allowed, avail, cols, left, right)
    nodes = np.int64(0)
    found = np.int64(0)
    while row >= 0 and nodes < budget:
        free = avail[row]
        if free == 0:
            row -= 1
            continue
        bit = free & -free
        avail[row] = free ^ bit
        nodes += 1
        if row == last:
            found += 1
            continue
        row = _descend(row, bit, allowed, avail, cols, left, right)
    state[0] = row
    state[1] += nodes
    state[3] += found
    if row < 0:
        state[2] = 1


def warm_up(listing: bool = True) -> None:
    """Compile (or load from the on-disk cache) the kernels here, on a tiny board.

    With ``listing`` False, only the kernel the tasks call: they neither list
    solutions nor count in slices of nodes, as the backend's own process does.
    """
    count_prefixes(4, np.full(4, 15, np.int64), np.zeros((1, 1), np.int64))
    if not listing:
        return
    state = np.array([-1, 0, 0], np.int64)
    stack = [np.zeros(5, np.int64) for _ in range(4)]
    queens = np.zeros(4, np.int64)
    enumerate_chunk(
        4, np.full(4, 15, np.int64), state, *stack, queens, np.zeros((1, 4), np.int64), 10
    )
    count_chunk(4, np.full(4, 15, np.int64), np.array([-1, 0, 0, 0], np.int64), *stack, 10)
