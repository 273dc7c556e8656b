"""cpqueens: n-queens solvers side by side, behind one interface.

>>> import cpqueens
>>> cpqueens.count(8)
92
>>> cpqueens.solve(8, backend="stack", limit=1).solutions
((0, 4, 7, 5, 2, 6, 1, 3),)
"""

from ._version import __version__ as __version__
from .api import backends, count, solutions, solve
from .board import Solution, canonical, from_letters, is_valid, render, symmetries, to_letters
from .checking.compare import CrossCheckReport, CrossCheckRow, crosscheck
from .checking.external import Command
from .checking.parsing import ParsedOutput, parse_boards
from .errors import (
    BackendUnavailableError,
    CommandFailedError,
    CPQueensError,
    InvalidInputError,
    InvalidTypeError,
    SearchTimeoutError,
    SolverError,
    TreeTooLargeError,
    UnknownBackendError,
    UnsupportedOptionError,
)
from .instances import (
    Instance,
    random_blocked,
    random_completion,
    read_instance,
    write_instance,
)
from .result import Result
from .svgboard import Board
from .trees.build import decision_tree, tree_solutions
from .trees.drawing import draw_tree
from .trees.readwrite import export_tree, read_tree

__all__ = [
    "BackendUnavailableError",
    "Board",
    "CPQueensError",
    "Command",
    "CommandFailedError",
    "CrossCheckReport",
    "CrossCheckRow",
    "Instance",
    "InvalidInputError",
    "InvalidTypeError",
    "ParsedOutput",
    "Result",
    "SearchTimeoutError",
    "Solution",
    "SolverError",
    "TreeTooLargeError",
    "UnknownBackendError",
    "UnsupportedOptionError",
    "backends",
    "canonical",
    "count",
    "crosscheck",
    "decision_tree",
    "draw_tree",
    "export_tree",
    "from_letters",
    "is_valid",
    "parse_boards",
    "random_blocked",
    "random_completion",
    "read_instance",
    "read_tree",
    "render",
    "solutions",
    "solve",
    "symmetries",
    "to_letters",
    "tree_solutions",
    "write_instance",
]
