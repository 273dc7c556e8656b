"""The report of :func:`cpqueens.crosscheck`: its rows gathered, whether they agree,
and the same as plain records, a table (``str(report)``) or a faults file.

>>> import cpqueens
>>> report = cpqueens.crosscheck(6, ["stack"])
>>> report.ok, [record["status"] for record in report.to_records()]
(True, ['ok'])
"""

from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any

from ..row import CrossCheckRow, Fault
from .faults import COUNTED, spreadsheet_records
from .row_text import report_lines

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


@dataclass(frozen=True)
class CrossCheckReport:
    """The rows of one :func:`crosscheck`, one per board size and backend.

    ``agrees`` (also ``ok``) is True when no row disagrees; ``failures`` lists the
    rows that do. A row stopped by the time limit is listed in ``timed_out`` and
    is not a failure, unless ``timeouts_fail`` is True. ``str(report)`` is a
    table; ``to_records()`` gives plain dicts.

    Examples
    --------
    >>> import cpqueens
    >>> def my_solver(n):  # forgets the last solution
    ...     return sorted(cpqueens.solutions(n))[:-1]
    >>> report = cpqueens.crosscheck(6, ["stack", my_solver])
    >>> report.ok, report.reference, [row.backend for row in report.failures]
    (False, 'decision tree', ['my_solver'])
    >>> [(record["backend"], record["status"], record["missing"]) for record in report.to_records()]
    [('stack', 'ok', []), ('my_solver', 'FAIL', [[4, 2, 0, 5, 3, 1]])]
    >>> print(report)  # doctest: +ELLIPSIS
    n  backend    compared  count  reference  status  missing  extra  invalid  duplicated  seconds
    -  ---------  --------  -----  ---------  ------  -------  -----  -------  ----------  -------
    6  stack           all      4          4      ok        0      0        0           0    ...
    6  my_solver       all      3          4    FAIL        1      0        0           0    ...
    n=6 my_solver: missing (4, 2, 0, 5, 3, 1)
    reference: decision tree; 1 of 2 disagree
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
    def wrong(self) -> tuple[CrossCheckRow, ...]:
        """The rows that gave a wrong answer: compared, and found to differ (``!``)."""
        return tuple(row for row in self.rows if not row.agrees and not row.error)

    @property
    def unanswered(self) -> tuple[CrossCheckRow, ...]:
        """The rows that gave no answer to compare: the run failed, or its output could
        not be read (``E``). A failure to answer is not a wrong answer."""
        return tuple(row for row in self.rows if row.error)

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
            for key in COUNTED:
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

        Examples
        --------
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
        from ...disk.writing import check_writable, write_atomic

        target = check_writable(path, (".csv", ".json"), "faults")
        return write_atomic(target, faults_text(self.fault_records(), target.suffix.lower()))

    def __str__(self) -> str:
        return "\n".join(
            [*report_lines(self.rows), f"reference: {self.reference}; {self._verdict()}"]
        )

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
    """The fault records as a ``.json`` document or a ``.csv`` table (boards as JSON lists;
    a text a spreadsheet would run as a formula, such as a program's line
    ``=HYPERLINK(...)``, quoted with a leading ``'``: :func:`.faults.spreadsheet_records`).

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
    for record in spreadsheet_records(records):
        writer.writerow(
            [
                json.dumps(value) if isinstance(value, list) else "" if value is None else value
                for value in (record[column] for column in FAULT_COLUMNS)
            ]
        )
    return out.getvalue()


def _plain(value: Any) -> Any:
    return value if isinstance(value, (int, float, str, bool)) or value is None else repr(value)
