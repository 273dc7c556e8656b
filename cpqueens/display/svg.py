"""Draw a placement as an SVG chessboard, and :class:`Board`, a solution that draws itself.

The SVG is plain text with no external reference (no fonts, images or styles to
fetch), so it can be inlined in HTML, embedded as a data URI, or shown by Jupyter.

>>> svg = to_svg((1, 3, 0, 2))
>>> svg.startswith("<svg") and svg.count("<circle") == 4
True
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass

from ..board import Solution, attacking_pairs, check_drawable, check_placement, is_valid, render

LIGHT, DARK, QUEEN, CLASH = "#f0d9b5", "#b58863", "#1f2a44", "#c0392b"

#: The largest board drawn as SVG: n=300 is 45,000 dark squares, about 3 MB of SVG
#: (7,200 pixels a side at the default cell), already more than a page can show.
MAX_SVG_N = 300


def to_svg(
    placement: Sequence[int], n: int | None = None, *, cell: int = 24, title: str | None = None
) -> str:
    """Return an SVG picture of ``placement`` (a column per row) on an n x n board.

    Queens that attack another queen are drawn in red, so a wrong answer shows at a
    glance. ``n`` defaults to ``len(placement)``; ``cell`` is the square size in pixels.
    Boards larger than :data:`MAX_SVG_N` are refused with an
    :class:`~cpqueens.errors.InvalidInputError` before anything is drawn.

    >>> 'width="10" height="10"' in to_svg((0,), cell=10)
    True
    """
    check_drawable(placement, n, limit=MAX_SVG_N, drawer="to_svg")
    placement = check_placement(placement, n)
    size = len(placement) if n is None else operator.index(n)  # a plain int, checked above
    side = size * cell
    clashing = {row for pair in attacking_pairs(placement) for row in pair}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{side}" '
        f'viewBox="0 0 {side} {side}" role="img">'
    ]
    if title:
        parts.append(f"<title>{_escape(title)}</title>")
    parts.append(f'<rect width="{side}" height="{side}" fill="{LIGHT}"/>')
    for row in range(size):
        for column in range(size):
            if (row + column) % 2:
                parts.append(
                    f'<rect x="{column * cell}" y="{row * cell}" width="{cell}" '
                    f'height="{cell}" fill="{DARK}"/>'
                )
    radius = cell * 0.34
    for row, column in enumerate(placement):
        colour = CLASH if row in clashing else QUEEN
        cx, cy = (column + 0.5) * cell, (row + 0.5) * cell
        parts.append(
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{radius:g}" fill="{colour}" '
            f'stroke="#ffffff" stroke-width="{max(1, cell // 12)}"/>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


@dataclass(frozen=True)
class Board:
    """One placement of queens that shows itself as a board: text with ``str``, SVG in Jupyter.

    Parameters
    ----------
    queens : sequence of int
        The column of the queen in each row, 0-based.
    n : int, optional
        Board size, for a partial placement; defaults to ``len(queens)``. Boards larger
        than :data:`MAX_SVG_N` are refused: a Board is there to be looked at.

    Examples
    --------
    >>> import cpqueens
    >>> board = cpqueens.Board((1, 3, 0, 2))
    >>> print(board)
    . Q . .
    . . . Q
    Q . . .
    . . Q .
    >>> board.valid, board._repr_svg_().count("<circle")
    (True, 4)
    """

    queens: Solution
    n: int | None = None

    def __post_init__(self) -> None:
        # Refused here rather than when shown: a notebook must not fail on display.
        check_drawable(self.queens, self.n, limit=MAX_SVG_N, drawer="Board")
        queens = check_placement(self.queens, self.n)
        object.__setattr__(self, "queens", queens)
        # n as a plain int (it may have come as numpy.int64), checked by check_placement.
        object.__setattr__(self, "n", len(queens) if self.n is None else operator.index(self.n))

    @property
    def valid(self) -> bool:
        """True when the queens fill the board and none attacks another."""
        return is_valid(self.queens, self.n)

    def to_svg(self, cell: int = 24) -> str:
        """Return the board as an SVG document (see :func:`to_svg`)."""
        return to_svg(self.queens, self.n, cell=cell)

    def __str__(self) -> str:
        return render(self.queens, n=self.n)

    def _repr_svg_(self) -> str:
        return self.to_svg()
