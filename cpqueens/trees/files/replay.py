"""Checking that a graph is a whole tree of :func:`cpqueens.decision_tree`, by replaying its search.

A tree is checked whole on its way to a file and on its way back
(:mod:`cpqueens.trees.files.readwrite`): the graph attributes must name a search
:func:`cpqueens.decision_tree` can make (:func:`search_arguments`), and the nodes
must be the tree that search grows, node for node (:func:`check_tree`): one root,
each other node below the parent the search gives it, with the same row, column,
depth, placement and flags, and no node missing or left over.

What is wrong is a :class:`TreeProblem`, a message without the file or graph it is
about: the caller says which, and turns it into an
:class:`~cpqueens.errors.InvalidInputError`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import chain
from typing import TYPE_CHECKING, Any

from ...arguments import as_int, check_blocked, check_fixed, check_fixed_squares, check_int, is_bool
from ...engines.propagation import check_search
from ...errors import InvalidInputError, InvalidTypeError
from ..explicit.nodes import blocked_rows
from ..explicit.size import tree_search

if TYPE_CHECKING:
    import networkx as nx

#: The largest board whose tree is checked, by propagation: replaying the search
#: needs memory that grows with n squared (and faster with propagation), so a file
#: claiming a larger board is refused rather than allowed to exhaust the memory.
LARGEST_N = {"none": 10_000, "forward": 1_000, "arc": 1_000}

#: Where a node is, for a message: ``"node 7"``, or with its line in a DOT file.
Where = Callable[[Any], str]


class TreeProblem(Exception):
    """What is wrong with a tree or its file; the caller adds which file or graph."""


def node_where(node: Any) -> str:
    """A node, for a message, where nothing more is known of its place.

    >>> node_where(7)
    'node 7'
    """
    return f"node {node!r}"


def shown(value: Any) -> str:
    """``value`` for a message, cut to a readable length.

    >>> shown("0,4,7"), len(shown(list(range(30))))
    ("'0,4,7'", 60)
    """
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def search_arguments(graph: Mapping) -> dict[str, Any]:
    """The arguments of :func:`cpqueens.decision_tree` the graph attributes record.

    >>> search_arguments({"n": 4, "max_depth": 2})["depth_limit"]
    2
    >>> search_arguments({"n": 4, "propagation": "arc", "include_rejected": 1})
    Traceback (most recent call last):
    ...
    cpqueens.trees.files.replay.TreeProblem: the graph attribute include_rejected is 1, not True \
or False
    """
    if "n" not in graph:
        raise TreeProblem("the graph records no board size (G.graph['n'])")
    try:
        n = check_int(graph["n"], "the board size n", 1)
    except (InvalidInputError, InvalidTypeError):
        raise TreeProblem(
            f"the board size n is {shown(graph['n'])}, not a positive integer"
        ) from None
    try:
        propagation, order = check_search(
            graph.get("propagation", "none"), graph.get("order", "row")
        )
        if n > LARGEST_N[propagation]:
            raise TreeProblem(
                f"the board size n is {n:,}; trees are checked up to "
                f"n={LARGEST_N[propagation]:,} with propagation={propagation!r}"
            )
        per_row = check_fixed(graph.get("fixed") or {}, n)
        blocked = check_blocked(graph.get("blocked") or (), n)
        queens = ((row, column) for row, column in enumerate(per_row) if column is not None)
        check_fixed_squares(queens, blocked)
    except (InvalidInputError, InvalidTypeError) as error:
        raise TreeProblem(f"the graph attributes: {error}") from None
    include_rejected = graph.get("include_rejected", False)
    if not is_bool(include_rejected):
        raise TreeProblem(
            f"the graph attribute include_rejected is {shown(include_rejected)}, not True or False"
        )
    max_depth = graph.get("max_depth")
    if max_depth is not None and (as_int(max_depth) is None or max_depth < 0):
        raise TreeProblem(
            f"the graph attribute max_depth is {shown(max_depth)}; it must be None "
            "or an integer >= 0"
        )
    return {
        "n": n,
        "fixed": per_row,
        "blocked": blocked_rows(blocked, n) if blocked else None,
        "propagation": propagation,
        "order": order,
        "include_rejected": bool(include_rejected),
        "depth_limit": n if max_depth is None else int(max_depth),
    }


def _same(actual: Any, expected: Any) -> bool:
    """Equal, and of the same types all the way down (``True`` is not ``1``, a list not a tuple).

    >>> _same((0, 4), (0, 4)), _same([0, 4], (0, 4)), _same(True, 1)
    (True, False, False)
    """
    if type(actual) is not type(expected) or actual != expected:
        return False
    if type(expected) is not tuple or not expected:
        return True
    # Equal tuples: a placement of ints, or pruned (row, column) pairs of ints.
    if type(expected[0]) is tuple:
        if set(map(type, actual)) != {tuple}:
            return False
        actual = tuple(chain.from_iterable(actual))
    return set(map(type, actual)) <= {int}


def _compare(G: nx.DiGraph, where: Where, node: int, parent: int | None, expected: dict) -> None:
    """The search made node ``node`` below ``parent`` with the attributes ``expected``:
    ``G`` must hold the same."""
    if node not in G:
        if parent is None:
            raise TreeProblem(f"the root, node {node!r}, is missing")
        kind = "a rejected square" if expected["rejected"] else "a queen"
        raise TreeProblem(
            f"node {node!r} ({kind} on row {expected['row']}, column "
            f"{expected['column']}, below node {parent!r}) is missing: the tree is "
            f"incomplete ({G.number_of_nodes():,} nodes are there)"
        )
    found = list(G.pred[node])
    if found != ([] if parent is None else [parent]):
        if parent is None:
            others = ", ".join(map(repr, found))
            raise TreeProblem(f"{where(node)} is the root, but hangs below node {others}")
        if not found:
            raise TreeProblem(f"{where(node)} has no parent; it belongs below node {parent!r}")
        if len(found) > 1:
            others = ", ".join(map(repr, found))
            raise TreeProblem(f"{where(node)} has {len(found)} parents ({others}), not one")
        raise TreeProblem(
            f"{where(node)} hangs below node {found[0]!r}; it belongs below node {parent!r}"
        )
    data = G.nodes[node]
    for key, value in expected.items():
        if key not in data:
            raise TreeProblem(f"{where(node)} has no attribute {key!r}")
        if not _same(data[key], value):
            raise TreeProblem(
                f"{where(node)} has {key}={shown(data[key])} where the tree has {shown(value)}"
            )


def check_tree(G: nx.DiGraph, where: Where = node_where) -> None:
    """Raise :class:`TreeProblem` unless ``G`` is a whole tree of :func:`cpqueens.decision_tree`.

    The graph attributes ``n``, ``fixed``, ``blocked``, ``include_rejected``,
    ``max_depth``, ``propagation`` and ``order`` name a search (a graph without
    ``blocked`` blocks nothing); that search is replayed, and every node it makes
    must be in ``G``, under the same id (the ids number the nodes in search order),
    below the same parent, with the same attributes in the same types; ``G`` may
    hold no other node or edge. This covers every property of
    a tree: one root, depths one more than the parent's, rows and columns on the
    board, each placement its parent's plus one queen on the row the search
    chooses, the flags (a solution leaf is a full board of queens that do not
    attack each other), and no subtree cut off or added. ``where(node)`` names a
    node in the messages. (A blocked square the search would never have tried,
    such as one every branch reaching its row attacks, changes no node: the
    graph attributes alone say whether it was blocked.)

    The replay runs the very code that builds a tree (the search's ``nodes``, see
    :class:`~cpqueens.trees.explicit.nodes.GrowingSearch`), at about the cost of building it,
    and compares each node as it comes, without holding a second tree in memory.

    >>> import cpqueens
    >>> G = cpqueens.decision_tree(4)
    >>> check_tree(G)
    >>> G.remove_node(16)
    >>> check_tree(G)
    Traceback (most recent call last):
    ...
    cpqueens.trees.files.replay.TreeProblem: node 16 (a queen on row 1, column 1, below node \
13) is missing: the tree is incomplete (16 nodes are there)
    """
    arguments = search_arguments(G.graph)
    if G.number_of_nodes() == 0:
        raise TreeProblem("there are no nodes")
    n = arguments["n"]
    search = tree_search(
        n, arguments["fixed"], arguments["propagation"], arguments["order"], arguments["blocked"]
    )

    def too_large(count: int) -> TreeProblem:
        return TreeProblem(
            f"the tree goes on past the {G.number_of_nodes():,} nodes there: it is incomplete"
        )

    batches = search.nodes(
        include_rejected=arguments["include_rejected"],
        depth_limit=arguments["depth_limit"],
        max_nodes=G.number_of_nodes() + 1,
        too_large=too_large,
    )
    made = 0
    for batch in batches:
        parents = {child: parent for parent, child in batch.edges}
        for node, attributes in zip(batch.ids, batch.attributes, strict=True):
            _compare(G, where, node, parents.get(node), attributes)
        made += len(batch.attributes)
    if made < G.number_of_nodes():
        # The search numbered its nodes 0, 1, 2, ...: any other id is one too many.
        extra = next(node for node in G if not (type(node) is int and 0 <= node < made))
        raise TreeProblem(
            f"{where(extra)} is not part of the tree, whose {made:,} nodes are 0 to {made - 1:,}"
        )
