"""The explicit decision tree as a networkx graph: building it, estimating its size first,
writing and reading it (GraphML, GEXF, JSON, DOT), drawing it and summing it up.

The modules import only downward: ``nodes`` (what a node is, the one walk that
grows a tree), then ``plain`` and ``propagated`` (how each tree grows), ``bounds``
and ``size`` (bounds and estimate), ``price`` (what a tree with propagation costs),
``build`` (the front). Built trees are read by ``summary`` (their figures), by
``replay`` (the check that a graph is a whole tree), ``flat``, ``xmlformats``,
``nodelink`` and ``dot`` (the file formats) under ``readwrite`` (export and read),
and by ``layout``, ``proportions`` and ``drawing`` (the pictures).
"""

from .build import decision_tree, tree_solutions
from .compact import CompactTree
from .compact_build import compact_tree
from .compare import compare_trees
from .drawing import draw_tree
from .readwrite import export_tree, read_tree

__all__ = [
    "CompactTree",
    "compact_tree",
    "compare_trees",
    "decision_tree",
    "draw_tree",
    "export_tree",
    "read_tree",
    "tree_solutions",
]
