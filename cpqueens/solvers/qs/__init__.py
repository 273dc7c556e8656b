"""The ``qs`` backend: Sosic and Gu's conflict-minimising local search (QS4), compiled
with numba; it finds solutions of boards of millions of queens, it does not list them all.

Map: ``backend`` (the backend: the board laid out, the search driven in chunks of tries),
``kernels`` (the compiled search, QS4 with fixed and blocked squares).
"""

from .backend import QSBackend

__all__ = ["QSBackend"]
