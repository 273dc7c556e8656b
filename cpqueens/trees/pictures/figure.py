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

from ...disk.writing import atomic_path
from ...display.numbers import plural
from .arrays import PALETTES, picture_image
from .proportions import DPI

if TYPE_CHECKING:
    import numpy as np

    from ..compact.tree import CompactTree

#: The image's width in pixels unless told, and the room around it (pixels).
DEFAULT_WIDTH = 1600
_LEFT, _RIGHT, _TOP, _BOTTOM = 70, 40, 90, 95
#: Pixels a depth, within bounds on the image's height.
_BAND, _MIN_HEIGHT, _MAX_HEIGHT = 40, 160, 900


def draw_picture(
    tree: CompactTree,
    path: str | os.PathLike,
    style: str,
    *,
    width: int = DEFAULT_WIDTH,
    title: str | None = None,
    highlight: np.ndarray | None = None,
) -> Path:
    """Draw ``tree`` as an icicle or a pixel tree to ``path`` (its suffix the format)."""
    from matplotlib import rc_context
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    image, names, counts, step = picture_image(tree, style, width, highlight)
    levels = image.shape[0]
    height = min(_MAX_HEIGHT, max(_MIN_HEIGHT, levels * _BAND))
    size = (width + _LEFT + _RIGHT, height + _TOP + _BOTTOM)
    figure = Figure(figsize=(size[0] / DPI, size[1] / DPI), dpi=DPI)
    FigureCanvasAgg(figure)
    ax = figure.add_axes((_LEFT / size[0], _BOTTOM / size[1], width / size[0], height / size[1]))
    span = image.shape[1] * step if style == "pixel" else image.shape[1]
    ax.imshow(
        image,
        aspect="auto",
        interpolation="nearest",
        extent=(0, span, levels - 0.5, -0.5),
        resample=False,
    )
    ax.set_yticks(_depth_ticks(levels))
    ax.set_ylabel("depth")
    if style == "pixel":
        ax.set_xlabel(f"nodes in search order ({plural(step, 'node')} a column)")
        from matplotlib.ticker import FuncFormatter, MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(8, integer=True))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{int(x):,}"))
    else:
        ax.set_xticks([])
        ax.set_xlabel("leaves in search order: each node as wide as the leaves below it")
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    text = title if title is not None else picture_title(tree, style)
    ax.set_title(
        textwrap.fill(text, max(40, int(size[0] / (12 * 0.6)))),
        loc="left",
        fontsize=12,
        parse_math=False,
    )
    palette = PALETTES[names]
    handles = [
        Patch(color=palette[k], label=f"{name} ({counts[k]:,})")
        for k, name in enumerate(names)
        if counts[k]
    ]
    figure.legend(
        handles=handles, loc="lower center", frameon=False, fontsize=9, ncols=len(handles) or 1
    )
    with rc_context({"svg.fonttype": "none"}), atomic_path(path) as temporary:
        figure.savefig(temporary, format=Path(path).suffix.lower()[1:], dpi=DPI)
    return Path(path)


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
    '4-queens search tree: 16 nodes below the root, 2 solutions, 4 failures (icicle)'
    >>> import cpqueens
    >>> picture_title(cpqueens.compact_tree(8, max_depth=3), "pixel").partition("root, ")[2]
    'cut at depth 3 before any solution, 0 failures (pixel tree)'
    """
    from ..compact.tree import FAILURE, REJECTED, SOLUTION

    status = tree.status
    below = max(0, len(status) - 1 - int((status == REJECTED).sum()))
    board = "search tree" if tree.n is None else f"{tree.n}-queens search tree"
    if tree.propagation != "none" or tree.order != "row":
        board += f", {tree.propagation} propagation, {tree.order} order"
    solutions = plural(int((status == SOLUTION).sum()), "solution")
    if tree.max_depth is not None and solutions == "0 solutions":
        # Solutions may lie below the cut: "0 solutions" would say what is not known.
        solutions = f"cut at depth {tree.max_depth} before any solution"
    elif tree.max_depth is not None:
        solutions += f" above the cut at depth {tree.max_depth}"
    text = (
        f"{board}: {plural(below, 'node')} below the root, {solutions}, "
        f"{plural(int((status == FAILURE).sum()), 'failure')}"
    )
    if tree.fixed:
        text += f", {plural(len(tree.fixed), 'queen')} given"
    if tree.blocked:
        text += f", {plural(len(tree.blocked), 'blocked square')}"
    if tree.note:
        text += f"; {tree.note}"
    return f"{text} ({'pixel tree' if style == 'pixel' else style})"
