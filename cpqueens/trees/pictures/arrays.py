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
  of pixels, depth along y; a pixel tells how many of its column's nodes lie at its
  depth and what they are.

Every node is put in a *class* (by its status, or by its side in a comparison),
and each pixel gets the weight of each class: in the icicle the fraction of the
pixel its nodes' bars cover, in the pixel tree the nodes it holds. :func:`paint`
turns the weights into colours; :mod:`cpqueens.trees.pictures.figure` frames the
image with matplotlib.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...errors import InvalidInputError

if TYPE_CHECKING:
    from ..compact.tree import CompactTree

#: The classes of a tree's nodes by status (the first six are the status codes), and
#: of a merged tree's by side. A branch is blue when a solution, or a cut (where the
#: search was stopped), lies below it, grey-blue when neither does.
STATUS_CLASSES = (
    "solution", "failure", "branch", "rejected", "cut", "merged", "branch, no solution below",
)  # fmt: skip
SIDE_CLASSES = ("in both", "only in a", "only in b", "solution")
#: A branch with no solution below: the seventh class.
BARREN = 6
PALETTES = {
    STATUS_CLASSES: ("#2ca02c", "#d62728", "#3182bd", "#e0e0e0", "#969696", "#9467bd", "#a9b7c6"),
    SIDE_CLASSES: ("#bdbdbd", "#e6550d", "#3182bd", "#2ca02c"),
}
#: A pixel holding any solution is at least this much green: one solution among
#: thousands of failures would otherwise vanish in the mix.
SOLUTION_SHARE = 0.6
#: An icicle bar this many pixels wide or more starts with a paler column.
EDGE_PIXELS = 4


def node_classes(tree: CompactTree, highlight: np.ndarray | None = None) -> tuple:
    """Each node's class and the names of the classes: by status, or by side.

    ``highlight`` (one code a node: 0 in both trees, 1 only in A, 2 only in B)
    colours a merged tree by side, its solutions apart.

    >>> classes, names = node_classes(_example())
    >>> classes.tolist()[:6], names[classes[1]]
    ([2, 6, 1, 6, 1, 2], 'branch, no solution below')
    """
    from ..compact.tree import BRANCH, CUT, SOLUTION

    status = np.asarray(tree.status)
    if highlight is not None:
        side = np.asarray(highlight)
        if side.shape != status.shape or (side.size and int(side.max()) > 2):
            raise InvalidInputError(
                f"highlight holds one code a node (0 in both, 1 only in A, 2 only in B): "
                f"{status.size:,} of them, got shape {side.shape}"
                + ("" if side.shape != status.shape else f" with a code {int(side.max())}")
            )
        classes = side.astype(np.uint8)
        classes[status == SOLUTION] = SIDE_CLASSES.index("solution")
        return classes, SIDE_CLASSES
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
    tree: CompactTree, width: int, classes: np.ndarray, kinds: int
) -> tuple[np.ndarray, np.ndarray]:
    """The fraction of each pixel of the icicle each class covers, and where bars start.

    Returns an array (depths, width, kinds): row ``d`` is depth ``d``, and a row's
    fractions add up to the share of the pixel that bars of that depth cover. A bar
    covers the pixels wholly inside it and parts of the two at its ends. And an
    array (depths, width) of flags: the first pixel of each bar at least
    :data:`EDGE_PIXELS` wide, to draw a line between neighbours of one colour.

    >>> tree = _example()
    >>> classes, names = node_classes(tree)
    >>> weights, edges = icicle_weights(tree, 5, classes, len(names))
    >>> weights.sum(axis=2).round(2).tolist()[3:]  # depths 3 and 4: 4 and 2 of 6 leaves
    [[0.17, 1.0, 1.0, 1.0, 0.17], [0.0, 0.33, 1.0, 0.33, 0.0]]
    """
    left, span = icicle_spans(tree)
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


def paint(weights: np.ndarray, strength: np.ndarray, palette: tuple[str, ...]) -> np.ndarray:
    """An RGB image: each pixel the weighted mean of its classes' colours, laid over
    white with opacity ``strength`` (0 to 1, one a pixel).

    >>> paint(np.array([[[1.0, 0.0], [0.0, 0.0]]]), np.array([[1.0, 0.0]]),
    ...       ("#ff0000", "#0000ff")).tolist()
    [[[1.0, 0.0, 0.0], [1.0, 1.0, 1.0]]]
    """
    from matplotlib.colors import to_rgb

    colours = np.array([to_rgb(c) for c in palette])
    total = weights.sum(axis=2, keepdims=True)
    mean = weights @ colours / np.where(total > 0, total, 1.0)
    alpha = np.clip(strength, 0.0, 1.0)[..., None]
    return 1.0 - alpha * (1.0 - mean)


def emphasise(image: np.ndarray, present: np.ndarray, colour: str) -> np.ndarray:
    """Blend ``colour`` into the pixels where ``present``, at :data:`SOLUTION_SHARE`."""
    from matplotlib.colors import to_rgb

    image[present] = (1 - SOLUTION_SHARE) * image[present] + SOLUTION_SHARE * np.array(
        to_rgb(colour)
    )
    return image


def picture_image(
    tree: CompactTree, style: str, width: int, highlight: np.ndarray | None = None
) -> tuple[np.ndarray, tuple[str, ...], np.ndarray, int]:
    """The RGB image of an icicle or a pixel tree ``width`` pixels wide, one row a depth.

    Returns the image, the names of the classes, how many nodes of each class the
    tree has, and the nodes to a column (1 for the icicle).
    """
    classes, names = node_classes(tree, highlight)
    kinds = len(names)
    solution = names.index("solution")
    palette = PALETTES[names]
    if style == "icicle":
        weights, edges = icicle_weights(tree, width, classes, kinds)
        strength = weights.sum(axis=2)
        strength[edges] *= 0.55
        step = 1
    else:
        step = pixel_step(len(classes), width)
        weights = pixel_counts(tree, step, classes, kinds).astype(np.float64)
        filled = weights.sum(axis=2)
        # Darker where more of the column's nodes sit at this depth; never paler than 0.3.
        strength = np.where(filled > 0, 0.3 + 0.7 * np.sqrt(filled / step), 0.0)
    image = paint(weights, strength, palette)
    image = emphasise(image, weights[..., solution] > 0, palette[solution])
    return image, names, np.bincount(classes, minlength=kinds), step


def _example() -> CompactTree:
    """The plain tree of n=4, for the examples."""
    from ..compact.tree import CompactTree
    from ..explicit.build import decision_tree

    return CompactTree.from_networkx(decision_tree(4))
