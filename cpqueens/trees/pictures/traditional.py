"""The traditional drawing of a decision tree: each node a disc, each edge a line,
laid out top-down, with labels, a title that sums the tree up and a legend.

:func:`tree_figure` makes the matplotlib figure of a tree (or of the part of it
drawn: the paths to the solutions, or the tree with its failed subtrees hidden) and
:func:`tree_title` its title; :func:`~cpqueens.trees.pictures.drawing.draw_tree` checks and
saves. No text is read as mathematics: labels may come from someone else's file.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from ...board import rows_named
from ...display.numbers import plural, thousands
from .layout import solution_paths, tidy_layout, tree_root
from .proportions import EM, level_fonts, tree_layout

if TYPE_CHECKING:
    import networkx as nx

# One colour per kind of node; the DOT export uses the same ones. Wipe-outs are squares.
_MARKERS = {"wiped_out": "s", "collapsed": "v"}
_COLOURS = {
    "root": "#252525",
    "node": "#6baed6",
    "solution": "#2ca02c",
    "wiped_out": "#fd8d3c",
    "dead_end": "#bdbdbd",
    "rejected": "#f0f0f0",
    "truncated": "#c6dbef",
    "collapsed": "#d6616b",
}


#: The widest a marker is drawn, as a share of the room between neighbouring leaves.
_FILL = 0.8

#: How the legend names each kind of node.
_LABELS = {
    "wiped_out": "dead end (a row's domain wiped out)",
    "dead_end": "dead end",
    "collapsed": "failed subtree (no solution), hidden: its nodes below",
}


def node_kind(data: dict) -> str:
    """What a node is, as the drawing colours it."""
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


def tree_figure(
    G: nx.DiGraph,
    shown: nx.DiGraph,
    solutions_only: bool,
    title: str | None,
    collapsed: dict | None = None,
):
    """The figure of ``shown`` (``G`` or a part of it); ``collapsed`` maps the nodes
    that stand for a hidden subtree to its nodes."""
    collapsed = collapsed or {}
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

    kinds = {node: node_kind(data) for node, data in shown.nodes(data=True)}
    kinds.update(dict.fromkeys(collapsed, "collapsed"))
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
            scale = {"solution": 1.3, "wiped_out": 1.3, "collapsed": 1.6, "rejected": 0.6}.get(
                kind, 1.0
            )
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
    _hidden_counts(ax, pos, collapsed, layout.font)
    # Rows come in order only without first-fail; otherwise a level is a depth.
    level = "row {}" if by_row else "depth {}"
    if layout.font is not None:
        for node, text in labels.items():
            x, y = pos[node]
            ax.text(
                x,
                y,
                text,
                ha="center",
                va="center",
                fontsize=layout.font if kinds[node] != "rejected" else layout.font * 0.8,
                color=readable_on(_COLOURS[kinds[node]]),
                zorder=4,
                parse_math=False,
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
                        color="#252525", zorder=4, parse_math=False,
                        bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none",
                              "alpha": 0.85})  # fmt: skip
        first = next((d for d in range(1, levels) if -d not in fonts), None)
        unlabelled = None if first is None else level.format(first - (1 if by_row else 0))

    ticks = ["root"] + [level.format(d + (0 if by_row else 1)) for d in range(levels - 1)]
    ax.set_yticks(range(0, -levels, -1), ticks)
    ax.set_xticks([])
    if labels:
        ax.set_xlabel(
            "a node's label: the column of its queen, counted from 0"
            if by_row
            else "a node's label: row:column of its queen, each counted from 0",
            fontsize=9,
        )
    for side in ("top", "right", "bottom"):
        ax.spines[side].set_visible(False)
    ax.autoscale_view()
    ax.margins(x=0.5 / leaves + 0.01, y=0.08)
    text = title if title is not None else tree_title(G, shown, solutions_only, collapsed)
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
        parse_math=False,
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
    _keep_nodes_apart(figure, ax)
    return figure


def _keep_nodes_apart(figure, ax) -> None:
    """Shrink markers and labels that would touch their neighbours.

    The layout's sizes come from an estimate of the room a leaf gets; the axes, once
    laid out beside the level names, can give less. Neighbouring leaves stand one
    unit apart: every marker is made at most :data:`_FILL` of a unit wide, so that
    nodes of different parents never merge into one bar, and each label fits its node.
    """
    import numpy as np
    from matplotlib.collections import PathCollection

    figure.draw_without_rendering()
    origin, one = ax.transData.transform([(0, 0), (1, 0)])
    unit = (one[0] - origin[0]) * 72 / figure.dpi  # points between neighbouring leaves
    widest = (_FILL * unit) ** 2
    for collection in ax.collections:
        sizes = collection.get_sizes() if isinstance(collection, PathCollection) else ()
        if len(sizes):
            collection.set_sizes(np.minimum(sizes, widest))
    room = _FILL * unit - 2.0
    for text in ax.texts:
        chars = len(text.get_text())
        if chars and text.get_fontsize() * chars * EM > room:
            text.set_fontsize(max(1.0, room / (chars * EM)))


def readable_on(fill: str) -> str:
    """Near-black or white, whichever stands out more on ``fill`` (WCAG contrast).

    >>> readable_on("#2ca02c"), readable_on("#252525")
    ('#1a1a1a', '#ffffff')
    """
    dark, light = "#1a1a1a", "#ffffff"
    return dark if contrast(fill, dark) >= contrast(fill, light) else light


def contrast(a: str, b: str) -> float:
    """The WCAG 2 contrast ratio of two colours, 1 to 21.

    >>> round(contrast("#000000", "#ffffff"), 1)
    21.0
    """
    from matplotlib.colors import to_rgb

    def luminance(colour: str) -> float:
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
                  for c in to_rgb(colour)]  # fmt: skip
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _hidden_counts(ax, pos: dict, collapsed: dict, font: float | None) -> None:
    """Under each triangle that stands for a hidden subtree, the nodes it hides."""
    if font is None:
        return
    for node, size in collapsed.items():
        x, y = pos[node]
        ax.text(x, y - 0.28, thousands(size), ha="center", va="top", fontsize=font * 0.8,
                color="#a50f15", zorder=4)  # fmt: skip


def tree_title(
    G: nx.DiGraph, shown: nx.DiGraph, solutions_only: bool, collapsed: dict | None = None
) -> str:
    """The board, the search and its counts, and what part of the tree is drawn."""
    n = G.graph.get("n", "?")
    counts = {kind: 0 for kind in _COLOURS}
    truncated = 0
    for _, data in G.nodes(data=True):
        counts[node_kind(data)] += 1
        truncated += bool(data.get("truncated"))
    below = G.number_of_nodes() - 1
    pruned = G.graph.get("propagation", "none") != "none"
    nodes = f"{plural(below, 'node')} below the root"
    if counts["rejected"]:
        nodes += (
            f" ({plural(below - counts['rejected'], 'queen')} placed, "
            f"{thousands(counts['rejected'])} {'pruned' if pruned else 'rejected'})"
        )
    text = f"{n}-queens decision tree: {nodes}"
    if pruned:
        text = (
            f"{n}-queens search tree, {G.graph['propagation']} propagation, "
            f"{G.graph['order']} order: {nodes}"
        )
        text += f", {plural(counts['wiped_out'], 'dead end')}"
        root = G.nodes[tree_root(G)]
        if root.get("wiped_out", -1) >= 0:
            text += f"; {rows_named(root['wiped_out'])} is wiped out at the root"
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
    if G.graph.get("fixed"):
        text += ", fixed " + ", ".join(f"row {r}: col {c}" for r, c in G.graph["fixed"].items())
    if G.graph.get("blocked"):
        # Listed they could fill the line: their number says the board is not the plain one.
        text += f", {plural(len(G.graph['blocked']), 'blocked square')}"
    if solutions_only:
        text += f" (paths to solutions only: {plural(shown.number_of_nodes() - 1, 'node')})"
    if collapsed:
        text += (
            f" (failed subtrees hidden: {plural(len(collapsed), 'triangle')} for "
            f"{plural(sum(collapsed.values()), 'node')})"
        )
    return text
