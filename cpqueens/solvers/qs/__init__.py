"""The ``qs`` backend: Sosic and Gu's conflict-minimising local search (QS4), compiled
with numba; it finds solutions of boards of millions of queens, it does not list them all.
"""

from .backend import QSBackend

__all__ = ["QSBackend"]
