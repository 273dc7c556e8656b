"""Drawing a decision tree to a PNG, SVG or PDF picture with matplotlib.

:func:`draw_tree` checks what it is given, places the nodes with
:func:`~cpqueens.trees.layout.tidy_layout`, sizes the picture with
:func:`~cpqueens.trees.proportions.tree_layout` and draws each kind of node in its
colour (solutions green, dead ends grey, ...), with a title that sums the tree up
and a legend.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

from ..arguments import as_int
from ..disk.writing import atomic_path, check_target, suffix_of
from ..display.numbers import plural, thousands
from ..errors import InvalidInputError, InvalidTypeError
from .layout import solution_paths, tidy_layout, tree_order, tree_root
from .proportions import DPI, level_fonts, tree_layout

if TYPE_CHECKING:
    import networkx as nx

FORMATS = (".png", ".svg", ".pdf")

#: Beyond this many nodes a picture is a grey smear; draw_tree refuses and says why.
MAX_DRAWN_NODES = 6_000

# One colour per kind of node; the DOT export uses the same ones. Wipe-outs are squares.
_MARKERS = {"wiped_out": "s"}
_COLOURS = {
    "root": "#252525",
    "node": "#6baed6",
    "solution": "#2ca02c",
    "wiped_out": "#fd8d3c",
    "dead_end": "#bdbdbd",
    "rejected": "#f0f0f0",
    "truncated": "#c6dbef",
}


def _check_graph(G: object) -> None:
    import networkx as nx

    if not isinstance(G, nx.DiGraph) or G.is_multigraph():
        raise InvalidTypeError(
            "draw_tree draws the networkx.DiGraph of cpqueens.decision_tree or "
            f"cpqueens.read_tree, got {type(G).__name__}"
        )


def _check_drawable(G: nx.DiGraph) -> None:
    """Refuse a graph draw_tree cannot draw: no nodes, not a tree, or nodes without
    the integer ``row``, ``column`` and ``depth`` of a decision tree."""
    if G.number_of_nodes() == 0:
        raise InvalidInputError("draw_tree has nothing to draw: the graph has no nodes")
    for node, data in G.nodes(data=True):
        for key in ("row", "column", "depth"):
            if as_int(data.get(key)) is None:
                raise InvalidInputError(
                    f"draw_tree draws the trees of cpqueens.decision_tree; node {node!r} has "
                    f"no integer {key!r}"
                )
    tree_order(G)


#: How the legend names each kind of node.
_LABELS = {"wiped_out": "dead end (domain wiped out)", "dead_end": "dead end"}


def _kind(data: dict) -> str:
    if data.get("depth", 1) == 0:
        return "root"
    # A dead end found by propagation (a row left with no square) is drawn apart.
    if data.get("wiped_out", -1) >= 0:
        return "wiped_out"
    for kind in ("solution", "rejected", "dead_end", "truncated"):
        if data.get(kind):
            return kind
    return "node"


def _label(data: dict, by_row: bool) -> str:
    return str(data["column"]) if by_row else f"{data['row']}:{data['column']}"


def draw_tree(
    G: nx.DiGraph,
    path: str | os.PathLike,
    *,
    solutions_only: bool = False,
    title: str | None = None,
) -> Path:
    """Draw a decision tree top-down to a PNG, SVG or PDF file (by the extension).

    Solutions are green, dead ends grey, rejected attempts pale grey, nodes cut
    off by ``max_depth`` pale blue; edges on the way to a solution are drawn
    darker. In a tree built with propagation, a dead end where a domain was wiped
    out is an orange square, and the squares pruned from the chosen row (with
    ``include_rejected``) are the pale grey leaves; when the rows come first-fail,
    nodes are labelled ``row:column`` and the levels are depths. Trees up to n=6
    are readable whole; for n=8 draw a tree built with ``max_depth`` or pass
    ``solutions_only=True``.

    Parameters
    ----------
    G : networkx.DiGraph
        A tree from :func:`cpqueens.decision_tree` or :func:`cpqueens.read_tree`.
    path : str or path-like
        Output file, ``.png``, ``.svg`` or ``.pdf``; written whole or not at all.
    solutions_only : bool
        Draw only the paths from the root to the solutions.
    title : str, optional
        Title above the tree; by default the board size and the counts.

    Raises
    ------
    InvalidTypeError
        When ``G`` is not a ``networkx.DiGraph`` or ``path`` not a path.
    InvalidInputError
        For an unknown extension or a place that cannot be written (both checked
        before anything is drawn), a graph that is not a tree of decision-tree
        nodes, or a tree too large to draw.

    Examples
    --------
    >>> import cpqueens, tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> cpqueens.draw_tree(cpqueens.decision_tree(4), folder / "tree-4.svg").name
    'tree-4.svg'
    """
    suffix = suffix_of(path, FORMATS, "picture")
    check_target(path)
    _check_graph(G)
    if not solutions_only:
        _check_size(G)  # before checking a large tree's every node
    _check_drawable(G)
    shown = solution_paths(G) if solutions_only else G
    _check_size(shown)
    figure = _figure(G, shown, solutions_only, title)
    with atomic_path(path) as temporary:
        figure.savefig(temporary, format=suffix[1:], dpi=DPI)
    return Path(path)


def _check_size(G: nx.DiGraph) -> None:
    if G.number_of_nodes() > MAX_DRAWN_NODES:
        raise InvalidInputError(
            f"a tree of {G.number_of_nodes():,} nodes is too large to draw readably "
            f"(at most {MAX_DRAWN_NODES:,}); build it with max_depth=... or fixed=..., "
            "or pass solutions_only=True"
        )


def _figure(G: nx.DiGraph, shown: nx.DiGraph, solutions_only: bool, title: str | None):
    # The Figure API with an Agg canvas draws without pyplot, so no global state
    # and no interactive backend is touched.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.collections import LineCollection
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    pos = tidy_layout(shown)
    leaves = max(1, sum(1 for node in shown if shown.out_degree(node) == 0))
    levels = 1 - min(y for _, y in pos.values())
    by_row = G.graph.get("order", "row") == "row"
    labels = {
        node: _label(data, by_row) for node, data in shown.nodes(data=True) if data["depth"] > 0
    }
    layout = tree_layout(leaves, levels, max(map(len, labels.values()), default=1))
    figure = Figure(figsize=(layout.width, layout.height), layout="constrained")
    FigureCanvasAgg(figure)
    ax = figure.add_subplot()

    kinds = {node: _kind(data) for node, data in shown.nodes(data=True)}
    winning = set(solution_paths(shown)) if any(k == "solution" for k in kinds.values()) else set()
    plain, bold, faint = [], [], []
    for u, v in shown.edges:
        segment = (pos[u], pos[v])
        if kinds[v] == "rejected":
            faint.append(segment)
        elif v in winning:
            bold.append(segment)
        else:
            plain.append(segment)
    ax.add_collection(LineCollection(faint, colors="#d9d9d9", linewidths=0.5, linestyles="--"))
    ax.add_collection(LineCollection(plain, colors="#969696", linewidths=0.7))
    ax.add_collection(LineCollection(bold, colors="#1b7837", linewidths=1.4))

    for kind, colour in _COLOURS.items():
        members = [node for node, k in kinds.items() if k == kind]
        if members:
            xs, ys = zip(*(pos[node] for node in members), strict=True)
            edge = "#969696" if kind in ("rejected", "dead_end") else "none"
            scale = 1.3 if kind in ("solution", "wiped_out") else 0.6 if kind == "rejected" else 1.0
            ax.scatter(
                xs,
                ys,
                s=layout.marker * scale,
                c=colour,
                marker=_MARKERS.get(kind, "o"),
                edgecolors=edge,
                linewidths=0.5,
                zorder=3,
            )
    # Rows come in order only without first-fail; otherwise a level is a depth.
    level = "row {}" if by_row else "depth {}"
    if layout.font is not None:
        for node, text in labels.items():
            light = kinds[node] in ("solution", "node")
            x, y = pos[node]
            ax.text(
                x,
                y,
                text,
                ha="center",
                va="center",
                fontsize=layout.font if kinds[node] != "rejected" else layout.font * 0.8,
                color="white" if light else "#525252",
                zorder=4,
            )
        unlabelled = None
    else:
        # Too crowded at the leaves: the upper levels, wider apart, may still have room.
        chars = max(map(len, labels.values()), default=1)
        fonts = level_fonts(pos, layout.room(leaves), chars)
        for node, text in labels.items():
            x, y = pos[node]
            if y in fonts:
                ax.text(x, y, text, ha="center", va="center", fontsize=fonts[y],
                        color="#252525", zorder=4,
                        bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none",
                              "alpha": 0.85})  # fmt: skip
        first = next((d for d in range(1, levels) if -d not in fonts), None)
        unlabelled = None if first is None else level.format(first - (1 if by_row else 0))

    ticks = ["root"] + [level.format(d + (0 if by_row else 1)) for d in range(levels - 1)]
    ax.set_yticks(range(0, -levels, -1), ticks)
    ax.set_xticks([])
    for side in ("top", "right", "bottom"):
        ax.spines[side].set_visible(False)
    ax.autoscale_view()
    ax.margins(x=0.5 / leaves + 0.01, y=0.08)
    text = title if title is not None else _title(G, shown, solutions_only)
    if unlabelled is not None and labels:
        text += (
            f"; nodes from {unlabelled} down too close to label "
            f"({plural(leaves, 'leaf', 'leaves')} side by side)"
        )
    # The title is wrapped to the figure's width (12 pt characters of about 0.55 em).
    ax.set_title(
        textwrap.fill(text, max(40, int((layout.width - 0.3) * 72 / (12 * 0.55)))),
        loc="left",
        fontsize=12,
    )
    present = [kind for kind in _COLOURS if kind in kinds.values()]
    names = dict(_LABELS)
    if G.graph.get("propagation", "none") != "none":
        names["rejected"] = "pruned away"
    handles = [
        Line2D(
            [],
            [],
            marker=_MARKERS.get(k, "o"),
            linestyle="",
            markersize=7,
            color=_COLOURS[k],
            markeredgecolor="#969696",
            label=names.get(k, k.replace("_", " ")),
        )
        for k in present
    ]
    # Under the tree, outside it: never over a node or the title.
    columns = max(1, min(len(handles), int(layout.width * 72 / 150)))
    figure.legend(
        handles=handles, loc="outside lower center", frameon=False, fontsize=9, ncols=columns
    )
    return figure


def _title(G: nx.DiGraph, shown: nx.DiGraph, solutions_only: bool) -> str:
    n = G.graph.get("n", "?")
    counts = {kind: 0 for kind in _COLOURS}
    truncated = 0
    for _, data in G.nodes(data=True):
        counts[_kind(data)] += 1
        truncated += bool(data.get("truncated"))
    below = G.number_of_nodes() - 1
    text = f"{n}-queens decision tree: {plural(below, 'node')} below the root"
    if G.graph.get("propagation", "none") != "none":
        text = (
            f"{n}-queens search tree, {G.graph['propagation']} propagation, "
            f"{G.graph['order']} order: {plural(below - counts['rejected'], 'node')}"
        )
        text += f", {thousands(counts['wiped_out'])} wiped out"
        root = G.nodes[tree_root(G)]
        if root.get("wiped_out", -1) >= 0:
            text += f" (row {root['wiped_out']} at the root)"
    depth = G.graph.get("max_depth")
    solutions = counts["solution"]
    if truncated and depth is not None:
        # The tree stops above the solutions: "0 solutions" would be wrong, not unknown.
        if solutions:
            text += f", {plural(solutions, 'solution')} above the cut at depth {depth}"
            text += " (any below it not drawn)"
        else:
            text += f", cut at depth {depth}: no solution within reach"
            text += " (solutions below the cut not drawn)"
    elif truncated:
        text += f", {plural(solutions, 'solution')} drawn, {plural(truncated, 'node')} cut short"
    else:
        text += f", {plural(solutions, 'solution')}"
    if counts["rejected"]:
        pruned = G.graph.get("propagation", "none") != "none"
        noun = "pruned square" if pruned else "rejected attempt"
        text += f", {plural(counts['rejected'], noun)}"
    if G.graph.get("fixed"):
        text += ", fixed " + ", ".join(f"row {r}: col {c}" for r, c in G.graph["fixed"].items())
    if G.graph.get("blocked"):
        # Listed they could fill the line: their number says the board is not the plain one.
        text += f", {plural(len(G.graph['blocked']), 'blocked square')}"
    if solutions_only:
        text += f" (paths to solutions only: {plural(shown.number_of_nodes() - 1, 'node')})"
    return text
