"""The ``minconflicts`` backend: Minton et al.'s min-conflicts local search, one queen
per row, conflicts counted per line, compiled with numba.
"""

from .backend import MinConflictsBackend

__all__ = ["MinConflictsBackend"]
