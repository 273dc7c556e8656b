"""The explicit decision tree as a networkx graph: building it, estimating its size first,
writing and reading it (GraphML, GEXF, JSON, DOT), drawing it and summing it up.

The modules import only downward: ``nodes`` (what a node is, the one walk that
grows a tree), then ``plain`` and ``propagated`` (how each tree grows), ``size``
(the estimate), ``build`` (the front); ``summary``, ``readwrite`` and ``drawing``
read built trees.
"""
