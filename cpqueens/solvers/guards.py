"""What a backend refuses: an option value it does not know, a recursion deeper than
the stack allows, and a native solver's answer that is not a solution.

A backend calls these from :meth:`~cpqueens.solvers.base.Backend.check_problem` (at
the call, before any search) and on every board a solver library hands back, so
no wrong board ever reaches a Result.
"""

from __future__ import annotations

import itertools
import operator
import sys
from collections.abc import Iterable, Mapping

from ..arguments import check_int
from ..board import NUMPY_CHECK_N, Solution, is_valid
from ..columns import Columns
from ..errors import InvalidInputError, InvalidTypeError, WrongSolutionError
from .problem import Problem


def check_choice(
    backend: str,
    option: str,
    value: object,
    usable: Iterable[str],
    missing: Mapping[str, str] | None = None,
) -> None:
    """Refuse ``value`` unless it is one of ``usable``, listing the valid names.

    ``missing`` maps the names known but not usable here to what would make them
    usable (a pip requirement, a system package), so the message says so.
    """
    usable = tuple(usable)
    if value in usable:
        return
    message = (
        f"{backend} option {option} must be one of {', '.join(usable) or '(none usable here)'}"
    )
    if missing:
        message += "; not usable here: " + ", ".join(f"{k} ({v})" for k, v in missing.items())
    raise InvalidInputError(f"{message}; got {value!r}")


def check_option_int(backend: str, option: str, value: object, minimum: int) -> int:
    """A backend's integer option, checked by :func:`~cpqueens.arguments.check_int`.

    A value of the wrong type is bad input here too (an
    :class:`~cpqueens.errors.InvalidInputError`, a ValueError): options arrive as
    text from the command line and from campaign specs as often as from Python.

    >>> check_option_int("cpsat", "split_depth", 1.5, 0)
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: cpsat option split_depth must be an integer, got 1.5 (float)
    """
    try:
        return check_int(value, f"{backend} option {option}", minimum)
    except InvalidTypeError as error:
        raise InvalidInputError(str(error)) from None


def check_solution(values: Iterable[int], problem: Problem, solver: str) -> Solution:
    """Return the solver's assignment as a tuple once it is known to solve ``problem``.

    A solver that hands back anything else (a wrong model, a lost fixed queen) gets a
    :class:`~cpqueens.errors.WrongSolutionError` (a ``SolverError``) naming it and
    holding the board, never a place in a Result.
    ``values`` may be a numpy array: a large one is checked as it is (see
    :func:`~cpqueens.board.is_valid`) and handed back as
    :class:`~cpqueens.columns.Columns` over it, a small one as a tuple. Only the
    fixed queens that are set and the blocked squares are looked at one by one,
    never every row, so a board of millions of rows is checked in vector operations.

    >>> check_solution([1, 3, 0, 2], Problem(4, (None, None, None, None)), "demo")
    (1, 3, 0, 2)
    >>> import numpy
    >>> check_solution(numpy.array([2, 0, 3, 1]), Problem(4, (2, None, None, None)), "demo")
    (2, 0, 3, 1)
    """
    n = problem.n
    if hasattr(values, "tolist") and getattr(values, "ndim", None) == 1:
        rows = len(values)  # type: ignore[arg-type]
        if rows > NUMPY_CHECK_N:
            # Checked as an array, once, and kept as one: a huge board is never made a
            # tuple of Python ints (see cpqueens.columns).
            solution = Columns(values)
            valid = is_valid(solution.array, n)
        else:
            solution = tuple(values.tolist())  # type: ignore[attr-defined]
            valid = is_valid(solution, n)
    else:
        solution = tuple(values)
        rows = len(solution)
        valid = is_valid(solution, n)
    if valid and problem.fixed.count(None) != n:  # a C-level look, not has_fixed's loop
        # Only the rows whose queen is fixed come out to Python.
        is_set = map(operator.is_not, problem.fixed, itertools.repeat(None))
        pairs = itertools.compress(enumerate(problem.fixed), is_set)
        valid = all(solution[row] == want for row, want in pairs)
    if valid and problem.blocked:
        valid = not any(solution[row] == column for row, column in problem.blocked)
    if valid:
        return solution
    shown = repr(solution) if rows <= 32 else f"a board of {rows:,} rows"
    raise WrongSolutionError(
        f"{solver} returned {shown}, which is not a solution of the {n}-queens "
        "problem with the fixed queens and blocked squares given",
        solution,
    )


#: The deepest recursion a recursive backend will attempt. Python 3.11 keeps each
#: generator resumption on the C stack, so the interpreter's limit may be raised,
#: but only so far before a deep search could overflow the real stack.
MAX_RECURSION_DEPTH = 5_000


def ensure_recursion_depth(n: int, backend: str) -> None:
    """Make room for a recursion of depth ``n`` or refuse with a clear error.

    The interpreter's recursion limit is only ever raised, never lowered, so that
    another search suspended at depth keeps working.
    """
    needed = n + 200
    if needed > MAX_RECURSION_DEPTH:
        raise InvalidInputError(
            f"backend {backend!r} recurses once per row and cannot go {n} rows deep "
            f"(at most {MAX_RECURSION_DEPTH - 200}); use backend='stack', which "
            "searches without recursion"
        )
    if sys.getrecursionlimit() < needed:
        sys.setrecursionlimit(needed)
