"""The report of :func:`cpqueens.crosscheck`: one row per board size and backend."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any

from ..board import Solution, is_valid

#: How many examples of each fault a row keeps (the totals are always kept).
EXAMPLES = 5

#: What a row compares: every solution, a few solutions, or only their number.
COMPARISONS = ("all", "some", "count")


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
            record = asdict(row)
            for key in ("missing", "extra", "invalid", "duplicated"):
                record[key] = [[_plain(c) for c in board] for board in record[key]]
            record["status"] = row.status
            records.append(record)
        return records

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
                str(r.count),
                str(r.reference_count),
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
    n: int, boards: list[tuple], reference: set[Solution], compared: str = "all"
) -> dict[str, Any]:
    """Sort the boards a backend returned into the four faults against ``reference``.

    With ``compared="some"`` the backend only claims a few solutions, so the
    reference's other solutions are not *missing*.
    """
    verdicts = [is_valid(b, n) for b in boards]
    invalid = [b for b, ok in zip(boards, verdicts, strict=True) if not ok]
    valid = Counter(b for b, ok in zip(boards, verdicts, strict=True) if ok)
    duplicated = sorted(b for b, times in valid.items() if times > 1)
    missing = sorted(reference - valid.keys()) if compared == "all" else []
    extra = sorted(valid.keys() - reference)
    return {
        "missing": tuple(missing[:EXAMPLES]),
        "extra": tuple(extra[:EXAMPLES]),
        "invalid": tuple(invalid[:EXAMPLES]),
        "duplicated": tuple(duplicated[:EXAMPLES]),
        "missing_count": len(missing),
        "extra_count": len(extra),
        "invalid_count": len(invalid),
        "duplicated_count": sum(valid[b] - 1 for b in duplicated),
    }


def has_faults(faults: dict[str, Any]) -> bool:
    """True when :func:`sort_faults` found anything wrong."""
    return any(faults[f"{kind}_count"] for kind in ("missing", "extra", "invalid", "duplicated"))


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
        **sort_faults(n, [], set()),
        **fields,
    )


def _where(row: CrossCheckRow) -> str:
    """``n=8``, or the label of the instance checked."""
    return row.instance or f"n={row.n}"


def _plain(value: Any) -> Any:
    return value if isinstance(value, (int, float, str, bool)) or value is None else repr(value)


def _details(row: CrossCheckRow) -> str:
    if row.error:
        return f"error {row.error}"
    if row.compared == "count":
        return f"states {row.count} solutions, the reference has {row.reference_count}"
    parts = [_timed_out_note(row)] if row.timed_out else []
    for kind in ("missing", "extra", "invalid", "duplicated"):
        total = getattr(row, f"{kind}_count")
        if total:
            shown = ", ".join(str(board) for board in getattr(row, kind))
            more = f" and {total - len(getattr(row, kind))} more" if total > EXAMPLES else ""
            parts.append(f"{kind} {shown}{more}")
    if row.invalid_lines:
        parts.append(
            "not a board: "
            + ", ".join(f"line {k}: {text.strip()!r}" for k, text in row.invalid_lines)
        )
    if row.miscounted:
        printed = (
            f"printed {row.count} boards"
            if row.compared == "all"
            else f"the reference has {row.reference_count}"
        )
        parts.append(f"states {row.stated_count} solutions, {printed}")
    return "; ".join(parts)


def note_lines(row: CrossCheckRow) -> list[str]:
    """The prose lines a program printed, as notes: shown, never judged."""
    shown = [f"note, line {k}: {text.strip()[:80]!r}" for k, text in row.notes]
    if row.note_count > len(row.notes):
        shown.append(f"note: and {row.note_count - len(row.notes)} more lines of prose")
    return shown


def _timed_out_note(row: CrossCheckRow) -> str:
    # The reference count says how far the backend got, since nothing is counted missing.
    return (
        f"timed out after {row.count} boards (the reference has {row.reference_count}); "
        "the rest is not counted missing"
    )
