"""Trees in files: saved and read back strictly, every attribute kept.

Map: ``readwrite`` (:func:`export_tree` and :func:`read_tree`, the format told by the
suffix), ``graphml`` (GraphML and GEXF), ``nodelink`` (networkx's node-link JSON),
``dot`` (Graphviz DOT, written without Graphviz), ``cpprofiler`` (CP-Profiler's
execution database), ``attributes`` (a tree's attributes as the numbers, booleans
and strings files hold, and back), ``replay`` (the check that a graph read is a
whole tree of the search, by replaying it), ``costs`` (what a write takes, on disk,
in memory and in time, priced from the node count before anything is written).
"""

from .readwrite import export_tree, read_tree

__all__ = ["export_tree", "read_tree"]
