"""Drawing a decision tree to a PNG, SVG or PDF picture with matplotlib.

:func:`draw_tree` checks what it is given and draws it in one of three styles. The
*traditional* drawing places the nodes with
:func:`~cpqueens.trees.pictures.layout.tidy_layout`, sizes the picture with
:func:`~cpqueens.trees.pictures.proportions.tree_layout` and draws each kind of node in its
colour (solutions green, dead ends grey, ...), with a title that sums the tree up
and a legend; with ``hide_failed`` each subtree without a solution is one triangle
(:func:`~cpqueens.trees.pictures.layout.collapse_failed`). The *icicle* and the *pixel tree*
(:mod:`cpqueens.trees.pictures.figure`) draw millions of nodes as one image.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from ...arguments import as_int, check_int
from ...disk.writing import atomic_path, check_target, suffix_of
from ...display.numbers import bound_over
from ...errors import InvalidInputError, InvalidTypeError, TreeTooLargeError
from ..explicit.cost import TREE_BYTES, format_bytes, format_seconds
from .layout import collapse_failed, solution_paths, tree_order
from .proportions import DPI
from .traditional import node_kind as _kind  # noqa: F401  (the earlier names, kept)
from .traditional import tree_figure as _figure
from .traditional import tree_title as _title  # noqa: F401

if TYPE_CHECKING:
    import networkx as nx
    import numpy as np

    from ..compact.tree import CompactTree

FORMATS = (".png", ".svg", ".pdf")
#: The ways to draw a tree: node by node, or as one image for the large ones.
STYLES = ("traditional", "icicle", "pixel")

#: Beyond this many nodes a picture is a grey smear; draw_tree refuses and says why.
MAX_DRAWN_NODES = 6_000
#: With failed subtrees hidden, a node in three or more stands for a hidden subtree or
#: is a lone dead end: this many nodes are as readable as the bound above.
MAX_COLLAPSED_NODES = 10_000
#: A CompactTree larger than this is not turned into networkx for a traditional drawing.
MAX_CONVERTED_NODES = 1_000_000
#: What an icicle or pixel tree takes beside the tree, measured on n = 11 to 14 (the
#: plain trees; ``tracemalloc``'s peak while drawing a PNG): bytes a node of the
#: arrays of the picture, the figure's own bytes, and seconds a node. n=14's 27
#: million nodes: 1.15 GB and 5 s for the icicle, 0.69 GB and 1 s for the pixel tree.
PICTURE_BYTES_PER_NODE = {"icicle": 44, "pixel": 27}
PICTURE_FIXED_BYTES = 120_000_000
PICTURE_SECONDS_PER_NODE = {"icicle": 0.2e-6, "pixel": 0.05e-6}


def _check_graph(G: object) -> None:
    import networkx as nx

    if not isinstance(G, nx.DiGraph) or G.is_multigraph():
        raise InvalidTypeError(
            "draw_tree draws the networkx.DiGraph of cpqueens.decision_tree or "
            f"cpqueens.read_tree, or a CompactTree, got {type(G).__name__}"
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


def draw_tree(
    G: nx.DiGraph | CompactTree,
    path: str | os.PathLike,
    *,
    style: str = "traditional",
    solutions_only: bool = False,
    hide_failed: bool = False,
    title: str | None = None,
    highlight: np.ndarray | None = None,
    width: int | None = None,
    max_bytes: int = int(TREE_BYTES),
) -> Path:
    """Draw a decision tree to a PNG, SVG or PDF file (by the extension).

    The *traditional* style draws it top-down, node by node: solutions are green,
    dead ends grey, rejected attempts pale grey, nodes cut off by ``max_depth``
    pale blue; edges on the way to a solution are drawn darker. In a tree built
    with propagation, a dead end where a domain was wiped out is an orange square,
    and the squares pruned from the chosen row (with ``include_rejected``) are the
    pale grey leaves; when the rows come first-fail, nodes are labelled
    ``row:column`` and the levels are depths. Trees up to n=6 are readable whole;
    with ``hide_failed=True`` (each subtree without a solution one red triangle
    marked with its nodes) up to n=10, with ``solutions_only=True`` beyond.

    The *icicle* and *pixel* styles draw any number of nodes as one image
    ``width`` pixels wide (1,600 unless told), one band a depth. In the icicle each
    node is a bar as wide as its share of the tree's leaves, under its parent's; in
    the pixel tree (CP-Profiler's) the nodes go in search order along x, a column
    of pixels for every ``k`` of them, each pixel coloured by what its nodes are
    and darker the more of them lie at its depth. Solutions are green, dead ends
    red, branches blue (grey-blue without a solution below).

    Parameters
    ----------
    G : networkx.DiGraph or CompactTree
        A tree from :func:`cpqueens.decision_tree`, :func:`cpqueens.read_tree` or
        :func:`cpqueens.compact_tree`.
    path : str or path-like
        Output file, ``.png``, ``.svg`` or ``.pdf``; written whole or not at all.
    style : {"traditional", "icicle", "pixel"}
        Node by node, or one image for trees of any size.
    solutions_only : bool
        Traditional style: draw only the paths from the root to the solutions.
    hide_failed : bool
        Traditional style: draw each subtree without a solution (of more than one
        node) as one triangle, with the nodes it hides.
    title : str, optional
        Title above the tree; by default the board size and the counts. Shown as
        written (no mathematics is read into ``$``).
    highlight : array of uint8, optional
        Icicle and pixel styles: one code a node (0 in both trees, 1 only in A, 2
        only in B), to colour a merged tree by side (see :func:`draw_merged`).
    width : int, optional
        Icicle and pixel styles: the image's width in pixels, 16 to 20,000.
    max_bytes : int
        Icicle and pixel styles: the most memory the drawing may take beside the
        tree (2 GB unless raised, as for :func:`cpqueens.compact_tree`). Its price
        is read off the node count before anything is drawn (about 44 bytes a node
        for the icicle, 27 for the pixel tree, and 120 MB): n=14's 27 million nodes
        take about 1.3 GB.

    Raises
    ------
    InvalidTypeError
        When ``G`` is not a tree or ``path`` not a path.
    InvalidInputError
        For an unknown style or extension, or a place that cannot be written (all
        checked before anything is drawn), options of another style, a graph that
        is not a tree of decision-tree nodes, or a tree too large to draw this way.
    TreeTooLargeError
        For an icicle or pixel tree whose drawing would take more than
        ``max_bytes``, before anything is drawn: the message names the price.

    Examples
    --------
    >>> import cpqueens, tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> cpqueens.draw_tree(cpqueens.decision_tree(4), folder / "tree-4.svg").name
    'tree-4.svg'
    >>> cpqueens.draw_tree(cpqueens.decision_tree(8), folder / "t.png", style="icicle").name
    't.png'
    """
    if style not in STYLES:
        raise InvalidInputError(
            f"unknown style {style!r}; the styles are: {', '.join(map(repr, STYLES))}"
        )
    suffix = suffix_of(path, FORMATS, "picture")
    check_target(path)
    max_bytes = check_int(max_bytes, "max_bytes", 1)
    if style != "traditional":
        return _draw_image(
            G, path, style, solutions_only, hide_failed, title, highlight, width, max_bytes
        )
    for name, value in (("highlight", highlight), ("width", width)):
        if value is not None:
            raise InvalidInputError(
                f"{name}= applies to the styles 'icicle' and 'pixel', not 'traditional'"
            )
    if solutions_only and hide_failed:
        raise InvalidInputError(
            "give solutions_only=True (only the paths to solutions) or hide_failed=True "
            "(failed subtrees as triangles), not both"
        )
    G = _as_networkx(G, solutions_only, hide_failed)
    if not (solutions_only or hide_failed):
        _check_size(G.number_of_nodes(), MAX_DRAWN_NODES)  # before checking every node
    _check_drawable(G)
    collapsed: dict = {}
    if hide_failed:
        shown, collapsed = collapse_failed(G)
        _check_size(shown.number_of_nodes(), MAX_COLLAPSED_NODES)
    else:
        shown = solution_paths(G) if solutions_only else G
        _check_size(shown.number_of_nodes(), MAX_DRAWN_NODES)
    figure = _figure(G, shown, solutions_only, title, collapsed)
    with atomic_path(path) as temporary:
        figure.savefig(temporary, format=suffix[1:], dpi=DPI)
    return Path(path)


def _draw_image(
    G, path, style, solutions_only, hide_failed, title, highlight, width, max_bytes
) -> Path:
    from ..compact.tree import CompactTree
    from .figure import DEFAULT_WIDTH, draw_picture

    if solutions_only or hide_failed:
        raise InvalidInputError(
            f"solutions_only and hide_failed apply to style='traditional'; style={style!r} "
            "draws every node"
        )
    if width is None:
        width = DEFAULT_WIDTH
    elif isinstance(width, bool) or not isinstance(width, int) or not 16 <= width <= 20_000:
        raise InvalidInputError(f"width is a number of pixels from 16 to 20,000, got {width!r}")
    if not isinstance(G, CompactTree):
        _check_graph(G)
        G = CompactTree.from_networkx(G)
    if G.number_of_nodes() == 0:
        raise InvalidInputError("draw_tree has nothing to draw: the tree has no nodes")
    check_picture_price(G.number_of_nodes(), style, max_bytes)
    return draw_picture(G, path, style, width=width, title=title, highlight=highlight)


def picture_price(nodes: int, style: str) -> tuple[int, float]:
    """The bytes beside the tree and the seconds an icicle or pixel tree of ``nodes``
    nodes takes to draw.

    >>> memory, seconds = picture_price(27_358_554, "icicle")
    >>> memory, round(seconds, 1)
    (1323776376, 5.5)
    """
    memory = PICTURE_FIXED_BYTES + PICTURE_BYTES_PER_NODE[style] * nodes
    return memory, PICTURE_SECONDS_PER_NODE[style] * nodes


def check_picture_price(nodes: int, style: str, max_bytes: int) -> None:
    """Refuse a picture of a tree of ``nodes`` (the root included) whose drawing would
    take more than ``max_bytes``.

    >>> try:
    ...     check_picture_price(27_358_554, "icicle", 1_000_000_000)
    ... except TreeTooLargeError as error:
    ...     print(error.cost)
    about 1.3 GB of memory beside the tree and 5 s
    """
    memory, seconds = picture_price(nodes, style)
    if memory <= max_bytes:
        return
    cost = f"about {format_bytes(memory)} of memory beside the tree and {format_seconds(seconds)}"
    raise TreeTooLargeError(
        f"drawing the {'pixel tree' if style == 'pixel' else style} of {nodes - 1:,} nodes "
        f"below the root would take {cost}, more than max_bytes={max_bytes:,} "
        f"({format_bytes(max_bytes)}) allows; pass max_bytes={bound_over(memory):_} to draw it "
        "anyway, or draw a smaller tree (cut it with max_depth=...)",
        nodes,
        max(1, (max_bytes - PICTURE_FIXED_BYTES) // PICTURE_BYTES_PER_NODE[style]),
        memory=memory,
        seconds=seconds,
        cost=cost,
    )


def draw_merged(comparison: object, path: str | os.PathLike, *, style: str = "icicle",
                title: str | None = None, width: int | None = None) -> Path:  # fmt: skip
    """Draw the merged tree of a comparison, coloured by side: nodes of both trees
    grey, nodes only in a orange, only in b blue, solutions green.

    ``comparison`` is what :func:`cpqueens.trees.compare.compare_trees` returns: its
    ``merged`` tree and ``side`` (one code a merged node: 0 both, 1 only A, 2 only B).
    """
    if style == "traditional":
        raise InvalidInputError("a merged tree is drawn with style='icicle' or 'pixel'")
    merged, side = getattr(comparison, "merged", None), getattr(comparison, "side", None)
    if merged is None or side is None:
        raise InvalidTypeError(
            "draw_merged draws the result of compare_trees (with .merged and .side), got "
            f"{type(comparison).__name__}"
        )
    return draw_tree(merged, path, style=style, title=title, highlight=side, width=width)


def _as_networkx(G: object, solutions_only: bool, hide_failed: bool) -> nx.DiGraph:
    """A networkx tree to draw node by node: ``G`` itself, or a CompactTree turned into
    one once the nodes it would draw are known to be few enough."""
    from ..compact.tree import CompactTree

    if not isinstance(G, CompactTree):
        _check_graph(G)
        return G  # type: ignore[return-value]
    if G.n is None:
        raise InvalidInputError(
            "a generic tree (read from another solver's database) has no queens to label "
            "its nodes with; draw it with style='icicle' or style='pixel'"
        )
    solved = G.solutions_below() > 0
    if len(solved):
        solved[0] = True
    if solutions_only:
        drawn, bound = int(solved.sum()), MAX_DRAWN_NODES
    elif hide_failed:
        children = solved[G.parent[1:]]
        drawn, bound = int(solved.sum()) + int((children & ~solved[1:]).sum()), MAX_COLLAPSED_NODES
    else:
        drawn, bound = len(solved), MAX_DRAWN_NODES
    _check_size(drawn, bound)
    if len(solved) > MAX_CONVERTED_NODES:
        raise InvalidInputError(
            f"a tree of {len(solved):,} nodes is drawn with style='icicle' or 'pixel'; the "
            f"traditional drawing takes trees up to {MAX_CONVERTED_NODES:,} nodes"
        )
    return G.to_networkx()


def _check_size(nodes: int, bound: int) -> None:
    if nodes > bound:
        raise InvalidInputError(
            f"{nodes:,} nodes are too many to draw readably (at most {bound:,}); "
            "build the tree with max_depth=... or fixed=..., "
            "or pass solutions_only=True or hide_failed=True, or draw it with "
            "style='icicle' or style='pixel'"
        )
