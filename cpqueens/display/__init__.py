"""How results look: numbers on screen and in tables (:mod:`.numbers`), boards as SVG
(:mod:`.svg`), and text from elsewhere shown as written, never obeyed: on a terminal
(:mod:`.terminal`), in Markdown and in a spreadsheet's cell (:mod:`.cells`). Ground
floor: the result, the trees, the reports and the CLI all show numbers, boards and
foreign text the same way.
"""

from .svg import Board

__all__ = ["Board"]
