"""Two search trees of one board side by side: where they agree, where one pruned.

:func:`compare_trees` lays two trees of the same board (two propagations, a
``max_depth`` or not, rejected attempts shown or not) over each other, as
CP-Profiler's merge does. A node is known by its path of decisions from the root,
the (row, column) of each queen placed on the way; when both searches branch on
the same row wherever both go (row order for both, or any order that happens to
agree), nodes with the same path are the same node, and the
:class:`TreeComparison` tells the nodes both explored, those only one did, the
subtrees one pruned, the solutions each found, the merged tree with each node's
side (for pictures) and the first node where the two part. When the searches branch
on different rows (row order against first-fail), paths cannot be matched: the
comparison says so (``aligned`` False) and compares the nodes, dead ends and
solutions at each depth instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from ..display.cells import html_table
from ..display.numbers import plural, thousands
from ..display.terminal import printable
from ..errors import InvalidInputError
from .compact.tree import (
    BRANCH,
    FAILURE,
    SOLUTION,
    CompactTree,
    as_compact,
)
from .preorder import levels_of, preorder_positions
from .status import STATUS_WORDS

_PROPAGATION = {"none": "no propagation", "forward": "forward checking", "arc": "arc consistency"}
# Sides of a merged node.
BOTH, ONLY_A, ONLY_B = 0, 1, 2
# A node's key at one depth: its merged parent, row and column packed in one int64.
_BITS = 14  # rows and columns below 2**14 (boards up to 10,000)


class Difference(NamedTuple):
    """Where two trees part: the node in the merged tree, in a and in b, its path of
    (row, column) decisions from the root, and what each tree has there."""

    node: int
    node_a: int
    node_b: int
    path: tuple[tuple[int, int], ...]
    a: str
    b: str

    @property
    def where(self) -> str:
        """The path as decisions: ``"q[0] = 0, q[1] = 2"`` (``"the root"``)."""
        return ", ".join(f"q[{r}] = {c}" for r, c in self.path) or "the root"

    def __str__(self) -> str:
        return f"the trees part at {self.where}: in a, {self.a}; in b, {self.b}"


class Pruned(NamedTuple):
    """The subtrees one tree explored and the other pruned, one entry each (merged ids).

    ``node`` is the merged node where the pruning shows, ``side`` the tree that
    explored below it (1: a, 2: b), ``nodes`` how many nodes of that tree the other
    left out there, and ``at_leaf`` whether the other tree has the node itself as a
    leaf (a dead end, or a node cut off) rather than never trying its value.
    """

    node: np.ndarray
    side: np.ndarray
    nodes: np.ndarray
    at_leaf: np.ndarray


@dataclass(frozen=True, eq=False)
class TreeComparison:
    """Two trees of one board compared (see :func:`compare_trees`).

    Node counts leave out the root, as everywhere in cpqueens. ``merged``, ``side``,
    ``both``, ``only_a``, ``only_b`` and ``pruned`` are None when the trees cannot be
    aligned (``aligned`` False); ``profile`` (nodes, dead ends, solutions of a and b
    at each depth, a (6, depth) array) and the solution figures are always there.
    """

    a: CompactTree
    b: CompactTree
    aligned: bool
    merged: CompactTree | None
    side: np.ndarray | None
    both: int | None
    only_a: int | None
    only_b: int | None
    pruned: Pruned | None
    solutions: tuple[int, int, int]  # found by both, by a only, by b only
    profile: np.ndarray
    difference: Difference | None

    def first_difference(self) -> Difference | None:
        """The first node in preorder where the trees part (None when they are the
        same tree): its path and what each tree has there."""
        return self.difference

    def table(self) -> str:
        """The figures as a plain-text table, with a line on what was compared."""
        return "\n".join(
            item if isinstance(item, str) else _grid_text(item) for item in self._summary()
        )

    def __repr__(self) -> str:
        # The summary a person reads in a REPL (the figures of .table(), in a few lines);
        # the arrays (merged, side, pruned, profile) stay attributes.
        a, b = len(self.a) - 1, len(self.b) - 1
        found = self.profile.sum(axis=1)[4:]
        lines = [f"TreeComparison(n={self.a.n}, a: {_search(self.a)}; b: {_search(self.b)})"]
        if self.aligned:
            lines.append(
                f"nodes below the root: a {a:,}, b {b:,}; in both {self.both:,}, "
                f"only in a {self.only_a:,}, only in b {self.only_b:,}"
            )
        else:
            lines.append(
                f"nodes below the root: a {a:,}, b {b:,} (not matched: the trees branch "
                "on different rows)"
            )
        both, only_a, only_b = self.solutions
        lines.append(
            f"solutions: a {found[0]:,}, b {found[1]:,}; found by both {both:,}, "
            f"only by a {only_a:,}, only by b {only_b:,}"
        )
        lines.append(str(self.difference) if self.difference else "the trees are the same")
        return "\n".join(printable(line) for line in lines)

    def legend(self) -> list[str]:
        """The lines under :meth:`table` that say what its rows and columns mean.

        >>> import cpqueens
        >>> a, b = cpqueens.compact_tree(6, propagation="forward"), cpqueens.compact_tree(6)
        >>> for line in compare_trees(a, b).legend():
        ...     print(line)
        nodes = queens placed, the root not counted; both, only a, only b = found by both \
searches, or by one alone; dead end = a node without children that is no solution: the \
search backs up there; branch = a node with children
        subtrees pruned by b = subtrees of a that b never searched: below a leaf of b (b \
stopped at that node), or values never tried (b removed the square before trying it); \
a's nodes = the nodes of a in them; by a, b's nodes = the other way round
        q[r] = c = the queen of row r stands in column c, both counted from 0
        """
        lines = [
            "nodes = queens placed, the root not counted; both, only a, only b = found by "
            "both searches, or by one alone; dead end = a node without children that is no "
            "solution: the search backs up there; branch = a node with children"
        ]
        if self.aligned and self.pruned is not None:
            lines.append(
                "subtrees pruned by b = subtrees of a that b never searched: below a leaf of "
                "b (b stopped at that node), or values never tried (b removed the square "
                "before trying it); a's nodes = the nodes of a in them; by a, b's nodes = "
                "the other way round"
            )
        else:
            lines.append("depth = queens on the board; each column counts a's or b's nodes there")
        lines.append("q[r] = c = the queen of row r stands in column c, both counted from 0")
        return lines

    def _repr_html_(self) -> str:
        """The summary of :meth:`table` as HTML tables, for a notebook (every text escaped)."""
        import html

        parts = []
        for item in self._summary():
            if isinstance(item, str):
                parts.append(f"<p>{html.escape(item)}</p>")
            else:
                parts.append(html_table([[_cell(c) for c in row] for row in item]))
        return "<div>" + "".join(parts) + "</div>"

    def _summary(self) -> list[str | list[list[Any]]]:
        """The lines and grids of the summary, in order: what .table() and the HTML show."""
        a, b = self.a, self.b
        items: list[str | list[list[Any]]] = [f"a: {_search(a)}; b: {_search(b)}; n={a.n}"]
        nodes = [len(a) - 1, len(b) - 1]
        kinds = (("nodes", 0), ("dead ends", 2), ("solutions", 4))
        grid: list[list[Any]] = [["", "a", "b", "both", "only a", "only b"]]
        if self.aligned:
            grid.append(["nodes", *nodes, self.both, self.only_a, self.only_b])
        else:
            items.append(
                "note: the trees branch on different rows, so their nodes cannot be "
                "matched by decisions; the figures are compared depth by depth"
            )
            grid.append(["nodes", *nodes, "-", "-", "-"])
        totals = self.profile.sum(axis=1)
        grid.append(["dead ends", totals[2], totals[3], "-", "-", "-"])
        grid.append(["solutions", totals[4], totals[5], *self.solutions])
        items.append(grid)
        if self.aligned and self.pruned is not None:
            items.append(_pruned_grid(self.pruned))
        else:
            depth_grid: list[list[Any]] = [["depth", *(f"{k} {t}" for k, _ in kinds for t in "ab")]]
            for depth in range(1, self.profile.shape[1]):
                depth_grid.append([depth, *self.profile[:, depth]])
            items.append(depth_grid)
        items.append(str(self.difference) if self.difference else "the trees are the same")
        return items


def _search(tree: CompactTree) -> str:
    parts = [_PROPAGATION[tree.propagation], f"{tree.order} order"]
    if tree.include_rejected:
        parts.append("rejected attempts shown")
    if tree.max_depth is not None:
        parts.append(f"max_depth {tree.max_depth}")
    return ", ".join(parts)


def _cell(value: Any) -> str:
    """A cell as text: a number with thousands separators."""
    return thousands(value) if isinstance(value, int | np.integer) else str(value)


def _grid_text(grid: list[list[Any]]) -> str:
    """Aligned columns, the first to the left, numbers with thousands separators."""
    cells = [[printable(_cell(c)) for c in row] for row in grid]
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]
    return "\n".join(
        "  ".join(
            c.ljust(widths[i]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(row)
        ).rstrip()
        for row in cells
    )


def _pruned_grid(pruned: Pruned) -> list[list[Any]]:
    """The subtrees each tree pruned, below a leaf of its own or a value never tried."""
    grid = [["subtrees pruned", "by b", "a's nodes", "by a", "b's nodes"]]
    for name, leaf in (("below a leaf", True), ("values never tried", False)):
        row: list[Any] = [name]
        for side in (ONLY_A, ONLY_B):
            chosen = (pruned.side == side) & (pruned.at_leaf == leaf)
            row += [int(chosen.sum()), int(pruned.nodes[chosen].sum())]
        grid.append(row)
    return grid


def compare_trees(a: Any, b: Any) -> TreeComparison:
    """Compare two search trees of the same board, node by node where they can be aligned.

    Parameters
    ----------
    a, b : CompactTree or networkx.DiGraph
        Trees of :func:`cpqueens.compact_tree` or :func:`cpqueens.decision_tree` (or
        read back) of one board: the same n, fixed queens and blocked squares.

    Returns
    -------
    TreeComparison

    Raises
    ------
    InvalidInputError
        When the trees are not of the same board, or one is a generic tree read from
        another solver's database.

    Examples
    --------
    >>> import cpqueens
    >>> c = compare_trees(cpqueens.compact_tree(8, propagation="forward"),
    ...                   cpqueens.compact_tree(8, propagation="arc"))
    >>> c.aligned, c.both, c.only_a, c.only_b, c.solutions
    (True, 768, 956, 0, (92, 0, 0))
    >>> c  # doctest: +ELLIPSIS
    TreeComparison(n=8, a: forward checking, row order; b: arc consistency, row order)
    nodes below the root: a 1,724, b 768; in both 768, only in a 956, only in b 0
    solutions: a 92, b 92; found by both 92, only by a 0, only by b 0
    the trees part at q[0] = 0, q[1] = 2, q[2] = 4: in a, branch: ...
    >>> print(c.first_difference())
    the trees part at q[0] = 0, q[1] = 2, q[2] = 4: in a, branch: 3 children (q[3] = 1, \
q[3] = 6, q[3] = 7), 10 nodes below; in b, dead end
    """
    a, b = as_compact(a), as_compact(b)
    _check_same_board(a, b)
    merged_of, parent, row, column, depth = _merge(a, b)
    count = len(parent)
    in_a, in_b = np.zeros(count, bool), np.zeros(count, bool)
    in_a[merged_of[0]], in_b[merged_of[1]] = True, True
    status = np.full((2, count), 255, dtype=np.uint8)
    status[0, merged_of[0]], status[1, merged_of[1]] = a.status, b.status
    kids = [np.bincount(parent[merged_of[k][1:]], minlength=count) for k in (0, 1)]
    branch_rows = [_branch_rows(tree, merged_of[k], count) for k, tree in enumerate((a, b))]
    both = in_a & in_b
    disagree = both & (branch_rows[0] != branch_rows[1]) & (kids[0] > 0) & (kids[1] > 0)
    aligned = not disagree.any()
    # Where the trees part: a node both have, with other statuses or other children.
    only_kids = np.bincount(parent[1:], weights=(~both[1:]), minlength=count)
    parts = both & ((status[0] != status[1]) | (only_kids > 0))
    difference = None
    if parts.any():
        node = int(np.flatnonzero(parts)[0])
        path = _path(parent, row, column, node)
        ids = [int(np.flatnonzero(merged_of[k] == node)[0]) for k in (0, 1)]
        described = (_describe(a, ids[0]), _describe(b, ids[1]))
        difference = Difference(node, *ids, path, *described)
    comparison: dict[str, Any] = dict(
        merged=None, side=None, both=None, only_a=None, only_b=None, pruned=None
    )
    if aligned:
        side = np.where(both, BOTH, np.where(in_a, ONLY_A, ONLY_B)).astype(np.uint8)
        status_merged = np.where(in_a, status[0], status[1]).astype(np.uint8)
        status_merged[np.bincount(parent[1:], minlength=count) > 0] = BRANCH
        merged = CompactTree(
            parent=parent.astype(a.parent.dtype),
            depth=depth.astype(np.uint16),
            row=row.astype(np.int16),
            column=column.astype(np.int16),
            status=status_merged,
            n=a.n,
            fixed=dict(a.fixed),
            blocked=tuple(a.blocked),
            order=a.order,
            include_rejected=a.include_rejected or b.include_rejected,
            note="the merge of two trees: no domains; side says which tree explored each node",
        )
        comparison.update(
            merged=merged,
            side=side,
            both=int(both.sum()) - 1,
            only_a=int((side == ONLY_A).sum()),
            only_b=int((side == ONLY_B).sum()),
            pruned=_pruned(merged, side, kids),
        )
    return TreeComparison(
        a=a,
        b=b,
        aligned=aligned,
        solutions=_solution_figures(a, b),
        profile=_profile(a, b),
        difference=difference,
        **comparison,
    )


def _check_same_board(a: CompactTree, b: CompactTree) -> None:
    for name, tree in (("a", a), ("b", b)):
        if tree.n is None:
            raise InvalidInputError(
                f"compare_trees compares cpqueens trees of one board; {name} is a generic "
                "tree read from another solver's database (no board)"
            )
    for what, first, second in (
        ("board size n", a.n, b.n),
        ("fixed queens", dict(a.fixed), dict(b.fixed)),
        ("blocked squares", sorted(a.blocked), sorted(b.blocked)),
    ):
        if first != second:
            raise InvalidInputError(
                f"compare_trees compares two trees of the same board; their {what} differ: "
                f"a has {first}, b has {second}"
            )


def _merge(a: CompactTree, b: CompactTree):
    """Match the nodes of ``a`` and ``b`` by their paths, a depth at a time.

    Returns each tree's nodes' ids in the merged tree, then the merged tree's parent,
    row, column and depth arrays, in preorder (siblings by row, then column: the
    order in which both searches try them).
    """
    trees = (a, b)
    merged_of = [np.zeros(len(t), dtype=np.int64) for t in trees]
    levels = [levels_of(t.depth) for t in trees]
    parents, keys, depth_of = [np.array([-1])], [np.array([-1])], [np.array([0])]
    next_id = 1
    for d in range(1, max(len(levels[0]), len(levels[1]))):
        nodes = [lv[d] if d < len(lv) else np.empty(0, np.int64) for lv in levels]
        level_keys = [
            (merged_of[k][t.parent[v]] << (2 * _BITS))
            | (t.row[v].astype(np.int64) << _BITS)
            | t.column[v].astype(np.int64)
            for k, (t, v) in enumerate(zip(trees, nodes, strict=True))
        ]
        unique, inverse = np.unique(np.concatenate(level_keys), return_inverse=True)
        ids = next_id + inverse
        merged_of[0][nodes[0]], merged_of[1][nodes[1]] = ids[: len(nodes[0])], ids[len(nodes[0]) :]
        parents.append(unique >> (2 * _BITS))
        keys.append(unique & ((1 << (2 * _BITS)) - 1))
        depth_of.append(np.full(len(unique), d))
        next_id += len(unique)
    parent, key, depth = (np.concatenate(x) for x in (parents, keys, depth_of))
    position = preorder_positions(parent, key)
    order = np.argsort(position)
    new_parent = np.where(parent[order] >= 0, position[parent[order]], -1)
    row = np.where(order > 0, key[order] >> _BITS, -1)
    column = np.where(order > 0, key[order] & ((1 << _BITS) - 1), -1)
    return [position[m] for m in merged_of], new_parent, row, column, depth[order]


def _branch_rows(tree: CompactTree, merged_of: np.ndarray, count: int) -> np.ndarray:
    """The row each merged node's children decide in ``tree`` (-1 without children)."""
    rows = np.full(count, -1, dtype=np.int64)
    rows[merged_of[tree.parent[1:]]] = tree.row[1:]
    return rows


def _path(parent, row, column, node: int) -> tuple[tuple[int, int], ...]:
    steps = []
    while node > 0:
        steps.append((int(row[node]), int(column[node])))
        node = int(parent[node])
    return tuple(reversed(steps))


def _describe(tree: CompactTree, node: int) -> str:
    """What a tree has at one node: its status, and its children when it has some."""
    children = tree.children(node)
    text = STATUS_WORDS[tree.status[node]]
    if len(children):
        shown = ", ".join(f"q[{tree.row[c]}] = {tree.column[c]}" for c in children[:6])
        more = ", ..." if len(children) > 6 else ""
        below = int(tree.subtree_sizes()[node]) - 1
        text += f": {plural(len(children), 'child', 'children')} ({shown}{more}), "
        text += f"{plural(below, 'node')} below"
    return text


def _pruned(merged: CompactTree, side: np.ndarray, kids: list[np.ndarray]) -> Pruned:
    """The subtrees one tree explored and the other did not: below a leaf of the
    other, or a value the other never tried."""
    size = merged.subtree_sizes()
    parent = merged.parent
    at_leaf = (side == BOTH) & ((kids[0] == 0) != (kids[1] == 0))
    untried = np.zeros(len(side), bool)
    untried[1:] = (side[1:] != BOTH) & (side[parent[1:]] == BOTH)
    untried[1:] &= (kids[0][parent[1:]] > 0) & (kids[1][parent[1:]] > 0)
    node = np.flatnonzero(at_leaf | untried)
    explorer = np.where(at_leaf[node], np.where(kids[0][node] > 0, ONLY_A, ONLY_B), side[node])
    nodes = np.where(at_leaf[node], size[node] - 1, size[node])
    return Pruned(node, explorer.astype(np.uint8), nodes, at_leaf[node])


def _solution_figures(a: CompactTree, b: CompactTree) -> tuple[int, int, int]:
    """Solutions found by both, by a only, by b only (as boards, whatever the order)."""
    found = [{board.tobytes() for board in _boards(tree)} for tree in (a, b)]
    return len(found[0] & found[1]), len(found[0] - found[1]), len(found[1] - found[0])


def _boards(tree: CompactTree) -> np.ndarray:
    """The board (a column a row) of every solution node, climbing all at once."""
    nodes = np.flatnonzero(tree.status == SOLUTION)
    boards = np.full((len(nodes), int(tree.n)), -1, dtype=np.int16)
    at, lines = nodes.copy(), np.arange(len(nodes))
    while len(at) and (at > 0).any():
        up = at > 0
        boards[lines[up], tree.row[at[up]]] = tree.column[at[up]]
        at = np.where(up, tree.parent[at], 0)
    return boards


def _profile(a: CompactTree, b: CompactTree) -> np.ndarray:
    """Nodes, dead ends and solutions at each depth: rows a, b of each, columns depths."""
    width = int(max(a.depth.max(), b.depth.max())) + 1
    rows = []
    for select in (None, FAILURE, SOLUTION):
        for tree in (a, b):
            chosen = tree.depth if select is None else tree.depth[tree.status == select]
            rows.append(np.bincount(chosen, minlength=width))
    return np.array(rows, dtype=np.int64)
