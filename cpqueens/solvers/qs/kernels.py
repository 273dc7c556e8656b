"""The compiled search of the ``qs`` backend: Sosic and Gu's QS4, with fixed and blocked squares.

This module imports numba at the top, so only :mod:`.backend` imports it, and only
when a search starts: ``import cpqueens`` never pays for it.

The board is a permutation: the free rows ``rows[k]`` (the rows without a fixed
queen) hold the free columns ``cols[k]`` (the columns without one), so rows and
columns never clash and only diagonals (and blocked squares) can. ``dn[r + c]`` and
``dp[r - c + n - 1]`` count the queens on each diagonal, fixed ones included, so
every test is O(1). The cost of a board is its collisions (on each diagonal, its
queens minus one) plus its queens on blocked squares; a solution costs 0.

* **Initial phase** (QS4): row ``k`` after row ``k`` takes a random column from
  those not yet placed (a swap ``cols[k] <-> cols[j]``, ``j >= k``) until it stands
  unattacked by the queens placed so far; after ``initial`` tries (3.08 m, the bound
  of Sosic and Gu), or once only the last ``c`` rows are left, the rest are placed
  as they are.
* **Final phase**: every conflicted queen is swapped with a random other free queen
  when the swap lowers the cost, until none is conflicted. A list of candidates
  holds, of every crowded diagonal, all its queens but at most one, and every
  queen on a blocked square: it starts with the conflicted queens of the rest
  (the queens of the initial phase stand one to a diagonal), a queen that moves
  joins it, and a queen leaves it only once it is not attacked. Every collision
  thus has a listed queen, and a step costs O(1) however large the board.
* **Restart** after ``STEP_BOUND_PER_ROW * m + STEP_BOUND_BASE`` final steps.

The state lives in arrays (``state``, the random generator's ``rng``), so the
search goes on from call to call: each call of :func:`advance` returns after a
budget of tries, letting the caller read the clock and see Ctrl-C.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: Final steps before a restart: this many per free row, plus a base for small boards.
STEP_BOUND_PER_ROW = 16
STEP_BOUND_BASE = 2000

# The fields of ``state`` (int64).
PHASE, ROW, TRIES, COST, STEPS, NCAND, SWAPS, RESTARTS, LEFT, POS, ATTEMPTS, SCANS = range(12)
STATE_SIZE = 12
#: Phases: shuffle and start over; initial phase; place the rest; final phase.
START, INITIAL, REST, FINAL = range(4)
#: What :func:`advance` returns.
BUDGET_SPENT, SOLVED = 0, 1


@njit(cache=True, inline="always")
def _next(rng):
    """splitmix64: the next 64 random bits of the generator kept in ``rng[0]``."""
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _below(rng, bound):
    """A random integer in ``[0, bound)``, ``bound < 2 ** 32`` (multiply and shift)."""
    return np.int64(((_next(rng) >> np.uint64(32)) * np.uint64(bound)) >> np.uint64(32))


@njit(cache=True)
def blocked_at(row, column, starts, columns):
    """Whether ``(row, column)`` is blocked: a binary search in the row's sorted columns."""
    if starts.shape[0] <= 1:
        return 0
    lo = starts[row]
    hi = starts[row + 1]
    while lo < hi:
        mid = (lo + hi) >> 1
        if columns[mid] < column:
            lo = mid + 1
        else:
            hi = mid
    return 1 if lo < starts[row + 1] and columns[lo] == column else 0


@njit(cache=True, inline="always")
def _row(k, rows, n):
    """The row of free queen ``k``: ``k`` itself when no row is fixed (every row is
    free, in order), which spares a read of a second array at a random place."""
    return k if rows.shape[0] == n else rows[k]


@njit(cache=True)
def _conflicted(k, rows, cols, dn, dp, n, starts, columns):
    r = _row(k, rows, n)
    c = cols[k]
    if dn[r + c] > 1 or dp[r - c + n - 1] > 1:
        return True
    return blocked_at(r, c, starts, columns) == 1


@njit(cache=True)
def _add(r, c, dn, dp, n):
    dn[r + c] += 1
    dp[r - c + n - 1] += 1


@njit(cache=True)
def _remove(r, c, dn, dp, n):
    dn[r + c] -= 1
    dp[r - c + n - 1] -= 1


@njit(cache=True)
def _try_swap(k, j, rows, cols, dn, dp, n, starts, columns):
    """Swap the columns of free queens ``k`` and ``j`` if that lowers the cost.

    Returns the change of cost (negative) when the swap is made, else 0.
    """
    rk = _row(k, rows, n)
    rj = _row(j, rows, n)
    ck = cols[k]
    cj = cols[j]
    if starts.shape[0] > 1:
        delta = (
            blocked_at(rk, cj, starts, columns)
            + blocked_at(rj, ck, starts, columns)
            - blocked_at(rk, ck, starts, columns)
            - blocked_at(rj, cj, starts, columns)
        )
    else:
        delta = 0
    # Take both queens off, counting the collisions that go, then put them back swapped.
    dn[rk + ck] -= 1
    delta -= 1 if dn[rk + ck] >= 1 else 0
    dp[rk - ck + n - 1] -= 1
    delta -= 1 if dp[rk - ck + n - 1] >= 1 else 0
    dn[rj + cj] -= 1
    delta -= 1 if dn[rj + cj] >= 1 else 0
    dp[rj - cj + n - 1] -= 1
    delta -= 1 if dp[rj - cj + n - 1] >= 1 else 0
    delta += 1 if dn[rk + cj] >= 1 else 0
    dn[rk + cj] += 1
    delta += 1 if dp[rk - cj + n - 1] >= 1 else 0
    dp[rk - cj + n - 1] += 1
    delta += 1 if dn[rj + ck] >= 1 else 0
    dn[rj + ck] += 1
    delta += 1 if dp[rj - ck + n - 1] >= 1 else 0
    dp[rj - ck + n - 1] += 1
    if delta < 0:
        cols[k] = cj
        cols[j] = ck
        return delta
    _remove(rk, cj, dn, dp, n)
    _remove(rj, ck, dn, dp, n)
    _add(rk, ck, dn, dp, n)
    _add(rj, cj, dn, dp, n)
    return 0


@njit(cache=True)
def _scan(state, rows, cols, dn, dp, n, m, inlist, cand, starts, columns):
    """Count the cost from scratch and list every conflicted queen (O(n))."""
    cost = 0
    for d in range(2 * n - 1):
        if dn[d] > 1:
            cost += dn[d] - 1
        if dp[d] > 1:
            cost += dp[d] - 1
    return _list_conflicted(state, 0, cost, rows, cols, dn, dp, n, m, inlist, cand, starts, columns)


@njit(cache=True)
def _list_conflicted(state, first, cost, rows, cols, dn, dp, n, m, inlist, cand, starts, columns):
    """List the conflicted queens from ``first`` on, adding the cost of those on blocked
    squares (a queen on one is conflicted) to ``cost``; keep both in ``state``."""
    ncand = 0
    for k in range(first, m):
        inlist[k] = 0
        if _conflicted(k, rows, cols, dn, dp, n, starts, columns):
            cost += blocked_at(rows[k], cols[k], starts, columns)
            inlist[k] = 1
            cand[ncand] = k
            ncand += 1
    state[COST] = cost
    state[NCAND] = ncand
    state[POS] = 0
    return ncand


@njit(cache=True)
def advance(
    state, rng, rows, cols, dn, dp, n, last, initial, inlist, cand, starts, columns, budget
):
    """Run the search for about ``budget`` tries; return :data:`SOLVED` or :data:`BUDGET_SPENT`.

    ``dn`` and ``dp`` hold the fixed queens from the start. On :data:`SOLVED` the
    free queens stand in ``cols``; the next call starts a new search (a restart
    with the generator where it is), for the next solution.
    """
    m = rows.shape[0]
    spent = 0
    bound = np.int64(STEP_BOUND_PER_ROW * m + STEP_BOUND_BASE)
    while spent < budget:
        phase = state[PHASE]
        if phase == START:
            if state[ROW] >= 0:  # a board was placed: take its free queens off
                for k in range(m):
                    _remove(rows[k], cols[k], dn, dp, n)
            if state[ROW] >= 0 or last >= m:
                # A new random start (the initial phase alone would leave the rows it
                # does not reach, all of them on a small board, where they were).
                for k in range(m - 1, 0, -1):
                    j = _below(rng, k + 1)
                    c = cols[j]
                    cols[j] = cols[k]
                    cols[k] = c
                spent += m // 4
            for i in range(state[NCAND]):  # a list left by a run that gave up
                inlist[cand[i]] = 0
            state[NCAND] = 0
            state[ROW] = 0
            state[TRIES] = 0
            state[STEPS] = 0
            state[PHASE] = INITIAL
            spent += m // 16 + 1
        elif phase == INITIAL:
            k = state[ROW]
            tries = state[TRIES]
            stop = m - last
            limit = initial
            while k < stop and tries < limit and spent < budget:
                # Unsigned indices: numba then leaves out its check for a negative
                # index (one branch an access, in the loop that takes most of the time).
                j = np.uint64(k + _below(rng, m - k))
                c = cols[j]
                cols[j] = cols[np.uint64(k)]
                cols[np.uint64(k)] = c
                tries += 1
                spent += 1
                r = _row(k, rows, n)
                up = np.uint64(r + c)
                down = np.uint64(r - c + n - 1)
                if dn[up] == 0 and dp[down] == 0 and blocked_at(r, c, starts, columns) == 0:
                    dn[up] = 1
                    dp[down] = 1
                    k += 1
            state[ROW] = k
            state[TRIES] = tries
            if k >= stop or tries >= limit:
                state[PHASE] = REST
        elif phase == REST:
            # The queens of the initial phase stand one to a diagonal, so every
            # collision involves a queen placed here: listing those of them that are
            # conflicted lists at least all but one queen of every crowded diagonal,
            # which is all the final phase needs (no O(n) scan of the board).
            first = state[ROW]
            cost = 0
            for k in range(first, m):
                r = rows[k]
                c = cols[k]
                cost += (1 if dn[r + c] >= 1 else 0) + (1 if dp[r - c + n - 1] >= 1 else 0)
                _add(r, c, dn, dp, n)
            ncand = _list_conflicted(
                state, first, cost, rows, cols, dn, dp, n, m, inlist, cand, starts, columns
            )
            state[LEFT] = ncand
            state[ATTEMPTS] += state[TRIES]
            state[PHASE] = FINAL
            spent += m - first + 1
        else:
            ncand = state[NCAND]
            pos = state[POS]
            cost = state[COST]
            steps = state[STEPS]
            while spent < budget:
                if ncand == 0:
                    if cost == 0:
                        break
                    # Not expected (see the placing of the rest): look at every queen.
                    state[SCANS] += 1
                    state[COST] = cost
                    ncand = _scan(state, rows, cols, dn, dp, n, m, inlist, cand, starts, columns)
                    cost = state[COST]
                    pos = 0
                    spent += m // 4 + 1
                    continue
                if pos >= ncand:
                    pos = 0
                k = cand[pos]
                if not _conflicted(k, rows, cols, dn, dp, n, starts, columns):
                    inlist[k] = 0
                    ncand -= 1
                    cand[pos] = cand[ncand]
                    continue
                if steps >= bound or m < 2:
                    break
                j = _below(rng, m - 1)
                if j >= k:
                    j += 1
                steps += 1
                spent += 1
                delta = _try_swap(k, j, rows, cols, dn, dp, n, starts, columns)
                if delta < 0:
                    cost += delta
                    state[SWAPS] += 1
                    if inlist[j] == 0:
                        inlist[j] = 1
                        cand[ncand] = j
                        ncand += 1
                pos += 1
            state[NCAND] = ncand
            state[POS] = pos
            state[COST] = cost
            state[ATTEMPTS] += steps - state[STEPS]
            state[STEPS] = steps
            if ncand == 0 and cost == 0:
                state[PHASE] = START
                return SOLVED
            if steps >= bound or (m < 2 and ncand > 0):
                state[RESTARTS] += 1
                state[PHASE] = START
    return BUDGET_SPENT


@njit(cache=True)
def start_counters(n, fixed_rows, fixed_cols, dn, dp):
    """Put the fixed queens on the diagonal counters ``dn`` and ``dp`` (zeros, of length
    ``2 n - 1``: made by numpy, whose zeros cost nothing until touched); return whether
    two of them clash."""
    clash = False
    for i in range(fixed_rows.shape[0]):
        r = fixed_rows[i]
        c = fixed_cols[i]
        if dn[r + c] > 0 or dp[r - c + n - 1] > 0:
            clash = True
        _add(r, c, dn, dp, n)
    return clash


@njit(cache=True)
def board_of(n, rows, cols, fixed_rows, fixed_cols):
    """The whole board, one column per row."""
    if rows.shape[0] == n:  # no row fixed: the free queens are the board, in order
        return cols.copy()
    board = np.empty(n, dtype=np.int32)
    for k in range(rows.shape[0]):
        board[rows[k]] = cols[k]
    for i in range(fixed_rows.shape[0]):
        board[fixed_rows[i]] = fixed_cols[i]
    return board


@njit(cache=True)
def is_solution(board, fixed_rows, fixed_cols, starts, columns):
    """Check a board independently of the search: a permutation, no shared diagonal,
    the fixed queens in place, no queen on a blocked square.

    Each column and diagonal is one bit (6 MB for ten million rows, against 50 MB of
    bytes), so the random reads of a large board mostly hit the cache.
    """
    n = board.shape[0]
    seen = np.zeros((n >> 6) + 1, dtype=np.uint64)
    dn = np.zeros((n >> 5) + 1, dtype=np.uint64)
    dp = np.zeros((n >> 5) + 1, dtype=np.uint64)
    one = np.uint64(1)
    for r in range(n):
        c = board[r]
        if c < 0 or c >= n:
            return False
        a = r + c
        b = r - c + n - 1
        bit_c = one << np.uint64(c & 63)
        bit_a = one << np.uint64(a & 63)
        bit_b = one << np.uint64(b & 63)
        if (seen[c >> 6] & bit_c) | (dn[a >> 6] & bit_a) | (dp[b >> 6] & bit_b):
            return False
        if blocked_at(r, c, starts, columns) == 1:
            return False
        seen[c >> 6] |= bit_c
        dn[a >> 6] |= bit_a
        dp[b >> 6] |= bit_b
    for i in range(fixed_rows.shape[0]):  # noqa: SIM110 (a loop numba compiles)
        if board[fixed_rows[i]] != fixed_cols[i]:
            return False
    return True


def warm_up() -> None:
    """Compile (or load from the on-disk cache) every kernel the backend calls, on a
    4-queens board, with the argument types :mod:`.backend` passes."""
    none = np.zeros(0, dtype=np.int32)
    dn, dp = np.zeros(7, dtype=np.int32), np.zeros(7, dtype=np.int32)
    start_counters(4, none, none, dn, dp)
    rows = np.arange(4, dtype=np.int32)
    cols = np.arange(4, dtype=np.int32)
    starts, columns = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int32)
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[ROW] = -1
    rng = np.ones(1, dtype=np.uint64)
    inlist, cand = np.zeros(4, dtype=np.uint8), np.zeros(5, dtype=np.int32)
    advance(state, rng, rows, cols, dn, dp, 4, 4, 12, inlist, cand, starts, columns, 16)
    board = board_of(4, rows, cols, none, none)
    is_solution(board, none, none, starts, columns)
