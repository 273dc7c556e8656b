"""The ``exactcover`` backend: n-queens as exact cover, the row or column with the fewest
options first (Knuth's Algorithm X), on bitsets compiled with numba.
"""

from .backend import ExactCoverBackend

__all__ = ["ExactCoverBackend"]
