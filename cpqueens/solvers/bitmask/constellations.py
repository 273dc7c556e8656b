"""Start constellations: the border queens of a solution, one per symmetry class.

Every solution has exactly one queen in each border line: ``a``, the column of the
queen in row 0; ``b``, the column of the queen in row n-1; ``c``, the row of the
queen in column 0; ``d``, the row of the queen in column n-1 (a corner queen counts
for its row and its column). The eight symmetries of the square permute these
*constellations* ``(a, b, c, d)`` the way they permute solutions, so counting the
solutions of one constellation per class and weighting each by the size of its
class counts them all (the method of Q27 and NQueensFAF). A constellation that a
half turn maps to itself stands for 4 constellations, one a quarter turn maps to
itself for 2, any other for 8.

With ``m = n - 1``, a quarter turn ``(r, c) -> (c, m - r)`` sends ``(a, b, c, d)`` to
``(m - c, m - d, b, a)`` and the left-right mirror sends it to ``(m - a, m - b, d, c)``;
the other six symmetries are products of these two.

>>> table = start_constellations(8)
>>> len(table), int((8 // table.group_orders).sum())
(78, 582)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Which rotations fix a constellation, so its solutions must be tested for them.
SYM_NONE = 0
SYM_HALF_TURN = 1
SYM_QUARTER_TURN = 2


@dataclass(frozen=True)
class Constellations:
    """One representative per class of start constellations of an n x n board.

    ``signatures[i]`` is ``(a, b, c, d)``, the smallest of its images;
    ``group_orders[i]`` how many of the 8 symmetries fix it (1, 2, 4 or 8), so the
    class holds ``8 // group_orders[i]`` constellations; ``syms[i]`` which rotations
    fix it, so that the kernel tests the solutions for those rotations.
    """

    n: int
    signatures: np.ndarray
    group_orders: np.ndarray
    syms: np.ndarray

    def __len__(self) -> int:
        return len(self.signatures)


def _images(n: int, a, b, c, d) -> list[tuple]:
    """The 8 images of constellations under the symmetries of the square."""
    m = n - 1
    images = [(a, b, c, d)]
    for _ in range(3):
        a0, b0, c0, d0 = images[-1]
        images.append((m - c0, m - d0, b0, a0))
    images += [(m - a0, m - b0, d0, c0) for a0, b0, c0, d0 in images]
    return images


def _apart(r1, c1, r2, c2) -> np.ndarray:
    """True where two queens are the same queen or do not attack each other."""
    same = (r1 == r2) & (c1 == c2)
    safe = (r1 != r2) & (c1 != c2) & (np.abs(r1 - r2) != np.abs(c1 - c2))
    return same | safe


def start_constellations(n: int) -> Constellations:
    """List the start constellations of an n x n board, one per symmetry class (n >= 2).

    >>> table = start_constellations(4)
    >>> table.signatures.tolist(), table.group_orders.tolist()
    ([[0, 1, 0, 2], [1, 2, 2, 1]], [1, 4])
    """
    m = n - 1
    a, b, c, d = (axis.ravel() for axis in np.indices((n, n, n, n), dtype=np.int64))
    # A corner queen is both the queen of its row and of its column.
    consistent = (
        ((a == 0) == (c == 0))
        & ((a == m) == (d == 0))
        & ((b == 0) == (c == m))
        & ((b == m) == (d == m))
    )
    queens = [(0, a), (m, b), (c, 0), (d, m)]
    valid = consistent
    for i in range(4):
        for j in range(i + 1, 4):
            valid &= _apart(*queens[i], *queens[j])
    a, b, c, d = a[valid], b[valid], c[valid], d[valid]

    def key(sig):
        return ((sig[0] * n + sig[1]) * n + sig[2]) * n + sig[3]

    images = _images(n, a, b, c, d)
    keys = np.stack([key(image) for image in images])
    representative = keys[0] == keys.min(axis=0)
    distinct = 1 + (np.diff(np.sort(keys, axis=0), axis=0) != 0).sum(axis=0)
    group_orders = 8 // distinct
    syms = np.where(
        keys[1] == keys[0],
        SYM_QUARTER_TURN,
        np.where(keys[2] == keys[0], SYM_HALF_TURN, SYM_NONE),
    )
    signatures = np.stack([a, b, c, d], axis=1)[representative]
    return Constellations(
        n=n,
        signatures=np.ascontiguousarray(signatures, dtype=np.int64),
        group_orders=group_orders[representative].astype(np.int64),
        syms=syms[representative].astype(np.int64),
    )
