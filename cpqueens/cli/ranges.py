"""Parse the terminal's compact notations: board sizes ("4-10", "4,6,8") and fixed queens.

>>> parse_sizes("4-6,9")
[4, 5, 6, 9]
>>> parse_fixed("0:3,5:1")
{0: 3, 5: 1}
"""

from __future__ import annotations

import re

from ..errors import InvalidInputError

_SIZE_HELP = "use N, A-B or a comma-separated list such as 4,6,8-10"
_INTERVAL = re.compile(r"^\s*(\d+)\s*(?:-|\.\.)\s*(\d+)\s*$")
_SINGLE = re.compile(r"^\s*(\d+)\s*$")
_PAIR = re.compile(r"^\s*(\d+)\s*:\s*(\d+)\s*$")


class BeyondLargestError(InvalidInputError):
    """Board sizes past the largest the backends asked for take: the caller may say
    which backends take larger ones."""


def parse_sizes(text: str, largest: int | None = None, *, beyond: str | None = None) -> list[int]:
    """Return the sorted, distinct board sizes written in ``text``.

    ``text`` is a size (``"8"``), an inclusive interval (``"1-10"`` or ``"1..10"``)
    or a comma-separated list of both. Sizes must be positive and at most
    ``largest`` (default: the largest board any backend takes); every part is
    checked before any is expanded, so a range of billions is refused at once.
    ``beyond`` says why the limit is there and what to use instead.

    >>> parse_sizes("8")
    [8]
    >>> parse_sizes("10,1-3")
    [1, 2, 3, 10]
    >>> parse_sizes("6-4")
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: range '6-4' runs backwards; write it low-high, e.g. 4-6
    >>> parse_sizes("1-99999999999")
    Traceback (most recent call last):
    ...
    cpqueens.cli.ranges.BeyondLargestError: range '1-99999999999' goes beyond n=20,000, the \
largest board any backend takes (stack)
    """
    if largest is None:
        largest, name = largest_board()
        beyond = beyond or f"the largest board any backend takes ({name})"
    bounds: list[tuple[int, int]] = []
    for part in str(text).split(","):
        if match := _INTERVAL.match(part):
            low, high = _size(match[1], largest), _size(match[2], largest)
            what = f"range {part.strip()!r}"
        elif match := _SINGLE.match(part):
            low = high = _size(match[1], largest)
            what = f"board size {match[1]}"
        else:
            raise InvalidInputError(f"malformed board sizes {text!r}: {_SIZE_HELP}")
        if max(low, high) > largest:
            why = f", {beyond}" if beyond else ""
            raise BeyondLargestError(f"{what} goes beyond n={largest:,}{why}")
        if low > high:
            raise InvalidInputError(
                f"range {part.strip()!r} runs backwards; write it low-high, e.g. {high}-{low}"
            )
        bounds.append((low, high))
    sizes = {n for low, high in bounds for n in range(low, high + 1)}
    if 0 in sizes:
        raise InvalidInputError(f"board sizes must be positive, got 0 in {text!r}")
    return sorted(sizes)


def _size(digits: str, largest: int) -> int:
    """The number written in ``digits``; one longer than any allowed is not even read
    (Python refuses to read numbers of thousands of digits)."""
    if len(digits.lstrip("0")) > len(str(largest)):
        return largest + 1
    return int(digits)


def largest_board() -> tuple[int, str]:
    """The largest board any registered exhaustive backend takes, and its name: ranges
    feed the commands that check, time and profile whole searches.

    >>> largest_board()
    (20000, 'stack')
    """
    from ..arguments import MAX_N
    from ..solvers import REGISTRY

    sizes = {
        name: backend.largest_n() or MAX_N
        for name, backend in REGISTRY.items()
        if backend.exhaustive
    }
    name = max(sizes, key=lambda key: sizes[key])
    return sizes[name], name


def parse_fixed(text: str) -> dict[int, int]:
    """Return the ``{row: column}`` queens written as ``"row:column,row:column"`` (0-based).

    Whether the rows and columns fit the board is checked later, against ``n``.

    >>> parse_fixed("")
    {}
    >>> parse_fixed("0:1,0:2")
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: fixed row 0 is given twice in '0:1,0:2'
    """
    fixed: dict[int, int] = {}
    for row, column in parse_squares(text, "fixed queen"):
        if row in fixed:
            raise InvalidInputError(f"fixed row {row} is given twice in {text!r}")
        fixed[row] = column
    return fixed


def parse_squares(text: str, what: str = "blocked square") -> list[tuple[int, int]]:
    """Return the squares written as ``"row:column,row:column"`` (0-based).

    >>> parse_squares("0:1, 2:3")
    [(0, 1), (2, 3)]
    """
    squares: list[tuple[int, int]] = []
    if not str(text).strip():
        return squares
    for part in str(text).split(","):
        match = _PAIR.match(part)
        if not match:
            raise InvalidInputError(
                f"malformed {what} {part.strip()!r} in {text!r}: "
                "write row:column pairs, 0-based, e.g. 0:3,5:1"
            )
        squares.append((int(match[1]), int(match[2])))
    return squares


def parse_names(text: str, known: list[str]) -> list[str]:
    """Split a comma-separated list of names, keeping the order and refusing unknown ones.

    >>> parse_names("stack, tree", ["recursive", "stack", "tree"])
    ['stack', 'tree']
    """
    names = [name.strip() for name in str(text).split(",") if name.strip()]
    if not names:
        raise InvalidInputError(f"expected a comma-separated list of names, got {text!r}")
    for name in names:
        if name not in known:
            raise InvalidInputError(
                f"unknown backend {name!r}; valid backends are: {', '.join(known)}"
            )
    return list(dict.fromkeys(names))


def parse_options(pairs: tuple[str, ...] | list[str]) -> dict[str, object]:
    """Return the backend options written as ``KEY=VALUE`` (numbers become numbers).

    >>> parse_options(["tried=tested", "split_depth=3"])
    {'tried': 'tested', 'split_depth': 3}
    >>> parse_options(["x"])
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: malformed backend option 'x': write KEY=VALUE
    """
    options: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = str(pair).partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key.isidentifier():
            raise InvalidInputError(f"malformed backend option {pair!r}: write KEY=VALUE")
        if key in options:
            raise InvalidInputError(f"backend option {key!r} is given twice")
        options[key] = _number(value)
    return options


def _number(text: str) -> object:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


#: How a Python function is named among backends: ``module:function``.
FUNCTION_SPEC = re.compile(r"^\s*([\w.]+|[^:]+\.py)\s*:\s*([\w.]+)\s*$")


def parse_backends(text: str, known: list[str]) -> list[str]:
    """Like :func:`parse_names`, but a name holding ``:`` is a Python function,
    ``MODULE:FUNCTION`` (a module importable from the current folder or sys.path, or
    a ``.py`` file), kept as written for the caller to load.

    >>> parse_backends("stack, mysolver:solve", ["stack", "tree"])
    ['stack', 'mysolver:solve']
    >>> parse_backends("stack,solve:", ["stack"])
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: malformed Python backend 'solve:': write \
MODULE:FUNCTION, e.g. mysolver:solve
    """
    names = [name.strip() for name in str(text).split(",") if name.strip()]
    if not names:
        raise InvalidInputError(f"expected a comma-separated list of names, got {text!r}")
    for name in names:
        if ":" in name:
            if not FUNCTION_SPEC.match(name):
                raise InvalidInputError(
                    f"malformed Python backend {name!r}: write MODULE:FUNCTION, e.g. mysolver:solve"
                )
        elif name not in known:
            raise InvalidInputError(
                f"unknown backend {name!r}; valid backends are: {', '.join(known)} "
                "(or MODULE:FUNCTION for a Python function)"
            )
    return list(dict.fromkeys(names))
