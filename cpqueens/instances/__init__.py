"""The problem beyond n: an instance (n, given queens, blocked squares, or excluded
diagonals), its file formats (one reader and writer per format), the seeded
generators of hard ones and the reduction from Excluded Diagonals to completion.

Every layer may read an instance; an instance knows no solver.

Map: ``instance`` (``Instance`` and the door ``as_instance``), ``formats`` (one module a
file format, and one record each from which every list of formats is made), ``files``
(reading and writing, the format told by the file's extension), ``bundles`` (every
instance file of a folder or an archive), ``compressed`` (``.lzma``, ``.xz`` and ``.gz``
files decompressed within a bound), ``generators`` (seeded generators of blocked,
completion and Excluded Diagonals instances), ``reduction`` (Gent et al.'s reduction of
Excluded Diagonals to completion).
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
