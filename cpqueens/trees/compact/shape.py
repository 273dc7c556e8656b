"""The shape of a search tree, read off its compact form: figures per depth and in all.

What the search profile plots for a search (nodes and dead ends at each depth),
and what CP-Profiler's views let a reader see of a tree's shape: how wide each
level is, where the dead ends lie, how fast the tree branches, how deep its leaves
are, and how unevenly its nodes fall under the root's children. Every figure is a
numpy count over the tree's arrays, so a tree of 27 million nodes is summed up in
about a second.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...display.cells import html_table
from ...display.numbers import plural
from .tree import CUT, FAILURE, REJECTED, SOLUTION, as_compact


@dataclass(frozen=True)
class TreeShape:
    """The figures of one tree; per-depth tuples are indexed by depth (0: the root).

    ``nodes`` counts the nodes below the root, as everywhere in cpqueens;
    ``failures`` (CP-Profiler's word, kept as the field's name) counts the dead ends;
    ``branching`` is, at each depth, the children per node with children;
    ``largest_share`` the share of the nodes below the root that lie under the
    root's largest child subtree (1/k for k even subtrees, near 1 for a lopsided tree).
    """

    nodes: int
    solutions: int
    failures: int
    rejected: int
    cut: int
    depth: int
    nodes_per_depth: tuple[int, ...]
    failures_per_depth: tuple[int, ...]
    solutions_per_depth: tuple[int, ...]
    branching: tuple[float, ...]
    mean_leaf_depth: float
    largest_share: float

    def __repr__(self) -> str:
        # The totals a person reads; the per-depth tuples are in .table() and the fields.
        words = [
            f"{self.nodes:,} nodes below the root",
            plural(self.solutions, "solution"),
            plural(self.failures, "dead end"),
        ]
        words += [
            f"{count:,} {what}"
            for what, count in (("rejected", self.rejected), ("cut", self.cut))
            if count
        ]
        words += [
            f"depth {self.depth}",
            f"mean leaf depth {self.mean_leaf_depth:.2f}",
            f"largest share {self.largest_share:.3f}",
        ]
        return f"TreeShape({', '.join(words)})"

    def _repr_html_(self) -> str:
        """The totals, then the table of :meth:`table` as an HTML table, for a notebook."""
        import html

        head = html.escape(repr(self)[len("TreeShape(") : -1])
        return f"<div><p>TreeShape: {head}</p>{html_table(self._rows())}</div>"

    def to_record(self) -> dict[str, Any]:
        """The figures as a dict of plain numbers and lists (for JSON)."""
        record = dict(self.__dict__)
        for key, value in record.items():
            if isinstance(value, tuple):
                record[key] = list(value)
        return record

    def table(self) -> str:
        """Nodes, dead ends, solutions and branching at each depth, as aligned text.

        >>> import cpqueens
        >>> print(tree_shape(cpqueens.compact_tree(4)).table())
        depth  nodes  dead ends  solutions  branching
            0      1          0          0       4.00
            1      4          0          0       1.50
            2      6          2          0       1.00
            3      4          2          0       1.00
            4      2          0          2          -
        """
        rows = self._rows()
        widths = [max(len(row[i]) for row in rows) for i in range(5)]
        return "\n".join(
            "  ".join(cell.rjust(w) for cell, w in zip(row, widths, strict=True)) for row in rows
        )

    def _rows(self) -> list[list[str]]:
        """The per-depth figures as rows of text, the heading first."""
        rows = [["depth", "nodes", "dead ends", "solutions", "branching"]]
        for depth, nodes in enumerate(self.nodes_per_depth):
            factor = self.branching[depth]
            rows.append(
                [
                    str(depth),
                    f"{nodes:,}",
                    f"{self.failures_per_depth[depth]:,}",
                    f"{self.solutions_per_depth[depth]:,}",
                    f"{factor:.2f}" if factor else "-",
                ]
            )
        return rows


def tree_shape(tree: Any) -> TreeShape:
    """The shape figures of a compact or networkx decision tree.

    >>> import cpqueens
    >>> shape = tree_shape(cpqueens.compact_tree(8))
    >>> shape.nodes, shape.solutions, shape.failures, shape.nodes_per_depth[:4]
    (2056, 92, 644, (1, 8, 42, 140))
    >>> round(shape.largest_share, 3), round(shape.mean_leaf_depth, 2)
    (0.132, 6.3)
    >>> shape
    TreeShape(2,056 nodes below the root, 92 solutions, 644 dead ends, depth 8, \
mean leaf depth 6.30, largest share 0.132)
    """
    tree = as_compact(tree)
    depth, status, parent = tree.depth.astype(np.int64), tree.status, tree.parent
    levels = int(depth.max(initial=0)) + 1

    def per_depth(mask: np.ndarray | None = None) -> np.ndarray:
        return np.bincount(depth if mask is None else depth[mask], minlength=levels)

    nodes = per_depth()
    children = np.bincount(parent[1:], minlength=len(tree))
    expanded = children > 0
    kids_per_depth = np.bincount(depth[expanded], weights=children[expanded], minlength=levels)
    parents_per_depth = per_depth(expanded)
    branching = np.divide(
        kids_per_depth, parents_per_depth, out=np.zeros(levels), where=parents_per_depth > 0
    )
    leaves = ~expanded
    below_root = len(tree) - 1
    sizes = tree.subtree_sizes()
    top = tree.children(0)
    return TreeShape(
        nodes=below_root,
        solutions=int((status == SOLUTION).sum()),
        failures=int((status == FAILURE).sum()),
        rejected=int((status == REJECTED).sum()),
        cut=int((status == CUT).sum()),
        depth=levels - 1,
        nodes_per_depth=tuple(int(x) for x in nodes),
        failures_per_depth=tuple(int(x) for x in per_depth(status == FAILURE)),
        solutions_per_depth=tuple(int(x) for x in per_depth(status == SOLUTION)),
        branching=tuple(float(x) for x in branching),
        mean_leaf_depth=float(depth[leaves].mean()) if leaves.any() else 0.0,
        largest_share=float(sizes[top].max() / below_root) if len(top) else 0.0,
    )
