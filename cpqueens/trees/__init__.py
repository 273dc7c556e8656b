"""The explicit decision tree as a networkx graph: building it, estimating its size first,
writing and reading it (GraphML, GEXF, JSON, DOT, CP-Profiler's database), drawing it,
comparing two and summing it up; and the same tree kept compact, as flat arrays.

Map: ``explicit`` (the tree as a networkx graph: its nodes, how it grows blind or under
propagation, its size and cost priced before it is built, the front
:func:`decision_tree`, figures read off it), ``status`` (a node's
status in CP-Profiler's codes), ``compare`` (two trees of one board side by side: where
they agree, where one pruned), ``preorder`` (a tree given by its parents, put in order),
``agreement`` (two trees of one search checked to be the same, and where they part),
``compact`` (the tree as flat arrays, a few bytes a node), ``files`` (trees saved and
read back strictly, every attribute kept), ``pictures`` (trees drawn node by node, as
arrays when too large for that, or explored in a browser).
"""

from .compact.build import compact_tree
from .compact.tree import CompactTree
from .compare import compare_trees
from .explicit.build import decision_tree, tree_solutions
from .files.readwrite import export_tree, read_tree
from .pictures.drawing import draw_tree

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
