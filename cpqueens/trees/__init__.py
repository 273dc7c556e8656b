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
