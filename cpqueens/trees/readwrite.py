"""Saving decision trees to GraphML, GEXF, node-link JSON and Graphviz DOT, and reading them back.

GraphML, GEXF and DOT store only numbers, booleans and strings, so two values
are written as text and turned back on reading:

* ``placement`` as the columns joined by commas, ``"0,4,7"`` (``""`` for the root);
* the graph's ``fixed`` queens as ``"row:column"`` pairs, ``"0:2,7:4"``, its
  ``blocked`` squares the same way, and a missing ``max_depth`` as -1;
* in a tree built with propagation, each node's ``pruned`` squares as
  ``"row:column"`` pairs too, ``"1:0,1:1,2:2"``.

GEXF keeps no graph attributes but the graph's name, so ``n``, ``fixed``,
``blocked``, ``include_rejected``, ``max_depth``, ``propagation`` and ``order``
travel in the name
(``"n=8;fixed=;blocked=;include_rejected=0;max_depth=-1;propagation=none;order=row"``).
Node-link JSON keeps lists and null as they are, under an explicit ``"edges"`` key.
A file written before trees had ``propagation`` and ``order`` reads back as the
plain tree (``"none"``, ``"row"``), and one written before they had ``blocked`` as
a tree with no square blocked. The DOT file is written here (no Graphviz needed)
with colours and labels that ``dot -Tsvg`` can render, and :func:`read_tree` reads
back the DOT files :func:`export_tree` writes.

Every format reads back to the same graph: same nodes, edges and attributes.

A tree is checked whole, on the way out and on the way in (:func:`_check_tree`):
the graph attributes must name a search :func:`cpqueens.decision_tree` can make,
and the nodes must be the tree that search grows, node for node: one root, each
other node below the parent the search gives it, with the same row, column,
depth, placement and flags, and no node missing or left over. A file cut short,
or corrupted, is refused with an :class:`~cpqueens.errors.InvalidInputError`
that names the file, the problem and where it is (a line, a node), never read as
a partial tree.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Mapping
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..arguments import check_blocked, check_fixed, check_fixed_squares
from ..board import as_int, is_bool
from ..disk.writing import atomic_path, check_target, suffix_of
from ..engines.propagation import check_search
from ..errors import InvalidInputError, InvalidTypeError
from .nodes import NODE_ATTRIBUTES, PROPAGATION_ATTRIBUTES, blocked_rows
from .size import tree_search

if TYPE_CHECKING:
    import networkx as nx

FORMATS = (".graphml", ".gexf", ".json", ".dot")
_INTEGERS = ("row", "column", "depth")
_FLAGS = ("solution", "dead_end", "rejected", "truncated")

#: The largest board whose tree is checked, by propagation: replaying the search
#: needs memory that grows with n squared (and faster with propagation), so a file
#: claiming a larger board is refused rather than allowed to exhaust the memory.
LARGEST_N = {"none": 10_000, "forward": 1_000, "arc": 1_000}

#: Where a node is, for a message: ``"node 7"``, or with its line in a DOT file.
Where = Callable[[Any], str]


class _Problem(Exception):
    """What is wrong with a tree or its file; the caller adds which file or graph."""


def _node_where(node: Any) -> str:
    return f"node {node!r}"


def _shown(value: Any) -> str:
    """``value`` for a message, cut to a readable length."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# Writing: values as text.


def _join(columns: Iterable[int]) -> str:
    return ",".join(map(str, columns))


def _join_pairs(pairs: Iterable[tuple[int, int]]) -> str:
    return ",".join(f"{row}:{col}" for row, col in pairs)


# Reading: text back to values, refusing anything export_tree does not write.

_INTEGER_TEXT = re.compile(r"\s*-?\d+\s*")
_FLAG_TEXT = {"true": True, "1": True, "false": False, "0": False}


def _integer(value: Any, what: str) -> int:
    """``value`` (an int, or its decimal text) as an int.

    >>> _integer("-1", "max_depth"), _integer(7, "row")
    (-1, 7)
    >>> _integer(2.5, "row")
    Traceback (most recent call last):
    ...
    cpqueens.trees.readwrite._Problem: row is 2.5, not an integer
    """
    if isinstance(value, str):
        if _INTEGER_TEXT.fullmatch(value):
            return int(value)
    elif (number := as_int(value)) is not None:
        return number
    raise _Problem(f"{what} is {_shown(value)}, not an integer")


def _flag(value: Any, what: str) -> bool:
    """``value`` (a bool, or ``"true"``/``"false"``/``"1"``/``"0"``) as a bool."""
    if is_bool(value):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _FLAG_TEXT:
        return _FLAG_TEXT[value.strip().lower()]
    raise _Problem(f"{what} is {_shown(value)}, not true or false")


def _split(text: Any, what: str) -> tuple[int, ...]:
    """``"0,4,7"``, or node-link JSON's list of columns, as a tuple of ints."""
    if isinstance(text, str):
        items: Iterable = text.split(",") if text else ()
    elif isinstance(text, list):
        items = text
    else:
        raise _Problem(f"{what} is {_shown(text)}, not a list of columns")
    return tuple(_integer(item, what) for item in items)


def _split_pairs(text: Any, what: str) -> tuple[tuple[int, int], ...]:
    """``"0:2,7:4"``, or node-link JSON's list of [row, column] pairs, as a tuple of pairs."""
    if isinstance(text, str):
        pairs: list = [pair.split(":") for pair in text.split(",")] if text else []
    elif isinstance(text, list):
        pairs = text
    else:
        raise _Problem(f"{what} is {_shown(text)}, not a list of row:column pairs")
    for pair in pairs:
        if not isinstance(pair, list) or len(pair) != 2:
            raise _Problem(f"{what} holds {_shown(pair)}, not a row:column pair")
    return tuple((_integer(row, what), _integer(col, what)) for row, col in pairs)


def _propagated(graph: Mapping) -> bool:
    return graph.get("propagation", "none") != "none"


def _fixed_pairs(graph: Mapping) -> list[tuple[int, int]]:
    """The fixed queens of a tree's graph attributes, as sorted (row, column) pairs."""
    return sorted((int(row), int(col)) for row, col in (graph.get("fixed") or {}).items())


def _blocked_pairs(graph: Mapping) -> list[tuple[int, int]]:
    """The blocked squares of a tree's graph attributes, as sorted (row, column) pairs.

    A square given twice is blocked once (as :func:`cpqueens.decision_tree` takes
    it), so that the file never names it twice.
    """
    return sorted({(int(row), int(col)) for row, col in graph.get("blocked") or ()})


def _flat_graph(graph: Mapping) -> dict[str, Any]:
    """Graph attributes as numbers, booleans and strings."""
    max_depth = graph.get("max_depth")
    return {
        "n": int(graph["n"]),
        "fixed": _join_pairs(_fixed_pairs(graph)),
        "blocked": _join_pairs(_blocked_pairs(graph)),
        "include_rejected": bool(graph.get("include_rejected", False)),
        "max_depth": -1 if max_depth is None else int(max_depth),
        "propagation": str(graph.get("propagation", "none")),
        "order": str(graph.get("order", "row")),
    }


def _graph_from_flat(flat: Mapping[str, Any]) -> dict[str, Any]:
    """The graph attributes read from a file, in their Python types."""
    if "n" not in flat:
        raise _Problem("the graph attributes hold no board size n")
    pairs = _split_pairs(flat.get("fixed") or "", "the graph attribute fixed")
    fixed = dict(pairs)
    if len(fixed) != len(pairs):
        raise _Problem(f"the graph attribute fixed names a row twice: {_shown(flat['fixed'])}")
    # A file from before blocked squares has none: it reads back as blocking nothing.
    blocked = _split_pairs(flat.get("blocked") or "", "the graph attribute blocked")
    if len(set(blocked)) != len(blocked):
        raise _Problem(
            f"the graph attribute blocked names a square twice: {_shown(flat['blocked'])}"
        )
    max_depth = flat.get("max_depth")
    if max_depth is not None:
        max_depth = _integer(max_depth, "the graph attribute max_depth")
        if max_depth == -1:  # how GraphML, GEXF and DOT write "no max_depth"
            max_depth = None
    return {
        "n": _integer(flat["n"], "the board size n"),
        "fixed": fixed,
        "blocked": tuple(sorted(blocked)),
        "include_rejected": _flag(
            flat.get("include_rejected", False), "the graph attribute include_rejected"
        ),
        "max_depth": max_depth,
        "propagation": flat.get("propagation", "none"),
        "order": flat.get("order", "row"),
    }


def _attribute_names(graph: Mapping) -> tuple[str, ...]:
    """The node attributes of a tree: the plain ones, and with propagation two more."""
    return NODE_ATTRIBUTES + (PROPAGATION_ATTRIBUTES if _propagated(graph) else ())


def _flat_nodes(G: nx.DiGraph) -> Iterable[tuple[int, dict[str, Any]]]:
    names = _attribute_names(G.graph)
    for node, data in G.nodes(data=True):
        flat = {key: data[key] for key in names}
        flat["placement"] = _join(data["placement"])
        if "pruned" in flat:
            flat["pruned"] = _join_pairs(data["pruned"])
        yield node, flat


def _rebuild(
    nodes: Iterable[tuple[Any, Mapping]],
    edges: Iterable[tuple[Any, Any]],
    graph: Mapping,
    where: Where = _node_where,
) -> nx.DiGraph:
    """Make a fresh DiGraph with exactly the tree's attributes, in their usual types.

    Every value is converted strictly: a node without an attribute, a value of the
    wrong kind, a node given twice or an edge to a node that is not there is a
    :class:`_Problem`.
    """
    import networkx as nx

    H = nx.DiGraph(**_graph_from_flat(graph))
    _search_arguments(H.graph)  # the graph attributes first: they say which attributes follow
    names = _attribute_names(H.graph)
    for node, data in nodes:
        node = _integer(node, "a node id")
        if node in H:
            raise _Problem(f"{where(node)} is given twice")
        attributes = {}
        for key in names:
            if key not in data:
                raise _Problem(f"{where(node)} has no attribute {key!r}")
            value = data[key]
            try:
                if key in _FLAGS:
                    attributes[key] = _flag(value, key)
                elif key == "placement":
                    attributes[key] = _split(value, key)
                elif key == "pruned":
                    attributes[key] = _split_pairs(value, key)
                else:  # row, column, depth, wiped_out
                    attributes[key] = _integer(value, key)
            except _Problem as problem:
                raise _Problem(f"{where(node)}: {problem}") from None
        H.add_node(node, **attributes)
    for u, v in edges:
        u, v = _integer(u, "an edge's end"), _integer(v, "an edge's end")
        for end in (u, v):
            if end not in H:
                raise _Problem(f"the edge {u} -> {v} names node {end}, which is not there")
        if H.has_edge(u, v):
            raise _Problem(f"the edge {u} -> {v} is given twice")
        H.add_edge(u, v)
    return H


# Checking a tree: the search its graph attributes name, replayed node by node.


def _search_arguments(graph: Mapping) -> dict[str, Any]:
    """The arguments of :func:`cpqueens.decision_tree` the graph attributes record."""
    if "n" not in graph:
        raise _Problem("the graph records no board size (G.graph['n'])")
    n = as_int(graph["n"])
    if n is None or n < 1:
        raise _Problem(f"the board size n is {_shown(graph['n'])}; it must be a positive integer")
    try:
        propagation, order = check_search(
            graph.get("propagation", "none"), graph.get("order", "row")
        )
        if n > LARGEST_N[propagation]:
            raise _Problem(
                f"the board size n is {n:,}; trees are checked up to "
                f"n={LARGEST_N[propagation]:,} with propagation={propagation!r}"
            )
        per_row = check_fixed(graph.get("fixed") or {}, n)
        blocked = check_blocked(graph.get("blocked") or (), n)
        check_fixed_squares(per_row, blocked)
    except (InvalidInputError, InvalidTypeError) as error:
        raise _Problem(f"the graph attributes: {error}") from None
    include_rejected = graph.get("include_rejected", False)
    if not is_bool(include_rejected):
        raise _Problem(
            f"the graph attribute include_rejected is {_shown(include_rejected)}, not True or False"
        )
    max_depth = graph.get("max_depth")
    if max_depth is not None and (as_int(max_depth) is None or max_depth < 0):
        raise _Problem(
            f"the graph attribute max_depth is {_shown(max_depth)}; it must be None "
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
    """Equal, and of the same types all the way down (``True`` is not ``1``, a list not a tuple)."""
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


class _Assign:
    """A mapping that only takes assignments, each handed to ``receive(key, value)``."""

    def __init__(self, receive: Callable[[Any, Any], None]):
        self.receive = receive

    def __setitem__(self, key: Any, value: Any) -> None:
        self.receive(key, value)


class _Discard:
    """A mapping that forgets whatever is put in it."""

    def __setitem__(self, key: Any, value: Any) -> None:
        pass

    def __getitem__(self, key: Any) -> _Discard:
        return self


class _Replay:
    """Stands in for the new graph a search grows, and compares it with ``G`` as it grows.

    :func:`cpqueens.trees.nodes.node_writer` writes each node into the graph's
    ``_node``, ``_succ`` and ``_pred`` mappings; here those compare the node and
    its parent with the same node of ``G`` at once and keep nothing. Checking a
    tree thus runs the very code that builds it, at about the cost of building it,
    without holding a second tree in memory.
    """

    def __init__(self, G: nx.DiGraph, where: Where):
        self.G, self.where = G, where
        self.written = 0
        self.attributes: dict = {}
        self._node = _Assign(self._take)
        self._succ = _Discard()
        self._pred = _Assign(self._compare)

    def _take(self, node: Any, attributes: dict) -> None:
        self.attributes = attributes

    def _compare(self, node: Any, parents: dict) -> None:
        """Node ``node`` was written with ``self.attributes`` below ``parents``."""
        G, where, expected = self.G, self.where, self.attributes
        self.written += 1
        parent = next(iter(parents), None)
        if node not in G:
            if parent is None:
                raise _Problem(f"the root, node {node!r}, is missing")
            kind = "a rejected square" if expected["rejected"] else "a queen"
            raise _Problem(
                f"node {node!r} ({kind} on row {expected['row']}, column "
                f"{expected['column']}, below node {parent!r}) is missing: the tree is "
                f"incomplete ({G.number_of_nodes():,} nodes are there)"
            )
        found = list(G.pred[node])
        if found != list(parents):
            if parent is None:
                others = ", ".join(map(repr, found))
                raise _Problem(f"{where(node)} is the root, but hangs below node {others}")
            if not found:
                raise _Problem(f"{where(node)} has no parent; it belongs below node {parent!r}")
            if len(found) > 1:
                others = ", ".join(map(repr, found))
                raise _Problem(f"{where(node)} has {len(found)} parents ({others}), not one")
            raise _Problem(
                f"{where(node)} hangs below node {found[0]!r}; it belongs below node {parent!r}"
            )
        data = G.nodes[node]
        for key, value in expected.items():
            if key not in data:
                raise _Problem(f"{where(node)} has no attribute {key!r}")
            if not _same(data[key], value):
                raise _Problem(
                    f"{where(node)} has {key}={_shown(data[key])} where the tree has "
                    f"{_shown(value)}"
                )


def _check_tree(G: nx.DiGraph, where: Where = _node_where) -> None:
    """Raise :class:`_Problem` unless ``G`` is a whole tree of :func:`cpqueens.decision_tree`.

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

    >>> import cpqueens
    >>> G = cpqueens.decision_tree(4)
    >>> _check_tree(G)
    >>> G.remove_node(16)
    >>> _check_tree(G)
    Traceback (most recent call last):
    ...
    cpqueens.trees.readwrite._Problem: node 16 (a queen on row 1, column 1, below node \
13) is missing: the tree is incomplete (16 nodes are there)
    """
    arguments = _search_arguments(G.graph)
    if G.number_of_nodes() == 0:
        raise _Problem("there are no nodes")
    n = arguments["n"]
    search = tree_search(
        n, arguments["fixed"], arguments["propagation"], arguments["order"], arguments["blocked"]
    )
    replay = _Replay(G, where)

    def too_large(count: int) -> _Problem:
        return _Problem(
            f"the tree goes on past the {G.number_of_nodes():,} nodes there: it is incomplete"
        )

    search.grow(
        replay,  # type: ignore[arg-type]
        include_rejected=arguments["include_rejected"],
        depth_limit=arguments["depth_limit"],
        max_nodes=G.number_of_nodes() + 1,
        too_large=too_large,
    )
    if replay.written < G.number_of_nodes():
        # The search numbered its nodes 0, 1, 2, ...: any other id is one too many.
        extra = next(node for node in G if not (type(node) is int and 0 <= node < replay.written))
        raise _Problem(
            f"{where(extra)} is not part of the tree, whose {replay.written:,} nodes are "
            f"0 to {replay.written - 1:,}"
        )


def _check_graph(G: Any, caller: str) -> None:
    import networkx as nx

    if not isinstance(G, nx.DiGraph) or G.is_multigraph():
        raise InvalidTypeError(
            f"{caller} takes the networkx.DiGraph of cpqueens.decision_tree or "
            f"cpqueens.read_tree, got {type(G).__name__}"
        )


def export_tree(G: nx.DiGraph, path: str | os.PathLike) -> Path:
    """Save a decision tree, in the format named by the extension of ``path``.

    ``.graphml``, ``.gexf``, ``.json`` (networkx node-link data, edges under
    ``"edges"``) or ``.dot`` (Graphviz). The path is checked first, then the tree
    (:func:`_check_tree`: only a whole tree of :func:`cpqueens.decision_tree` is
    saved, so that every file written reads back). The file is written whole or
    not at all.

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    InvalidTypeError
        When ``G`` is not a ``networkx.DiGraph`` or ``path`` not a path.
    InvalidInputError
        For an unknown extension, a place that cannot be written, or a graph that
        is not a whole decision tree (the message says which node and why).

    Examples
    --------
    >>> import cpqueens, tempfile, pathlib
    >>> G = cpqueens.decision_tree(5)
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> path = cpqueens.export_tree(G, folder / "tree-5.graphml")
    >>> H = cpqueens.read_tree(path)
    >>> H.nodes[3] == G.nodes[3], sorted(H.edges) == sorted(G.edges)
    (True, True)
    >>> G.remove_node(53)
    >>> cpqueens.export_tree(G, folder / "cut.graphml")
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: export_tree saves whole trees of \
cpqueens.decision_tree; in this graph, node 53 (a queen on row 4, column 1, below node \
52) is missing: the tree is incomplete (53 nodes are there)
    """
    import networkx as nx

    suffix = suffix_of(path, FORMATS, "tree file")
    check_target(path)
    _check_graph(G, "export_tree")
    try:
        _check_tree(G)
    except _Problem as problem:
        raise InvalidInputError(
            f"export_tree saves whole trees of cpqueens.decision_tree; in this graph, {problem}"
        ) from None
    graph = _flat_graph(G.graph)
    with atomic_path(path) as temporary:
        if suffix == ".json":
            data = nx.node_link_data(G, edges="edges")
            max_depth = None if graph["max_depth"] < 0 else graph["max_depth"]
            data["graph"] = {
                **graph,
                "fixed": _fixed_pairs(G.graph),
                "blocked": _blocked_pairs(G.graph),
                "max_depth": max_depth,
            }
            with open(temporary, "w", encoding="utf-8") as out:
                json.dump(data, out, separators=(",", ":"))
        elif suffix == ".dot":
            _write_dot(G, graph, temporary)
        else:
            flat = nx.DiGraph()
            flat.add_nodes_from(_flat_nodes(G))
            flat.add_edges_from(G.edges)
            if suffix == ".graphml":
                flat.graph.update(graph)
                nx.write_graphml(flat, temporary)
            else:
                flat.graph["name"] = ";".join(
                    f"{k}={int(v) if isinstance(v, bool) else v}" for k, v in graph.items()
                )
                nx.write_gexf(flat, temporary)
    return Path(path)


def read_tree(path: str | os.PathLike) -> nx.DiGraph:
    """Read a decision tree saved by :func:`export_tree`, in any of its formats.

    The graph comes back with integer node ids and the attributes of
    :func:`cpqueens.decision_tree`, in their Python types (``placement`` a tuple,
    ``fixed`` a dict, ``blocked`` a sorted tuple of (row, column) pairs, empty in a
    file written before trees had blocked squares, ``max_depth`` None when the tree
    is whole).

    The file must hold a whole tree (see :func:`_check_tree`): a file that does not
    parse, that was cut short, or whose tree is not the one its graph attributes
    describe raises :class:`~cpqueens.errors.InvalidInputError` naming the file,
    the problem and where (the line, or the node); a file that cannot be opened
    raises the usual ``OSError``.

    Examples
    --------
    >>> import cpqueens, tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "tree-4.dot"
    >>> H = cpqueens.read_tree(cpqueens.export_tree(cpqueens.decision_tree(4), path))
    >>> H.number_of_nodes(), sorted(cpqueens.tree_solutions(H))
    (17, [(1, 3, 0, 2), (2, 0, 3, 1)])
    >>> text = path.read_text()
    >>> _ = path.write_text(text[: len(text) // 2])  # a file cut short
    >>> cpqueens.read_tree(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: cannot read the decision tree in '...tree-4.dot': \
line 12 is not one export_tree writes (cut short?): '  8 [label="2", row=3, ...
    """
    suffix = suffix_of(path, FORMATS, "tree file")
    source = Path(path)
    try:
        if suffix == ".json":
            G, where = _read_json(source), _node_where
        elif suffix == ".dot":
            G, where = _read_dot(source)
        else:
            G, where = _read_xml(source, suffix), _node_where
        _check_tree(G, where)
    except _Problem as problem:
        raise InvalidInputError(
            f"cannot read the decision tree in {str(path)!r}: {problem}"
        ) from None
    return G


def _text(path: Path) -> str:
    """The file as UTF-8 text; a byte that is not UTF-8 is a problem at its line."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise _Problem(
            f"line {line}: byte {error.start} ({data[error.start]:#04x}) is not UTF-8 text"
        ) from None


def _read_json(path: Path) -> nx.DiGraph:
    text = _text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        unfinished = not text.rstrip().endswith("}")
        raise _Problem(
            f"not JSON: {error.msg} (line {error.lineno}, column {error.colno})"
            + (", and the file stops before its JSON ends: cut short?" if unfinished else "")
        ) from None
    if not (
        isinstance(data, dict)
        and isinstance(data.get("nodes"), list)
        and isinstance(data.get("edges"), list)
        and isinstance(data.get("graph"), dict)
    ):
        raise _Problem(
            "not the node-link JSON of export_tree: it needs a list 'nodes', a list "
            "'edges' and an object 'graph'"
        )
    nodes, edges = [], []
    for index, item in enumerate(data["nodes"]):
        if not isinstance(item, dict) or "id" not in item:
            raise _Problem(f"entry {index} of 'nodes' is not an object with an 'id'")
        nodes.append((item["id"], item))
    for index, item in enumerate(data["edges"]):
        if not isinstance(item, dict) or "source" not in item or "target" not in item:
            raise _Problem(
                f"entry {index} of 'edges' is not an object with a 'source' and a 'target'"
            )
        edges.append((item["source"], item["target"]))
    return _rebuild(nodes, edges, data["graph"])


def _read_xml(path: Path, suffix: str) -> nx.DiGraph:
    import networkx as nx

    name = "GraphML" if suffix == ".graphml" else "GEXF"
    try:
        if suffix == ".graphml":
            G = nx.read_graphml(path, node_type=int)
        else:
            G = nx.read_gexf(path, node_type=int)
    except (OSError, MemoryError):
        raise
    except Exception as error:  # the parsers' many ways of saying "not this format"
        detail = f"no {error}" if isinstance(error, KeyError) else str(error)
        raise _Problem(f"not a readable {name} file: {detail or type(error).__name__}") from None
    if not G.is_directed() or G.is_multigraph():
        kind = "repeats an edge" if G.is_multigraph() else "is undirected"
        raise _Problem(f"the {name} graph {kind}; a decision tree is a directed tree")
    if suffix == ".graphml":
        graph = G.graph
    else:
        fields = (item.partition("=") for item in G.graph.get("name", "").split(";"))
        graph = {key: value for key, _, value in fields if key}
    return _rebuild(G.nodes(data=True), G.edges, graph)


# Colours shared with the drawings: solutions green, dead ends and rejections grey,
# a dead end where propagation wiped out a domain orange.
_DOT_STYLE = {
    "solution": 'fillcolor="#2ca02c", fontcolor=white',
    "wiped_out": 'fillcolor="#fd8d3c", shape=doublecircle',
    "dead_end": 'fillcolor="#bdbdbd"',
    "rejected": 'fillcolor="#f0f0f0", fontcolor="#9e9e9e", color="#bdbdbd", style="filled,dashed"',
    "truncated": 'fillcolor="#c6dbef", style="filled,dotted"',
}
_DOT_HEADER = re.compile(r"^\s*digraph\b.*\{\s*$")
_DOT_NODE = re.compile(r"^\s*(\d+) \[(.*)\];\s*$")
_DOT_EDGE = re.compile(r"^\s*(\d+) -> (\d+);\s*$")
_DOT_GRAPH = re.compile(r"^\s*graph \[(.*)\];\s*$")
_DOT_DEFAULTS = re.compile(r"^\s*node \[.*\];\s*$")
_DOT_END = re.compile(r"^\s*\}\s*$")
_DOT_PAIR = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|[^,\s]+)')
_DOT_ESCAPE = re.compile(r"\\(.)")


def _dot_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _write_dot(G: nx.DiGraph, graph: dict, path: Path) -> None:
    with open(path, "w", encoding="utf-8") as out:
        out.write('digraph "n-queens decision tree" {\n')
        out.write(f"  graph [{', '.join(f'{k}={_dot_value(v)}' for k, v in graph.items())}];\n")
        out.write('  node [shape=circle, style=filled, fillcolor="#6baed6", fontsize=10];\n')
        for node, flat in _flat_nodes(G):
            label = "root" if flat["depth"] == 0 else str(flat["column"])
            if flat["depth"] and graph["order"] != "row":
                label = f"{flat['row']}:{flat['column']}"  # rows out of order: say which
            marks = {**flat, "wiped_out": flat.get("wiped_out", -1) >= 0}
            style = next((_DOT_STYLE[key] for key in _DOT_STYLE if marks[key]), "")
            fields = ", ".join(f"{key}={_dot_value(value)}" for key, value in flat.items())
            out.write(f'  {node} [label="{label}", {fields}{", " + style if style else ""}];\n')
        for u, v in G.edges:
            out.write(f"  {u} -> {v};\n")
        out.write("}\n")


def _dot_fields(text: str) -> dict[str, str]:
    return {
        key: _DOT_ESCAPE.sub(r"\1", value[1:-1]) if value.startswith('"') else value
        for key, value in _DOT_PAIR.findall(text)
    }


def _read_dot(path: Path) -> tuple[nx.DiGraph, Where]:
    """Read the DOT that :func:`_write_dot` writes, line by line, refusing any other line."""
    nodes: list[tuple[str, dict]] = []
    edges: list[tuple[str, str]] = []
    lines: dict[int, int] = {}  # node id -> its line
    graph = None
    closed = header = False
    number = 0
    for number, line in enumerate(_text(path).splitlines(), 1):
        if not line.strip():
            continue
        if closed:
            raise _Problem(f"line {number} follows the closing '}}': {_shown(line)}")
        if not header:
            if not _DOT_HEADER.match(line):
                raise _Problem(f"line {number} does not open a DOT digraph: {_shown(line)}")
            header = True
        elif match := _DOT_EDGE.match(line):
            edges.append((match[1], match[2]))
        elif match := _DOT_NODE.match(line):
            node = int(match[1])
            if node in lines:
                raise _Problem(f"node {node} is given twice, on lines {lines[node]} and {number}")
            lines[node] = number
            nodes.append((match[1], _dot_fields(match[2])))
        elif match := _DOT_GRAPH.match(line):
            if graph is not None:
                raise _Problem(f"line {number} gives the graph attributes a second time")
            graph = _dot_fields(match[1])
        elif _DOT_DEFAULTS.match(line):
            pass
        elif _DOT_END.match(line):
            closed = True
        else:
            raise _Problem(
                f"line {number} is not one export_tree writes (cut short?): {_shown(line)}"
            )
    if not header:
        raise _Problem("the file is empty")
    if not closed:
        raise _Problem(f"the file ends at line {number} without the closing '}}': it was cut short")
    if graph is None:
        raise _Problem("no 'graph [n=...]' line: not a DOT file written by export_tree")

    def where(node: Any) -> str:
        return f"node {node!r} (line {lines[node]})" if node in lines else f"node {node!r}"

    return _rebuild(nodes, edges, graph, where), where
