"""A DRAT proof written straight from the ``propagate`` search's forward-checking tree.

Unit propagation on the statement (pairwise at-most-ones) is at least forward
checking: a queen's at-most-ones set false every square it attacks, and a row whose
squares are all false falsifies its "at least one" clause. So every node of the
tree gives a clause that *reverse unit propagation* (RUP) derives, "not all of the
queens on this path":

* a dead end (a row wiped out): assuming its queens, propagation empties that row;
* a node all of whose children are refuted: assuming its queens, the children's
  clauses make every square of the row searched next false, the others being
  attacked or blocked already;
* a solution: its clause is the blocking clause, part of the formula checked.

Written children first (the nodes in reverse preorder), each node's clause is
derived once its children's are in, and theirs are then deleted; the root's clause,
the empty clause, is the last line. The tree is :func:`cpqueens.compact_tree` with
``propagation="forward"`` (compiled), so the proof is written at the pace of the
disk; it is streamed, never held whole.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import IO

import numpy as np

from ..errors import InvalidInputError
from ..instances import Instance
from ..trees.status import SOLUTION


class ProofTooLargeError(InvalidInputError):
    """A proof would pass the bound its caller set (``max_proof_bytes``)."""


def proof_bytes_per_node(n: int) -> int:
    """What a node costs in the proof, at most: its clause once added and once deleted
    (a literal is at most ``len(str(n * n))`` digits, a minus and a space)."""
    return 2 * (n * (len(str(n * n)) + 2) + 4)


def search_tree(instance: Instance, max_bytes: int):
    """The forward-checking tree of ``instance`` (rows in order), refused before its
    arrays are made when its proof would take more than ``max_bytes``."""
    from ..errors import TreeTooLargeError
    from ..trees.compact.build import compact_tree, node_bytes

    per_node = proof_bytes_per_node(instance.n)
    nodes = max(1, max_bytes // per_node)
    try:
        return compact_tree(
            instance, propagation="forward", max_bytes=nodes * node_bytes(instance.n, "forward")
        )
    except TreeTooLargeError as error:
        nodes = getattr(error, "estimate", None)
        raise too_large(instance.n, "propagate", nodes, max_bytes) from None


def exact_cover_tree(instance: Instance, max_bytes: int):
    """The exactcover backend's tree of ``instance`` (:mod:`.exact_tree`), stopped as
    soon as its proof would take more than ``max_bytes``."""
    from .exact_tree import exact_tree

    try:
        return exact_tree(instance, max(1, max_bytes // proof_bytes_per_node(instance.n)))
    except OverflowError:
        raise too_large(instance.n, "exactcover", None, max_bytes) from None


#: The trees a proof is written from, by the backend whose search each is.
TREES = {"propagate": search_tree, "exactcover": exact_cover_tree}


def too_large(n: int, producer: str, nodes: int | None, max_bytes: int) -> ProofTooLargeError:
    """The refusal of a proof past ``max_bytes``, priced at ``nodes`` when known."""
    per_node = proof_bytes_per_node(n)
    size = f"about {nodes * per_node / 1e9:,.1f} GB" if nodes else "more"
    return ProofTooLargeError(
        f"the proof of {n}-queens from the {producer} search would take {size} ({per_node} "
        f"bytes a node of its tree), past max_proof_bytes={max_bytes:,}; raise "
        "max_proof_bytes to allow it"
    )


def solutions_of(tree) -> list[tuple[int, ...]]:
    """The boards at the tree's solution leaves, in search order."""
    boards = []
    for node in np.flatnonzero(tree.status == SOLUTION):
        board = [0] * tree.n
        step = int(node)
        while step != 0:
            board[int(tree.row[step])] = int(tree.column[step])
            step = int(tree.parent[step])
        boards.append(tuple(board))
    return boards


def write_proof(tree, out: IO[str], check: Callable[[], None] = lambda: None) -> int:
    """Write the DRAT proof of ``tree`` to ``out`` (see the module's docstring); return
    the bytes written. ``check`` is called between chunks of a few megabytes."""
    from .proof_kernels import write_nodes

    n = tree.n
    size = len(tree.parent)
    parent = tree.parent.astype(np.int64)
    literal = tree.row.astype(np.int64) * n + tree.column.astype(np.int64) + 1
    # Each node's path of queens (their variables), a row of the matrix, a level at a time.
    depth = tree.depth.astype(np.int64)
    deepest = max(1, int(depth.max()))
    paths = np.zeros((size, deepest), dtype=np.int32)
    for level in range(1, deepest + 1):
        nodes = np.flatnonzero(depth == level)
        if level > 1:
            paths[nodes, : level - 1] = paths[parent[nodes], : level - 1]
        paths[nodes, level - 1] = literal[nodes]
    # The children of each node, as slices of one array.
    children = np.argsort(parent[1:], kind="stable") + 1
    first = np.searchsorted(parent[children], np.arange(size), side="left")
    last = np.searchsorted(parent[children], np.arange(size), side="right")
    # A node's lines: its clause and the deletion of each child's, at most n + 1 clauses.
    reserve = (n + 2) * (deepest * (len(str(n * n)) + 2) + 4)
    buffer = np.zeros(max(4 * 2**20, 4 * reserve), dtype=np.uint8)
    status = np.ascontiguousarray(tree.status)
    node, written = size - 1, 0
    while node >= 0:
        check()
        node, used = write_nodes(paths, depth, status, children, first, last, node,
                                 SOLUTION, buffer, reserve)  # fmt: skip
        out.write(buffer[:used].tobytes().decode("ascii"))
        written += used
    return written
