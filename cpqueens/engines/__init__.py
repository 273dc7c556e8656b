"""Search engines shared by a backend and the trees that draw its search.

An engine knows no backend, no registry and no tree: :mod:`cpqueens.solvers` and
:mod:`cpqueens.trees` both build on it, so neither has to reach into the other.
"""
