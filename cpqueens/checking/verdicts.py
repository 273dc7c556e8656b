"""The report of :func:`cpqueens.crosscheck`: one row per board size and backend."""

from __future__ import annotations

import csv
import io
import json
import os
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any

from ..board import Solution, attacking_pairs, is_valid
from ..display.numbers import plural, thousands
from .cases import Case, extra_kind, solves
from .parsing import Origin

#: How many examples of each fault a row keeps (the totals are always kept).
EXAMPLES = 5

#: What a row compares: every solution, a few solutions, or only their number.
COMPARISONS = ("all", "some", "count")

#: The kinds of :class:`Fault`: a board that is no solution, a line shaped like a
#: board that is none, a repeat, a solution never returned, a valid board that is not
#: the reference's (it moves a given queen, sits on a blocked square, or neither), a
#: stated count that is wrong, and a run that failed.
FAULT_KINDS = (
    "invalid",
    "not a board",
    "duplicate",
    "missing",
    "extra",
    "wrong fixed",
    "wrong blocked",
    "wrong count",
    "wrong answer",
    "error",
)
#: The columns of a faults file (see :meth:`CrossCheckReport.fault_records`).
FAULT_COLUMNS = (
    "n",
    "instance",
    "backend",
    "kind",
    "board",
    "printed",
    "base",
    "line",
    "text",
    "detail",
)
#: The start of the hint given when every invalid board is a solution shifted by one.
SHIFTED_HINT = "valid shifted by one: 1-based columns? cpqueens counts from 0"


@dataclass(frozen=True)
class Fault:
    """One faulty board of a row, and where the program printed it.

    ``kind`` is one of :data:`FAULT_KINDS`; ``board`` the board read 0-based (None
    for a line that is no board, a wrong count or an error); ``origin`` where a
    program printed it (its line, its text, its base: see
    :class:`cpqueens.checking.parsing.Origin`), None for a Python function's board
    and for a missing one; ``detail`` why it is wrong, when there is more to say.
    """

    kind: str
    board: tuple | None
    origin: Origin | None = None
    detail: str | None = None


@dataclass(frozen=True)
class CrossCheckRow:
    """One backend on one board size, compared with the reference.

    ``missing``, ``extra``, ``invalid`` and ``duplicated`` hold the first few
    boards of each fault (sorted, except ``invalid``, kept in the order
    returned); the ``*_count`` fields hold their totals. ``count`` is how many
    boards the backend returned, duplicates and invalid ones included. ``error``
    is ``"ExceptionType: message"`` when the backend raised or ran out of time;
    the boards returned before that are counted but not compared.

    ``compared`` says what was compared: ``"all"`` (the whole solution set, as for
    every registry backend and function), ``"some"`` (a program that prints a few
    solutions: each must be valid, distinct and in the reference; none is missing)
    or ``"count"`` (only the number: ``count`` is the number the program stated).

    ``timed_out`` is True when the time limit stopped the backend. The boards it
    found before that are judged (an invalid, extra or repeated one is a
    disagreement) but the solutions it had no time to reach are not missing, so
    ``agrees`` says whether what it found agrees; ``status`` is then
    ``"timed out"``. A program killed at its own ``timeout`` is not this: it gets
    an ``error``, for a program that hangs is a fault.

    For a program's output, every line is accounted for. ``invalid_lines`` holds
    the first few lines (number from 1, text) shaped like a board that are not a
    valid one in the format the output was read in; ``invalid_count`` counts them
    with the invalid boards. ``stated_count`` is the count the program printed
    beside its boards (None when it printed none); one that differs from the
    boards it printed is a disagreement. ``notes`` holds the first few lines of
    prose (a header, a timing), shown but not judged, and ``note_count`` their
    number.
    """

    n: int
    backend: str
    count: int
    reference_count: int
    agrees: bool
    missing: tuple[Solution, ...]
    extra: tuple[Solution, ...]
    invalid: tuple[tuple, ...]
    duplicated: tuple[Solution, ...]
    missing_count: int
    extra_count: int
    invalid_count: int
    duplicated_count: int
    elapsed: float
    error: str | None = None
    compared: str = "all"
    timed_out: bool = False
    invalid_lines: tuple[tuple[int, str], ...] = ()
    stated_count: int | None = None
    notes: tuple[tuple[int, str], ...] = ()
    note_count: int = 0
    #: The instance checked (its name or a description), None for a plain board size.
    instance: str | None = None
    #: A guess at what went wrong, e.g. that every board is a solution shifted by one.
    hint: str | None = None
    #: For a decision (``compared="decision"``): the answer, ``"sat"``, ``"unsat"`` or
    #: ``"unknown"``, and the reference's (see :mod:`cpqueens.checking.decision`).
    answer: str | None = None
    reference_answer: str | None = None
    #: Every faulty board, in the order returned (the missing ones last), with where a
    #: program printed it: what ``--faults FILE`` writes.
    faults: tuple[Fault, ...] = field(default=(), repr=False, compare=False)

    def origin_of(self, board: tuple, kinds: Iterable[str]) -> Origin | None:
        """Where the first faulty ``board`` of one of ``kinds`` was printed, if known."""
        wanted = set(kinds)
        return next((f.origin for f in self.faults if f.kind in wanted and f.board == board), None)

    @property
    def miscounted(self) -> bool:
        """True when a program's stated count disagrees with its boards: with the
        boards it printed when it prints them all, with the reference when some."""
        if self.stated_count is None or self.compared == "count":
            return False
        claimed = self.count if self.compared == "all" else self.reference_count
        return self.stated_count != claimed

    @property
    def status(self) -> str:
        """``"ok"``, ``"timed out"``, ``"FAIL"`` (wrong solutions) or ``"ERROR"`` (raised).

        A wrong board found before the time limit makes a ``"FAIL"``: the fault
        outweighs the time-out.
        """
        if not self.agrees:
            return "ERROR" if self.error else "FAIL"
        return "timed out" if self.timed_out else "ok"


@dataclass(frozen=True)
class CrossCheckReport:
    """The rows of one :func:`crosscheck`, one per board size and backend.

    ``agrees`` (also ``ok``) is True when no row disagrees; ``failures`` lists the
    rows that do. A row stopped by the time limit is listed in ``timed_out`` and
    is not a failure, unless ``timeouts_fail`` is True. ``str(report)`` is a
    table; ``to_records()`` gives plain dicts.
    """

    rows: tuple[CrossCheckRow, ...]
    reference: str
    timeouts_fail: bool = False

    @property
    def agrees(self) -> bool:
        """True when no row disagrees (time-outs aside, unless ``timeouts_fail``)."""
        return not self.failures

    @property
    def ok(self) -> bool:
        """The same as :attr:`agrees`."""
        return self.agrees

    @property
    def timed_out(self) -> tuple[CrossCheckRow, ...]:
        """The rows whose backend the time limit stopped, whether or not they agree."""
        return tuple(row for row in self.rows if row.timed_out)

    @property
    def failures(self) -> tuple[CrossCheckRow, ...]:
        """The rows that disagree, and the timed-out ones when ``timeouts_fail``."""
        return tuple(
            row for row in self.rows if not row.agrees or (self.timeouts_fail and row.timed_out)
        )

    def to_records(self) -> list[dict[str, Any]]:
        """One JSON-serialisable dict per row (boards as lists of columns)."""
        records = []
        for row in self.rows:
            # Every field but the faults, which fault_records() lists one by one.
            record = {
                f.name: getattr(row, f.name) for f in dataclass_fields(row) if f.name != "faults"
            }
            for key in ("missing", "extra", "invalid", "duplicated"):
                record[key] = [[_plain(c) for c in board] for board in record[key]]
            record["status"] = row.status
            records.append(record)
        return records

    def fault_records(self) -> list[dict[str, Any]]:
        """Every faulty board of every row, one dict each (the columns of
        :data:`FAULT_COLUMNS`): where it came from (``n``, ``instance``, ``backend``),
        ``kind`` (one of :data:`FAULT_KINDS`), ``board`` (0-based), and for a
        program the numbers as ``printed``, their ``base``, the ``line`` number and
        its ``text``; ``detail`` says why, when there is more to say.

        >>> import cpqueens
        >>> def one_based(n):
        ...     return [(2, 4, 1, 3), (3, 1, 4, 2)]
        >>> report = cpqueens.crosscheck(4, [one_based])
        >>> [(r["kind"], r["board"]) for r in report.fault_records()]
        [('invalid', [2, 4, 1, 3]), ('invalid', [3, 1, 4, 2]), ('missing', [1, 3, 0, 2]), \
('missing', [2, 0, 3, 1])]
        >>> report.rows[0].hint
        'every board is valid shifted by one: 1-based columns? cpqueens counts from 0'
        """
        return [_fault_record(row, fault) for row in self.rows for fault in row.faults]

    def write_faults(self, path: str | os.PathLike) -> Path:
        """Write :meth:`fault_records` to ``path`` (.csv or .json), whole or not at all."""
        from ..disk.writing import check_writable, write_atomic

        target = check_writable(path, (".csv", ".json"), "faults")
        return write_atomic(target, faults_text(self.fault_records(), target.suffix.lower()))

    def __str__(self) -> str:
        named = any(row.instance for row in self.rows)
        header = (
            "instance" if named else "n",
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
        lines = [
            (
                r.instance or str(r.n),
                r.backend,
                r.compared,
                *_counted(r),
                r.status,
                str(r.missing_count),
                str(r.extra_count),
                str(r.invalid_count),
                str(r.duplicated_count),
                f"{r.elapsed:.3f}",
            )
            for r in self.rows
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
        for row in self.rows:
            if not row.agrees or row.timed_out:
                text.append(f"{_where(row)} {row.backend}: " + _details(row))
            text.extend(f"{_where(row)} {row.backend}: {note}" for note in note_lines(row))
        text.append(f"reference: {self.reference}; {self._verdict()}")
        return "\n".join(text)

    def _verdict(self) -> str:
        total = len(self.rows)
        disagree = sum(not row.agrees for row in self.rows)
        parts = [f"{disagree} of {total} disagree"] if disagree else []
        if self.timed_out:
            counted = " (counted as failures)" if self.timeouts_fail else ""
            parts.append(f"{len(self.timed_out)} of {total} timed out{counted}")
        if not disagree:
            parts.insert(0, "none disagrees" if self.timed_out else "all agree")
        return "; ".join(parts)


def sort_faults(
    n: int,
    boards: list[tuple],
    reference: set[Solution],
    compared: str = "all",
    *,
    case: Case | None = None,
    origin: Callable[[int], Origin] | None = None,
) -> dict[str, Any]:
    """Sort the boards a backend returned into the four faults against ``reference``.

    With ``compared="some"`` the backend only claims a few solutions, so the
    reference's other solutions are not *missing*. ``case`` (the instance checked)
    tells a board that moves a given queen or takes a blocked square from a plain
    extra one; ``origin(i)`` says where board ``i`` was printed. Besides the
    examples and totals, the dict holds ``faults`` (every faulty board, as
    :class:`Fault`) and ``hint`` (see :func:`shift_hint`).
    """
    where = origin or (lambda index: None)
    verdicts = [is_valid(b, n) for b in boards]
    invalid = [b for b, ok in zip(boards, verdicts, strict=True) if not ok]
    valid = Counter(b for b, ok in zip(boards, verdicts, strict=True) if ok)
    duplicated = sorted(b for b, times in valid.items() if times > 1)
    missing = sorted(reference - valid.keys()) if compared == "all" else []
    extra = sorted(valid.keys() - reference)
    faults: list[Fault] = []
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
                    kind = extra_kind(board, n if case is None else case)
                    faults.append(Fault(kind, board, where(index)))
    faults.extend(Fault("missing", board) for board in missing)
    return {
        "missing": tuple(missing[:EXAMPLES]),
        "extra": tuple(extra[:EXAMPLES]),
        "invalid": tuple(invalid[:EXAMPLES]),
        "duplicated": tuple(duplicated[:EXAMPLES]),
        "missing_count": len(missing),
        "extra_count": len(extra),
        "invalid_count": len(invalid),
        "duplicated_count": sum(valid[b] - 1 for b in duplicated),
        "hint": shift_hint(invalid, len(boards), n if case is None else case),
        "faults": tuple(faults),
    }


def shift_hint(invalid: list[tuple], total: int, case: Case) -> str | None:
    """The hint for boards numbered from 1: when every invalid board, its columns less
    one, is a solution, and no two are the same; else None.

    >>> shift_hint([(2, 4, 1, 3), (3, 1, 4, 2)], 2, 4)
    'every board is valid shifted by one: 1-based columns? cpqueens counts from 0'
    >>> shift_hint([(2, 4, 1, 3)], 2, 4)
    'every invalid board is valid shifted by one: 1-based columns? cpqueens counts from 0'
    >>> shift_hint([(0, 1, 2, 3)], 1, 4) is None
    True
    """
    if not invalid:
        return None
    shifted = set()
    for board in invalid:
        if not all(isinstance(c, int) and not isinstance(c, bool) for c in board):
            return None
        moved = tuple(c - 1 for c in board)
        if moved in shifted or not solves(moved, case):
            return None
        shifted.add(moved)
    every = "every board" if len(invalid) == total else "every invalid board"
    return f"{every} is {SHIFTED_HINT}"


def why_invalid(board: tuple, n: int) -> str:
    """Why ``board`` is no solution of size ``n``, in a few words.

    >>> why_invalid((1, 2, 3, 4), 4), why_invalid((0, 1, 2, 3), 4)
    ('row 3: column 4 is off the board', 'the queens of rows 0 and 1 attack each other')
    """
    if len(board) != n:
        return f"{plural(len(board), 'row')}, not {n}"
    unread = [r for r, column in enumerate(board) if not isinstance(column, int)]
    if unread:
        return f"row {unread[0]} has no queen or several"
    off = [r for r, column in enumerate(board) if not 0 <= column < n]
    if off:
        return f"row {off[0]}: column {board[off[0]]} is off the board"
    pairs = attacking_pairs(board)
    if pairs:
        return f"the queens of rows {pairs[0][0]} and {pairs[0][1]} attack each other"
    return "not a solution"


def _fault_record(row: CrossCheckRow, fault: Fault) -> dict[str, Any]:
    origin = fault.origin
    board = None if fault.board is None else [_plain(c) for c in fault.board]
    printed = None if origin is None or origin.printed is None else list(origin.printed)
    return {
        "n": row.n,
        "instance": row.instance,
        "backend": row.backend,
        "kind": fault.kind,
        "board": board,
        "printed": printed,
        "base": None if origin is None else origin.base,
        "line": None if origin is None else origin.line,
        "text": None if origin is None else origin.text,
        "detail": fault.detail,
    }


def faults_text(records: list[dict[str, Any]], suffix: str) -> str:
    """The fault records as a ``.json`` document or a ``.csv`` table (boards as JSON lists).

    >>> record = dict.fromkeys(FAULT_COLUMNS)
    >>> record.update(n=4, backend="mine", kind="invalid", board=[0, 1, 2, 3])
    >>> print(faults_text([record], ".csv"), end="")
    n,instance,backend,kind,board,printed,base,line,text,detail
    4,,mine,invalid,"[0, 1, 2, 3]",,,,,
    """
    if suffix == ".json":
        return json.dumps({"faults": records}, indent=2) + "\n"
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(FAULT_COLUMNS)
    for record in records:
        writer.writerow(
            [
                json.dumps(value) if isinstance(value, list) else "" if value is None else value
                for value in (record[column] for column in FAULT_COLUMNS)
            ]
        )
    return out.getvalue()


def has_faults(faults: dict[str, Any]) -> bool:
    """True when :func:`sort_faults` found anything wrong."""
    return any(faults[f"{kind}_count"] for kind in ("missing", "extra", "invalid", "duplicated"))


def error_row(
    n: int, backend: str, error: str, reference_count: int, elapsed: float, **fields: Any
) -> CrossCheckRow:
    """A row for a backend that failed before its answer could be compared."""
    faults = {**sort_faults(n, [], set()), "faults": (Fault("error", None, detail=error),)}
    return CrossCheckRow(
        n=n,
        backend=backend,
        count=fields.pop("count", 0),
        reference_count=reference_count,
        agrees=False,
        elapsed=elapsed,
        error=error,
        **faults,
        **fields,
    )


def _where(row: CrossCheckRow) -> str:
    """``n=8``, or the label of the instance checked."""
    return row.instance or f"n={row.n}"


def _plain(value: Any) -> Any:
    return value if isinstance(value, (int, float, str, bool)) or value is None else repr(value)


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
    if row.compared == "count":
        return (
            f"states {plural(row.count, 'solution')}, the reference has "
            f"{thousands(row.reference_count)}"
        )
    parts = [_timed_out_note(row)] if row.timed_out else []
    for kind in ("missing", "extra", "invalid", "duplicated"):
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
    return "; ".join(parts)


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
        if fault.kind in ("wrong answer", "wrong count"):
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
