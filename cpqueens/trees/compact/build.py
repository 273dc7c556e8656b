"""``compact_tree``: the decision tree as flat arrays, priced in bytes, built by a compiled search.

The front of :mod:`cpqueens.trees.compact.tree`. It checks the arguments as
:func:`cpqueens.decision_tree` does, prices the tree in bytes before anything is
built (the cheap bounds of :mod:`cpqueens.trees.explicit.bounds`, then the estimate of
:mod:`cpqueens.trees.explicit.size` when the limit lies between them), counts the nodes
exactly with the compiled search (stopping as soon as they pass the limit), and
writes them into arrays of exactly that length (:mod:`cpqueens.trees.compact.kernels`).

Boards past 64 rows (one machine word a row) are built as networkx trees and
converted, under the guards of :func:`cpqueens.decision_tree`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from ...arguments import Square, check_int
from ...engines.propagation import check_search, propagator
from ...errors import TreeTooLargeError
from ...instances import Instance, as_instance
from ..explicit.bounds import size_bounds
from ..explicit.cost import TREE_BYTES, format_bytes
from ..explicit.nodes import blocked_rows
from ..explicit.size import check_tree_n, estimate, tree_search
from .graph import offered_rows
from .tree import CompactTree, domain_dtype

#: Rows the compiled searches take: one uint64 word a row.
WORD_ROWS = 64

#: Bytes a node of a plain compact tree takes: parent (4), depth, row, column (2 each), status.
NODE_BYTES = 11


def node_bytes(n: int, propagation: str) -> int:
    """What one node of a compact tree costs: its arrays, and with propagation its domains.

    >>> node_bytes(14, "none"), node_bytes(12, "arc")
    (11, 35)
    """
    if propagation == "none":
        return NODE_BYTES
    return NODE_BYTES + n * np.dtype(domain_dtype(min(n, WORD_ROWS))).itemsize


def compact_tree(
    n: int | Instance,
    fixed: Mapping[int, int] | None = None,
    *,
    blocked: Iterable[Square] | None = None,
    propagation: str = "none",
    order: str = "row",
    include_rejected: bool = False,
    max_depth: int | None = None,
    max_bytes: int = int(TREE_BYTES),
) -> CompactTree:
    """Build the decision tree of :func:`cpqueens.decision_tree` as a :class:`CompactTree`.

    The same tree, node for node and in the same order, in flat arrays of about 11
    bytes a node (and ``n`` domain masks more with propagation) instead of a
    networkx graph's kilobyte: the plain tree of n=13 (4,674,890 nodes) in about
    50 MB, of n=14 (27,358,553) in about 300 MB.

    Parameters
    ----------
    n, fixed, blocked, propagation, order, include_rejected, max_depth
        As for :func:`cpqueens.decision_tree`.
    max_bytes : int
        The memory the tree's arrays may take (2 GB unless raised). A tree whose
        size bounds or estimate already cost more is refused before anything is
        built, with the estimate; one that outgrows it during the count is refused
        as soon as it does, before its arrays are made.

    Returns
    -------
    CompactTree

    Raises
    ------
    TreeTooLargeError
        When the tree's arrays would take more than ``max_bytes``.
    InvalidInputError
        For the arguments :func:`cpqueens.decision_tree` refuses.

    Examples
    --------
    >>> import cpqueens
    >>> cpqueens.compact_tree(8).number_of_nodes() - 1
    2056
    >>> tree = cpqueens.compact_tree(8, propagation="arc", order="first-fail")
    >>> tree.number_of_nodes() - 1, tree.domains.shape, tree.domains.dtype.name
    (738, (739, 8), 'uint8')
    >>> cpqueens.compact_tree(20)
    Traceback (most recent call last):
    ...
    cpqueens.errors.TreeTooLargeError: the compact decision tree for n=20 would have ...
    """
    instance = as_instance(n, fixed, blocked, largest=check_tree_n)
    n = instance.n
    if max_depth is not None:
        max_depth = check_int(max_depth, "max_depth", 0)
    max_bytes = check_int(max_bytes, "max_bytes", 1)
    include_rejected = bool(include_rejected)
    propagation, order = check_search(propagation, order)
    if n > WORD_ROWS:
        limit = max(1, max_bytes // node_bytes(n, propagation))
        return _through_networkx(instance, propagation, order, include_rejected, max_depth, limit)

    per_row = instance.fixed_per_row()
    masks = blocked_rows(instance.blocked_set, n)
    depth_limit = n if max_depth is None else max_depth
    per_node = node_bytes(n, propagation)
    cap = max(1, max_bytes // per_node)

    def too_large(nodes: int, about: str) -> TreeTooLargeError:
        return _too_large(n, nodes, about, per_node, max_bytes)

    bounds = size_bounds(
        n,
        per_row,
        include_rejected=include_rejected,
        depth_limit=depth_limit,
        propagation=propagation,
        cap=cap,
        blocked=masks,
    )
    if bounds.lower > cap:
        raise too_large(bounds.lower, "at least ")
    if bounds.upper > cap:
        search = tree_search(n, per_row, propagation, order, masks)
        size = estimate(search, depth_limit, include_rejected=include_rejected)
        # The estimate may be a few percent off: only a tree clearly over is refused here;
        # the count below settles the rest exactly.
        if size.graph_nodes > 1.1 * cap:
            raise too_large(size.graph_nodes, "" if size.exact else "about ")

    fixed_map = {row: col for row, col in enumerate(per_row) if col is not None}
    tree = CompactTree(
        parent=np.zeros(0, np.int32),
        depth=np.zeros(0, np.uint16),
        row=np.zeros(0, np.int16),
        column=np.zeros(0, np.int16),
        status=np.zeros(0, np.uint8),
        n=n,
        fixed=fixed_map,
        blocked=tuple(sorted(instance.blocked_set)),
        propagation=propagation,
        order=order,
        include_rejected=include_rejected,
        max_depth=max_depth,
    )
    run = _kernel(tree, per_row, masks, depth_limit)
    count = run(cap, False, None)
    if count > cap:
        raise too_large(cap + 1, "more than ")
    run(cap, True, count)
    return tree


def _kernel(tree: CompactTree, per_row, masks: list[int], depth_limit: int):
    """The compiled search of the tree, as ``run(cap, write, count)``: it counts the nodes
    (``write`` False) or makes the tree's arrays of ``count`` nodes and fills them."""
    from . import kernels

    n = tree.n
    offered = np.array(offered_rows(n, tree.fixed, tree.blocked), dtype=np.uint64)
    full = np.uint64((1 << n) - 1)
    include_rejected = tree.include_rejected

    def arrays(count: int | None):
        size = 1 if count is None else count
        tree.parent = np.zeros(size, dtype=np.int32 if size < 2**31 else np.int64)
        tree.depth = np.zeros(size, dtype=np.uint16)
        tree.row = np.zeros(size, dtype=np.int16)
        tree.column = np.zeros(size, dtype=np.int16)
        tree.status = np.zeros(size, dtype=np.uint8)
        return tree.parent, tree.depth, tree.row, tree.column, tree.status

    if tree.propagation == "none":

        def run(cap: int, write: bool, count: int | None) -> int:
            out = arrays(count)
            return kernels.plain_tree(offered, full, depth_limit, include_rejected, cap, write, out)

        return run

    engine = propagator(n, tree.propagation)
    packed, wiped = engine.root(per_row, masks)
    root = np.array([engine.domain(packed, row) for row in range(n)], dtype=np.uint64)
    arc, first_fail = tree.propagation == "arc", tree.order == "first-fail"

    def run(cap: int, write: bool, count: int | None) -> int:
        out = arrays(count)
        size = 1 if count is None else count
        tree.domains = np.zeros((size, n), dtype=domain_dtype(n))
        found = kernels.propagated_tree(
            offered, root, wiped, full, arc, first_fail, depth_limit, include_rejected,
            cap, write, out, tree.domains,
        )  # fmt: skip
        return found

    return run


def _through_networkx(instance: Instance, propagation, order, include_rejected, max_depth, limit):
    """A board past 64 rows: the networkx tree under its own guards and ``limit`` nodes."""
    from ..explicit.build import DEFAULT_MAX_NODES, decision_tree

    G = decision_tree(
        instance,
        propagation=propagation,
        order=order,
        include_rejected=include_rejected,
        max_depth=max_depth,
        max_nodes=min(limit, DEFAULT_MAX_NODES),
    )
    return CompactTree.from_networkx(G)


def _too_large(n: int, nodes: int, about: str, per_node: int, max_bytes: int) -> TreeTooLargeError:
    memory = nodes * per_node
    return TreeTooLargeError(
        f"the compact decision tree for n={n} would have {about}{nodes:,} nodes, "
        f"{about}{format_bytes(memory)} of memory, more than max_bytes={max_bytes:,} "
        f"({format_bytes(max_bytes)}); build a partial tree with max_depth=... (stop at a "
        "depth) or fixed={row: column} (queens placed in advance), or raise max_bytes if "
        "the memory is there",
        estimate=nodes,
        max_nodes=max_bytes // per_node,
        at_least=bool(about),
        memory=memory,
    )
