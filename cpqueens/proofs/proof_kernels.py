"""The proof of a search tree, written as bytes by compiled code (numba): the clause of
each node, children first, and the deletion of its children's clauses after it (see
:mod:`.from_search`). Python formatting a million clauses would take longer than the
search and the check together.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_MINUS, _SPACE, _ZERO, _NEWLINE, _D = 45, 32, 48, 10, 100


@njit(cache=True, inline="always")
def _number(value: int, buffer: np.ndarray, at: int) -> int:
    """Write the decimal digits of ``value`` (positive) at ``at``; return the end."""
    digits = 1
    rest = value
    while rest >= 10:
        rest //= 10
        digits += 1
    end = at + digits
    for k in range(digits):
        buffer[end - 1 - k] = _ZERO + value % 10
        value //= 10
    return end


@njit(cache=True, inline="always")
def _clause(paths: np.ndarray, depth: np.ndarray, node: int, buffer: np.ndarray, at: int) -> int:
    """Write "not all of the queens of ``node``'s path": ``-a -b ... 0``."""
    for k in range(depth[node]):
        buffer[at] = _MINUS
        at = _number(paths[node, k], buffer, at + 1)
        buffer[at] = _SPACE
        at += 1
    buffer[at] = _ZERO
    buffer[at + 1] = _NEWLINE
    return at + 2


@njit(cache=True)
def write_nodes(
    paths: np.ndarray,
    depth: np.ndarray,
    status: np.ndarray,
    children: np.ndarray,
    first: np.ndarray,
    last: np.ndarray,
    node: int,
    solution: int,
    buffer: np.ndarray,
    reserve: int,
) -> tuple[int, int]:
    """Write the proof's lines of nodes ``node``, ``node - 1``, ... into ``buffer`` until
    fewer than ``reserve`` bytes are left or the root is written; return the next node
    to write (-1 when done) and the bytes written."""
    at = 0
    limit = len(buffer) - reserve
    while node >= 0 and at < limit:
        if status[node] != solution:
            at = _clause(paths, depth, node, buffer, at)
            # The root's clause, the empty clause, ends the proof.
            for j in range(first[node], last[node] if node > 0 else first[node]):
                child = children[j]
                if status[child] != solution:
                    buffer[at] = _D
                    buffer[at + 1] = _SPACE
                    at = _clause(paths, depth, child, buffer, at + 2)
        node -= 1
    return node, at
