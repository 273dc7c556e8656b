"""The compiled min-conflicts search of the ``minconflicts`` backend.

This module imports numba at the top, so only :mod:`.backend` imports it, and only
when a search starts: ``import cpqueens`` never pays for it.

One queen per row; ``q[r]`` is the column of row ``r``'s queen. Every line of the
board (``cols``, ``ups`` for the diagonals ``r + c``, ``downs`` for ``r - c + n - 1``)
keeps one 64-bit word: how many queens stand on it, above bit :data:`SHIFT`, and the
XOR of their rows below (one word, so one cache miss, per line). The conflicts of a
square are the sum of its three counts (O(1)); when a line holds exactly one queen,
the XOR names its row, which is how a move finds the queen it has just put in
conflict.

Every free queen in conflict is in the list ``todo`` (``listed[r]`` says so); rows
that have stopped being in conflict are dropped lazily, when drawn. Columns left
empty by a move go into the list ``empty`` the same way. Fixed queens never move
and are never listed.

The random numbers come from a xorshift64* generator whose state lives in the search
(``rng[0]``), so two searches never share one and a seed gives the same run.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# The slots of ``st``.
PHASE, ROW, NFREE, NTODO, NEMPTY, MOVES, INITIAL_CONFLICTS = range(7)
#: Phases: placing the queens row by row, then repairing.
INIT, REPAIR = 0, 1
#: What a call of :func:`advance` ends with.
WORKING, SOLVED, STUCK = 0, 1, 2
#: A line's word: its count of queens above bit SHIFT, the XOR of their rows below.
SHIFT = 32
ONE = 1 << SHIFT
LOW = ONE - 1


@njit(cache=True)
def _next(rng):
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return x * np.uint64(0x2545F4914F6CDD1D)


@njit(cache=True)
def _below(rng, m):
    """A random integer in ``range(m)``, ``m < 2**32``: the top 32 bits times ``m``,
    shifted (Lemire's multiply-shift; no float and no division, bias below 2**-32 * m)."""
    return np.int64(((_next(rng) >> np.uint64(32)) * np.uint64(m)) >> np.uint64(32))


@njit(cache=True)
def _blocked(bstart, bcols, r, c):
    """Whether square (r, c) is blocked: a binary search in row r's sorted columns."""
    lo = bstart[r]
    hi = bstart[r + 1]
    while lo < hi:
        mid = (lo + hi) >> 1
        v = bcols[mid]
        if v == c:
            return True
        if v < c:
            lo = mid + 1
        else:
            hi = mid
    return False


@njit(cache=True)
def _conflicts(n, r, c, cols, ups, downs):
    """Queens on the lines of square (r, c)."""
    return (cols[c] >> SHIFT) + (ups[r + c] >> SHIFT) + (downs[r - c + n - 1] >> SHIFT)


@njit(cache=True)
def _list_row(r, fixed, todo, listed, st):
    if fixed[r] < 0 and listed[r] == 0:
        listed[r] = 1
        todo[st[NTODO]] = r
        st[NTODO] += 1


@njit(cache=True)
def _put(line, k, r, fixed, todo, listed, st):
    """Add row r's queen to ``line[k]``; True if another queen stands there."""
    v = line[k]
    line[k] = (v + ONE) ^ r
    if v >= ONE:
        if v < 2 * ONE:  # exactly one queen there: its row is the XOR
            _list_row(v & LOW, fixed, todo, listed, st)
        return True
    return False


@njit(cache=True)
def _add(n, r, c, q, cols, ups, downs, fixed, todo, listed, st):
    """Put row r's queen on column c; list every queen this puts in conflict."""
    q[r] = c
    a = _put(cols, c, r, fixed, todo, listed, st)
    b = _put(ups, r + c, r, fixed, todo, listed, st)
    d = _put(downs, r - c + n - 1, r, fixed, todo, listed, st)
    if a or b or d:
        _list_row(r, fixed, todo, listed, st)


@njit(cache=True)
def _remove(n, r, q, cols, ups, downs, empty, emptied, st):
    c = q[r]
    cols[c] = (cols[c] - ONE) ^ r
    ups[r + c] = (ups[r + c] - ONE) ^ r
    downs[r - c + n - 1] = (downs[r - c + n - 1] - ONE) ^ r
    if cols[c] < ONE and emptied[c] == 0:
        emptied[c] = 1
        empty[st[NEMPTY]] = c
        st[NEMPTY] += 1


@njit(cache=True)
def reset(n, q, cols, ups, downs, fixed, free, todo, listed, empty, emptied, st, clear):
    """Clear the board, place the fixed queens, and start the row-by-row placement.

    ``clear=False`` for arrays just made by ``np.zeros``: they are zero already, and
    their memory is then first touched during the placement, in chunks.
    """
    if clear:
        cols[:] = 0
        ups[:] = 0
        downs[:] = 0
        listed[:] = 0
        emptied[:] = 0
    st[NTODO] = 0
    st[NEMPTY] = 0
    st[MOVES] = 0
    st[INITIAL_CONFLICTS] = -1
    for r in range(n):
        if fixed[r] >= 0:
            _add(n, r, fixed[r], q, cols, ups, downs, fixed, todo, listed, st)
    nfree = 0
    for c in range(n):
        if cols[c] < ONE:
            free[nfree] = c
            nfree += 1
    st[NFREE] = nfree
    st[ROW] = 0
    st[PHASE] = INIT


@njit(cache=True)
def _best_in_row(n, r, bstart, bcols, cols, ups, downs, rng, extra, nextra, samples, scan_all):
    """The column of row r with the fewest conflicts among those looked at, ties at random.

    ``scan_all``: every unblocked column. Otherwise ``samples`` random columns and the
    ``nextra`` columns of ``extra``. Returns (column, conflicts, squares looked at);
    column -1 when every square looked at was blocked.
    """
    best = -1
    best_value = 1 << 62
    ties = 0
    looked = 0
    total = n if scan_all else samples + nextra
    for k in range(total):
        if scan_all:
            c = k
        elif k < nextra:
            c = extra[k]
        else:
            c = _below(rng, n)
        looked += 1
        if _blocked(bstart, bcols, r, c):
            continue
        value = _conflicts(n, r, c, cols, ups, downs)
        if value < best_value:
            best_value = value
            best = c
            ties = 1
        elif value == best_value:
            ties += 1
            if _below(rng, ties) == 0:
                best = c
    return best, best_value, looked


@njit(cache=True)
def _place_row(n, r, q, cols, ups, downs, fixed, bstart, bcols, free, todo, listed, extra,
               st, rng, init_tries, samples, scan_all):  # fmt: skip
    """The greedy initial placement of row r; returns the squares looked at.

    Among the columns no queen holds yet (``free``): the first of up to
    ``init_tries`` random ones with no conflict, else the one of them with the
    fewest, ties at random (every free column when ``init_tries`` or fewer are
    left). A row whose free columns looked at are all blocked takes the best
    square of its row instead.
    """
    work = 0
    nfree = st[NFREE]
    best = -1
    best_i = -1
    best_value = 1 << 62
    ties = 0
    every = nfree <= init_tries
    tries = nfree if every else init_tries
    for k in range(tries):
        i = k if every else _below(rng, nfree)
        c = free[i]
        work += 2
        if _blocked(bstart, bcols, r, c):
            continue
        # The column's own count is not read: no queen holds a free column, except
        # one a row placed through the fallback below took (then _add lists both).
        value = (ups[r + c] >> SHIFT) + (downs[r - c + n - 1] >> SHIFT)
        if value < best_value:
            best_value = value
            best = c
            best_i = i
            ties = 1
            if value == 0 and not every:
                break
        elif value == best_value:
            ties += 1
            if _below(rng, ties) == 0:
                best = c
                best_i = i
    if best >= 0:  # off the list of free columns
        free[best_i] = free[nfree - 1]
        st[NFREE] = nfree - 1
    else:
        best, value, looked = _best_in_row(
            n, r, bstart, bcols, cols, ups, downs, rng, extra, 0, samples, scan_all
        )
        work += looked
        if best < 0:
            best, value, looked = _best_in_row(
                n, r, bstart, bcols, cols, ups, downs, rng, extra, 0, 0, True
            )
            work += looked
    _add(n, r, best, q, cols, ups, downs, fixed, todo, listed, st)
    return work


@njit(cache=True)
def advance(n, q, cols, ups, downs, fixed, bstart, bcols, free, todo, listed, empty,
            emptied, extra, st, rng, budget, max_moves, init_tries, samples,
            scan_all):  # fmt: skip
    """Resume the search for about ``budget`` squares looked at.

    Returns :data:`SOLVED` when ``q`` holds a solution, :data:`STUCK` after
    ``max_moves`` moves without one (the caller restarts), else :data:`WORKING`.
    """
    work = 0
    while work < budget:
        if st[PHASE] == INIT:
            r = st[ROW]
            if r == n:
                # Queens are only added during the placement, so every listed row
                # is still in conflict: the list is the count.
                st[INITIAL_CONFLICTS] = st[NTODO]
                st[PHASE] = REPAIR
                continue
            st[ROW] = r + 1
            if fixed[r] < 0:
                work += _place_row(
                    n, r, q, cols, ups, downs, fixed, bstart, bcols, free, todo, listed,
                    extra, st, rng, init_tries, samples, scan_all,
                )  # fmt: skip
            continue
        # Repair: draw a listed row; drop it if its queen is no longer in conflict.
        ntodo = st[NTODO]
        if ntodo == 0:
            return SOLVED
        if st[MOVES] >= max_moves:
            return STUCK
        i = _below(rng, ntodo)
        r = todo[i]
        c = q[r]
        work += 1
        if _conflicts(n, r, c, cols, ups, downs) == 3:
            todo[i] = todo[ntodo - 1]
            st[NTODO] = ntodo - 1
            listed[r] = 0
            continue
        _remove(n, r, q, cols, ups, downs, empty, emptied, st)
        # The candidates besides the random samples: the queen's own column and up
        # to len(extra) - 1 columns left empty (the only squares of a nearly solved
        # board that can be free of conflicts).
        extra[0] = c
        nextra = 1
        attempts = 0
        while nextra < extra.shape[0] and st[NEMPTY] > 0 and attempts < 4 * extra.shape[0]:
            attempts += 1
            k = _below(rng, st[NEMPTY])
            e = empty[k]
            if cols[e] >= ONE:  # filled since: drop it
                last = st[NEMPTY] - 1
                empty[k] = empty[last]
                st[NEMPTY] = last
                emptied[e] = 0
                continue
            duplicate = False
            for j in range(nextra):
                if extra[j] == e:
                    duplicate = True
            if not duplicate:
                extra[nextra] = e
                nextra += 1
        best, _, looked = _best_in_row(
            n, r, bstart, bcols, cols, ups, downs, rng, extra, nextra, samples, scan_all
        )
        work += looked
        if best < 0:
            best = c
        _add(n, r, best, q, cols, ups, downs, fixed, todo, listed, st)
        st[MOVES] += 1
    return WORKING
