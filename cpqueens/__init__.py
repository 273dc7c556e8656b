"""cpqueens: n-queens solvers side by side, behind one interface.

>>> import cpqueens
>>> cpqueens.count(8)
92
>>> cpqueens.solve(8, backend="stack", limit=1).solutions
((0, 4, 7, 5, 2, 6, 1, 3),)
"""

from .api import backends, count, solutions, solve
from .board import Solution, canonical, from_letters, is_valid, render, symmetries, to_letters
from .errors import (
    BackendUnavailableError,
    CPQueensError,
    InvalidInputError,
    InvalidTypeError,
    SearchTimeoutError,
    UnknownBackendError,
    UnsupportedOptionError,
)
from .result import Result
from .svgboard import Board

__version__ = "0.1.0"

__all__ = [
    "BackendUnavailableError",
    "Board",
    "CPQueensError",
    "InvalidInputError",
    "InvalidTypeError",
    "Result",
    "SearchTimeoutError",
    "Solution",
    "UnknownBackendError",
    "UnsupportedOptionError",
    "backends",
    "canonical",
    "count",
    "from_letters",
    "is_valid",
    "render",
    "solutions",
    "solve",
    "symmetries",
    "to_letters",
]
