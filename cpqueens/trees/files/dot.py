"""Trees in Graphviz DOT: written here without Graphviz, and read back line by line.

The file has one line a node, with its attributes as numbers, booleans and
strings (:mod:`cpqueens.trees.files.attributes`), a label and the colours of the drawings,
so that ``dot -Tsvg tree.dot`` renders it; and one line an edge. Reading takes
back exactly the lines :func:`write_dot` writes and refuses any other, naming
its line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .attributes import flat_nodes, read_text, rebuild
from .replay import TreeProblem, Where, shown

if TYPE_CHECKING:
    import networkx as nx

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
    """A value as DOT writes it.

    >>> _dot_value(True), _dot_value(3)
    ('true', '3')
    >>> print(_dot_value('0:2,"7:4"'))
    "0:2,\\"7:4\\""
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_dot(G: nx.DiGraph, graph: dict, path: Path) -> None:
    """Write ``G`` as DOT, with ``graph``, its flat graph attributes."""
    with open(path, "w", encoding="utf-8") as out:
        out.write('digraph "n-queens decision tree" {\n')
        out.write(f"  graph [{', '.join(f'{k}={_dot_value(v)}' for k, v in graph.items())}];\n")
        out.write('  node [shape=circle, style=filled, fillcolor="#6baed6", fontsize=10];\n')
        for node, flat in flat_nodes(G):
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


def read_dot(path: Path) -> tuple[nx.DiGraph, Where]:
    """Read the DOT that :func:`write_dot` writes, line by line, refusing any other line.

    The nodes are named by their line in the messages that follow, the check's too.
    """
    nodes: list[tuple[str, dict]] = []
    edges: list[tuple[str, str]] = []
    lines: dict[int, int] = {}  # node id -> its line
    graph = None
    closed = header = False
    number = 0
    for number, line in enumerate(read_text(path).splitlines(), 1):
        if not line.strip():
            continue
        if closed:
            raise TreeProblem(f"line {number} follows the closing '}}': {shown(line)}")
        if not header:
            if not _DOT_HEADER.match(line):
                raise TreeProblem(f"line {number} does not open a DOT digraph: {shown(line)}")
            header = True
        elif match := _DOT_EDGE.match(line):
            edges.append((match[1], match[2]))
        elif match := _DOT_NODE.match(line):
            node = int(match[1])
            if node in lines:
                raise TreeProblem(
                    f"node {node} is given twice, on lines {lines[node]} and {number}"
                )
            lines[node] = number
            nodes.append((match[1], _dot_fields(match[2])))
        elif match := _DOT_GRAPH.match(line):
            if graph is not None:
                raise TreeProblem(f"line {number} gives the graph attributes a second time")
            graph = _dot_fields(match[1])
        elif _DOT_DEFAULTS.match(line):
            pass
        elif _DOT_END.match(line):
            closed = True
        else:
            raise TreeProblem(
                f"line {number} is not one export_tree writes (cut short?): {shown(line)}"
            )
    if not header:
        raise TreeProblem("the file is empty")
    if not closed:
        raise TreeProblem(
            f"the file ends at line {number} without the closing '}}': it was cut short"
        )
    if graph is None:
        raise TreeProblem("no 'graph [n=...]' line: not a DOT file written by export_tree")

    def where(node: Any) -> str:
        return f"node {node!r} (line {lines[node]})" if node in lines else f"node {node!r}"

    return rebuild(nodes, edges, graph, where), where
