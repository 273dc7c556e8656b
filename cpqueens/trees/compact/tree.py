"""A decision tree kept as flat arrays: millions of nodes in a few bytes each.

A networkx tree holds a dict per node, about a kilobyte; the plain tree of n=13
(4,674,890 nodes) would take 5 GB. A :class:`CompactTree` holds one entry per node
in each of a few numpy arrays, 11 bytes a node for a plain tree:

===========  ===========  ==================================================
``parent``   int32        the parent's id (-1 at the root); int64 past 2**31
``depth``    uint16       queens on the board at the node (0 at the root)
``row``      int16        the row of the queen the node places (-1 at the root)
``column``   int16        its column (-1 at the root)
``status``   uint8        what the node is, in CP-Profiler's codes (below)
``domains``  uint8..64    trees with propagation only: one mask a row,
                          bit ``c`` set when column ``c`` is still in the row's
                          domain after the node's propagation; shape (nodes, n)
===========  ===========  ==================================================

Nodes are numbered in the order of the search (a preorder walk), as in the
networkx tree: a parent comes before its children, which come in the order they
were tried, and a node's subtree is the contiguous range ``i .. i + size - 1``.

The status codes are those of CP-Profiler's execution database, so that a tree
goes there and back unchanged: :data:`SOLUTION` (0, "solved"), :data:`FAILURE`
(1, "failed": a dead end), :data:`BRANCH` (2), :data:`REJECTED` (3, "skipped": a
failed attempt, with ``include_rejected``), :data:`CUT` (4, "undetermined": its
children cut off by ``max_depth``) and :data:`MERGED` (5, only in trees read from
CP-Profiler).

:func:`cpqueens.compact_tree` builds one directly by a compiled search
(:mod:`cpqueens.trees.compact.build`); :meth:`CompactTree.to_networkx` and
:meth:`CompactTree.from_networkx` convert from and to the tree of
:func:`cpqueens.decision_tree`, every attribute kept. A tree read from another
solver's CP-Profiler database is *generic*: ``n`` is None, rows and columns are
-1, and ``labels`` holds its own text (someone else's: escaped wherever shown).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ...display.cells import html_table
from ...display.numbers import plural
from ...errors import InvalidInputError
from ..explicit.cost import format_bytes
from ..status import (  # noqa: F401  (the codes belong with the tree)
    BRANCH,
    CUT,
    FAILURE,
    MERGED,
    REJECTED,
    SOLUTION,
    STATUS_NAMES,
    domain_dtype,
)

if TYPE_CHECKING:
    import networkx as nx


@dataclass(eq=False)
class CompactTree:
    """A search tree as flat arrays, one entry a node in preorder (see the module's table).

    >>> import cpqueens
    >>> tree = cpqueens.compact_tree(6)
    >>> tree.number_of_nodes(), int((tree.status == SOLUTION).sum())
    (153, 4)
    >>> tree.placement(int(np.flatnonzero(tree.status == SOLUTION)[0]))
    (1, 3, 5, 0, 2, 4)
    >>> tree.children(0).tolist()
    [1, 23, 52, 77, 102, 131]
    >>> cpqueens.compact_tree(8, propagation="forward")  # nodes counted below the root
    CompactTree(n=8, propagation='forward', 1,724 nodes below the root, 92 solutions, \
560 dead ends, depth 8, 33 kB)
    """

    parent: np.ndarray
    depth: np.ndarray
    row: np.ndarray
    column: np.ndarray
    status: np.ndarray
    domains: np.ndarray | None = None
    n: int | None = None
    fixed: dict[int, int] = field(default_factory=dict)
    blocked: tuple[tuple[int, int], ...] = ()
    propagation: str = "none"
    order: str = "row"
    include_rejected: bool = False
    max_depth: int | None = None
    labels: list[str] | None = None
    note: str | None = None

    def number_of_nodes(self) -> int:
        """Every node, the root included (as networkx counts them)."""
        return len(self.parent)

    def __len__(self) -> int:
        return len(self.parent)

    def __repr__(self) -> str:
        # The summary a person reads in a REPL: the arrays stay attributes (a repr of
        # them would print thousands of numbers). Nodes are counted below the root, as
        # everywhere in cpqueens; number_of_nodes() and len() count the root too.
        figures = self._figures()
        words = [*self._search_words(), f"{figures['nodes']:,} nodes below the root"]
        words.append(plural(figures["solutions"], "solution"))
        words.append(plural(figures["failures"], "dead end"))
        if self.include_rejected:
            words.append(f"{figures['rejected']:,} rejected")
        if figures["cut"]:
            words.append(f"{figures['cut']:,} cut")
        words.append(f"depth {figures['depth']}")
        words.append(format_bytes(self.nbytes))
        return f"CompactTree({', '.join(words)})"

    def _repr_html_(self) -> str:
        """The summary as an HTML table, for a notebook (every text escaped)."""
        figures = self._figures()
        rows = [["CompactTree", ", ".join(self._search_words())]]
        rows += [
            ["nodes below the root", f"{figures['nodes']:,}"],
            ["solutions", f"{figures['solutions']:,}"],
            ["dead ends", f"{figures['failures']:,}"],
        ]
        if self.include_rejected:
            rows.append(["rejected attempts", f"{figures['rejected']:,}"])
        if figures["cut"]:
            rows.append(["cut off by max_depth", f"{figures['cut']:,}"])
        rows.append(["depth", str(figures["depth"])])
        rows.append(["arrays", f"{format_bytes(self.nbytes)} ({self.nbytes:,} bytes)"])
        if self.note:  # read from a file, perhaps another solver's: escaped as a cell
            rows.append(["note", self.note])
        return html_table(rows)

    def _search_words(self) -> list[str]:
        """The board and the search, as the repr says them."""
        if self.n is None:
            return ["generic"]
        words = [f"n={self.n}", f"propagation={self.propagation!r}"]
        if self.order != "row":
            words.append(f"order={self.order!r}")
        if self.fixed:
            words.append(plural(len(self.fixed), "fixed queen"))
        if self.blocked:
            words.append(plural(len(self.blocked), "blocked square"))
        if self.max_depth is not None:
            words.append(f"max_depth={self.max_depth}")
        if self.include_rejected:
            words.append("include_rejected=True")
        return words

    def _figures(self) -> dict[str, int]:
        """The counts of the summary: nodes below the root and each status, the depth."""
        counts = np.bincount(self.status, minlength=len(STATUS_NAMES))
        return {
            "nodes": max(len(self) - 1, 0),
            "solutions": int(counts[SOLUTION]),
            "failures": int(counts[FAILURE]),
            "rejected": int(counts[REJECTED]),
            "cut": int(counts[CUT]),
            "depth": int(self.depth.max(initial=0)),
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CompactTree):
            return NotImplemented
        arrays = ("parent", "depth", "row", "column", "status")
        if any(not np.array_equal(getattr(self, a), getattr(other, a)) for a in arrays):
            return False
        if (self.domains is None) != (other.domains is None):
            return False
        if self.domains is not None and not np.array_equal(self.domains, other.domains):
            return False
        return self.settings() == other.settings() and self.labels == other.labels

    def settings(self) -> dict[str, Any]:
        """How the tree was asked for: the graph attributes of its networkx tree."""
        return {
            "n": self.n,
            "fixed": dict(self.fixed),
            "blocked": tuple(self.blocked),
            "include_rejected": self.include_rejected,
            "max_depth": self.max_depth,
            "propagation": self.propagation,
            "order": self.order,
        }

    @property
    def nbytes(self) -> int:
        """The bytes its arrays hold."""
        arrays = (self.parent, self.depth, self.row, self.column, self.status, self.domains)
        return sum(a.nbytes for a in arrays if a is not None)

    def subtree_sizes(self) -> np.ndarray:
        """The nodes of each node's subtree, the node itself included.

        One pass from the last node back, each node's size added to its parent's.

        >>> import cpqueens
        >>> cpqueens.compact_tree(4).subtree_sizes()[:3].tolist()
        [17, 4, 1]
        """
        return self._sum_up(np.ones(len(self), dtype=np.int64))

    def solutions_below(self) -> np.ndarray:
        """The solution nodes in each node's subtree."""
        return self._sum_up((self.status == SOLUTION).astype(np.int64))

    def leaves_below(self) -> np.ndarray:
        """The leaves (nodes without children) in each node's subtree."""
        has_children = np.zeros(len(self), dtype=bool)
        has_children[self.parent[1:]] = True
        return self._sum_up((~has_children).astype(np.int64))

    def _sum_up(self, values: np.ndarray) -> np.ndarray:
        # Children come after their parents: one pass from the last node back, compiled.
        from .kernels import sum_up

        return sum_up(self.parent, values)

    def children(self, node: int) -> np.ndarray:
        """The children of ``node``, in the order they were tried."""
        # Every child comes after its parent: one look along the rest of the array.
        return np.flatnonzero(self.parent[node + 1 :] == node) + (node + 1)

    def path(self, node: int) -> list[int]:
        """The nodes from the root down to ``node``."""
        path = [int(node)]
        while path[-1] > 0:
            path.append(int(self.parent[path[-1]]))
        return path[::-1]

    def placement(self, node: int) -> tuple[int, ...]:
        """The queens on the board at ``node``: a column a row (length n), -1 where none is.

        For a generic tree (no board) an empty tuple.
        """
        if self.n is None:
            return ()
        board = [-1] * self.n
        for step in self.path(node)[1:]:
            if self.status[step] != REJECTED or step == node:
                board[int(self.row[step])] = int(self.column[step])
        return tuple(board)

    def label(self, node: int) -> str:
        """The decision at ``node`` as text: ``"q3=5"`` (row 3, column 5), or its own label."""
        if self.labels is not None:
            return self.labels[node]
        return "" if node == 0 else f"q{int(self.row[node])}={int(self.column[node])}"

    def to_networkx(self) -> nx.DiGraph:
        """The same tree as :func:`cpqueens.decision_tree` builds it: same ids, every attribute.

        >>> import cpqueens
        >>> G = cpqueens.decision_tree(6, propagation="arc", order="first-fail")
        >>> H = cpqueens.compact_tree(6, propagation="arc", order="first-fail").to_networkx()
        >>> H.graph == G.graph and dict(H.nodes(data=True)) == dict(G.nodes(data=True))
        True
        """
        from .graph import to_networkx

        return to_networkx(self)

    @classmethod
    def from_networkx(cls, G: nx.DiGraph) -> CompactTree:
        """The compact form of a networkx decision tree (built or read back).

        >>> import cpqueens
        >>> G = cpqueens.decision_tree(5, include_rejected=True)
        >>> CompactTree.from_networkx(G) == cpqueens.compact_tree(5, include_rejected=True)
        True
        """
        from .graph import from_networkx

        return cls(**from_networkx(G))


def as_compact(tree: Any) -> CompactTree:
    """A :class:`CompactTree` as it is, a networkx decision tree converted; else a clear error."""
    if isinstance(tree, CompactTree):
        return tree
    if hasattr(tree, "nodes") and hasattr(tree, "graph"):
        return CompactTree.from_networkx(tree)
    raise InvalidInputError(
        f"expected a decision tree (a CompactTree or a networkx DiGraph), got {type(tree).__name__}"
    )
