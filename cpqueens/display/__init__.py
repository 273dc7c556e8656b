"""How results look: numbers on screen and in tables (:mod:`.numbers`), boards as SVG
(:mod:`.svg`). Ground floor: the result, the trees, the reports and the CLI all
show numbers and boards the same way.
"""
