"""The checks every front function makes of its arguments, before anything is built.

They live on the ground floor so that every family (the API, the trees, the
cross-check, the reports) checks a board size, fixed queens or a time limit with
the same words, without importing the layers above.
"""

from __future__ import annotations

from collections.abc import Mapping

from .errors import InvalidInputError, InvalidTypeError


def check_int(value: object, name: str, minimum: int) -> int:
    """Return ``value`` when it is an integer (not a bool) of at least ``minimum``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidTypeError(f"{name} must be an integer, got {value!r} ({type(value).__name__})")
    if value < minimum:
        allowed = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
        raise InvalidInputError(f"{name} must be {allowed}, got {value}")
    return value


def check_n(n: object) -> int:
    """Return ``n`` when it is a valid board size, else raise a clear error.

    >>> check_n(8)
    8
    >>> check_n(0)
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: n must be a positive integer, got 0
    """
    return check_int(n, "n", 1)


def check_fixed(fixed: Mapping[int, int] | None, n: int) -> tuple[int | None, ...]:
    """Turn a ``{row: column}`` mapping into a per-row tuple, checking every entry.

    Queens that attack each other are allowed (the problem then has no solution);
    rows and columns outside the board are not.
    """
    per_row: list[int | None] = [None] * n
    if fixed is None:
        return tuple(per_row)
    if not isinstance(fixed, Mapping):
        raise InvalidTypeError(
            f"fixed must be a mapping of row -> column, got {type(fixed).__name__}"
        )
    for row, column in fixed.items():
        for name, value in (("row", row), ("column", column)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidTypeError(f"fixed {name} must be an integer, got {value!r}")
            if not 0 <= value < n:
                raise InvalidInputError(
                    f"fixed {name} {value} is off the board; "
                    f"rows and columns run 0..{n - 1} for n={n}"
                )
        per_row[row] = column
    return tuple(per_row)


def check_time_limit(time_limit: object) -> float | None:
    """Return ``time_limit`` (seconds, or None for no limit) after checking it is positive."""
    if time_limit is None:
        return None
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)):
        raise InvalidTypeError(f"time_limit must be a number of seconds, got {time_limit!r}")
    if not time_limit > 0:
        raise InvalidInputError(
            f"time_limit must be a positive number of seconds, got {time_limit}"
        )
    return float(time_limit)
