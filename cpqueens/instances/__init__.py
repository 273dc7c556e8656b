"""The problem beyond n: an instance (n, given queens, blocked squares, or excluded
diagonals), its file formats (one reader and writer per format), the seeded
generators of hard ones and the reduction from Excluded Diagonals to completion.

Every layer may read an instance; an instance knows no solver.
"""

from .bundles import InstanceFiles, read_instances
from .files import FORMATS, format_instance, parse_instance, read_instance, write_instance
from .generators import random_blocked, random_completion, random_diagonals, random_solution
from .instance import Instance, as_instance
from .reduction import diagonals_to_completion

__all__ = [
    "FORMATS",
    "Instance",
    "InstanceFiles",
    "as_instance",
    "diagonals_to_completion",
    "format_instance",
    "parse_instance",
    "random_blocked",
    "random_completion",
    "random_diagonals",
    "random_solution",
    "read_instance",
    "read_instances",
    "write_instance",
]
