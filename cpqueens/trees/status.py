"""What a node of a search tree is, in CP-Profiler's status codes, and how wide a domain is.

The codes are those of CP-Profiler's execution database, so that a tree goes there
and back unchanged (see :mod:`cpqueens.trees.compact.tree`).
"""

from __future__ import annotations

import numpy as np

from ..errors import InvalidInputError

SOLUTION, FAILURE, BRANCH, REJECTED, CUT, MERGED = 0, 1, 2, 3, 4, 5
#: The name of each status code, by code.
STATUS_NAMES = ("solution", "failure", "branch", "rejected", "cut", "merged")
#: How a person is told each status, by code: CP-Profiler's "failure" is what cpqueens
#: calls a dead end everywhere it prints (a node below which the search backs up).
STATUS_WORDS = ("solution", "dead end", "branch", "rejected", "cut", "merged")


def domain_dtype(n: int) -> type[np.unsignedinteger]:
    """The smallest unsigned integer holding a row's domain of ``n`` columns.

    >>> domain_dtype(8).__name__, domain_dtype(12).__name__, domain_dtype(64).__name__
    ('uint8', 'uint16', 'uint64')
    """
    for dtype in (np.uint8, np.uint16, np.uint32, np.uint64):
        if n <= np.iinfo(dtype).bits:
            return dtype
    raise InvalidInputError(f"domains of n={n:,} columns do not fit one machine word (n <= 64)")
