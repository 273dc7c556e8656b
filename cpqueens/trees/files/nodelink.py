"""Trees in networkx's node-link JSON: written by networkx, read back strictly.

Node-link JSON keeps lists and null as they are, so ``placement``, ``pruned``,
``fixed``, ``blocked`` and a missing ``max_depth`` need no text of their own. The
edges come under an explicit ``"edges"`` key, whatever networkx's default is.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from ...disk.structured import load_json
from .attributes import blocked_pairs, fixed_pairs, read_text, rebuild
from .replay import TreeProblem, Where, node_where

if TYPE_CHECKING:
    import networkx as nx


def write_json(G: nx.DiGraph, graph: dict, path: Path) -> None:
    """Write ``G`` as node-link JSON, with ``graph``, its flat graph attributes."""
    import networkx as nx

    data = nx.node_link_data(G, edges="edges")
    max_depth = None if graph["max_depth"] < 0 else graph["max_depth"]
    data["graph"] = {
        **graph,
        "fixed": fixed_pairs(G.graph),
        "blocked": blocked_pairs(G.graph),
        "max_depth": max_depth,
    }
    with open(path, "w", encoding="utf-8") as out:
        json.dump(data, out, separators=(",", ":"))


def read_json(path: Path) -> tuple[nx.DiGraph, Where]:
    """Read the node-link JSON :func:`write_json` writes, refusing any other."""
    text = read_text(path)
    try:
        data = load_json(text, str(path))
    except json.JSONDecodeError as error:
        unfinished = not text.rstrip().endswith("}")
        raise TreeProblem(
            f"not JSON: {error.msg} (line {error.lineno}, column {error.colno})"
            + (", and the file stops before its JSON ends: cut short?" if unfinished else "")
        ) from None
    if not (
        isinstance(data, dict)
        and isinstance(data.get("nodes"), list)
        and isinstance(data.get("edges"), list)
        and isinstance(data.get("graph"), dict)
    ):
        raise TreeProblem(
            "not the node-link JSON of export_tree: it needs a list 'nodes', a list "
            "'edges' and an object 'graph'"
        )
    nodes, edges = [], []
    for index, item in enumerate(data["nodes"]):
        if not isinstance(item, dict) or "id" not in item:
            raise TreeProblem(f"entry {index} of 'nodes' is not an object with an 'id'")
        nodes.append((item["id"], item))
    for index, item in enumerate(data["edges"]):
        if not isinstance(item, dict) or "source" not in item or "target" not in item:
            raise TreeProblem(
                f"entry {index} of 'edges' is not an object with a 'source' and a 'target'"
            )
        edges.append((item["source"], item["target"]))
    return rebuild(nodes, edges, data["graph"]), node_where
