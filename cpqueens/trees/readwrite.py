"""Saving decision trees to GraphML, GEXF, node-link JSON and Graphviz DOT, and reading them back.

GraphML, GEXF and DOT store only numbers, booleans and strings, so two values
are written as text and turned back on reading:

* ``placement`` as the columns joined by commas, ``"0,4,7"`` (``""`` for the root);
* the graph's ``fixed`` queens as ``"row:column"`` pairs, ``"0:2,7:4"``, and a
  missing ``max_depth`` as -1;
* in a tree built with propagation, each node's ``pruned`` squares as
  ``"row:column"`` pairs too, ``"1:0,1:1,2:2"``.

GEXF keeps no graph attributes but the graph's name, so ``n``, ``fixed``,
``include_rejected``, ``max_depth``, ``propagation`` and ``order`` travel in the
name (``"n=8;fixed=;include_rejected=0;max_depth=-1;propagation=none;order=row"``).
Node-link JSON keeps lists and null as they are, under an explicit ``"edges"`` key.
A file written before trees had ``propagation`` and ``order`` reads back as the
plain tree (``"none"``, ``"row"``). The DOT file is written
here (no Graphviz needed) with colours and labels that ``dot -Tsvg`` can render,
and :func:`read_tree` reads back the DOT files :func:`export_tree` writes.

Every format reads back to the same graph: same nodes, edges and attributes.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._files import atomic_path, suffix_of
from ..errors import InvalidInputError
from .nodes import NODE_ATTRIBUTES, PROPAGATION_ATTRIBUTES

if TYPE_CHECKING:
    import networkx as nx

FORMATS = (".graphml", ".gexf", ".json", ".dot")
_INTEGERS = ("row", "column", "depth")
_FLAGS = ("solution", "dead_end", "rejected", "truncated")


def _join(columns: Iterable[int]) -> str:
    return ",".join(map(str, columns))


def _split(text: str | list) -> tuple[int, ...]:
    if isinstance(text, list):
        return tuple(int(c) for c in text)
    return tuple(int(c) for c in text.split(",")) if text else ()


def _join_pairs(pairs: Iterable[tuple[int, int]]) -> str:
    return ",".join(f"{row}:{col}" for row, col in pairs)


def _split_pairs(text: str | list) -> tuple[tuple[int, int], ...]:
    """``"0:2,7:4"``, or node-link JSON's list of [row, column] pairs, as a tuple of pairs."""
    pairs = [pair.split(":") for pair in text.split(",") if pair] if isinstance(text, str) else text
    return tuple((int(row), int(col)) for row, col in pairs)


def _propagated(graph: dict) -> bool:
    return graph.get("propagation", "none") != "none"


def _flat_graph(graph: dict) -> dict[str, Any]:
    """Graph attributes as numbers, booleans and strings."""
    fixed = graph.get("fixed") or {}
    max_depth = graph.get("max_depth")
    return {
        "n": int(graph["n"]),
        "fixed": _join_pairs(sorted(fixed.items())),
        "include_rejected": bool(graph.get("include_rejected", False)),
        "max_depth": -1 if max_depth is None else int(max_depth),
        "propagation": str(graph.get("propagation", "none")),
        "order": str(graph.get("order", "row")),
    }


def _graph_from_flat(flat: dict[str, Any]) -> dict[str, Any]:
    max_depth = flat.get("max_depth")
    return {
        "n": int(flat["n"]),
        "fixed": dict(_split_pairs(flat.get("fixed") or "")),
        "include_rejected": _flag(flat.get("include_rejected", False)),
        "max_depth": None if max_depth is None or int(max_depth) < 0 else int(max_depth),
        "propagation": str(flat.get("propagation", "none")),
        "order": str(flat.get("order", "row")),
    }


def _flag(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true")
    return bool(value)


def _attribute_names(graph: dict) -> tuple[str, ...]:
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


def _rebuild(nodes: Iterable[tuple[Any, dict]], edges: Iterable[tuple[Any, Any]], graph: dict):
    """Make a fresh DiGraph with exactly the tree's attributes, in their usual types."""
    import networkx as nx

    H = nx.DiGraph(**_graph_from_flat(graph))
    names = _attribute_names(H.graph)
    for node, data in nodes:
        try:
            attributes = {key: data[key] for key in names}
        except KeyError as missing:
            raise InvalidInputError(
                f"not a cpqueens decision tree: node {node!r} has no attribute {missing}"
            ) from None
        for key in _INTEGERS:
            attributes[key] = int(attributes[key])
        for key in _FLAGS:
            attributes[key] = _flag(attributes[key])
        attributes["placement"] = _split(attributes["placement"])
        if "pruned" in attributes:
            attributes["pruned"] = _split_pairs(attributes["pruned"])
            attributes["wiped_out"] = int(attributes["wiped_out"])
        H.add_node(int(node), **attributes)
    H.add_edges_from((int(u), int(v)) for u, v in edges)
    return H


def _check_tree(G: nx.DiGraph) -> None:
    if "n" not in G.graph:
        raise InvalidInputError(
            "export_tree saves the graphs of cpqueens.decision_tree; this graph has no "
            "board size in G.graph['n']"
        )
    names = _attribute_names(G.graph)
    for node, data in G.nodes(data=True):
        missing = [key for key in names if key not in data]
        if missing:
            raise InvalidInputError(
                f"export_tree saves the graphs of cpqueens.decision_tree; node {node!r} "
                f"lacks the attribute(s) {', '.join(missing)}"
            )


def export_tree(G: nx.DiGraph, path: str | os.PathLike) -> Path:
    """Save a decision tree, in the format named by the extension of ``path``.

    ``.graphml``, ``.gexf``, ``.json`` (networkx node-link data, edges under
    ``"edges"``) or ``.dot`` (Graphviz). The file is written whole or not at all.

    Returns
    -------
    pathlib.Path
        The path written.

    Examples
    --------
    >>> import cpqueens, tempfile, pathlib
    >>> G = cpqueens.decision_tree(5)
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> path = cpqueens.export_tree(G, folder / "tree-5.graphml")
    >>> H = cpqueens.read_tree(path)
    >>> H.nodes[3] == G.nodes[3], sorted(H.edges) == sorted(G.edges)
    (True, True)
    """
    import networkx as nx

    suffix = suffix_of(path, FORMATS, "tree file")
    _check_tree(G)
    graph = _flat_graph(G.graph)
    with atomic_path(path) as temporary:
        if suffix == ".json":
            data = nx.node_link_data(G, edges="edges")
            data["graph"] = {**graph, "fixed": sorted(G.graph.get("fixed", {}).items())}
            data["graph"]["max_depth"] = G.graph.get("max_depth")
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
    ``fixed`` a dict, ``max_depth`` None when the tree is whole).
    """
    import networkx as nx

    suffix = suffix_of(path, FORMATS, "tree file")
    if suffix == ".json":
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        G = nx.node_link_graph(data, directed=True, multigraph=False, edges="edges")
        return _rebuild(G.nodes(data=True), G.edges, data["graph"])
    if suffix == ".dot":
        return _read_dot(Path(path))
    if suffix == ".graphml":
        G = nx.read_graphml(path, node_type=int)
        graph = G.graph
    else:
        G = nx.read_gexf(path, node_type=int)
        fields = (item.partition("=") for item in G.graph.get("name", "").split(";"))
        graph = {key: value for key, _, value in fields if key}
    if "n" not in graph:
        raise InvalidInputError(f"{str(path)!r} is not a cpqueens decision tree: no board size n")
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
_DOT_NODE = re.compile(r"^\s*(\d+) \[(.*)\];$")
_DOT_EDGE = re.compile(r"^\s*(\d+) -> (\d+);$")
_DOT_GRAPH = re.compile(r"^\s*graph \[(.*)\];$")
_DOT_PAIR = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|[^,\s]+)')


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
        key: value[1:-1] if value.startswith('"') else value
        for key, value in _DOT_PAIR.findall(text)
    }


def _read_dot(path: Path) -> nx.DiGraph:
    nodes, edges, graph = [], [], None
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if match := _DOT_EDGE.match(line):
                edges.append((match[1], match[2]))
            elif match := _DOT_NODE.match(line):
                nodes.append((match[1], _dot_fields(match[2])))
            elif match := _DOT_GRAPH.match(line):
                graph = _dot_fields(match[1])
            elif number == 1 and not line.startswith("digraph"):
                raise InvalidInputError(f"{str(path)!r} is not a DOT digraph (line 1: {line!r})")
    if graph is None or "n" not in graph:
        raise InvalidInputError(
            f"{str(path)!r} is not a DOT file written by cpqueens.export_tree: "
            "no graph [n=...] line"
        )
    return _rebuild(nodes, edges, graph)
