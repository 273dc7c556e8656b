"""The compiled search of the ``exactcover`` backend past one machine word: n > 64.

The same search as :mod:`.kernels` (the same items, the same rule, the same ties,
the same order of options, so the same nodes and the same solutions in the same
order), with every mask of rows or columns ``words = ceil(n / 64)`` machine words
long, lowest word first. :mod:`.kernels` keeps its one-word search for n <= 64:
there a mask is one register and a shift, here a loop over words with a select per
attacked square, which took 2.7 times as long per node when both searched the same
blocked boards of n = 28..48 (the C reference's ``--wide`` alike: 2 to 2.7 times).

State, as in :mod:`.kernels` with a last axis of words: ``rows[d, r, w]`` and
``cols[d, c, w]``; ``used[d, 0, w]`` the rows covered and ``used[d, 1, w]`` the
columns; ``pending[d, w]`` the options of the item chosen at depth ``d`` not yet
tried. A child's mask is copied word by word from its parent's, less its (at most
three) attacked squares, and counted as it is copied: a queen on ``(r, c)`` takes
from row ``r2`` the columns ``c`` and ``c +- |r2 - r|`` when they are on the board,
and from column ``c2`` the rows ``r`` and ``r +- |c2 - c|``.

This module imports numba at the top, so only :mod:`.backend` imports it, and only
when a search of a board past 64 starts (or :func:`warm_up` is called).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import popcount, trailing_zeros
from .kernels import DEPTH, FINISHED, FRESH, MAX_N, NODES, SOLUTIONS, Search

#: Bits per word.
WORD = 64
#: An item's key is its count of options, then its rank in the tie order (< 2 ** 24,
#: so boards up to n = 2 ** 23): ordered by (count, rank) as the one-word keys are.
RANK_BITS = 24
#: Keys below this are of items with no option left.
EMPTY = 1 << RANK_BITS


def words_for(n: int) -> int:
    """Machine words per mask of an n x n board.

    >>> words_for(64), words_for(65), words_for(128), words_for(129)
    (1, 2, 2, 3)
    """
    return (n + WORD - 1) // WORD


@njit(cache=True, inline="always")
def _bit(square):
    """The bit of ``square`` in its word when the square is in this word (0 <= square < 64),
    else 0: a select, not a branch, for the three squares of each line and word."""
    inside = np.uint64(square) < np.uint64(WORD)
    return np.uint64(1) << np.uint64(square & 63) if inside else np.uint64(0)


@njit(cache=True, inline="always")
def _scan(n, masks, depth, child, used, kind, full, placed, spot, rank, offset, best, chosen):
    """Build the child's masks of the open rows (or columns), keeping the smallest key.

    ``placed`` is the line of the queen (its row when ``masks`` are rows) and ``spot``
    its square along them (its column): line ``l`` loses ``spot`` and
    ``spot +- |l - placed|``. Stops at a line with no square left, as the one-word
    scan does. Returns the best (key, item code) so far.
    """
    one = np.uint64(1)
    words = full.shape[0]
    for w in range(words):
        rest = full[w] & ~used[child, kind, w]
        while rest:
            line = w * WORD + trailing_zeros(rest)
            rest &= rest - one
            gap = abs(line - placed)
            count = 0
            for v in range(words):
                here = spot - v * WORD
                word = masks[depth, line, v] & ~(_bit(here) | _bit(here - gap) | _bit(here + gap))
                masks[child, line, v] = word
                count += popcount(word)
            key = count << RANK_BITS | rank[offset + line]
            if key < best:
                best, chosen = key, offset + line
                if key < EMPTY:
                    return best, chosen
    return best, chosen


@njit(cache=True)
def _choose_root(n, rows, cols, rank, pending, item):
    """Choose the root's item (the same rule as every other node); False if one is empty."""
    best = (n + 1) << RANK_BITS
    code = -1
    for line in range(2 * n):
        masks, index = (rows, line) if line < n else (cols, line - n)
        count = 0
        for w in range(rows.shape[2]):
            count += popcount(masks[0, index, w])
        key = count << RANK_BITS | rank[line]
        if key < best:
            best, code = key, line
    if best < EMPTY:
        return False
    item[0] = code
    pending[0] = rows[0, code] if code < n else cols[0, code - n]
    return True


@njit(cache=True)
def search_chunk(
    n, rows, cols, rank, used, pending, item, queens, state, out, collect, budget, full
):
    """Resume the search and return after ``budget`` nodes, a full ``out`` or the end.

    The arguments and the answer are those of :func:`.kernels.search_chunk`, with a
    last axis of words and ``full`` the mask of the board's lines.
    """
    one = np.uint64(1)
    zero = np.uint64(0)
    words = full.shape[0]
    no_item = (n + 1) << RANK_BITS
    last = n - 1
    filled = 0
    capacity = out.shape[0]
    nodes = 0
    found = 0
    depth = state[DEPTH]
    if depth == FRESH:
        used[0] = zero
        depth = 0 if _choose_root(n, rows, cols, rank, pending, item) else -1
    while depth >= 0 and nodes < budget:
        w = 0
        while w < words and pending[depth, w] == zero:
            w += 1
        if w == words:
            depth -= 1
            continue
        options = pending[depth, w]
        bit = options & (zero - options)
        pending[depth, w] = options ^ bit
        index = w * WORD + trailing_zeros(bit)
        code = item[depth]
        if code < n:
            r = code
            c = index
        else:
            r = index
            c = code - n
        queens[depth, 0] = r
        queens[depth, 1] = c
        nodes += 1
        if depth == last:
            found += 1
            if collect:
                for i in range(n):
                    out[filled, queens[i, 0]] = queens[i, 1]
                filled += 1
                if filled == capacity:
                    break
            continue
        child = depth + 1
        for w in range(words):
            used[child, 0, w] = used[depth, 0, w]
            used[child, 1, w] = used[depth, 1, w]
        used[child, 0, r >> 6] |= one << np.uint64(r & 63)
        used[child, 1, c >> 6] |= one << np.uint64(c & 63)
        best, chosen = _scan(n, rows, depth, child, used, 0, full, r, c, rank, 0, no_item, -1)
        if best >= EMPTY:
            best, chosen = _scan(n, cols, depth, child, used, 1, full, c, r, rank, n, best, chosen)
        if best < EMPTY:
            continue
        item[child] = chosen
        masks, line = (rows, chosen) if chosen < n else (cols, chosen - n)
        for w in range(words):
            pending[child, w] = masks[child, line, w]
        depth = child
    state[DEPTH] = depth
    state[NODES] += nodes
    state[SOLUTIONS] += found
    if depth < 0:
        state[FINISHED] = 1
    return filled


def pack(masks: list[int], words: int) -> np.ndarray:
    """Python ints as rows of ``words`` uint64 words, lowest word first.

    >>> pack([1, 1 << 64 | 5], 2).tolist()
    [[1, 0], [5, 1]]
    """
    data = b"".join(mask.to_bytes(8 * words, "little") for mask in masks)
    return np.frombuffer(data, "<u8").reshape(len(masks), words).astype(np.uint64)


def transpose(rows: np.ndarray, n: int) -> np.ndarray:
    """The masks of the columns from the masks of the rows (bit r of column c is bit c of row r).

    >>> transpose(pack([1, 3], 1), 2).tolist()
    [[3], [2]]
    """
    words = rows.shape[1]
    squares = np.unpackbits(rows.astype("<u8").view(np.uint8), axis=1, bitorder="little")
    columns = np.zeros((WORD * words, WORD * words), np.uint8)
    columns[:n, :n] = squares[:n, :n].T
    return np.packbits(columns, axis=1, bitorder="little").view("<u8")[:n].astype(np.uint64)


class WideSearch(Search):
    """One search of any board size on word arrays (the Python side of :func:`search_chunk`).

    Takes the arguments of :class:`.kernels.Search` and answers alike; from n = 1
    on, so that a board of 64 or fewer can be searched both ways and the two
    compared node for node.

    >>> search = WideSearch(6, [63] * 6)
    >>> sorted(map(tuple, search.next_solutions(10, budget=1000).tolist()))[0]
    (1, 3, 5, 0, 2, 4)
    >>> search.finished, search.nodes
    (True, 92)
    """

    def __init__(self, n: int, allowed: list[int]):
        if n < 1:
            raise ValueError(f"the exactcover kernels take n >= 1, got {n}")
        words = words_for(n)
        rows = np.zeros((n + 1, n, words), np.uint64)
        cols = np.zeros((n + 1, n, words), np.uint64)
        rows[0] = pack(allowed, words)
        cols[0] = transpose(rows[0], n)
        self._arrays(n, rows, cols, (words,))
        self.full = pack([(1 << n) - 1], words)[0]

    def _run(self, out: np.ndarray, collect: bool, budget: int) -> int:
        return search_chunk(*self.arguments, out, collect, budget, self.full)


def new_search(n: int, allowed: list[int], *, wide: bool = False) -> Search:
    """The search of an n x n board: one word per mask up to n = 64, else (or ``wide``) words."""
    return WideSearch(n, allowed) if wide or n > MAX_N else Search(n, allowed)


def warm_up() -> None:
    """Compile (or load from the on-disk cache) the kernel, on a tiny board."""
    search = WideSearch(4, [15] * 4)
    search.next_solutions(1, 10)
    search.count_on(10)
