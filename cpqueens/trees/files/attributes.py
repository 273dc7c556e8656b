"""A tree's attributes as the numbers, booleans and strings files hold, and back, strictly.

GraphML, GEXF and DOT store only numbers, booleans and strings, so two values
are written as text and turned back on reading:

* ``placement`` as the columns joined by commas, ``"0,4,7"`` (``""`` for the root);
* the graph's ``fixed`` queens as ``"row:column"`` pairs, ``"0:2,7:4"``, its
  ``blocked`` squares the same way, and a missing ``max_depth`` as -1;
* in a tree built with propagation, each node's ``pruned`` squares as
  ``"row:column"`` pairs too, ``"1:0,1:1,2:2"``.

Node-link JSON keeps lists and null, and reads back through the same functions.
Reading refuses anything :func:`cpqueens.export_tree` does not write, with a
:class:`~cpqueens.trees.files.replay.TreeProblem`: :func:`rebuild` makes a fresh graph
with exactly a tree's attributes, in their usual types. A file written before
trees had ``propagation`` and ``order`` reads back as the plain tree (``"none"``,
``"row"``), and one written before they had ``blocked`` as a tree with no square
blocked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...arguments import as_int, is_bool
from ...disk.reading import MEGABYTE, decode, read_bytes
from ..explicit.nodes import NODE_ATTRIBUTES, PROPAGATION_ATTRIBUTES
from .replay import TreeProblem, Where, node_where, search_arguments, shown

if TYPE_CHECKING:
    import networkx as nx

#: The largest tree file read: the largest tree built (two million nodes) written in
#: the most verbose format (GraphML, under 500 bytes a node) is below it.
MAX_TREE_FILE = 1024 * MEGABYTE

_FLAGS = ("solution", "dead_end", "rejected", "truncated")

# Writing: values as text.


def join_columns(columns: Iterable[int]) -> str:
    """``(0, 4, 7)`` as ``"0,4,7"``.

    >>> join_columns((0, 4, 7)), join_columns(())
    ('0,4,7', '')
    """
    return ",".join(map(str, columns))


def join_pairs(pairs: Iterable[tuple[int, int]]) -> str:
    """``((0, 2), (7, 4))`` as ``"0:2,7:4"``.

    >>> join_pairs([(0, 2), (7, 4)])
    '0:2,7:4'
    """
    return ",".join(f"{row}:{col}" for row, col in pairs)


def fixed_pairs(graph: Mapping) -> list[tuple[int, int]]:
    """The fixed queens of a tree's graph attributes, as sorted (row, column) pairs."""
    return sorted((int(row), int(col)) for row, col in (graph.get("fixed") or {}).items())


def blocked_pairs(graph: Mapping) -> list[tuple[int, int]]:
    """The blocked squares of a tree's graph attributes, as sorted (row, column) pairs.

    A square given twice is blocked once (as :func:`cpqueens.decision_tree` takes
    it), so that the file never names it twice.
    """
    return sorted({(int(row), int(col)) for row, col in graph.get("blocked") or ()})


def flat_graph(graph: Mapping) -> dict[str, Any]:
    """Graph attributes as numbers, booleans and strings.

    >>> flat_graph({"n": 8, "fixed": {7: 4, 0: 2}, "max_depth": None})["fixed"]
    '0:2,7:4'
    """
    max_depth = graph.get("max_depth")
    return {
        "n": int(graph["n"]),
        "fixed": join_pairs(fixed_pairs(graph)),
        "blocked": join_pairs(blocked_pairs(graph)),
        "include_rejected": bool(graph.get("include_rejected", False)),
        "max_depth": -1 if max_depth is None else int(max_depth),
        "propagation": str(graph.get("propagation", "none")),
        "order": str(graph.get("order", "row")),
    }


def _attribute_names(graph: Mapping) -> tuple[str, ...]:
    """The node attributes of a tree: the plain ones, and with propagation two more."""
    propagated = graph.get("propagation", "none") != "none"
    return NODE_ATTRIBUTES + (PROPAGATION_ATTRIBUTES if propagated else ())


def flat_nodes(G: nx.DiGraph) -> Iterable[tuple[int, dict[str, Any]]]:
    """Each node of a tree and its attributes as numbers, booleans and strings.

    >>> import cpqueens
    >>> dict(flat_nodes(cpqueens.decision_tree(4)))[2]["placement"]
    '0,2'
    """
    names = _attribute_names(G.graph)
    for node, data in G.nodes(data=True):
        flat = {key: data[key] for key in names}
        flat["placement"] = join_columns(data["placement"])
        if "pruned" in flat:
            flat["pruned"] = join_pairs(data["pruned"])
        yield node, flat


# Reading: text back to values, refusing anything export_tree does not write.

_INTEGER_TEXT = re.compile(r"\s*-?\d+\s*")
_FLAG_TEXT = {"true": True, "1": True, "false": False, "0": False}


def integer(value: Any, what: str) -> int:
    """``value`` (an int, or its decimal text) as an int.

    >>> integer("-1", "max_depth"), integer(7, "row")
    (-1, 7)
    >>> integer(2.5, "row")
    Traceback (most recent call last):
    ...
    cpqueens.trees.files.replay.TreeProblem: row is 2.5, not an integer
    """
    if isinstance(value, str):
        if _INTEGER_TEXT.fullmatch(value):
            return int(value)
    elif (number := as_int(value)) is not None:
        return number
    raise TreeProblem(f"{what} is {shown(value)}, not an integer")


def flag(value: Any, what: str) -> bool:
    """``value`` (a bool, or ``"true"``/``"false"``/``"1"``/``"0"``) as a bool.

    >>> flag("true", "solution"), flag(False, "solution")
    (True, False)
    """
    if is_bool(value):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _FLAG_TEXT:
        return _FLAG_TEXT[value.strip().lower()]
    raise TreeProblem(f"{what} is {shown(value)}, not true or false")


def split_columns(text: Any, what: str) -> tuple[int, ...]:
    """``"0,4,7"``, or node-link JSON's list of columns, as a tuple of ints.

    >>> split_columns("0,4,7", "placement"), split_columns([0, 4], "placement")
    ((0, 4, 7), (0, 4))
    """
    if isinstance(text, str):
        items: Iterable = text.split(",") if text else ()
    elif isinstance(text, list):
        items = text
    else:
        raise TreeProblem(f"{what} is {shown(text)}, not a list of columns")
    return tuple(integer(item, what) for item in items)


def split_pairs(text: Any, what: str) -> tuple[tuple[int, int], ...]:
    """``"0:2,7:4"``, or node-link JSON's list of [row, column] pairs, as a tuple of pairs.

    >>> split_pairs("0:2,7:4", "fixed"), split_pairs([[1, 0]], "pruned")
    (((0, 2), (7, 4)), ((1, 0),))
    """
    if isinstance(text, str):
        pairs: list = [pair.split(":") for pair in text.split(",")] if text else []
    elif isinstance(text, list):
        pairs = text
    else:
        raise TreeProblem(f"{what} is {shown(text)}, not a list of row:column pairs")
    for pair in pairs:
        if not isinstance(pair, list) or len(pair) != 2:
            raise TreeProblem(f"{what} holds {shown(pair)}, not a row:column pair")
    return tuple((integer(row, what), integer(col, what)) for row, col in pairs)


def _graph_from_flat(flat: Mapping[str, Any]) -> dict[str, Any]:
    """The graph attributes read from a file, in their Python types."""
    if "n" not in flat:
        raise TreeProblem("the graph attributes hold no board size n")
    pairs = split_pairs(flat.get("fixed") or "", "the graph attribute fixed")
    fixed = dict(pairs)
    if len(fixed) != len(pairs):
        raise TreeProblem(f"the graph attribute fixed names a row twice: {shown(flat['fixed'])}")
    # A file from before blocked squares has none: it reads back as blocking nothing.
    blocked = split_pairs(flat.get("blocked") or "", "the graph attribute blocked")
    if len(set(blocked)) != len(blocked):
        raise TreeProblem(
            f"the graph attribute blocked names a square twice: {shown(flat['blocked'])}"
        )
    max_depth = flat.get("max_depth")
    if max_depth is not None:
        max_depth = integer(max_depth, "the graph attribute max_depth")
        if max_depth == -1:  # how GraphML, GEXF and DOT write "no max_depth"
            max_depth = None
    return {
        "n": integer(flat["n"], "the board size n"),
        "fixed": fixed,
        "blocked": tuple(sorted(blocked)),
        "include_rejected": flag(
            flat.get("include_rejected", False), "the graph attribute include_rejected"
        ),
        "max_depth": max_depth,
        "propagation": flat.get("propagation", "none"),
        "order": flat.get("order", "row"),
    }


def _node_value(key: str, value: Any) -> Any:
    """One node attribute read back, in its usual type."""
    if key in _FLAGS:
        return flag(value, key)
    if key == "placement":
        return split_columns(value, key)
    if key == "pruned":
        return split_pairs(value, key)
    return integer(value, key)  # row, column, depth, wiped_out


def rebuild(
    nodes: Iterable[tuple[Any, Mapping]],
    edges: Iterable[tuple[Any, Any]],
    graph: Mapping,
    where: Where = node_where,
) -> nx.DiGraph:
    """Make a fresh DiGraph with exactly the tree's attributes, in their usual types.

    Every value is converted strictly: a node without an attribute, a value of the
    wrong kind, a node given twice or an edge to a node that is not there is a
    :class:`~cpqueens.trees.files.replay.TreeProblem`.

    >>> H = rebuild([("0", {"row": "-1", "column": "-1", "depth": "0", "placement": "",
    ...     "solution": "false", "dead_end": "false", "rejected": "false",
    ...     "truncated": "true"})], [], {"n": "4", "max_depth": "0"})
    >>> H.nodes[0]["truncated"], H.graph["max_depth"]
    (True, 0)
    """
    import networkx as nx

    H = nx.DiGraph(**_graph_from_flat(graph))
    search_arguments(H.graph)  # the graph attributes first: they say which attributes follow
    names = _attribute_names(H.graph)
    for node, data in nodes:
        node = integer(node, "a node id")
        if node in H:
            raise TreeProblem(f"{where(node)} is given twice")
        attributes = {}
        for key in names:
            if key not in data:
                raise TreeProblem(f"{where(node)} has no attribute {key!r}")
            try:
                attributes[key] = _node_value(key, data[key])
            except TreeProblem as problem:
                raise TreeProblem(f"{where(node)}: {problem}") from None
        H.add_node(node, **attributes)
    for u, v in edges:
        u, v = integer(u, "an edge's end"), integer(v, "an edge's end")
        for end in (u, v):
            if end not in H:
                raise TreeProblem(f"the edge {u} -> {v} names node {end}, which is not there")
        if H.has_edge(u, v):
            raise TreeProblem(f"the edge {u} -> {v} is given twice")
        H.add_edge(u, v)
    return H


def read_text(path: Path) -> str:
    """The tree file as UTF-8 text, read by the one bounded reader."""
    return decode(read_tree_bytes(path), str(path))


def read_tree_bytes(path: Path) -> bytes:
    """The tree file's bytes: a regular file of at most :data:`MAX_TREE_FILE` bytes."""
    return read_bytes(path, what="a tree file", limit=MAX_TREE_FILE)
