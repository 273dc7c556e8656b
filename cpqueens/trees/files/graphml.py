"""Trees in GraphML and GEXF, the XML formats networkx writes and reads.

Both hold the node attributes as numbers, booleans and strings
(:mod:`cpqueens.trees.files.attributes`). GEXF keeps no graph attributes but the graph's
name, so ``n``, ``fixed``, ``blocked``, ``include_rejected``, ``max_depth``,
``propagation`` and ``order`` travel in the name
(``"n=8;fixed=;blocked=;include_rejected=0;max_depth=-1;propagation=none;order=row"``).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

from ...disk.safexml import check_xml
from ...errors import InvalidInputError
from .attributes import flat_nodes, read_tree_bytes, rebuild
from .replay import TreeProblem, Where, node_where

if TYPE_CHECKING:
    import networkx as nx


def _flat_tree(G: nx.DiGraph) -> nx.DiGraph:
    """A copy of the tree whose attributes are numbers, booleans and strings."""
    import networkx as nx

    flat = nx.DiGraph()
    flat.add_nodes_from(flat_nodes(G))
    flat.add_edges_from(G.edges)
    return flat


def write_graphml(G: nx.DiGraph, graph: dict, path: Path) -> None:
    """Write ``G`` as GraphML, with ``graph``, its flat graph attributes."""
    import networkx as nx

    flat = _flat_tree(G)
    flat.graph.update(graph)
    nx.write_graphml(flat, path)


def write_gexf(G: nx.DiGraph, graph: dict, path: Path) -> None:
    """Write ``G`` as GEXF, ``graph`` (its flat graph attributes) in the graph's name."""
    import networkx as nx

    flat = _flat_tree(G)
    flat.graph["name"] = ";".join(
        f"{k}={int(v) if isinstance(v, bool) else v}" for k, v in graph.items()
    )
    nx.write_gexf(flat, path)


def _read_xml(path: Path, name: str) -> nx.DiGraph:
    """The graph networkx reads from a GraphML or GEXF file; not a directed graph is refused."""
    import networkx as nx

    try:
        raw = read_tree_bytes(path)
        # networkx's parser would expand entities: a DTD or an entity is refused first.
        check_xml(raw, str(path))
        data = io.BytesIO(raw)
        if name == "GraphML":
            G = nx.read_graphml(data, node_type=int)
        else:
            G = nx.read_gexf(data, node_type=int)
    except (OSError, MemoryError, InvalidInputError):
        raise
    except Exception as error:  # the parsers' many ways of saying "not this format"
        detail = f"no {error}" if isinstance(error, KeyError) else str(error)
        raise TreeProblem(f"not a readable {name} file: {detail or type(error).__name__}") from None
    if not G.is_directed() or G.is_multigraph():
        kind = "repeats an edge" if G.is_multigraph() else "is undirected"
        raise TreeProblem(f"the {name} graph {kind}; a decision tree is a directed tree")
    return G


def read_graphml(path: Path) -> tuple[nx.DiGraph, Where]:
    """Read a tree :func:`write_graphml` wrote."""
    G = _read_xml(path, "GraphML")
    return rebuild(G.nodes(data=True), G.edges, G.graph), node_where


def read_gexf(path: Path) -> tuple[nx.DiGraph, Where]:
    """Read a tree :func:`write_gexf` wrote, its graph attributes from the graph's name."""
    G = _read_xml(path, "GEXF")
    fields = (item.partition("=") for item in G.graph.get("name", "").split(";"))
    graph = {key: value for key, _, value in fields if key}
    return rebuild(G.nodes(data=True), G.edges, graph), node_where
