"""The ``exactcover`` backend's search, as a tree a proof is written from.

The same rule as the backend's compiled search (:mod:`cpqueens.solvers.exactcover.kernels`):
each node covers the row or column with the fewest squares left, ties to the one
nearest the middle (its ``tie_ranks``), trying its squares lowest index first; a row
or column left with none is a dead end. Its node count is the backend's
(``stats["nodes"]``), which the tests hold it to. Each dead end is a clause unit
propagation derives from the statement (every square of that row or column is
attacked, blocked or in a row already covered), each branch one its children's
clauses give, as for the forward-checking tree (:mod:`.from_search`), whose proof
writer takes this tree as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..instances import Instance
from ..trees.status import BRANCH, FAILURE, SOLUTION


@dataclass
class ExactTree:
    """A tree in preorder, node 0 the root: each node's parent, depth, square, status."""

    n: int
    parent: np.ndarray
    depth: np.ndarray
    row: np.ndarray
    column: np.ndarray
    status: np.ndarray


def exact_tree(instance: Instance, max_nodes: int) -> ExactTree:
    """Search ``instance`` as the exactcover backend does and keep the tree; raise
    OverflowError past ``max_nodes`` nodes."""
    from ..solvers.exactcover.kernels import tie_ranks

    n = instance.n
    rank = tie_ranks(n).tolist()
    full = (1 << n) - 1
    blocked = instance.blocked_set
    given = dict(instance.fixed)
    rows = {
        r: (1 << given[r])
        if r in given
        else full & ~sum(1 << c for c in range(n) if (r, c) in blocked)
        for r in range(n)
    }
    parent, depth, row, column, status = [0], [0], [-1], [-1], [BRANCH]

    def columns_of(rows_left: dict[int, int], cols_left: set[int]) -> dict[int, int]:
        return {c: sum(1 << r for r, mask in rows_left.items() if mask >> c & 1) for c in cols_left}

    def visit(node: int, rows_left: dict[int, int], cols_left: set[int], level: int) -> None:
        if not rows_left:
            status[node] = SOLUTION
            return
        cols = columns_of(rows_left, cols_left)
        items = [(bin(m).count("1"), rank[r], r, m, True) for r, m in rows_left.items()]
        items += [(bin(m).count("1"), rank[n + c], c, m, False) for c, m in cols.items()]
        count, _, index, mask, is_row = min(items)
        if count == 0:
            status[node] = FAILURE
            return
        status[node] = BRANCH
        for other in range(n):
            if not mask >> other & 1:
                continue
            r, c = (index, other) if is_row else (other, index)
            if len(parent) >= max_nodes:
                raise OverflowError(len(parent))
            child = len(parent)
            parent.append(node)
            depth.append(level + 1)
            row.append(r)
            column.append(c)
            status.append(BRANCH)
            left = {}
            for r2, m in rows_left.items():
                if r2 == r:
                    continue
                gap = abs(r2 - r)
                attacked = (1 << c) | (1 << (c + gap) if c + gap < n else 0)
                attacked |= 1 << (c - gap) if c - gap >= 0 else 0
                left[r2] = m & ~attacked
            visit(child, left, cols_left - {c}, level + 1)

    visit(0, rows, set(range(n)), 0)
    return ExactTree(
        n=n,
        parent=np.array(parent, dtype=np.int64),
        depth=np.array(depth, dtype=np.uint16),
        row=np.array(row, dtype=np.int16),
        column=np.array(column, dtype=np.int16),
        status=np.array(status, dtype=np.uint8),
    )
