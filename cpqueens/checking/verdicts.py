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

    @property
    def status(self) -> str:
        """``"ok"``, ``"FAIL"`` (wrong solutions) or ``"ERROR"`` (raised or timed out)."""
        return "ok" if self.agrees else "ERROR" if self.error else "FAIL"


@dataclass(frozen=True)
class CrossCheckReport:
    """The rows of one :func:`crosscheck`, one per board size and backend.

    ``ok`` is True only when every row agrees; ``failures`` lists the rows that
    do not. ``str(report)`` is a table; ``to_records()`` gives plain dicts.
    """

    rows: tuple[CrossCheckRow, ...]
    reference: str

    @property
    def ok(self) -> bool:
        return all(row.agrees for row in self.rows)

    @property
    def failures(self) -> tuple[CrossCheckRow, ...]:
        return tuple(row for row in self.rows if not row.agrees)

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
        header = (
            "n",
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
                str(r.n),
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
        for row in self.failures:
            text.append(f"n={row.n} {row.backend}: " + _details(row))
        verdict = "all agree" if self.ok else f"{len(self.failures)} of {len(self.rows)} disagree"
        text.append(f"reference: {self.reference}; {verdict}")
        return "\n".join(text)


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


def _plain(value: Any) -> Any:
    return value if isinstance(value, (int, float, str, bool)) or value is None else repr(value)


def _details(row: CrossCheckRow) -> str:
    if row.error:
        return f"error {row.error}"
    if row.compared == "count":
        return f"states {row.count} solutions, the reference has {row.reference_count}"
    parts = []
    for kind in ("missing", "extra", "invalid", "duplicated"):
        total = getattr(row, f"{kind}_count")
        if total:
            shown = ", ".join(str(board) for board in getattr(row, kind))
            more = f" and {total - len(getattr(row, kind))} more" if total > EXAMPLES else ""
            parts.append(f"{kind} {shown}{more}")
    return "; ".join(parts)
