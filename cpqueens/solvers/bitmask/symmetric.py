"""Counting the solutions that a rotation maps to themselves (numba, cached on disk).

Counting classes of solutions (Burnside's lemma, see :mod:`.counting`) needs, for a
constellation that a half turn fixes, how many of its solutions the half turn
fixes too, and for one a quarter turn fixes, how many the quarter turn fixes. A
solution that a half turn maps to itself is its upper half and that half turned:
the queen (r, c) brings the queen (n-1-r, n-1-c), and on an odd board the middle
row's queen stands in the centre. So the search here places pairs of queens on
the upper rows only, a tree far smaller than the full search, and the counter
counts all the solutions of these constellations with its fast loop like any other.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _attack(row, column, other_row, other_column):
    return column == other_column or abs(row - other_row) == abs(column - other_column)


@njit(cache=True)
def _pair_fits(n, queens, row, column):
    """Whether (row, column) and its half-turn image fit with the pairs of rows < row.

    On an odd board the centre is its own image; any other square attacks or not its image.
    """
    last = n - 1
    if row != last - row and _attack(row, column, last - row, last - column):
        return False
    for other in range(row):
        # The image pair attacks the same way, turned: two tests cover all four.
        if _attack(row, column, other, queens[other]):
            return False
        if _attack(row, column, last - other, last - queens[other]):
            return False
    return True


@njit(cache=True)
def _is_quarter_turn_symmetric(n, queens):
    # A quarter turn sends the queen (r, c) to (c, n - 1 - r).
    last = n - 1
    for row in range(n):  # noqa: SIM110 (numba compiles no generator expressions)
        if queens[queens[row]] != last - row:
            return False
    return True


@njit(cache=True)
def count_symmetric(n, allowed, queens):
    """Count the solutions within ``allowed`` that a half turn, and a quarter turn, fix.

    ``allowed[r]`` holds the squares row ``r`` may use (:func:`.counting.border_allowed`);
    ``queens`` is scratch space of length n. Returns ``(half, quarter)``: the
    solutions a half turn maps to themselves, and those a quarter turn does (which
    a half turn fixes too).
    """
    last = n - 1
    half = n // 2
    if n % 2 and not (allowed[half] >> half) & 1:
        return 0, 0  # the centre, the middle row's only symmetric square, is taken
    if half == 0:
        return 1, 1
    next_column = np.zeros(half, np.int64)
    half_fixed = 0
    quarter_fixed = 0
    row = 0
    while row >= 0:
        column = next_column[row]
        if column == n:
            row -= 1
            continue
        next_column[row] = column + 1
        square = np.int64(1) << column
        image = np.int64(1) << (last - column)
        if not (allowed[row] & square and allowed[last - row] & image):
            continue
        if not _pair_fits(n, queens, row, column):
            continue
        queens[row] = column
        queens[last - row] = last - column
        if row < half - 1:
            row += 1
            next_column[row] = 0
            continue
        if n % 2:
            if not _pair_fits(n, queens, half, half):
                continue
            queens[half] = half
        half_fixed += 1
        if _is_quarter_turn_symmetric(n, queens):
            quarter_fixed += 1
    return half_fixed, quarter_fixed
