"""A cross-check's rows in words: the report's table, and for each row that
disagrees or timed out a line saying what is wrong, each faulty board traced back to
where a program printed it; a program's prose shown as notes.

>>> from cpqueens import crosscheck
>>> def one_based(n):
...     return [(2, 4, 1, 3), (3, 1, 4, 2)]
>>> for line in report_lines(crosscheck(4, [one_based]).rows)[3:]:
...     print(line)
n=4 one_based: missing (1, 3, 0, 2), (2, 0, 3, 1); invalid (2, 4, 1, 3), (3, 1, 4, 2); \
every board is valid shifted by one: 1-based columns? cpqueens counts from 0
"""

from __future__ import annotations

from collections.abc import Sequence

from ...board import is_valid
from ...display.numbers import plural, thousands
from ...display.terminal import printable
from ..row import EXAMPLES, CrossCheckRow
from .faults import COUNTED

#: The columns of the report's table.
HEADER = (
    "backend",
    "compared",
    "count",
    "reference",
    "status",
    "missing",
    "extra",
    "invalid",
    "duplicated",
    "seconds",
)


def report_lines(rows: Sequence[CrossCheckRow]) -> list[str]:
    """The table of ``rows``, then a line for each row that disagrees or timed out,
    and the notes of each (see :func:`note_lines`); every line :func:`printable`, so
    that a label or a program's words are shown, not obeyed by a terminal."""
    named = any(row.instance for row in rows)
    header = ("instance" if named else "n", *HEADER)
    lines = [
        (
            printable(r.instance or str(r.n)),
            printable(r.backend),
            r.compared,
            *_counted(r),
            r.status,
            *(str(getattr(r, f"{kind}_count")) for kind in COUNTED),
            f"{r.elapsed:.3f}",
        )
        for r in rows
    ]
    widths = [max(len(cell) for cell in column) for column in zip(header, *lines, strict=True)]
    text = [
        "  ".join(
            cell.rjust(w) if i != 1 else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(cells, widths, strict=True))
        )
        for cells in (header, *lines)
    ]
    text.insert(1, "  ".join("-" * w for w in widths))
    for row in rows:
        if not row.agrees or row.timed_out:
            text.append(printable(f"{_where(row)} {row.backend}: " + _details(row)))
        text.extend(printable(f"{_where(row)} {row.backend}: {note}") for note in note_lines(row))
    return text


def _where(row: CrossCheckRow) -> str:
    """``n=8``, or the label of the instance checked."""
    return row.instance or f"n={row.n}"


def _counted(row: CrossCheckRow) -> tuple[str, str]:
    """The count and the reference's, or for a decision the two answers."""
    if row.compared == "decision":
        return row.answer or "-", row.reference_answer or "-"
    return str(row.count), str(row.reference_count)


def _details(row: CrossCheckRow) -> str:
    if row.error:
        return f"error {row.error}"
    if row.compared == "decision":
        return decision_details(row)
    unproved = [fault.detail or "" for fault in row.faults if fault.kind == "unproved"]
    if row.compared == "count":
        stated = (
            f"states {plural(row.count, 'solution')}, the reference has "
            f"{thousands(row.reference_count)}"
        )
        return "; ".join(([stated] if row.count != row.reference_count else []) + unproved)
    parts = [_timed_out_note(row)] if row.timed_out else []
    for kind in COUNTED:
        total = getattr(row, f"{kind}_count")
        if total:
            shown = ", ".join(_traced(row, board, kind) for board in getattr(row, kind))
            more = (
                f" and {thousands(total - len(getattr(row, kind)))} more"
                if total > EXAMPLES
                else ""
            )
            parts.append(f"{kind} {shown}{more}")
    if row.invalid_lines:
        parts.append(
            "not a board: "
            + ", ".join(f"line {k}: {text.strip()!r}" for k, text in row.invalid_lines)
        )
    if row.miscounted:
        printed = (
            f"printed {plural(row.count, 'board')}"
            if row.compared == "all"
            else f"the reference has {thousands(row.reference_count)}"
        )
        parts.append(f"states {plural(row.stated_count or 0, 'solution')}, {printed}")
    if row.hint:
        parts.append(row.hint)
    return "; ".join(parts + unproved)


#: The kinds of :class:`Fault` behind each list of examples of a row.
EXAMPLE_KINDS = {
    "missing": ("missing",),
    "extra": ("extra", "wrong fixed", "wrong blocked"),
    "invalid": ("invalid",),
    "duplicated": ("duplicate",),
}


def _traced(row: CrossCheckRow, board: tuple, kind: str) -> str:
    """A board, with where the program printed it when that is known."""
    origin = row.origin_of(board, EXAMPLE_KINDS[kind])
    described = origin.describe() if origin is not None else ""
    return f"{board} ({described})" if described else str(board)


def note_lines(row: CrossCheckRow) -> list[str]:
    """The prose lines a program printed, as notes: shown, never judged."""
    shown = [f"note, line {k}: {text.strip()[:80]!r}" for k, text in row.notes]
    if row.note_count > len(row.notes):
        shown.append(f"note: and {row.note_count - len(row.notes)} more lines of prose")
    if row.proof and row.agrees:  # a proof not accepted is a fault, said with the others
        shown.append(row.proof)
    return shown


def _timed_out_note(row: CrossCheckRow) -> str:
    # The reference count says how far the backend got, since nothing is counted missing.
    return (
        f"timed out after {plural(row.count, 'board')} (the reference has "
        f"{thousands(row.reference_count)}); the rest is not counted missing"
    )


def decision_details(row: CrossCheckRow) -> str:
    """What is wrong with a decision row, in a few words (the report's line)."""
    parts = []
    for fault in row.faults[:EXAMPLES]:
        if fault.kind in ("wrong answer", "wrong count", "unproved"):
            parts.append(fault.detail or fault.kind)
        elif fault.board is not None:
            why = "no solution" if not is_valid(fault.board, row.n) else fault.kind
            parts.append(f"{why} {fault.board}")
        else:
            parts.append(f"{fault.kind}: {fault.detail}")
    more = len(row.faults) - EXAMPLES
    if more > 0:
        parts.append(f"and {more} more")
    return "; ".join(parts)
