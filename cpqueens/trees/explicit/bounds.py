"""Bounds on the size of a decision tree, from below and above, with no search at all.

:func:`size_bounds` bounds the number of graph nodes from below and from above with
a few multiplications per level, without building anything:

* below: a queen attacks at most three squares of any other row, so after ``d``
  queens a row keeps at least ``n - 3d`` of its squares. Each node of depth ``d``
  thus has at least ``n - 3d`` children in the plain tree; with propagation the
  same holds while every row keeps enough squares that no domain can be wiped
  out and arc consistency has nothing to remove (at least one square for
  forward checking, four for arc consistency), in any row order. Fixed queens
  attack from the start and their rows offer one square each, so the bound
  counts them as coming first (the fewest nodes).
* above: the ``d`` queens placed hold ``d`` columns, so a node of depth ``d`` has
  at most ``n - d`` children, whatever the propagation.

Blocked squares only take children away. Below, a row with ``b`` blocked squares
starts from ``n - b`` squares instead of ``n``: the plain tree, whose row ``d`` is
known, counts each row's own; a tree with propagation, which may take the rows in
any order, counts every free row as having as many as the most blocked one. Above,
a row offers at most its unblocked squares. The estimate asks the search itself,
which knows the blocked squares.

The bounds judge a tree of any size at once: :func:`cpqueens.decision_tree`
refuses a tree whose lower bound exceeds its limit, builds one whose upper bound is
within it, and asks for an estimate (:mod:`cpqueens.trees.explicit.size`) only in between.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: The fewest squares every unplaced row must keep for the lower bound of a
#: propagated tree to hold: no domain empty, and under arc consistency none down to
#: three squares (only such rows can take all support away from a square).
_SAFE_DOMAIN = {"forward": 1, "arc": 4}


@dataclass(frozen=True)
class SizeBounds:
    """Bounds on the graph nodes of a tree (root and rejected leaves included).

    Each bound is computed level by level and stops once it passes ``cap``: a
    ``lower`` above the cap is only known to be above it, and so is an ``upper``.
    ``nodes`` and ``attempts`` are the lower bounds behind ``lower``.
    """

    lower: int
    upper: int
    nodes: int
    attempts: int


def size_bounds(
    n: int,
    fixed: Sequence[int | None],
    *,
    include_rejected: bool,
    depth_limit: int,
    propagation: str = "none",
    cap: int | None = None,
    blocked: Sequence[int] | None = None,
) -> SizeBounds:
    """Bound the graph nodes of a decision tree from below and above, without building it.

    A few multiplications per level (see the module's description), none of them on
    anything of size ``n``, so a tree of any size is judged at once. The bounds hold
    for every propagation and either order, so the order is not asked for; ``fixed``
    is the per-row tuple of :func:`cpqueens.arguments.check_fixed` (it is only
    indexed and counted), ``blocked`` the per-row bit masks of the blocked columns
    (None: none blocked).

    Examples
    --------
    >>> size_bounds(8, (None,) * 8, include_rejected=False, depth_limit=8)
    SizeBounds(lower=129, upper=109601, nodes=128, attempts=1032)
    >>> b = size_bounds(100, (None,) * 100, include_rejected=False, depth_limit=100, cap=2_000_000)
    >>> b.lower > 2_000_000
    True
    >>> size_bounds(100, (None,) * 100, include_rejected=False, depth_limit=3).upper
    980201
    >>> size_bounds(8, (None,) * 8, include_rejected=False, depth_limit=8, blocked=[3] + [0] * 7)
    SizeBounds(lower=97, upper=82201, nodes=96, attempts=774)
    """
    limit = min(n, depth_limit)
    cap = float("inf") if cap is None else cap
    fixed_rows = len(fixed) - fixed.count(None)
    # The squares each row offers: its fixed one, or its unblocked ones.
    widths = [
        1 if column is not None else n - (blocked[row].bit_count() if blocked else 0)
        for row, column in enumerate(fixed)
    ]
    nodes = attempts = 0
    if propagation == "none":
        nodes, attempts = _plain_lower(fixed, widths, limit, include_rejected, cap)
    elif not _fixed_queens_conflict(fixed, fixed_rows):
        # Any free row may come at any depth: count each as the most blocked one.
        narrowest = min((w for w, c in zip(widths, fixed, strict=True) if c is None), default=n)
        nodes, attempts = _propagated_lower(
            narrowest, fixed_rows, limit, _SAFE_DOMAIN[propagation], include_rejected, cap
        )
    lower = 1 + (attempts if include_rejected else nodes)
    upper = _upper(n, widths, limit, propagation, include_rejected, cap)
    return SizeBounds(lower, upper, nodes, attempts)


def _plain_lower(
    fixed: Sequence[int | None],
    widths: Sequence[int],
    limit: int,
    include_rejected: bool,
    cap: float,
) -> tuple[int, int]:
    """Nodes and attempts, from below, of the plain tree (rows in order).

    ``widths[d]`` is the number of squares row ``d`` offers: ``n`` less its blocked ones.
    """
    nodes = attempts = 0
    level = 1  # nodes at depth d, from below; the plain tree expands every one
    for depth in range(limit):
        if fixed[depth] is None:
            attempts += level * widths[depth]
            # The queens of rows 0..d-1 attack at most 3d of the squares row d offers.
            level *= max(0, widths[depth] - 3 * depth)
        else:
            # The fixed square may be attacked from above: only the first row is sure.
            attempts += level
            level *= depth == 0
        nodes += level
        if not level or 1 + (attempts if include_rejected else nodes) > cap:
            break
    return nodes, attempts


def _propagated_lower(
    n: int, fixed_rows: int, limit: int, safe: int, include_rejected: bool, cap: float
) -> tuple[int, int]:
    """Nodes and attempts, from below, of a tree with propagation, in any row order.

    ``n`` is the fewest squares a free row offers: the board size less the most
    squares any free row has blocked. After ``j`` free queens every free row keeps
    at least ``n - 3(k + j)`` squares (``k`` fixed queens, whose attacks leave at
    the root); while that is at least ``safe``, no node is a dead end and arc
    consistency removes nothing, so every node is expanded: a fixed row offers its
    one square, a free one at least ``n - 3(k + j)``. The fewest nodes come when
    the fixed rows come first.
    """
    nodes = attempts = 0
    level = 1
    depth = 0
    while depth < limit and n - 3 * (fixed_rows + depth) >= safe:
        # Expanded: a free chosen row offers all n squares, a fixed one its own.
        attempts += level * (n if not fixed_rows else 1)
        level *= 1 if depth < fixed_rows else n - 3 * depth
        nodes += level
        depth += 1
        if 1 + (max(attempts, nodes) if include_rejected else nodes) > cap:
            break
    # Every node is a square its parent's row offered: attempts are at least the nodes.
    return nodes, max(attempts, nodes)


def _fixed_queens_conflict(fixed: Sequence[int | None], fixed_rows: int) -> bool:
    """Whether two fixed queens attack each other (propagation then wipes the root out)."""
    if not fixed_rows:
        return False
    seen: set[tuple[str, int]] = set()
    for row, column in enumerate(fixed):
        if column is None:
            continue
        lines = {("column", column), ("down", row - column), ("up", row + column)}
        if lines & seen:
            return True
        seen |= lines
    return False


def _upper(
    n: int,
    widths: Sequence[int],
    limit: int,
    propagation: str,
    include_rejected: bool,
    cap: float,
) -> int:
    """Graph nodes from above: a node of depth d has at most n - d children (its row
    offers its unblocked squares, or one when fixed, and the d queens above hold d
    columns)."""
    nodes = attempts = 0
    level = 1
    # The plain tree's row d is known; a propagated tree may choose any row.
    widest = max(widths, default=0)
    for depth in range(limit):
        offered = widths[depth] if propagation == "none" else widest
        attempts += level * offered
        level *= min(offered, n - depth)
        nodes += level
        graph = 1 + (attempts if include_rejected else nodes)
        if graph > cap:
            return graph
    return 1 + (attempts if include_rejected else nodes)
