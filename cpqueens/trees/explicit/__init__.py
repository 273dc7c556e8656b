"""The explicit decision tree, one networkx node a search node: how it grows, what it
will cost before it is built, and the figures read off it once built.

Map: ``nodes`` (what a node is, the one walk that grows a tree), ``plain`` and
``propagated`` (how each tree grows: blind backtracking, and search under propagation),
``bounds`` and ``size`` (its size bounded and estimated before it is built), ``cost``
(what a tree with propagation costs in memory and time), ``build`` (the front,
:func:`~cpqueens.decision_tree`), ``summary`` (figures read off a built tree).
"""
