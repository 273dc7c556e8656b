"""How large the picture of a tree is: the figure's size, its labels and its nodes,
chosen from the tree's shape.

A picture gives each leaf the room of its label, within bounds: no wider than
about 4,000 pixels, no more than four times as wide as high or the other way,
labels no smaller than they can be read (none at all below that, or only on the
upper levels, which stand wider apart).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

#: The picture's bounds: a resolution, the widest and narrowest figure (inches), the
#: most extreme aspect ratio, and the smallest and largest node label (points).
DPI = 110
MAX_WIDTH = 36.0  # about 4,000 pixels at DPI
MIN_WIDTH = 6.0
MAX_HEIGHT = 20.0
MAX_ASPECT = 4.0
MIN_FONT, MAX_FONT = 6.0, 10.0
#: Room beside the tree for the level names on the left (inches).
_MARGIN = 1.1
#: The width of a digit or colon of the labels, in ems (DejaVu Sans: about 0.64).
EM = 0.64


@dataclass(frozen=True)
class TreeLayout:
    """The size of a tree's picture, chosen from the tree's shape.

    ``width`` and ``height`` are inches at :data:`DPI`; ``font`` is the node labels'
    size in points, None when it would be under :data:`MIN_FONT` (then no node is
    labelled and the title says so); ``marker`` is the nodes' area in points².
    """

    width: float
    height: float
    font: float | None
    marker: float

    @property
    def pixels(self) -> tuple[int, int]:
        return round(self.width * DPI), round(self.height * DPI)

    def room(self, leaves: int) -> float:
        """The points between two neighbouring leaves of the ``leaves`` side by side.

        >>> TreeLayout(width=7.1, height=3.0, font=None, marker=9.0).room(100)
        4.32
        """
        return (self.width - _MARGIN) * 72 / leaves


def tree_layout(leaves: int, levels: int, label_chars: int) -> TreeLayout:
    """Size the picture of a tree with ``leaves`` leaves and ``levels`` rows of nodes.

    The width gives each leaf the room of its label at :data:`MAX_FONT` (at most
    :data:`MAX_WIDTH`), the height about 0.8 inch a level; neither is more than
    :data:`MAX_ASPECT` times the other. The labels then take the size the room per
    leaf allows, up to :data:`MAX_FONT`, and are dropped below :data:`MIN_FONT`.

    >>> tree_layout(1364, 4, 2)  # n=14 cut at depth 3: wide, few levels, unlabelled
    TreeLayout(width=36.0, height=9.0, font=None, marker=9.0)
    >>> small = tree_layout(22, 7, 3)  # n=6, arc propagation, first-fail
    >>> small.font >= 8, small.width <= 12, small.pixels[0] <= 4000
    (True, True, True)
    """
    leaves, levels, chars = max(1, leaves), max(1, levels), max(1, label_chars)
    # A label needs chars * EM ems and a little air on each side.
    wanted = chars * EM * MAX_FONT + 6.0  # points a leaf
    width = min(MAX_WIDTH, max(MIN_WIDTH, leaves * wanted / 72 + _MARGIN))
    height = min(MAX_HEIGHT, max(3.0, 0.8 * levels + 1.4))
    height = max(height, width / MAX_ASPECT)
    width = max(width, height / MAX_ASPECT)
    room = (width - _MARGIN) * 72 / leaves  # points a leaf
    font = min(MAX_FONT, (room - 4.0) / (chars * EM))
    if font < MIN_FONT:
        diameter = max(3.0, min(12.0, 0.8 * room))
        return TreeLayout(round(width, 2), round(height, 2), None, round(diameter**2, 1))
    # A node holds its label: a disc a little wider than the text, if the room allows.
    diameter = min(0.95 * room, max(chars * EM * font + 4.0, 1.8 * font))
    return TreeLayout(round(width, 2), round(height, 2), round(font, 1), round(diameter**2, 1))


def level_fonts(pos: dict, room: float, chars: int) -> dict[int, float]:
    """``{y: label size}`` for the levels whose nodes stand far enough apart to label.

    ``room`` is the points between two neighbouring leaves (x one apart).

    >>> level_fonts({0: (1.5, 0), 1: (0.0, -1), 2: (3.0, -1)}, 4.0, 2)
    {-1: 6.2}
    """
    xs: dict[int, list[float]] = {}
    for x, y in pos.values():
        xs.setdefault(y, []).append(x)
    fonts = {}
    for y, row in xs.items():
        row.sort()
        gap = min((b - a for a, b in itertools.pairwise(row)), default=8.0)
        font = min(MAX_FONT, (gap * room - 4.0) / (chars * EM))
        if y < 0 and font >= MIN_FONT:
            fonts[y] = round(font, 1)
    return fonts
