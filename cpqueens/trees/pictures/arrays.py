"""Pictures of search trees too large to draw node by node, as arrays: the icicle and
the pixel tree.

A drawing of circles and edges is a grey smear past a few thousand nodes. Two
pictures of CP-Profiler's kind stay readable at millions, and both are images
computed at once over a :class:`~cpqueens.trees.compact.tree.CompactTree`'s arrays:

- the *icicle*: each depth a horizontal band, each node a bar as wide as its share
  of the tree's leaves, under its parent's bar. The leaves of a node's subtree are
  consecutive in search order, so a node spans ``[left, left + leaves)`` with
  ``left`` the leaves before it in preorder.
- the *pixel tree*: the nodes in search order along x, ``k`` of them to a column
  of pixels, depth along y.

Every node is put in a *class* (by its status, or by its side in a comparison). A
picture shows shares as areas: each cell (a column of pixels at one depth) is a
stacked bar of its classes, in the palette's own colours, white above. In the icicle
a class's height in a cell is the share of the column's leaves that its bars cover;
in the pixel tree it is the class's nodes in the cell over the nodes of the fullest
cell, so that areas are proportional to nodes over the whole picture. A solution
too thin to show is never widened: the columns holding one get a tick beside the
picture (:func:`solution_columns`). Atop each icicle band a thin gutter, outside the
shares, marks with a black tick where each bar at least :data:`EDGE_PIXELS` wide
starts, so that neighbours of one class are told apart.
:func:`picture_image` computes the picture; :mod:`cpqueens.trees.pictures.figure`
frames it with matplotlib, and the explorer's script draws the same shares.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ...errors import InvalidInputError

if TYPE_CHECKING:
    from ..compact.tree import CompactTree

#: The classes of a tree's nodes by status (the first six are the status codes), and
#: of a merged tree's by side (its solutions are shown by the ticks). A branch is blue
#: when a solution, or a cut (where the search was stopped), lies below it, pale
#: blue when neither does.
STATUS_CLASSES = (
    "solution", "dead end", "branch", "rejected", "cut", "merged", "branch, no solution below",
)  # fmt: skip
SIDE_CLASSES = ("in both", "only in a", "only in b")
#: A branch with no solution below: the seventh class.
BARREN = 6
#: The classes' colours, told apart from each other, from white and from black text.
PALETTES = {
    STATUS_CLASSES: ("#2ca02c", "#d62728", "#3182bd", "#bdbdbd", "#636363", "#9467bd", "#9ecae1"),
    SIDE_CLASSES: ("#969696", "#e6550d", "#3182bd"),
}
#: The colour of the ticks marking the columns that hold a solution.
TICK_COLOUR = "#1a6e1a"
#: An icicle bar this many pixels wide or more has its start marked in the gutter.
EDGE_PIXELS = 8
#: The golden ratio's fraction, for :func:`dither`.
GOLDEN = 0.6180339887498949


def node_classes(tree: CompactTree, highlight: np.ndarray | None = None) -> tuple:
    """Each node's class and the names of the classes: by status, or by side.

    ``highlight`` (one code a node: 0 in both trees, 1 only in A, 2 only in B)
    colours a merged tree by side.

    >>> classes, names = node_classes(_example())
    >>> classes.tolist()[:6], names[classes[1]]
    ([2, 6, 1, 6, 1, 2], 'branch, no solution below')
    """
    from ..compact.tree import BRANCH, CUT

    status = np.asarray(tree.status)
    if highlight is not None:
        side = np.asarray(highlight)
        if side.shape != status.shape or (side.size and int(side.max()) > 2):
            raise InvalidInputError(
                f"highlight holds one code a node (0 in both, 1 only in A, 2 only in B): "
                f"{status.size:,} of them, got shape {side.shape}"
                + ("" if side.shape != status.shape else f" with a code {int(side.max())}")
            )
        return side.astype(np.uint8), SIDE_CLASSES
    classes = status.astype(np.uint8)
    if status.size:
        barren = (status == BRANCH) & (tree.solutions_below() == 0)
        cut = status == CUT
        if cut.any():
            # Below a cut nothing is known: a branch above one is not called barren.
            ends = np.arange(len(status), dtype=np.int64)
            ends += tree.subtree_sizes()
            before = np.zeros(len(status) + 1, dtype=np.int64)
            np.cumsum(cut, out=before[1:])
            barren &= before[ends] == before[:-1]
        classes[barren] = BARREN
    return classes, STATUS_CLASSES


def icicle_spans(tree: CompactTree) -> tuple[np.ndarray, np.ndarray]:
    """Each node's bar in the icicle, in leaves: where it starts and how wide it is.

    A leaf is one leaf wide, a node as wide as the leaves below it; bars of one
    depth never overlap, and a child's bar lies within its parent's.

    >>> left, width = icicle_spans(_example())
    >>> left.tolist()[:5], width.tolist()[:5]
    ([0, 0, 0, 1, 1], [6, 2, 1, 1, 1])
    """
    sizes = tree.subtree_sizes()
    depth = np.asarray(tree.depth)
    # In preorder a node is a leaf when the next node is no deeper (or there is none).
    leaf = np.ones(len(depth), dtype=bool)
    np.less_equal(depth[1:], depth[:-1], out=leaf[:-1])
    # before[i]: the leaves among nodes 0 .. i-1; a subtree is the range i .. i+size-1.
    before = np.zeros(len(depth) + 1, dtype=np.int64)
    np.cumsum(leaf, out=before[1:])
    left = before[:-1]
    ends = np.arange(len(depth), dtype=np.int64)
    ends += sizes
    width = before[ends]
    width -= left
    return left, width


def icicle_weights(
    tree: CompactTree,
    width: int,
    classes: np.ndarray,
    kinds: int,
    spans: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The fraction of each pixel of the icicle each class covers, and where bars start.

    Returns an array (depths, width, kinds): row ``d`` is depth ``d``, and a row's
    fractions add up to the share of the pixel that bars of that depth cover. A bar
    covers the pixels wholly inside it and parts of the two at its ends. And an
    array (depths, width) of flags: the first pixel of each bar at least
    :data:`EDGE_PIXELS` wide, to mark where neighbours of one colour meet.

    >>> tree = _example()
    >>> classes, names = node_classes(tree)
    >>> weights, edges = icicle_weights(tree, 5, classes, len(names))
    >>> weights.sum(axis=2).round(2).tolist()[3:]  # depths 3 and 4: 4 and 2 of 6 leaves
    [[0.17, 1.0, 1.0, 1.0, 0.17], [0.0, 0.33, 1.0, 0.33, 0.0]]
    """
    left, span = icicle_spans(tree) if spans is None else spans
    depth = np.asarray(tree.depth)
    levels = int(depth.max(initial=0)) + 1
    leaves = max(1, int(span[0]) if len(span) else 1)
    scale = width / leaves
    # Each bar's first and last pixel, in integers; the last may be ``width`` (a
    # column more, left out at the end). Most bars lie within one pixel: only the
    # few that cross a pixel's edge (at most ``width`` a depth) need more.
    first = left * width
    first //= leaves
    last = left + span
    last *= width
    last //= leaves
    cross = np.flatnonzero(last > first)
    del last
    # One flat index a (depth, column, class).
    cell = depth.astype(np.int64)
    cell *= width + 1
    cell += first
    cell *= kinds
    cell += classes
    size = levels * (width + 1) * kinds
    covered = span * scale  # a bar within one pixel covers this much of it
    start, end = left[cross] * scale, (left[cross] + span[cross]) * scale
    first_c = first[cross]
    del first
    last_c = np.floor(end).astype(np.int64)
    covered[cross] = first_c + 1 - start  # the rest of its first pixel
    partial = np.bincount(cell, weights=covered, minlength=size)
    del covered
    head = cell[cross]
    tail = head + (last_c - first_c) * kinds
    partial += np.bincount(tail, weights=end - last_c, minlength=size)
    # The pixels between: +1 after the first pixel, -1 at the last, summed along the row.
    steps = np.bincount(head + kinds, minlength=size)
    steps -= np.bincount(tail, minlength=size)
    shape = (levels, width + 1, kinds)
    weights = partial.reshape(shape) + np.cumsum(steps.reshape(shape), axis=1)
    edges = np.zeros((levels, width), dtype=bool)
    wide = end - start >= EDGE_PIXELS
    edges[depth[cross[wide]], first_c[wide]] = True
    return weights[:, :width, :], edges


def pixel_step(nodes: int, width: int) -> int:
    """The nodes to a column of the pixel tree, so that ``nodes`` fit ``width`` columns.

    >>> pixel_step(10_000_000, 1600), pixel_step(100, 1600)
    (6250, 1)
    """
    return max(1, -(-nodes // max(1, width)))


def pixel_counts(tree: CompactTree, step: int, classes: np.ndarray, kinds: int) -> np.ndarray:
    """The nodes of each class in each pixel of the pixel tree, ``step`` nodes a column.

    Returns an array (depths, columns, kinds) of counts: column ``j`` holds nodes
    ``j * step .. (j + 1) * step - 1`` in search order.

    >>> tree = _example()
    >>> classes, names = node_classes(tree)
    >>> pixel_counts(tree, 4, classes, len(names)).sum(axis=2).tolist()[1]
    [1, 1, 1, 1, 0]
    """
    depth = np.asarray(tree.depth, dtype=np.int64)
    levels = int(depth.max(initial=0)) + 1
    columns = -(-len(depth) // step)
    column = np.arange(len(depth), dtype=np.int64) // step
    cell = ((depth * columns + column) * kinds) + classes
    counts = np.bincount(cell, minlength=levels * columns * kinds)
    return counts.reshape(levels, columns, kinds)


def pixel_shares(counts: np.ndarray) -> np.ndarray:
    """The share of its band each class takes in each cell of the pixel tree: its
    nodes over the nodes of the fullest cell, so that areas are proportional to nodes
    across the whole picture.

    >>> pixel_shares(np.array([[[1, 0], [2, 2]]])).tolist()
    [[[0.25, 0.0], [0.5, 0.5]]]
    """
    fullest = int(counts.sum(axis=2).max(initial=0))
    return counts / max(1, fullest)


def dither(columns: int) -> np.ndarray:
    """Each column's offset in [0, 1) when shares are rounded to whole pixels: a
    golden-ratio sequence, so that a class too thin for one pixel a column still
    gets its share of pixels over many columns. The page's script uses the same.

    >>> dither(3).round(3).tolist()
    [0.0, 0.618, 0.236]
    """
    return np.modf(np.arange(columns, dtype=np.float64) * GOLDEN)[0]


def stack_bands(
    shares: np.ndarray, band: int, edges: np.ndarray | None = None, gutter: int = 0
) -> np.ndarray:
    """The picture as class indices, ``band`` pixel rows a depth: in each cell the
    classes' shares stacked from the band's foot in class order, rounded to whole
    pixels (with :func:`dither`), ``kinds`` (white) above them.

    ``shares`` is an array (depths, columns, kinds) of shares of a band, adding up to
    at most 1 a cell. With a ``gutter``, the band's top ``gutter`` rows hold no share:
    they are white, but ``kinds + 1`` (black) in the columns ``edges`` (depths,
    columns) marks, where a bar starts; the shares stack in the rows below.

    >>> stack_bands(np.array([[[0.5, 0.25]]]), 4)[:, 0].tolist()  # white, 1, 0, 0
    [2, 1, 0, 0]
    >>> stack_bands(np.array([[[1.0], [1.0]]]), 3, np.array([[True, False]]), 1).tolist()
    [[2, 1], [0, 0], [0, 0]]
    """
    levels, columns, kinds = shares.shape
    rows = band - gutter
    tops = np.cumsum(shares, axis=2)
    tops *= rows
    tops += dither(columns)[None, :, None]
    np.floor(tops, out=tops)
    np.clip(tops, 0, rows, out=tops)
    bounds = tops.astype(np.int32)
    # A pixel row r (counted from the band's foot) holds the first class whose top is
    # above r: the number of tops at or below r.
    heights = np.arange(rows - 1, -1, -1, dtype=np.int32)  # image rows go down
    index = np.full((levels, band, columns), kinds, dtype=np.uint8)
    stacked = index[:, gutter:, :]
    stacked[...] = 0
    for k in range(kinds):
        stacked += bounds[:, None, :, k] <= heights[None, :, None]
    if gutter and edges is not None:
        index[:, :gutter, :][np.broadcast_to(edges[:, None, :], (levels, gutter, columns))] = (
            kinds + 1
        )
    return index.reshape(levels * band, columns)


def colour_image(index: np.ndarray, palette: tuple[str, ...]) -> np.ndarray:
    """An RGB image (uint8) of class indices: ``len(palette)`` is white, one more black.

    >>> colour_image(np.array([[0, 1, 2]]), ("#ff0000",)).tolist()
    [[[255, 0, 0], [255, 255, 255], [0, 0, 0]]]
    """
    from matplotlib.colors import to_rgb

    colours = np.array([to_rgb(c) for c in palette] + [(1.0, 1.0, 1.0), (0.0, 0.0, 0.0)])
    lookup = np.round(colours * 255).astype(np.uint8)
    return lookup[np.minimum(index, len(palette) + 1)]


def solution_columns(
    tree: CompactTree,
    style: str,
    columns: int,
    step: int = 1,
    spans: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """Which columns of the picture hold a solution: where its tick is drawn.

    In the icicle a solution is a leaf, at column ``left * columns // leaves``; in the
    pixel tree node ``i`` is in column ``i // step``. ``spans`` are the icicle's
    (:func:`icicle_spans`), when the caller has them already.

    >>> solution_columns(_example(), "pixel", 5, 4).tolist()
    [False, False, True, True, False]
    """
    from ..compact.tree import SOLUTION

    solutions = np.flatnonzero(np.asarray(tree.status) == SOLUTION)
    marked = np.zeros(columns, dtype=bool)
    if style == "icicle":
        left, width = icicle_spans(tree) if spans is None else spans
        leaves = max(1, int(width[0]) if len(width) else 1)
        marked[left[solutions] * columns // leaves] = True
    else:
        marked[solutions // step] = True
    return marked


def gutter_rows(band: int) -> int:
    """The rows atop each icicle band that mark where bars start, outside the shares:
    none in a band too thin to spare them.

    >>> gutter_rows(40), gutter_rows(6)
    (3, 0)
    """
    return 0 if band < 12 else max(2, band // 12)


@dataclass(frozen=True)
class Picture:
    """An icicle or pixel tree as computed: the image and what a reader needs to
    read it.

    ``image`` is RGB (uint8), ``band`` pixel rows a depth; ``names`` and ``palette``
    the classes and their colours (white is no node); ``counts`` the nodes of each
    class below the root; ``step`` the nodes to a column (1 for the icicle);
    ``ticks`` the columns holding a solution; ``starts`` whether a black tick in a
    band's gutter marks where a bar begins.
    """

    image: np.ndarray
    names: tuple[str, ...]
    palette: tuple[str, ...]
    counts: np.ndarray
    step: int
    band: int
    ticks: np.ndarray
    starts: bool = False


def picture_image(
    tree: CompactTree,
    style: str,
    width: int,
    highlight: np.ndarray | None = None,
    band: int = 1,
) -> Picture:
    """The picture of an icicle or a pixel tree ``width`` pixels wide and ``band``
    pixel rows a depth.

    Each cell (a column at a depth) is a stacked bar of its classes: in the icicle
    the share of the column's leaves that the class's bars cover, in the pixel tree
    the class's nodes over the nodes of the fullest cell. So a class's area is its
    share, and the colours drawn are the palette's, never mixed or faded.

    >>> picture = picture_image(_example(), "icicle", 6, band=4)
    >>> picture.image.shape, picture.counts.tolist()
    ((20, 6, 3), [2, 4, 6, 0, 0, 0, 4])
    """
    classes, names = node_classes(tree, highlight)
    kinds = len(names)
    spans = None
    if style == "icicle":
        # The bars' spans serve the shares and the ticks: computed once (their arrays
        # are as long as the tree, 27 million entries at n=14).
        spans = icicle_spans(tree)
        shares, edges = icicle_weights(tree, width, classes, kinds, spans)
        step = 1
    else:
        step = pixel_step(len(classes), width)
        shares, edges = pixel_shares(pixel_counts(tree, step, classes, kinds)), None
    gutter = gutter_rows(band) if edges is not None else 0
    index = stack_bands(shares, band, edges, gutter)
    palette = PALETTES[names]
    # The root is no node of the search: the counts are of the nodes below it.
    counts = np.bincount(classes[1:], minlength=kinds)
    ticks = solution_columns(tree, style, index.shape[1], step, spans)
    starts = bool(gutter and edges.any())
    image = colour_image(index, palette)
    return Picture(image, names, palette, counts, step, band, ticks, starts)


def _example() -> CompactTree:
    """The plain tree of n=4, for the examples."""
    from ..compact.tree import CompactTree
    from ..explicit.build import decision_tree

    return CompactTree.from_networkx(decision_tree(4))
