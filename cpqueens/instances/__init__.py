"""The problem beyond n: an instance (n, given queens, blocked squares), its file
formats (one reader and writer per format) and the seeded generators of hard ones.

Every layer may read an instance; an instance knows no solver.
"""

from .bundles import InstanceFiles, read_instances
from .files import FORMATS, format_instance, parse_instance, read_instance, write_instance
from .generators import random_blocked, random_completion, random_solution
from .instance import Instance, as_instance

__all__ = [
    "FORMATS",
    "Instance",
    "InstanceFiles",
    "as_instance",
    "format_instance",
    "parse_instance",
    "random_blocked",
    "random_completion",
    "random_solution",
    "read_instance",
    "read_instances",
    "write_instance",
]
