"""The icicle and the pixel tree framed and saved: an image of
:mod:`cpqueens.trees.pictures.arrays` with its title, depth axis and legend, through matplotlib.

The image is laid out pixel for pixel: the axes are exactly as many pixels wide as
the image has columns, so a PNG shows every column as computed, and a single
``imshow`` draws millions of nodes in the time of one picture. SVG and PDF embed the
same image. Text in the SVG is kept as text (XML-escaped by matplotlib), and no
text is read as mathematics: a title may quote a label from someone else's file.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ...disk.writing import atomic_path
from ...display.numbers import plural, thousands
from .arrays import TICK_COLOUR, colour_image, picture_image
from .proportions import DPI

if TYPE_CHECKING:
    from ..compact.tree import CompactTree

#: The image's width in pixels unless told, and the room around it (pixels).
DEFAULT_WIDTH = 1600
_LEFT, _RIGHT, _TOP, _BOTTOM = 80, 40, 90, 150
#: Pixels a depth, within bounds on the image's height.
_BAND, _MIN_HEIGHT, _MAX_HEIGHT = 40, 160, 900
#: The strip of solution ticks under the picture: its height and its gap (pixels).
_STRIP, _GAP = 10, 6


def draw_picture(
    tree: CompactTree,
    path: str | os.PathLike,
    style: str,
    *,
    width: int = DEFAULT_WIDTH,
    title: str | None = None,
    highlight: np.ndarray | None = None,
) -> Path:
    """Draw ``tree`` as an icicle or a pixel tree to ``path`` (its suffix the format).

    The picture of :func:`~cpqueens.trees.pictures.arrays.picture_image` sits in a
    frame exactly its size, a strip of ticks under it marks the columns holding a
    solution, and the legend gives each colour the nodes of its class below the root.
    """
    from matplotlib import rc_context
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    levels = int(tree.depth.max(initial=0)) + 1
    band = max(1, min(_MAX_HEIGHT, max(_MIN_HEIGHT, levels * _BAND)) // levels)
    picture = picture_image(tree, style, width, highlight, band=band)
    height = band * levels
    size = (width + _LEFT + _RIGHT, height + _TOP + _BOTTOM)
    figure = Figure(figsize=(size[0] / DPI, size[1] / DPI), dpi=DPI)
    FigureCanvasAgg(figure)

    def box(left: int, bottom: int, wide: int, tall: int):
        return (left / size[0], bottom / size[1], wide / size[0], tall / size[1])

    # The picture pixel for pixel (a pixel tree's last columns may be empty), in a
    # black frame of one pixel drawn as part of the image: it hides none of its pixels.
    image = picture.image
    if image.shape[1] < width:
        image = np.pad(image, ((0, 0), (0, width - image.shape[1]), (0, 0)), constant_values=255)
    image = np.pad(image, ((1, 1), (1, 1), (0, 0)), constant_values=0)
    span = width * picture.step
    across, down = span / width, 1 / band  # one pixel, in the axes' units
    ax = figure.add_axes(box(_LEFT - 1, _BOTTOM - 1, width + 2, height + 2))
    ax.imshow(
        image,
        aspect="auto",
        interpolation="nearest",
        extent=(-across, span + across, levels - 0.5 + down, -0.5 - down),
        resample=False,
    )
    for side in ax.spines.values():
        side.set_visible(False)
    ax.set_yticks(_depth_ticks(levels))
    ax.set_ylabel("depth")
    ax.set_xticks([])
    strip_bottom = _BOTTOM - _GAP - _STRIP
    strip = figure.add_axes(box(_LEFT, strip_bottom, width, _STRIP))
    strip.set_xlim(0, span)
    marked = np.pad(picture.ticks, (0, width - len(picture.ticks)))
    strip.imshow(
        colour_image(np.where(marked, 0, 1)[None, :], (TICK_COLOUR,)),
        aspect="auto",
        interpolation="nearest",
        extent=(0, span, 0, 1),
        resample=False,
    )
    strip.set_yticks([0.5], ["solutions"], fontsize=8)
    strip.tick_params(axis="y", length=0)
    for side in strip.spines.values():
        side.set_visible(False)
    if style == "pixel":
        strip.set_xlabel(
            f"nodes in search order, {plural(picture.step, 'node')} a column; a colour's "
            "height is its nodes, the fullest cell filling its band"
        )
        from matplotlib.ticker import FuncFormatter, MaxNLocator

        strip.xaxis.set_major_locator(MaxNLocator(8, integer=True))
        strip.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{int(x):,}"))
        strip.tick_params(axis="x", pad=8)
    else:
        strip.tick_params(axis="x", bottom=False, labelbottom=False)
        strip.set_xlabel(
            "leaves in search order: each node as wide as the leaves below it; a colour's "
            "height in a column is its share of the column's leaves"
        )
    text = title if title is not None else picture_title(tree, style)
    ax.set_title(
        textwrap.fill(text, max(40, int(size[0] / (12 * 0.6)))),
        loc="left",
        fontsize=12,
        parse_math=False,
    )
    handles = [
        Patch(color=colour, label=f"{name} ({count:,})")
        for name, colour, count in zip(picture.names, picture.palette, picture.counts, strict=True)
        if count
    ]
    if picture.ticks.any():
        tick = "tick: a column holding a solution (a mark, not a share)"
        handles.append(_mark(TICK_COLOUR, 10, tick))
    if picture.starts:
        handles.append(_mark("black", 6, "black tick atop a band: where a bar begins"))
    figure.legend(
        handles=handles,
        loc="lower center",
        frameon=False,
        fontsize=9,
        ncols=min(5, len(handles) or 1),
        title="nodes below the root, by colour",
        title_fontsize=9,
    )
    with rc_context({"svg.fonttype": "none"}), atomic_path(path) as temporary:
        figure.savefig(temporary, format=Path(path).suffix.lower()[1:], dpi=DPI)
    return Path(path)


def _mark(colour: str, size: float, label: str):
    """A legend entry for a mark that is no share: a vertical tick."""
    from matplotlib.lines import Line2D

    return Line2D([], [], color=colour, marker="|", linestyle="none", markersize=size,
                  label=label)  # fmt: skip


def _depth_ticks(levels: int) -> list[int]:
    """At most about a dozen depths named on the axis.

    >>> _depth_ticks(5), _depth_ticks(40)[:4]
    ([0, 1, 2, 3, 4], [0, 4, 8, 12])
    """
    every = max(1, -(-levels // 12))
    return list(range(0, levels, every))


def picture_title(tree: CompactTree, style: str) -> str:
    """What the picture shows: the board, the search, the counts, the style.

    >>> from cpqueens.trees.pictures.arrays import _example
    >>> picture_title(_example(), "icicle")
    '4-queens search tree: 16 nodes below the root, 2 solutions, 4 dead ends (icicle)'
    >>> import cpqueens
    >>> picture_title(cpqueens.compact_tree(8, max_depth=3), "pixel").partition("root, ")[2]
    'cut at depth 3 before any solution, 0 dead ends (pixel tree)'
    """
    from ..compact.tree import FAILURE, REJECTED, SOLUTION

    status = tree.status
    rejected = int((status == REJECTED).sum())
    below = max(0, len(status) - 1)
    board = "search tree" if tree.n is None else f"{tree.n}-queens search tree"
    if tree.propagation != "none" or tree.order != "row":
        board += f", {tree.propagation} propagation, {tree.order} order"
    solutions = plural(int((status == SOLUTION).sum()), "solution")
    if tree.max_depth is not None and solutions == "0 solutions":
        # Solutions may lie below the cut: "0 solutions" would say what is not known.
        solutions = f"cut at depth {tree.max_depth} before any solution"
    elif tree.max_depth is not None:
        solutions += f" above the cut at depth {tree.max_depth}"
    text = f"{board}: {plural(below, 'node')} below the root"
    if rejected:
        text += f" ({plural(below - rejected, 'queen')} placed, {thousands(rejected)} rejected)"
    text += f", {solutions}, {plural(int((status == FAILURE).sum()), 'dead end')}"
    if tree.fixed:
        text += f", {plural(len(tree.fixed), 'queen')} given"
    if tree.blocked:
        text += f", {plural(len(tree.blocked), 'blocked square')}"
    if tree.note:
        text += f"; {tree.note}"
    return f"{text} ({'pixel tree' if style == 'pixel' else style})"
