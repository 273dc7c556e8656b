"""The text of huge boards, written in pieces: columns as digits, and JSON holding boards.

A solution of ten million rows is never made a list of Python ints or one string
here: its columns are turned into digits by numpy a megabyte at a time (a few
vector operations a piece, about ten times faster than ``str`` on each int), and a
JSON document holding such boards is written piece by piece.

>>> import numpy as np
>>> from cpqueens.columns import Columns
>>> "".join(column_text(Columns(np.array([10, 0, 7, 123])), ","))
'10,0,7,123'
>>> "".join(iter_json({"n": 4, "solutions": [Columns(np.array([1, 3, 0, 2]))]}))
'{"n": 4, "solutions": [[1,3,0,2]]}'
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

from ..columns import Columns

#: Columns turned into digits at a time: about 10 MB of text and scratch.
PIECE = 1 << 20


def column_text(solution: Sequence[int], separator: str = " ") -> Iterator[str]:
    """The columns of ``solution`` as decimal text joined by ``separator``, in pieces.

    A :class:`~cpqueens.columns.Columns` is written by numpy a piece at a time;
    any other sequence in one piece.

    >>> "".join(column_text((1, 3, 0, 2)))
    '1 3 0 2'
    """
    if not isinstance(solution, Columns):
        yield separator.join(map(str, solution))
        return
    array = solution.array
    for start in range(0, len(array), PIECE):
        if start:
            yield separator
        yield _digits(array[start : start + PIECE], separator)


def _digits(values: Any, separator: str) -> str:
    """Non-negative integers as decimal text joined by ``separator`` (one character).

    Every value gets as many digit places as the largest needs, then the leading
    zeros are dropped with one mask, so the work is a few passes over the array.

    >>> import numpy as np
    >>> _digits(np.array([5, 0, 42, 1000, 99]), ",")
    '5,0,42,1000,99'
    """
    import numpy as np

    if len(separator) != 1 or (len(values) and values.min() < 0):
        return separator.join(map(str, values.tolist()))
    width = len(str(int(values.max()))) if len(values) else 1
    # 4-byte integers where they fit: numpy divides them several times faster. Each
    # place is one contiguous row of ``planes``, turned into text order in one copy.
    values = values.astype(np.int32 if width < 10 else np.int64, copy=False)
    planes = np.empty((width + 1, len(values)), dtype=np.uint8)
    rest = values
    for place in range(width - 1, -1, -1):
        quotient = rest // 10
        np.subtract(rest, quotient * 10, out=planes[place], casting="unsafe")
        rest = quotient
    planes[:width] += ord("0")
    planes[width] = ord(separator)
    places = planes.T.copy()
    # A value of k digits keeps its last k places (0 keeps one) and the separator.
    lengths = np.ones(len(values), dtype=np.int8)
    for power in range(1, width):
        lengths += values >= 10**power
    keep = np.arange(width + 1, dtype=np.int8) >= (width - lengths)[:, None]
    return places[keep][:-1].tobytes().decode("ascii")


def holds_columns(value: Any) -> bool:
    """Whether ``value`` (a JSON-like structure) holds a :class:`~cpqueens.columns.Columns`."""
    if isinstance(value, Columns):
        return True
    if isinstance(value, dict):
        return any(holds_columns(item) for item in value.values())
    if isinstance(value, list | tuple):
        return any(holds_columns(item) for item in value)
    return False


def iter_json(value: Any) -> Iterator[str]:
    """``value`` as compact JSON, in pieces; each board of :class:`Columns` a JSON list."""
    if isinstance(value, Columns):
        yield "["
        yield from column_text(value, ",")
        yield "]"
    elif isinstance(value, dict):
        yield "{"
        for index, (key, item) in enumerate(value.items()):
            yield (", " if index else "") + json.dumps(str(key)) + ": "
            yield from iter_json(item)
        yield "}"
    elif isinstance(value, list | tuple):
        yield "["
        for index, item in enumerate(value):
            if index:
                yield ", "
            yield from iter_json(item)
        yield "]"
    else:
        yield json.dumps(value)


def write_pieces(pieces: Iterator[str], stream: TextIO) -> None:
    """Write every piece to ``stream`` as it comes."""
    for piece in pieces:
        stream.write(piece)
