"""Two trees of one search checked to be the same, and where they part when they are not.

Two builders of one search (:func:`cpqueens.compact_tree`'s compiled search and
:func:`cpqueens.decision_tree`, or a tree and the same tree read back from a file)
must give the same tree. :func:`tree_disagreement` says whether they do, and when
they do not, points at the first node in the search's order where they part (the
first difference of :func:`~cpqueens.trees.compare.compare_trees`), so that a bug
shows at its node, not as two unequal node counts.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..board import rows_named
from .compact.tree import as_compact
from .compare import compare_trees


def tree_disagreement(a: Any, b: Any, names: tuple[str, str] = ("a", "b")) -> str | None:
    """None when ``a`` and ``b`` are the same tree; else one line saying where they part.

    The searches' settings come first, then the nodes (the first node in preorder
    where the trees part: its ids in both, its path, what each has there), then the
    domains of a propagated tree.

    >>> import cpqueens
    >>> tree_disagreement(cpqueens.compact_tree(6), cpqueens.decision_tree(6)) is None
    True
    >>> print(tree_disagreement(cpqueens.compact_tree(6), cpqueens.compact_tree(6, max_depth=3),
    ...                         names=("whole", "cut")))
    the trees of whole and cut part at node 3 of whole (node 3 of cut), path q[0] = 0, \
q[1] = 2, q[2] = 4: in whole, branch: 1 child (q[3] = 1), 2 nodes below; in cut, cut; \
their settings differ: max_depth None against 3
    """
    a, b = as_compact(a), as_compact(b)
    first, second = names
    settings = [
        f"{key} {a.settings()[key]!r} against {b.settings()[key]!r}"
        for key in a.settings()
        if a.settings()[key] != b.settings()[key]
    ]
    if settings and (a.n != b.n or a.fixed != b.fixed or sorted(a.blocked) != sorted(b.blocked)):
        return f"the trees of {first} and {second} are of different boards: {'; '.join(settings)}"
    found = []
    difference = compare_trees(a, b).first_difference()
    if difference is not None:
        found.append(
            f"the trees of {first} and {second} part at node {difference.node_a} of {first} "
            f"(node {difference.node_b} of {second}), path {difference.where}: "
            f"in {first}, {difference.a}; in {second}, {difference.b}"
        )
    if settings:
        found.append(f"their settings differ: {', '.join(settings)}")
    if not found:
        found.extend(_domains_differ(a, b, first, second))
    return "; ".join(found) or None


def _domains_differ(a, b, first: str, second: str) -> list[str]:
    """The first node whose domains differ, in trees of the same nodes."""
    if a.domains is None or b.domains is None:
        if (a.domains is None) == (b.domains is None):
            return []
        missing = first if a.domains is None else second
        return [f"the tree of {missing} has no domains"]
    wrong = np.flatnonzero((a.domains != b.domains).any(axis=1))
    if not wrong.size:
        return []
    node = int(wrong[0])
    row = int(np.flatnonzero(a.domains[node] != b.domains[node])[0])
    columns = [
        [c for c in range(int(a.n)) if int(tree.domains[node, row]) >> c & 1] for tree in (a, b)
    ]
    return [
        f"the trees of {first} and {second} differ in their domains first at node {node} "
        f"({a.label(node) or 'the root'}): {rows_named(row)} keeps columns {columns[0]} in "
        f"{first}, {columns[1]} in {second}"
    ]
