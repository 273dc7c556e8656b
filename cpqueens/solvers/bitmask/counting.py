"""The compiled constellation counter: a search over the rows the border queens leave free.

A start constellation (:mod:`.constellations`) pre-places the queens of row 0, row
n-1, column 0 and column n-1. Their rows hold nothing else to choose, and every
square they attack is known before the search starts. So the counter lists the
*free* rows only, each with the squares no border queen attacks (its mask) and
its distance to the next free row (its gap, 1 to 3). Going down one free row
shifts the diagonal words by the gap, which jumps over the pre-placed rows in one
step instead of visiting them; a pre-placed queen is never in conflict with the
queens drawn from the masks, so its row needs no test at all. One table-driven
loop thus covers every shape of constellation that specialised routines (one per
arrangement of the pre-placed rows, as in NQueensFAF) would cover one by one.

Three more things make the loop lean:

* the last two free rows are not visited: their placements are counted in closed
  form (:func:`_pairs`, five popcounts), and the row before them is walked in
  registers, off the stack (:func:`_last_three`);
* a queen is only pushed when the next free row keeps a square, and when the row
  after it keeps one too under the queens placed so far (a look-ahead that prunes
  a dead branch one row before the search would find it);
* each constellation is searched in the rotation whose last row holds the border
  queen nearest a corner (:func:`searched_rotation`): all rotations have the same
  solutions, but that one cuts the search by about a third.

Constellations that a rotation maps to themselves are counted the same way; to
count classes, their solutions that the rotation fixes too are counted apart, by
the small search of :mod:`.symmetric`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .constellations import SYM_NONE
from .symmetric import count_symmetric


@njit(cache=True)
def _popcount(word):
    count = 0
    while word:  # LLVM turns this loop into one popcnt instruction
        word &= word - 1
        count += 1
    return count


@njit(cache=True)
def _attacked(n, row, queen_row, queen_column):
    """The squares of ``row`` that a queen on (queen_row, queen_column) attacks, as a word."""
    distance = abs(row - queen_row)
    word = np.int64(1) << queen_column
    if queen_column + distance < n:
        word |= np.int64(1) << (queen_column + distance)
    if queen_column - distance >= 0:
        word |= np.int64(1) << (queen_column - distance)
    return word


@njit(cache=True)
def border_allowed(n, a, b, c, d, allowed):
    """Fill ``allowed`` for the start constellation ``(a, b, c, d)``.

    The border queens stand at (0, a), (n-1, b), (c, 0) and (d, n-1). Their own rows
    are forced to their square; every other row keeps the squares none of them attacks.
    """
    last = n - 1
    full = (np.int64(1) << n) - 1
    for row in range(n):
        attacked = _attacked(n, row, 0, a) | _attacked(n, row, last, b)
        attacked |= _attacked(n, row, c, 0) | _attacked(n, row, d, last)
        allowed[row] = full & ~attacked
    # A corner queen forces the same row twice, with the same square.
    allowed[0] = np.int64(1) << a
    allowed[last] = np.int64(1) << b
    allowed[c] = 1
    allowed[d] = np.int64(1) << last


@njit(cache=True)
def searched_rotation(n, a, b, c, d):
    """The rotation of ``(a, b, c, d)`` the counter searches, as a tuple.

    The last row gets the border queen nearest a corner; among equals, the rotation
    whose pre-placed queens of columns 0 and n-1 come latest. A queen near a corner
    of the last row rules out a long diagonal of squares above it, so the rows close
    to the end are cut early; pre-placed rows late in the search (where the tree is
    widest) save the most. Measured over every constellation at n = 13 and 14, this
    choice visits about 1.07 times the nodes of the best rotation, against 1.7 for
    the smallest image.

    >>> searched_rotation(8, 0, 3, 0, 2)  # the corner queen goes to the last row
    (4, 7, 5, 7)
    """
    last = n - 1
    best = (a, b, c, d)
    best_score = 4 * n * n
    for _ in range(4):
        score = 4 * n * min(b, last - b) - c - d
        if score < best_score:
            best_score = score
            best = (a, b, c, d)
        a, b, c, d = last - c, last - d, b, a  # a quarter turn
    return best


@njit(cache=True)
def free_rows(n, c, d, allowed, masks, gaps):
    """Copy the rows of ``allowed`` without a border queen into ``masks``; return how many.

    ``c`` and ``d`` are the rows of the queens in columns 0 and n-1 (rows 0 and n-1
    always hold one). ``gaps[i]`` is how many rows lie from the ``i``-th free row to
    the next one.
    """
    count = 0
    previous = 0
    for row in range(1, n - 1):
        if row in (c, d):
            continue
        if count > 0:
            gaps[count - 1] = row - previous
        masks[count] = allowed[row]
        previous = row
        count += 1
    return count


@njit(cache=True)
def _pairs(c, lf, rt, following, gap, end):
    """Count the placements of the last two free rows, without visiting them.

    ``following`` is the next-to-last row's free squares under the words ``c``,
    ``lf``, ``rt`` of that row; ``gap`` leads to the last row, whose mask is ``end``.
    A queen ``p`` of ``following`` leaves the last row ``e`` (its free squares under
    the earlier queens) less the squares ``p``, ``p << gap`` and ``p >> gap``, three
    distinct ones, so summed over every ``p`` the count is
    ``|following| * |e|`` less the queens of ``following`` that meet ``e`` straight,
    or along either diagonal: five popcounts and no branch, where a loop over the
    queens costs a mispredicted exit per row.
    """
    e = end & ~(c | (lf << gap) | (rt >> gap))
    return (
        _popcount(following) * _popcount(e)
        - _popcount(e & following)
        - _popcount(e & (following << gap))
        - _popcount(e & (following >> gap))
    )


@njit(cache=True)
def _last_three(c, lf, rt, following, gap, mask, end_gap, end):
    """Count the placements of the last three free rows in registers (no stack).

    ``following`` is the third-to-last row's free squares under ``c``, ``lf``,
    ``rt``; ``gap`` and ``mask`` are the next row's, ``end_gap`` and ``end`` the
    last row's. Returns the solutions and the queens placed on the first two rows.
    """
    found = 0
    placed = _popcount(following)
    while following:
        bit = following & -following
        following ^= bit
        c1 = c | bit
        lf1 = (lf | bit) << gap
        rt1 = (rt | bit) >> gap
        free = mask & ~(c1 | lf1 | rt1)
        placed += _popcount(free)
        found += _pairs(c1, lf1, rt1, free, end_gap, end)
    return found, placed


@njit(cache=True)
def count_free_rows(rows, masks, gaps, cols, left, right, avail):
    """Count the placements of one queen on each of the ``rows`` free rows.

    ``masks`` and ``gaps`` are as :func:`free_rows` leaves them; ``cols``, ``left``,
    ``right`` and ``avail`` are the stack, one entry per free row. Returns the
    solutions and the queens placed (nodes).
    """
    if rows == 0:  # every row pre-placed: the constellation is the solution
        return 1, 1
    if rows == 1:
        found = _popcount(masks[0])
        return found, found
    if rows == 2:
        found = _pairs(0, 0, 0, masks[0], gaps[0], masks[1])
        return found, _popcount(masks[0]) + found
    gap, mask = gaps[rows - 3], masks[rows - 2]
    end_gap, end = gaps[rows - 2], masks[rows - 1]
    if rows == 3:
        found, placed = _last_three(0, 0, 0, masks[0], gap, mask, end_gap, end)
        return found, placed + found
    last = rows - 4  # the row whose next three rows are counted in registers
    cols[0] = 0
    left[0] = 0
    right[0] = 0
    avail[0] = masks[0]
    # Every square a row is entered with is taken once: counting them on entry costs
    # one popcount per push, where a count per queen would cost a register in the loop.
    nodes = _popcount(masks[0])
    found = 0
    row = 0
    while row >= 0:
        free = avail[row]
        if free == 0:
            row -= 1
            continue
        bit = free & -free
        avail[row] = free ^ bit
        step = gaps[row]
        c = cols[row] | bit
        lf = (left[row] | bit) << step
        rt = (right[row] | bit) >> step
        following = masks[row + 1] & ~(c | lf | rt)
        if row == last:
            more, placed = _last_three(c, lf, rt, following, gap, mask, end_gap, end)
            found += more
            nodes += placed
            continue
        if following == 0:
            continue
        step = gaps[row + 1]
        if masks[row + 2] & ~(c | (lf << step) | (rt >> step)) == 0:
            continue
        nodes += _popcount(following)
        row += 1
        cols[row] = c
        left[row] = lf
        right[row] = rt
        avail[row] = following
    return found, nodes + found


@njit(cache=True)
def count_constellations(n, signatures, syms, group_orders):
    """Count every solution and every class of solutions over a batch of constellations.

    Each constellation stands for its ``8 // group_orders[i]`` symmetric images, so
    its solutions are weighted by that. Classes are counted with Burnside's lemma
    restricted to the constellation's own symmetry group: only the rotations in it
    can fix a solution (no reflection fixes an n-queens solution for n > 1).
    Returns [solutions, classes, nodes].
    """
    total = np.zeros(3, np.int64)
    allowed = np.zeros(n, np.int64)
    masks = np.zeros(n, np.int64)
    gaps = np.zeros(n, np.int64)
    cols = np.zeros(n, np.int64)
    left = np.zeros(n, np.int64)
    right = np.zeros(n, np.int64)
    avail = np.zeros(n, np.int64)
    queens = np.zeros(n, np.int64)
    for i in range(signatures.shape[0]):
        a, b, c, d = searched_rotation(
            n, signatures[i, 0], signatures[i, 1], signatures[i, 2], signatures[i, 3]
        )
        border_allowed(n, a, b, c, d, allowed)
        rows = free_rows(n, c, d, allowed, masks, gaps)
        solutions, nodes = count_free_rows(rows, masks, gaps, cols, left, right, avail)
        fixed_points = solutions
        if syms[i] != SYM_NONE:
            # A quarter turn fixes a solution only if it fixes its constellation, so
            # ``quarter`` is 0 unless syms[i] says so; then the quarter turn and its
            # inverse fix the same solutions.
            half, quarter = count_symmetric(n, allowed, queens)
            fixed_points += half + 2 * quarter
        order = group_orders[i]
        total[0] += solutions * (8 // order)
        total[1] += fixed_points // order
        total[2] += nodes
    return total


def count_constellation(n: int, a: int, b: int, c: int, d: int) -> tuple[int, int]:
    """Count the solutions with the border queens ``(a, b, c, d)``, searched as given.

    No rotation, no weight: the solutions and nodes of this one constellation, as
    the tests and the profile see them. Returns ``(solutions, nodes)``.

    >>> count_constellation(8, 0, 3, 0, 2), count_constellation(8, 4, 7, 5, 7)
    ((1, 15), (1, 7))
    """
    allowed, masks, gaps, cols, left, right, avail = (np.zeros(n, np.int64) for _ in range(7))
    border_allowed(n, a, b, c, d, allowed)
    rows = free_rows(n, c, d, allowed, masks, gaps)
    return count_free_rows(rows, masks, gaps, cols, left, right, avail)


def warm_up() -> None:
    """Compile (or load from the on-disk cache) the counter, on a tiny board."""
    from .constellations import start_constellations

    table = start_constellations(5)  # with and without a symmetric constellation
    count_constellations(5, table.signatures, table.syms, table.group_orders)
