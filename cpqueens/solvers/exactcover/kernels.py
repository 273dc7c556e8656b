"""The compiled search of the ``exactcover`` backend: Algorithm X over bitsets.

This module imports numba at the top, so only :mod:`.backend` imports it, and only
when a search starts: ``import cpqueens`` never pays for it.

The board is Knuth's exact cover with secondary items: every row and every column
must be covered once (primary items), every diagonal at most once (secondary
items), and each free square is an option covering its row, its column and its two
diagonals. A node chooses the primary item with the fewest options left (MRV),
tries its options one by one, and backtracks.

State, one entry per depth ``d`` of an explicit stack (a node at depth ``d`` has
placed ``d`` queens):

* ``rows[d, r]``: the columns still open to row ``r`` (bit ``c``), for the rows
  not yet covered; ``cols[d, c]`` the rows still open to column ``c``;
* ``used[d]``: the rows covered (``used[d, 0]``) and the columns (``used[d, 1]``);
* ``item[d]``: the item chosen there, ``r`` for row ``r`` and ``n + c`` for column
  ``c``; ``pending[d]``: its options not yet tried (columns of a row, rows of a
  column), lowest index first;
* ``queens[d]``: the square ``(row, column)`` of the queen placed at depth ``d``.

Placing a queen on ``(r, c)`` removes from every open row ``r2`` the column ``c``
and the two squares on its diagonals, ``c +- |r2 - r|``, and from every open column
``c2`` the row ``r`` and ``r +- |c2 - c|``; the same pass counts what is left of
each item and keeps the smallest, so building a child and choosing its item is one
loop over the open items. Only what the squares allow is ever in the masks, so a
blocked square is never tried and never a node.

Tie-breaking (the node counts depend on it): the fewest options first; among
equals, the item nearest the middle of the board, in the order row ``n // 2``,
column ``n // 2``, row ``n // 2 - 1``, column ``n // 2 - 1``, row ``n // 2 + 1``, ...
(:func:`tie_ranks`; Knuth lists the items of this problem middle out too, his
"organ-pipe order"). On blocked boards near their hardest density this took 1.4
to 1.9 times fewer nodes in all than rows, then columns, in index order. Each item's key is
its count shifted left, plus its rank, so the smallest key is the choice. A row or
column left with no option ends the scan at once: the node is a dead end
whichever item is chosen, so the node counts do not change.

Bitsets rather than dancing links: the same search with Knuth's linked lists
(``benchmarks/exactcover_dlx.py``, compiled alike, the same tree node for node)
took 2.6 times as long (median over blocked boards n = 28..56).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import popcount, trailing_zeros

#: Board sizes the kernels accept: one uint64 word per row and per column (past it,
#: :mod:`.wide`).
MAX_N = 64

#: An item's key is its count of options, then its rank in the tie order (< 2 ** 7).
RANK_BITS = 7
#: Keys below this are of items with no option left.
EMPTY = 1 << RANK_BITS
#: Above every key.
NO_ITEM = (MAX_N + 1) << RANK_BITS

# The slots of ``state``.
DEPTH, NODES, FINISHED, SOLUTIONS = range(4)
#: ``state[DEPTH]`` before the first call: choose the root's item first.
FRESH = -1


@njit(cache=True)
def _choose_root(n, rows, cols, rank, pending, item):
    """Choose the root's item (the same rule as every other node); False if one is empty."""
    best = NO_ITEM
    code = -1
    for r in range(n):
        key = popcount(rows[0, r]) << RANK_BITS | rank[r]
        if key < best:
            best, code = key, r
    for c in range(n):
        key = popcount(cols[0, c]) << RANK_BITS | rank[n + c]
        if key < best:
            best, code = key, n + c
    if best < EMPTY:
        return False
    item[0] = code
    pending[0] = rows[0, code] if code < n else cols[0, code - n]
    return True


@njit(cache=True)
def search_chunk(n, rows, cols, rank, used, pending, item, queens, state, out, collect, budget):
    """Resume the search and return after ``budget`` nodes, a full ``out`` or the end.

    ``state`` holds [depth, nodes, finished, solutions]; depth :data:`FRESH` starts
    the search from ``rows[0]`` and ``cols[0]``. With ``collect`` each solution is
    written as a row of ``out`` (the column of each row's queen) and the call returns
    once ``out`` is full; without, solutions are only counted into ``state``.
    Returns how many rows of ``out`` were filled.
    """
    one = np.uint64(1)
    zero = np.uint64(0)
    full = ~zero >> np.uint64(64 - n)
    last = n - 1
    filled = 0
    capacity = out.shape[0]
    nodes = 0
    found = 0
    depth = state[DEPTH]
    if depth == FRESH:
        used[0, 0] = zero
        used[0, 1] = zero
        depth = 0 if _choose_root(n, rows, cols, rank, pending, item) else -1
    while depth >= 0 and nodes < budget:
        options = pending[depth]
        if options == zero:
            depth -= 1
            continue
        bit = options & (zero - options)
        pending[depth] = options ^ bit
        code = item[depth]
        if code < n:
            r = code
            c = trailing_zeros(bit)
        else:
            r = trailing_zeros(bit)
            c = code - n
        queens[depth, 0] = r
        queens[depth, 1] = c
        nodes += 1
        if depth == last:
            found += 1
            if collect:
                for i in range(n):  # a loop compiles much faster than a fancy index
                    out[filled, queens[i, 0]] = queens[i, 1]
                filled += 1
                if filled == capacity:
                    break
            continue
        child = depth + 1
        row_bit = one << np.uint64(r)
        column_bit = one << np.uint64(c)
        covered_rows = used[depth, 0] | row_bit
        covered_cols = used[depth, 1] | column_bit
        best = NO_ITEM
        chosen = -1
        rest = full & ~covered_rows
        while rest:
            r2 = trailing_zeros(rest)
            rest &= rest - one
            gap = abs(r2 - r)
            left = rows[depth, r2] & ~(column_bit | (column_bit << gap) | (column_bit >> gap))
            rows[child, r2] = left
            key = popcount(left) << RANK_BITS | rank[r2]
            if key < best:
                best, chosen = key, r2
                if key < EMPTY:
                    break
        if best >= EMPTY:
            rest = full & ~covered_cols
            while rest:
                c2 = trailing_zeros(rest)
                rest &= rest - one
                gap = abs(c2 - c)
                left = cols[depth, c2] & ~(row_bit | (row_bit << gap) | (row_bit >> gap))
                cols[child, c2] = left
                key = popcount(left) << RANK_BITS | rank[n + c2]
                if key < best:
                    best, chosen = key, n + c2
                    if key < EMPTY:
                        break
        if best < EMPTY:
            continue
        used[child, 0] = covered_rows
        used[child, 1] = covered_cols
        item[child] = chosen
        pending[child] = rows[child, chosen] if chosen < n else cols[child, chosen - n]
        depth = child
    state[DEPTH] = depth
    state[NODES] += nodes
    state[SOLUTIONS] += found
    if depth < 0:
        state[FINISHED] = 1
    return filled


def middle_out(n: int) -> list[int]:
    """The indices 0..n-1 from the middle out: n//2, then one below, one above, ...

    >>> middle_out(8), middle_out(7)
    ([4, 3, 5, 2, 6, 1, 7, 0], [3, 2, 4, 1, 5, 0, 6])
    """
    return [n // 2 - (j + 1) // 2 if j % 2 else n // 2 + j // 2 for j in range(n)]


def tie_ranks(n: int) -> np.ndarray:
    """Each item's place in the tie order: ``rank[r]`` for row r, ``rank[n + c]`` for column c.

    Rows and columns from the middle out, the row before the column of the same
    index: for n = 8, row 4, column 4, row 3, column 3, row 5, ...
    """
    rank = np.zeros(2 * n, np.int64)
    for place, index in enumerate(middle_out(n)):
        rank[index] = 2 * place
        rank[n + index] = 2 * place + 1
    return rank


class Search:
    """One search's arrays, resumed chunk by chunk (the Python side of the kernel).

    ``allowed[r]`` is the mask of the columns row ``r`` may take: its fixed queen,
    or every square not blocked.

    >>> search = Search(6, [63] * 6)
    >>> sorted(map(tuple, search.next_solutions(10, budget=1000).tolist()))
    [(1, 3, 5, 0, 2, 4), (2, 5, 1, 4, 0, 3), (3, 0, 4, 1, 5, 2), (4, 2, 0, 5, 3, 1)]
    >>> search.finished, search.nodes
    (True, 92)
    """

    def __init__(self, n: int, allowed: list[int]):
        if not 1 <= n <= MAX_N:
            raise ValueError(f"the exactcover kernels take 1 <= n <= {MAX_N}, got {n}")
        rows = np.zeros((n + 1, n), np.uint64)
        cols = np.zeros((n + 1, n), np.uint64)
        rows[0] = np.array(allowed, np.uint64)
        # The transpose: bit r of column c is bit c of row r (distinct bits: sum = or).
        index = np.arange(n, dtype=np.uint64)
        squares = rows[0][:, None] >> index[None, :] & np.uint64(1)
        cols[0] = (squares.T << index[None, :]).sum(axis=1, dtype=np.uint64)
        self._arrays(n, rows, cols, ())

    def _arrays(self, n: int, rows: np.ndarray, cols: np.ndarray, words: tuple[int, ...]) -> None:
        """The rest of the state, each mask of shape ``words`` (``()``: one word)."""
        self.n = n
        self.rows = rows
        self.cols = cols
        self.rank = tie_ranks(n)
        self.used = np.zeros((n + 1, 2, *words), np.uint64)
        self.pending = np.zeros((n + 1, *words), np.uint64)
        self.item = np.zeros(n + 1, np.int64)
        self.queens = np.zeros((n + 1, 2), np.int64)
        self.state = np.array([FRESH, 0, 0, 0], np.int64)
        self._nothing = np.zeros((0, n), np.int64)
        #: The kernel's arguments before ``out``, in its order.
        self.arguments = (
            n, rows, cols, self.rank, self.used, self.pending, self.item, self.queens, self.state
        )  # fmt: skip

    @property
    def finished(self) -> bool:
        return bool(self.state[FINISHED])

    @property
    def nodes(self) -> int:
        return int(self.state[NODES])

    @property
    def solutions(self) -> int:
        """Solutions found so far (listed or only counted)."""
        return int(self.state[SOLUTIONS])

    def _run(self, out: np.ndarray, collect: bool, budget: int) -> int:
        return search_chunk(*self.arguments, out, collect, budget)

    def next_solutions(self, most: int, budget: int) -> np.ndarray:
        """Up to ``most`` more solutions, after at most about ``budget`` nodes."""
        out = np.zeros((most, self.n), np.int64)
        filled = self._run(out, True, budget)
        return out[:filled]

    def count_on(self, budget: int) -> None:
        """Count solutions for about ``budget`` more nodes (see :attr:`solutions`)."""
        self._run(self._nothing, False, budget)


def warm_up() -> None:
    """Compile (or load from the on-disk cache) the kernel, on a tiny board."""
    search = Search(4, [15] * 4)
    search.next_solutions(1, 10)
    search.count_on(10)
