"""The ``exactcover`` backend: n-queens as exact cover, the row or column with the fewest
options first (Knuth's Algorithm X), on bitsets compiled with numba.

Map: ``backend`` (the backend: the board fed to the compiled search, driven in chunks),
``kernels`` (the compiled search, Algorithm X over bitsets of one machine word), ``wide``
(the same search past one machine word, n > 64), ``bits`` (two machine instructions for
the kernels: population count, trailing zeros).
"""

from .backend import ExactCoverBackend

__all__ = ["ExactCoverBackend"]
