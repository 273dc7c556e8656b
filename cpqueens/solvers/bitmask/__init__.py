"""The ``bitmask`` backend: compiled bit-parallel search and counting with start constellations.
Kernels (numba), the task lists handed to workers, and the constellations they start from.

Map: ``backend`` (the backend: compiled bit-parallel backtracking with start
constellations, on every core), ``kernels`` (the row-by-row kernels: listing, counting
below fixed queens), ``constellations`` (the border queens of a solution, one per
symmetry class), ``counting`` (the compiled constellation counter, a search over the rows
the border queens leave free), ``symmetric`` (counting the solutions a rotation maps to
themselves), ``tasks`` (the counts cut into independent, picklable tasks), ``checkpoint``
(the finished tasks of a count kept in an SQLite file, so that it survives a restart).
"""

from .backend import BitmaskBackend

__all__ = ["BitmaskBackend"]
