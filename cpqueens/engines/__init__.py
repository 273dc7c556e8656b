"""Search engines shared by a backend and the trees that draw its search.

An engine knows no backend, no registry and no tree: :mod:`cpqueens.solvers` and
:mod:`cpqueens.trees` both build on it, so neither has to reach into the other.

Map: ``propagation`` (forward checking and arc consistency over row domains kept as bit
masks, shared by the ``propagate`` backend and the propagated trees).
"""
