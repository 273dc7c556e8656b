"""How results look: numbers on screen and in tables (:mod:`.numbers`), boards as SVG
(:mod:`.svg`), and text from elsewhere shown as written, never obeyed: on a terminal
(:mod:`.terminal`), in Markdown and in a spreadsheet's cell (:mod:`.cells`). Ground
floor: the result, the trees, the reports and the CLI all show numbers, boards and
foreign text the same way.

Map: ``numbers`` (seconds, thousands, plurals: one style everywhere), ``svg`` (a board as
an SVG chessboard, and ``Board``, a solution that draws itself), ``streaming`` (the text
of huge boards in pieces: columns as digits, JSON holding boards), ``terminal``
(``printable``, the one door of text from elsewhere to a terminal), ``cells`` (the same
text in a Markdown document or a spreadsheet's cell).
"""

from .svg import Board

__all__ = ["Board"]
