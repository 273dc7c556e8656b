"""A compact tree to networkx and back, every node attribute kept.

The networkx tree of :func:`cpqueens.decision_tree` spells out what the compact
tree's arrays imply: ``placement`` is the queens of the path from the root,
``solution``, ``dead_end``, ``rejected`` and ``truncated`` are the status, and
with propagation ``pruned`` (the squares a node's propagation removed from the
other rows) and ``wiped_out`` (the row a dead end emptied) are read off the
domains of the node and of its parent. Going back, the domains are rebuilt from
the squares each row offers and the ``pruned`` of each node on the path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import InvalidInputError
from ..explicit.nodes import blocked_rows, candidates
from ..status import BRANCH, CUT, FAILURE, REJECTED, SOLUTION, domain_dtype

if TYPE_CHECKING:
    import networkx as nx


def offered_rows(n: int, fixed: dict[int, int], blocked) -> list[int]:
    """The squares each row offers before any queen is placed, as bit masks of columns.

    >>> offered_rows(3, {1: 2}, [(0, 0)])
    [6, 4, 7]
    """
    per_row = [fixed.get(row) for row in range(n)]
    masks = blocked_rows(blocked, n)
    return [candidates(per_row, row, n, masks[row]) for row in range(n)]


def _placed(placement: tuple[int, ...], row: int, column: int) -> tuple[int, ...]:
    if row < len(placement):
        return (*placement[:row], column, *placement[row + 1 :])
    return (*placement, *(-1,) * (row - len(placement)), column)


def _squares(masks, skip: int = -1) -> tuple[tuple[int, int], ...]:
    """The (row, column) squares set in a mask a row, row ``skip`` left out."""
    return tuple(
        (row, column)
        for row, mask in enumerate(int(m) for m in masks)
        if row != skip
        for column in range(mask.bit_length())
        if mask >> column & 1
    )


def to_networkx(tree: Any) -> nx.DiGraph:
    """The networkx decision tree of a compact one (see :meth:`CompactTree.to_networkx`)."""
    import networkx as nx

    if tree.n is None:
        raise InvalidInputError(
            "a generic tree (read from another solver's CP-Profiler database) has no boards "
            "to put in a networkx decision tree; use its arrays, or export_tree it again"
        )
    settings = tree.settings()
    G = nx.DiGraph(**{**settings, "blocked": tuple(sorted(settings["blocked"]))})
    propagated = tree.domains is not None
    offered = offered_rows(tree.n, tree.fixed, tree.blocked)
    rows, columns = tree.row.tolist(), tree.column.tolist()
    depths, statuses, parents = tree.depth.tolist(), tree.status.tolist(), tree.parent.tolist()
    placements: list[tuple[int, ...]] = [()] * len(parents)
    nodes = []
    for node, status in enumerate(statuses):
        row, column, parent = rows[node], columns[node], parents[node]
        if node:
            placements[node] = _placed(placements[parent], row, column)
        data = {
            "row": row,
            "column": column,
            "depth": depths[node],
            "placement": placements[node],
            "solution": status == SOLUTION,
            "dead_end": status == FAILURE,
            "rejected": status == REJECTED,
            "truncated": status == CUT,
        }
        if propagated:
            data["pruned"], data["wiped_out"] = _propagation(tree, node, status, offered)
        nodes.append((node, data))
    G.add_nodes_from(nodes)
    G.add_edges_from(zip(parents[1:], range(1, len(parents)), strict=True))
    return G


def _propagation(tree: Any, node: int, status: int, offered: list[int]):
    """A node's ``pruned`` and ``wiped_out``, from its domains and its parent's."""
    if status == REJECTED:
        return (), -1
    domains = tree.domains[node]
    if node == 0:
        before, placed = offered, -1
    else:
        before, placed = tree.domains[tree.parent[node]], int(tree.row[node])
    gone = [int(b) & ~int(d) for b, d in zip(before, domains, strict=True)]
    wiped = -1
    if status == FAILURE:
        wiped = next(row for row, mask in enumerate(domains) if not mask)
    return _squares(gone, skip=placed), wiped


def from_networkx(G: nx.DiGraph) -> dict:
    """The fields of the compact tree of a networkx decision tree (see
    :meth:`CompactTree.from_networkx`)."""
    count = G.number_of_nodes()
    if set(G.nodes) != set(range(count)):
        raise InvalidInputError(
            "a decision tree's nodes are numbered 0, 1, 2, ... in the order of the search; "
            "this graph's are not"
        )
    n = G.graph.get("n")
    if not isinstance(n, int) or n < 1:
        raise InvalidInputError(f"a decision tree says its board size in G.graph['n']; got {n!r}")
    parent = np.full(count, -1, dtype=np.int32 if count < 2**31 else np.int64)
    for source, target in G.edges:
        parent[target] = source
    if count and (parent[1:] >= np.arange(1, count)).any():
        raise InvalidInputError("a decision tree's parents come before their children; not here")
    data = [G.nodes[node] for node in range(count)]
    status = np.array([_status(d) for d in data], dtype=np.uint8)
    fixed = {int(r): int(c) for r, c in dict(G.graph.get("fixed") or {}).items()}
    blocked = tuple(tuple(int(x) for x in square) for square in G.graph.get("blocked") or ())
    tree = dict(
        parent=parent,
        depth=np.array([d["depth"] for d in data], dtype=np.uint16),
        row=np.array([d["row"] for d in data], dtype=np.int16),
        column=np.array([d["column"] for d in data], dtype=np.int16),
        status=status,
        n=n,
        fixed=fixed,
        blocked=blocked,
        propagation=G.graph.get("propagation", "none"),
        order=G.graph.get("order", "row"),
        include_rejected=bool(G.graph.get("include_rejected", False)),
        max_depth=G.graph.get("max_depth"),
    )
    if tree["propagation"] != "none":
        tree["domains"] = _domains(tree, data, offered_rows(n, fixed, blocked))
    return tree


def _status(data: dict) -> int:
    if data.get("solution"):
        return SOLUTION
    if data.get("rejected"):
        return REJECTED
    if data.get("dead_end"):
        return FAILURE
    return CUT if data.get("truncated") else BRANCH


def _domains(tree: dict, data: list[dict], offered: list[int]) -> np.ndarray:
    """Each node's domains: its parent's, the placed row down to its queen, less ``pruned``."""
    n, parents, rows_of, columns_of = tree["n"], tree["parent"], tree["row"], tree["column"]
    domains = np.zeros((len(data), n), dtype=domain_dtype(n))
    rows: list[list[int]] = [[]] * len(data)
    for node, attributes in enumerate(data):
        if node == 0:
            masks = list(offered)
        else:
            masks = list(rows[int(parents[node])])
            if attributes.get("rejected"):
                rows[node] = masks
                domains[node] = masks
                continue
            masks[int(rows_of[node])] = 1 << int(columns_of[node])
        for row, column in attributes.get("pruned", ()):
            masks[row] &= ~(1 << column)
        rows[node] = masks
        domains[node] = masks
    return domains
