"""Sorting the boards a backend returned into faults against the reference: invalid,
duplicated, extra (or moving a given queen, or on a blocked square) and missing; with
a guess at what went wrong (:func:`shift_hint`) and the row of a backend that failed.

>>> faults = sort_faults(4, [(1, 3, 0, 2), (1, 3, 0, 2), (0, 1, 2, 3)],
...                      {(1, 3, 0, 2), (2, 0, 3, 1)})
>>> faults["missing"], faults["duplicated"], faults["invalid"]
(((2, 0, 3, 1),), ((1, 3, 0, 2),), ((0, 1, 2, 3),))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from ...board import Solution, attacking_pairs, is_valid, rows_named
from ...display.cells import spreadsheet_cell
from ...display.numbers import plural
from ...instances import Instance
from ...outputs.parsed_output import Origin
from ..cases import extra_kind, solves
from ..row import EXAMPLES, CrossCheckRow, Fault

#: The start of the hint given when every invalid board is a solution shifted by one.
SHIFTED_HINT = "valid shifted by one: 1-based columns? cpqueens counts from 0"
#: The four faults a row counts, each with its examples and its total.
COUNTED = ("missing", "extra", "invalid", "duplicated")


def sort_faults(
    n: int,
    boards: list[tuple],
    reference: set[Solution],
    compared: str = "all",
    *,
    instance: Instance | None = None,
    origin: Callable[[int], Origin] | None = None,
    unread: Sequence[Origin] = (),
) -> dict[str, Any]:
    """Sort the boards a backend returned into the four faults against ``reference``.

    With ``compared="some"`` the backend only claims a few solutions, so the
    reference's other solutions are not *missing*. ``instance`` (the plain board of
    size ``n`` when not given) tells a board that moves a given queen or takes a
    blocked square from a plain extra one; ``origin(i)`` says where board ``i`` was
    printed; ``unread`` where a program printed lines shaped like a board that are
    none (each an invalid board, first in ``faults``). Besides the examples and
    totals, the dict holds ``faults`` (every faulty board, as :class:`Fault`) and
    ``hint`` (see :func:`shift_hint`).
    """
    if instance is None:
        instance = Instance(n)
    where = origin or (lambda index: None)
    verdicts = [is_valid(b, n) for b in boards]
    invalid = [b for b, ok in zip(boards, verdicts, strict=True) if not ok]
    valid = Counter(b for b, ok in zip(boards, verdicts, strict=True) if ok)
    duplicated = sorted(b for b, times in valid.items() if times > 1)
    missing = sorted(reference - valid.keys()) if compared == "all" else []
    extra = sorted(valid.keys() - reference)
    faults = [Fault("not a board", None, line, f"not a board of size {n}") for line in unread]
    if invalid or duplicated or extra:
        seen: set[tuple] = set()
        for index, (board, ok) in enumerate(zip(boards, verdicts, strict=True)):
            if not ok:
                faults.append(Fault("invalid", board, where(index), why_invalid(board, n)))
            elif board in seen:
                faults.append(Fault("duplicate", board, where(index)))
            else:
                seen.add(board)
                if board not in reference:
                    faults.append(Fault(extra_kind(board, instance), board, where(index)))
    faults.extend(Fault("missing", board) for board in missing)
    return {
        "missing": tuple(missing[:EXAMPLES]),
        "extra": tuple(extra[:EXAMPLES]),
        "invalid": tuple(invalid[:EXAMPLES]),
        "duplicated": tuple(duplicated[:EXAMPLES]),
        "missing_count": len(missing),
        "extra_count": len(extra),
        "invalid_count": len(invalid) + len(unread),
        "duplicated_count": sum(valid[b] - 1 for b in duplicated),
        # A line that is no board at all is an invalid board no shift explains.
        "hint": shift_hint(invalid, len(boards) + len(unread), instance),
        "faults": tuple(faults),
    }


def no_faults() -> dict[str, Any]:
    """What :func:`sort_faults` finds in no board at all: nothing."""
    counted = {kind: () for kind in COUNTED} | {f"{kind}_count": 0 for kind in COUNTED}
    return {**counted, "hint": None, "faults": ()}


def has_faults(faults: dict[str, Any]) -> bool:
    """True when :func:`sort_faults` found anything wrong."""
    return any(faults[f"{kind}_count"] for kind in COUNTED)


def error_row(
    n: int, backend: str, error: str, reference_count: int, elapsed: float, **fields: Any
) -> CrossCheckRow:
    """A row for a backend that failed before its answer could be compared."""
    return CrossCheckRow(
        n=n,
        backend=backend,
        count=fields.pop("count", 0),
        reference_count=reference_count,
        agrees=False,
        elapsed=elapsed,
        error=error,
        **{**no_faults(), "faults": (Fault("error", None, detail=error),)},
        **fields,
    )


def shift_hint(invalid: list[tuple], total: int, instance: Instance) -> str | None:
    """The hint for boards numbered from 1: when every invalid board, its columns less
    one, is a solution, and no two are the same; else None.

    >>> four = Instance(4)
    >>> shift_hint([(2, 4, 1, 3), (3, 1, 4, 2)], 2, four)
    'every board is valid shifted by one: 1-based columns? cpqueens counts from 0'
    >>> shift_hint([(2, 4, 1, 3)], 2, four)
    'every invalid board is valid shifted by one: 1-based columns? cpqueens counts from 0'
    >>> shift_hint([(0, 1, 2, 3)], 1, four) is None
    True
    """
    if not invalid:
        return None
    shifted = set()
    for board in invalid:
        if not all(isinstance(c, int) and not isinstance(c, bool) for c in board):
            return None
        moved = tuple(c - 1 for c in board)
        if moved in shifted or not solves(moved, instance):
            return None
        shifted.add(moved)
    every = "every board" if len(invalid) == total else "every invalid board"
    return f"{every} is {SHIFTED_HINT}"


def spreadsheet_records(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Fault records (see :meth:`~.verdicts.CrossCheckReport.fault_records`) as a CSV
    file must hold them: each text a spreadsheet would run as a formula (a line a
    program printed, ``=HYPERLINK(...)``) quoted with a leading ``'``
    (:func:`~cpqueens.display.cells.spreadsheet_cell`); numbers, boards and plain text
    as they are.

    >>> spreadsheet_records([{"n": 4, "line": 2, "text": "=1+1", "detail": "-1"}])
    [{'n': 4, 'line': 2, 'text': "'=1+1", 'detail': '-1'}]
    """
    return [{key: spreadsheet_cell(value) for key, value in record.items()} for record in records]


def why_invalid(board: tuple, n: int) -> str:
    """Why ``board`` is no solution of size ``n``, in a few words.

    >>> why_invalid((1, 2, 3, 4), 4), why_invalid((0, 1, 2, 3), 4)
    ('row 3 (counted from 0): column 4 is off the board', \
'the queens of rows 0 and 1 (counted from 0) attack each other')
    """
    if len(board) != n:
        return f"{plural(len(board), 'row')}, not {n}"
    unread = [r for r, column in enumerate(board) if not isinstance(column, int)]
    if unread:
        return f"{rows_named(unread[0])} has no queen or several"
    off = [r for r, column in enumerate(board) if not 0 <= column < n]
    if off:
        return f"{rows_named(off[0])}: column {board[off[0]]} is off the board"
    pairs = attacking_pairs(board)
    if pairs:
        return f"the queens of {rows_named(*pairs[0])} attack each other"
    return "not a solution"
