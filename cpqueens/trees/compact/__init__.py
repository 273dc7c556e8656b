"""A decision tree kept as flat arrays: millions of nodes in a few bytes each.

Map: ``tree`` (:class:`CompactTree`, the arrays and what they answer), ``build``
(:func:`compact_tree`, priced in bytes before it is built), ``kernels`` (the compiled
searches that write it, plain and under propagation), ``graph`` (a compact tree to
networkx and back), ``shape`` (its figures per depth and in all).
"""

from .build import compact_tree
from .tree import CompactTree

__all__ = ["CompactTree", "compact_tree"]
