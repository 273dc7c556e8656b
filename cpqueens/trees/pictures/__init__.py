"""Pictures of search trees: drawn node by node, as arrays when too large for that,
or explored in a browser.

Map: ``drawing`` (:func:`draw_tree`, PNG, SVG or PDF), ``traditional`` (each node a
disc, each edge a line), ``layout`` (the tree laid out top-down), ``proportions``
(the figure's size, its labels and its nodes), ``arrays`` (the icicle and the pixel
tree of trees too large to draw node by node), ``figure`` (those framed and saved),
``explorer`` (one self-contained HTML page, with d3 and its script from ``static/``).
"""

from .drawing import draw_tree

__all__ = ["draw_tree"]
