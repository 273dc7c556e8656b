"""The ``minconflicts`` backend: Minton et al.'s min-conflicts local search, one queen
per row, conflicts counted per line, compiled with numba.

Map: ``backend`` (the backend: the board's arrays built, the search driven in chunks),
``kernels`` (the compiled min-conflicts search).
"""

from .backend import MinConflictsBackend

__all__ = ["MinConflictsBackend"]
