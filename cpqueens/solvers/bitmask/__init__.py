"""The ``bitmask`` backend: compiled bit-parallel search and counting with start constellations.
Kernels (numba), the task lists handed to workers, and the constellations they start from.
"""

from .backend import BitmaskBackend

__all__ = ["BitmaskBackend"]
