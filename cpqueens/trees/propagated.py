"""The search tree under forward checking or arc consistency, and its size estimate.

:func:`cpqueens.decision_tree` comes here when ``propagation`` is ``"forward"`` or
``"arc"``. The propagation itself is the one of the ``propagate`` backend
(:mod:`cpqueens.engines.propagation`), so the tree's size is that backend's
``stats``; the plain tree (``propagation="none"``) never comes here and shares no
code with any backend.

Each node places the chosen row's queen on one square of its domain, in increasing
column order. Besides the attributes of the plain tree, a node records
``pruned``, the (row, column) squares its propagation removed from the other rows'
domains, and ``wiped_out``, the row left with no square when the node is a dead
end (-1 otherwise). With ``include_rejected`` the squares of the chosen row that
were pruned away earlier appear as ``rejected`` leaves, in column order among the
real children, as the failed attempts of the plain tree do.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..engines.propagation import Propagator, columns_of, propagator
from ..errors import TreeTooLargeError
from .build import _attributes, _node_writer
from .size import EXACT_FRONTIER, PATHS_PER_NODE, TreeSize

if TYPE_CHECKING:
    import networkx as nx

Placement = tuple[int, ...]


def _placed(placement: Placement, row: int, column: int) -> Placement:
    """The placement with a queen added: columns from row 0 down, -1 where no queen is yet."""
    if row < len(placement):
        return (*placement[:row], column, *placement[row + 1 :])
    return (*placement, *(-1,) * (row - len(placement)), column)


def _pruned(gone: int, squares: dict[int, tuple[int, int]]) -> tuple:
    """The (row, column) squares of the packed set ``gone``; ``squares`` maps each bit to
    one shared tuple, so a large tree does not store the same pair a million times."""
    return tuple(squares[bit] for bit in columns_of(gone))


def _candidates(fixed: Sequence[int | None], row: int, n: int) -> int:
    """The squares a row starts with: every column, or the fixed one."""
    return (1 << n) - 1 if fixed[row] is None else 1 << fixed[row]


def _begin(
    n: int, fixed: tuple[int | None, ...], propagation: str, order: str
) -> tuple[Propagator, bool, int, int]:
    """The propagation, whether rows come first-fail, the root's domains and its wiped-out row."""
    engine = propagator(n, propagation)
    domains, wiped = engine.root(fixed)
    return engine, order == "first-fail", domains, wiped


def grow(
    G: nx.DiGraph,
    n: int,
    fixed: tuple[int | None, ...],
    propagation: str,
    order: str,
    include_rejected: bool,
    depth_limit: int,
    max_nodes: int,
    too_large: Callable[[int], TreeTooLargeError],
) -> None:
    """Fill ``G`` with the propagating search tree, by an iterative depth-first walk.

    ``too_large(count)`` makes the error raised when the tree outgrows ``max_nodes``.
    """
    engine, first_fail, domains, wiped = _begin(n, fixed, propagation, order)
    start = [_candidates(fixed, row, n) for row in range(n)]
    new_node = _node_writer(G)

    def node(node_id: int, attributes: dict, parent: int | None) -> None:
        new_node(node_id, parent, attributes)

    def attributes(row, column, depth, placement, wiped, pruned, rejected=False) -> dict:
        # The plain tree's attributes, where a node is a dead end when nothing is "free"
        # below it: here, when a domain was wiped out.
        plain = _attributes(row, column, depth, placement, n, int(wiped < 0), depth_limit, rejected)
        return {**plain, "pruned": pruned, "wiped_out": wiped}

    squares = {row * engine.width + col: (row, col) for row in range(n) for col in range(n)}
    root_pruned = _pruned(engine.pack(start) & ~domains, squares)
    node(0, attributes(-1, -1, 0, (), wiped, root_pruned), None)
    count = 1
    # A frame: node id, depth, domains, unplaced rows, placement, chosen row, columns to try.
    stack = []

    def push(node_id: int, depth: int, domains: int, unplaced: list, placement: Placement):
        row = engine.next_row(domains, unplaced, first_fail)
        wanted = start[row] if include_rejected else engine.domain(domains, row)
        rest = [r for r in unplaced if r != row]
        stack.append((node_id, depth, domains, rest, placement, row, columns_of(wanted)))

    if wiped < 0 and depth_limit > 0:
        push(0, 0, domains, list(range(n)), ())
    while stack:
        parent, depth, domains, rest, placement, row, todo = stack[-1]
        column = next(todo, None)
        if column is None:
            stack.pop()
            continue
        count += 1
        if count > max_nodes:
            raise too_large(count)
        child = _placed(placement, row, column)
        if not engine.domain(domains, row) >> column & 1:
            node(count - 1, attributes(row, column, depth + 1, child, -1, (), True), parent)
            continue
        new, wiped = engine.place(domains, rest, row, column)
        # What left the other rows: the placed row's own other squares are not pruned.
        others = domains & ~(engine.full << (row * engine.width))
        pruned = _pruned(others & ~new, squares)
        node(count - 1, attributes(row, column, depth + 1, child, wiped, pruned), parent)
        if wiped < 0 and rest and depth + 1 < depth_limit:
            push(count - 1, depth + 1, new, rest, child)


def estimate(
    n: int,
    fixed: tuple[int | None, ...],
    propagation: str,
    order: str,
    *,
    include_rejected: bool,
    depth_limit: int,
    seed: int = 0,
) -> TreeSize:
    """Estimate the propagating tree's size: exact top levels, then Knuth's random paths.

    ``attempts`` counts the squares each expanded node's chosen row started with
    (its nodes and its rejected leaves), as for the plain tree.
    """
    engine, first_fail, domains, wiped = _begin(n, fixed, propagation, order)
    starts = [1 if column is not None else n for column in fixed]
    nodes = attempts = depth = 0
    # A level is a list of (domains, unplaced rows) of the nodes to expand.
    level = [] if wiped >= 0 else [(domains, list(range(n)))]
    while level and depth < depth_limit and len(level) <= EXACT_FRONTIER:
        below = []
        for domains, unplaced in level:
            row = engine.next_row(domains, unplaced, first_fail)
            rest = [r for r in unplaced if r != row]
            attempts += starts[row]
            for column in columns_of(engine.domain(domains, row)):
                nodes += 1
                new, wiped = engine.place(domains, rest, row, column)
                if wiped < 0 and rest:
                    below.append((new, rest))
        level = below
        depth += 1
    if not level or depth >= depth_limit:
        return TreeSize(nodes, attempts, exact=True, include_rejected=include_rejected)

    rng = random.Random(seed)
    sampled_nodes = sampled_attempts = 0.0
    for start in level:
        for _ in range(PATHS_PER_NODE):
            domains, unplaced = start
            weight = 1.0
            for _ in range(depth, depth_limit):
                row = engine.next_row(domains, unplaced, first_fail)
                rest = [r for r in unplaced if r != row]
                sampled_attempts += weight * starts[row]
                choices = list(columns_of(engine.domain(domains, row)))
                weight *= len(choices)
                sampled_nodes += weight
                # Go down through one child chosen uniformly at random.
                domains, wiped = engine.place(domains, rest, row, rng.choice(choices))
                if wiped >= 0 or not rest:
                    break
                unplaced = rest
    return TreeSize(
        nodes + round(sampled_nodes / PATHS_PER_NODE),
        attempts + round(sampled_attempts / PATHS_PER_NODE),
        exact=False,
        include_rejected=include_rejected,
    )
