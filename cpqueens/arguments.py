"""The checks every front function makes of its arguments, before anything is built.

They live on the ground floor so that every family (the API, the trees, the
cross-check, the reports) checks a board size, fixed queens or a time limit with
the same words, without importing the layers above.
"""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Iterable, Mapping

from .errors import InvalidInputError, InvalidTypeError


def is_bool(value: object) -> bool:
    """True for ``True``/``False`` and numpy's booleans, which are flags, never counts.

    numpy is not imported for this: its boolean type is recognised by name (``bool_``
    in numpy 1, ``bool`` in numpy 2), and numpy 1's booleans still have ``__index__``.

    >>> is_bool(True), is_bool(1)
    (True, False)
    """
    kind = type(value)
    return isinstance(value, bool) or (
        kind.__module__ == "numpy" and kind.__name__ in ("bool_", "bool")
    )


def as_int(value: object) -> int | None:
    """``value`` as a plain int when it is an integer of any type, else None.

    An integer is anything with ``__index__`` (``int``, ``numpy.int64``, ...) except a
    bool; a float is not one, even ``8.0``, since it may as well have been ``8.5``.

    >>> import numpy
    >>> as_int(numpy.int64(8)), type(as_int(numpy.int64(8))).__name__
    (8, 'int')
    >>> as_int(8.0), as_int(True), as_int(numpy.True_)
    (None, None, None)
    """
    if is_bool(value):
        return None
    try:
        # int() on top: an int subclass (an IntEnum) must not travel on as itself.
        return int(operator.index(value))  # type: ignore[arg-type]
    except TypeError:
        return None


def check_int(value: object, name: str, minimum: int | None = None) -> int:
    """Return ``value`` as a plain int when it is an integer of at least ``minimum``.

    Integers of any type are accepted (numpy's too), bools and floats are not; see
    :func:`as_int`. ``minimum=None`` accepts any integer.

    >>> import numpy
    >>> check_int(numpy.int32(3), "limit", 1)
    3
    >>> check_int(3.0, "limit", 1)
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidTypeError: limit must be an integer, got 3.0 (float)
    """
    number = as_int(value)
    if number is None:
        raise InvalidTypeError(f"{name} must be an integer, got {value!r} ({type(value).__name__})")
    if minimum is not None and number < minimum:
        allowed = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
        raise InvalidInputError(f"{name} must be {allowed}, got {number}")
    return number


#: The largest board size any front function accepts. The columns of one board this
#: size already fill 8 GB; each backend, the decision tree and every command then
#: refuse far smaller boards with their own limits (the largest backend takes
#: n=20,000), so this only keeps sizes that cannot even be listed from reaching them.
MAX_N = 10**9


def check_n(n: object) -> int:
    """Return ``n`` when it is a valid board size, else raise a clear error.

    >>> check_n(8)
    8
    >>> check_n(0)
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: n must be a positive integer, got 0
    >>> check_n(10**23)
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: n=100,000,000,000,000,000,000,000 is too large: \
board sizes go up to n=1,000,000,000 (the columns of one board that size fill 8 GB)
    """
    n = check_int(n, "n", 1)
    if n > MAX_N:
        raise InvalidInputError(
            f"n={n:,} is too large: board sizes go up to n={MAX_N:,} "
            "(the columns of one board that size fill 8 GB)"
        )
    return n


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
        index = _fixed_index(row, "row", n)
        per_row[index] = _fixed_index(column, "column", n)
    return tuple(per_row)


def check_fixed_pairs(fixed: Mapping[int, int] | None, n: int) -> tuple[Square, ...]:
    """Turn a ``{row: column}`` mapping into sorted ``(row, column)`` pairs, checking
    every entry like :func:`check_fixed` but making nothing of size ``n``.

    >>> check_fixed_pairs({3: 0, 1: 2}, 10**9)
    ((1, 2), (3, 0))
    """
    if fixed is None:
        return ()
    if not isinstance(fixed, Mapping):
        raise InvalidTypeError(
            f"fixed must be a mapping of row -> column, got {type(fixed).__name__}"
        )
    pairs = {
        _fixed_index(row, "row", n): _fixed_index(column, "column", n)
        for row, column in fixed.items()
    }
    return tuple(sorted(pairs.items()))


def _fixed_index(value: object, name: str, n: int) -> int:
    """One row or column of ``fixed`` as a plain int on a board of size ``n``."""
    number = as_int(value)
    if number is None:
        raise InvalidTypeError(
            f"fixed {name} must be an integer, got {value!r} ({type(value).__name__})"
        )
    if not 0 <= number < n:
        raise InvalidInputError(
            f"fixed {name} {number} is off the board; rows and columns run 0..{n - 1} for n={n}"
        )
    return number


Square = tuple[int, int]


def check_blocked(blocked: Iterable[Square] | None, n: int) -> frozenset[Square]:
    """Turn an iterable of ``(row, column)`` pairs into a set of squares on the board.

    A square given twice is simply blocked; a malformed pair or a square off the
    board is refused, naming it.

    >>> sorted(check_blocked([(0, 1), (2, 2), (0, 1)], 4))
    [(0, 1), (2, 2)]
    >>> check_blocked([(0, 4)], 4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: blocked square (0, 4) is off the board; ...
    """
    if blocked is None:
        return frozenset()
    if isinstance(blocked, (str, bytes, Mapping)) or not isinstance(blocked, Iterable):
        raise InvalidTypeError(
            f"blocked must be an iterable of (row, column) pairs, got {type(blocked).__name__}"
        )
    squares = set()
    for pair in blocked:
        squares.add(_square(pair, "blocked", n))
    return frozenset(squares)


def _square(pair: object, what: str, n: int) -> Square:
    """One ``(row, column)`` pair as plain ints on a board of size ``n``."""
    if isinstance(pair, (str, bytes)) or not isinstance(pair, Iterable):
        raise InvalidTypeError(f"a {what} square must be a (row, column) pair, got {pair!r}")
    items = list(itertools.islice(pair, 3))
    numbers = [as_int(item) for item in items]
    if len(items) != 2 or None in numbers:
        raise InvalidTypeError(
            f"a {what} square must be a (row, column) pair of integers, got {pair!r}"
        )
    row, column = numbers
    if not (0 <= row < n and 0 <= column < n):
        raise InvalidInputError(
            f"{what} square ({row}, {column}) is off the board; rows and columns run "
            f"0..{n - 1} for n={n}"
        )
    return row, column


def check_fixed_squares(fixed: Iterable[Square], blocked: frozenset[Square]) -> None:
    """Refuse a fixed queen, given as a ``(row, column)`` pair, on a blocked square,
    naming it."""
    if not blocked:
        return
    for row, column in fixed:
        if (row, column) in blocked:
            raise InvalidInputError(
                f"the fixed queen on ({row}, {column}) stands on a blocked square; "
                "a square is either given a queen or blocked"
            )


#: Limits this long (about 31 years) or longer mean no limit: ``float("inf")`` and
#: values no solver can represent (MiniZinc's timedelta, Choco's text) never reach one.
UNLIMITED_SECONDS = 1e9


def check_flag(value: object, name: str) -> bool:
    """Return ``value`` when it is a flag (``True``/``False``, numpy's too), else raise
    an error naming ``name``.

    >>> check_flag(1, "certify")
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidTypeError: certify must be true or false, got 1
    """
    if not is_bool(value):
        raise InvalidTypeError(f"{name} must be true or false, got {value!r}")
    return bool(value)


def check_seconds(value: object, name: str) -> float:
    """Return ``value`` as a positive number of seconds (an integer of any type or a
    float, never a bool), else raise an error naming ``name``.

    >>> check_seconds(2, "timeout")
    2.0
    >>> check_seconds(True, "timeout")
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidTypeError: timeout must be a number of seconds, got True
    """
    # Seconds may be whole (of any integer type, numpy's too) or a float; never a bool.
    whole = as_int(value)
    if whole is not None:
        value = whole
    elif is_bool(value) or not isinstance(value, float):
        raise InvalidTypeError(f"{name} must be a number of seconds, got {value!r}")
    if not value > 0:
        raise InvalidInputError(f"{name} must be a positive number of seconds, got {value}")
    return float(value)


def check_time_limit(time_limit: object) -> float | None:
    """Return ``time_limit`` in seconds, or None for no limit, after checking it is positive.

    >>> check_time_limit(2), check_time_limit(float("inf"))
    (2.0, None)
    """
    if time_limit is None:
        return None
    seconds = check_seconds(time_limit, "time_limit")
    return None if seconds >= UNLIMITED_SECONDS else seconds


def binary_size(nbytes: int) -> str:
    """``nbytes`` in the largest binary unit that divides it.

    >>> binary_size(32 * 2**20), binary_size(65536), binary_size(1000)
    ('32 MiB', '64 KiB', '1,000 bytes')
    """
    for unit, name in ((2**30, "GiB"), (2**20, "MiB"), (2**10, "KiB")):
        if nbytes % unit == 0:
            return f"{nbytes // unit} {name}"
    return f"{nbytes:,} bytes"


_SIZE = re.compile(r"\s*(\d+)\s*([kmg]?)(?:i?b)?\s*", re.IGNORECASE)


def parse_size(text: str, name: str = "size") -> int:
    """A number of bytes from ``"1000"``, ``"64K"``, ``"32M"`` or ``"1G"`` (powers of 1024).

    ``KiB``, ``KB`` and ``k`` mean the same; ``name`` names the value in the error.

    >>> parse_size("64K"), parse_size("32MiB"), parse_size("1000")
    (65536, 33554432, 1000)
    >>> parse_size("12X", "--max-output")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: --max-output must be a positive number of bytes, ...
    """
    match = _SIZE.fullmatch(text) if isinstance(text, str) else None
    if match is None or int(match[1]) < 1:
        raise InvalidInputError(
            f"{name} must be a positive number of bytes, optionally with K, M or G "
            f"(powers of 1024), e.g. 64M; got {text!r}"
        )
    return int(match[1]) * 1024 ** " kmg".index(match[2].lower() or " ")
