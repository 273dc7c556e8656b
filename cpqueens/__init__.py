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
from .checking import (
    Command,
    CrossCheckReport,
    CrossCheckRow,
    FlatZincSolver,
    check_output,
    crosscheck,
)
from .columns import Columns
from .display import Board
from .errors import (
    BackendUnavailableError,
    CommandFailedError,
    CPQueensError,
    InvalidInputError,
    InvalidTypeError,
    ProgramNotFoundError,
    SandboxError,
    SearchTimeoutError,
    SolverError,
    TreeTooLargeError,
    UnknownBackendError,
    UnsupportedOptionError,
    WrongSolutionError,
)
from .instances import (
    Instance,
    diagonals_to_completion,
    random_blocked,
    random_completion,
    random_diagonals,
    read_instance,
    read_instances,
    write_instance,
)
from .outputs import FlatZincOutput, ParsedOutput, parse_boards, read_flatzinc_output
from .result import Result
from .trees import (
    CompactTree,
    compact_tree,
    compare_trees,
    decision_tree,
    draw_tree,
    export_tree,
    read_tree,
    tree_solutions,
)

__all__ = [
    "BackendUnavailableError",
    "Board",
    "CPQueensError",
    "Certificate",
    "CertifiedCount",
    "Columns",
    "Command",
    "CommandFailedError",
    "CompactTree",
    "CrossCheckReport",
    "CrossCheckRow",
    "FlatZincOutput",
    "FlatZincSolver",
    "FuzzFailure",
    "FuzzReport",
    "Instance",
    "InvalidInputError",
    "InvalidTypeError",
    "ParsedOutput",
    "ProgramNotFoundError",
    "Result",
    "SandboxError",
    "SearchTimeoutError",
    "Solution",
    "SolverError",
    "TreeTooLargeError",
    "UnknownBackendError",
    "UnsupportedOptionError",
    "WrongSolutionError",
    "backends",
    "canonical",
    "certify",
    "check_output",
    "compact_tree",
    "compare_trees",
    "count",
    "crosscheck",
    "decision_tree",
    "diagonals_to_completion",
    "draw_tree",
    "export_tree",
    "from_letters",
    "fuzz",
    "is_valid",
    "load_results",
    "parse_boards",
    "random_blocked",
    "random_completion",
    "random_diagonals",
    "read_flatzinc_output",
    "read_instance",
    "read_instances",
    "read_tree",
    "render",
    "run_campaign",
    "solutions",
    "solve",
    "symmetries",
    "to_letters",
    "tree_solutions",
    "write_instance",
]


def __getattr__(name: str) -> object:
    # Campaigns and hunts bring sqlite3, tomllib and the process machinery: loaded on
    # first use, so that ``import cpqueens`` stays quick.
    if name in ("run_campaign", "load_results"):
        from . import campaigns

        return getattr(campaigns, name)
    if name in ("certify", "Certificate", "CertifiedCount"):
        from . import proofs

        return getattr(proofs, name)
    if name in ("fuzz", "FuzzReport", "FuzzFailure"):
        from . import fuzzing

        return getattr(fuzzing, name)
    raise AttributeError(f"module 'cpqueens' has no attribute {name!r}")
