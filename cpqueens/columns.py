"""A solution of a huge board held compactly: a read-only sequence over one numpy array.

A solution of ten million rows as a tuple is ten million Python ints (about 360 MB
and half a second to make); as :class:`Columns` it is one array of 4-byte columns
(40 MB) that reads like the tuple: ``len``, indexing, slicing, iteration, ``in``,
equality with the tuple of the same columns (and the same hash), ordering. Backends
hand back :class:`Columns` for boards of more than :data:`COMPACT_N` rows and plain
tuples below, where a tuple costs nothing worth saving.

>>> import numpy as np
>>> board = Columns(np.array([1, 3, 0, 2]))
>>> len(board), board[1], board[-1], board[1:3], list(board)
(4, 3, 2, (3, 0), [1, 3, 0, 2])
>>> board == (1, 3, 0, 2), hash(board) == hash((1, 3, 0, 2)), 3 in board
(True, True, True)
>>> board.array.dtype, board.array.flags.writeable
(dtype('int32'), False)
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Sequence
from typing import Any, overload

from .errors import InvalidTypeError

#: Boards with more rows than this come back from a backend as :class:`Columns`.
COMPACT_N = 10_000

#: Columns turned into Python ints at a time while iterating: a few MB, never the board.
CHUNK = 1 << 16


class Columns(Sequence[int]):
    """The columns of a board, one per row, over a read-only numpy array.

    ``Columns(values)`` takes a 1-D array of integers (kept as it is, made
    read-only: its owner must not change it afterwards) or any sequence of ints
    (copied). Columns are stored as int32 up to 2**31 rows.

    >>> Columns([2, 0, 3, 1]) < (2, 1), Columns([2, 0, 3, 1]) == [2, 0, 3, 1]
    (True, False)
    >>> Columns([1.5])
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidTypeError: Columns holds integer columns, got an array of float64
    """

    __slots__ = ("_array", "_hash")

    def __init__(self, values: Any) -> None:
        import numpy as np

        array = values if isinstance(values, np.ndarray) else np.asarray(values)
        if array.ndim != 1 or (array.size and array.dtype.kind not in "iu"):
            what = f"a {array.ndim}-D array" if array.ndim != 1 else f"an array of {array.dtype}"
            raise InvalidTypeError(f"Columns holds integer columns, got {what}")
        wanted = np.int32 if len(array) < 2**31 else np.int64
        if array.dtype != wanted:
            array = array.astype(wanted)
        elif array is values:
            array = array.view()  # read-only below without touching the owner's flags
        array.flags.writeable = False
        self._array = array
        self._hash: int | None = None

    @property
    def array(self) -> Any:
        """The columns as a read-only numpy array (no copy)."""
        return self._array

    def tolist(self) -> list[int]:
        """The columns as a list of Python ints (the whole board: mind its size)."""
        return self._array.tolist()

    def key(self) -> bytes:
        """A 16-byte digest of the columns: the key of a set of huge boards, where
        ``hash`` would first make the tuple."""
        import hashlib

        return hashlib.blake2b(self._array.tobytes(), digest_size=16).digest()

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> Any:
        if dtype is None or dtype == self._array.dtype:
            return self._array.copy() if copy else self._array
        return self._array.astype(dtype)

    def __len__(self) -> int:
        return len(self._array)

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[int, ...]: ...

    def __getitem__(self, index: int | slice) -> int | tuple[int, ...]:
        if isinstance(index, slice):
            # A slice is what a tuple's slice is: a tuple (of the part asked for only).
            return tuple(self._array[index].tolist())
        try:
            position = operator.index(index)
        except TypeError:
            raise TypeError(
                f"Columns indices must be integers or slices, not {type(index).__name__}"
            ) from None
        if not -len(self._array) <= position < len(self._array):
            raise IndexError("Columns index out of range")
        return int(self._array[position])

    def __iter__(self) -> Iterator[int]:
        array = self._array
        for start in range(0, len(array), CHUNK):
            yield from array[start : start + CHUNK].tolist()

    def __reversed__(self) -> Iterator[int]:
        array = self._array
        for stop in range(len(array), 0, -CHUNK):
            yield from reversed(array[max(0, stop - CHUNK) : stop].tolist())

    def __contains__(self, value: object) -> bool:
        if type(value) is not int:
            return any(value == column for column in self)
        return bool((self._array == value).any()) if _fits(value) else False

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        """The first row whose column is ``value`` (ValueError when none is)."""
        import numpy as np

        part = self._array[start:stop]
        found = np.flatnonzero(part == value) if type(value) is int and _fits(value) else ()
        if len(found) == 0:
            raise ValueError(f"{value!r} is not in Columns")
        return int(found[0]) + range(len(self._array))[start:stop].start

    def count(self, value: Any) -> int:
        """How many rows have their queen in column ``value``."""
        if type(value) is not int or not _fits(value):
            return 0
        return int((self._array == value).sum())

    def __eq__(self, other: object) -> bool:
        import numpy as np

        if isinstance(other, Columns):
            return bool(np.array_equal(self._array, other._array))
        if isinstance(other, tuple):
            if len(other) != len(self._array):
                return False
            theirs = _as_array(other)
            if theirs is None:  # not all ints: compare as tuples do
                return tuple(self) == other
            return bool(np.array_equal(self._array, theirs))
        return NotImplemented

    def __hash__(self) -> int:
        # The tuple's hash, as equality with the tuple demands; made once, when asked.
        if self._hash is None:
            self._hash = hash(tuple(self))
        return self._hash

    def _compare(self, other: object) -> int | None:
        """-1, 0 or 1 as a tuple comparison would say; None when ``other`` is no board."""
        import numpy as np

        if isinstance(other, Columns):
            theirs = other._array
        elif isinstance(other, tuple):
            theirs = _as_array(other)
            if theirs is None:
                mine = tuple(self)
                return (mine > other) - (mine < other)
        else:
            return None
        common = min(len(self._array), len(theirs))
        differ = np.flatnonzero(self._array[:common] != theirs[:common])
        if len(differ):
            at = differ[0]
            return 1 if self._array[at] > theirs[at] else -1
        return (len(self._array) > len(theirs)) - (len(self._array) < len(theirs))

    def __lt__(self, other: object) -> bool:
        order = self._compare(other)
        return NotImplemented if order is None else order < 0

    def __le__(self, other: object) -> bool:
        order = self._compare(other)
        return NotImplemented if order is None else order <= 0

    def __gt__(self, other: object) -> bool:
        order = self._compare(other)
        return NotImplemented if order is None else order > 0

    def __ge__(self, other: object) -> bool:
        order = self._compare(other)
        return NotImplemented if order is None else order >= 0

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its array: a process pool or a cluster moves 4 bytes a row.
        return (Columns, (self._array,))

    def __repr__(self) -> str:
        head = ", ".join(map(str, self._array[:8].tolist()))
        more = len(self._array) - 8
        return f"Columns([{head}{f', ... {more:,} more' if more > 0 else ''}])"


def compact(values: Any) -> Sequence[int]:
    """A board as a solution is held: :class:`Columns` past :data:`COMPACT_N` rows,
    a tuple of ints below.

    >>> compact([1, 3, 0, 2])
    (1, 3, 0, 2)
    >>> type(compact(range(20_000))).__name__
    'Columns'
    """
    if len(values) > COMPACT_N:
        return values if isinstance(values, Columns) else Columns(values)
    if hasattr(values, "tolist"):
        return tuple(values.tolist())
    return tuple(values)


def _fits(value: int) -> bool:
    return -(2**63) <= value < 2**63


def _as_array(values: tuple[Any, ...]) -> Any:
    """A tuple of plain ints as an int64 array; None when it holds anything else."""
    import numpy as np

    if set(map(type, values)) - {int}:  # one C-level pass over the types
        return None
    try:
        return np.array(values, dtype=np.int64)
    except OverflowError:
        return None
