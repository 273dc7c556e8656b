"""Text for the terminal: solutions in the articles' board styles, the cross-check table.

>>> import cpqueens
>>> print(format_solutions(cpqueens.solve(4), "letters"), end="")
bdac
cadb
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from .board import render
from .result import Result


def format_solutions(result: Result, fmt: str) -> str:
    """Return the solutions of ``result`` as text in ``fmt``, ending with a newline.

    ``fmt`` is a board style of :func:`cpqueens.render` (boards separated by a blank
    line; ``letters`` one per line), ``json`` (the whole result) or ``csv`` (a row
    per solution, a column per row of the board).

    >>> import cpqueens
    >>> print(format_solutions(cpqueens.solve(4, limit=1), "csv"), end="")
    solution,row0,row1,row2,row3
    1,1,3,0,2
    """
    if fmt == "json":
        return json.dumps(result_record(result), indent=2) + "\n"
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["solution", *(f"row{r}" for r in range(result.n))])
        for index, solution in enumerate(result.solutions, 1):
            writer.writerow([index, *solution])
        return out.getvalue()
    separator = "\n" if fmt == "letters" else "\n\n"
    text = separator.join(render(s, style=fmt) for s in result.solutions)  # type: ignore[arg-type]
    return text + "\n" if text else ""


def result_record(result: Result) -> dict[str, Any]:
    """A JSON-serialisable dict of a :class:`~cpqueens.Result`."""
    return {
        "n": result.n,
        "backend": result.backend,
        "count": result.count,
        "complete": result.complete,
        "elapsed": result.elapsed,
        "stats": dict(result.stats),
        "fixed": {str(row): column for row, column in result.fixed.items()},
        "solutions": [list(s) for s in result.solutions],
    }


def crosscheck_table(rows: Sequence[Any], reference: str = "reference") -> str:
    """Format cross-check rows as a backends x n table of counts, then list every disagreement.

    The ``reference`` row holds the reference's counts, ``reference`` naming it.
    A count is marked ``!`` when the backend's solutions differ from the reference's
    and ``E`` when the backend failed; the lines under the table say how.
    """
    ns = sorted({row.n for row in rows})
    by_key = {(row.backend, row.n): row for row in rows}
    backends = list(dict.fromkeys(row.backend for row in rows))
    reference_counts = {row.n: row.reference_count for row in rows}
    width = max(7, *(len(str(c)) + 2 for c in reference_counts.values() if c is not None))
    name_width = max(12, *(len(b) + 2 for b in backends))
    lines = [f"{'n':<{name_width}}" + "".join(f"{n:>{width}}" for n in ns) + "   agrees"]
    cells = "".join(f"{_cell(reference_counts.get(n)):>{width}}" for n in ns)
    lines.append(f"{'reference':<{name_width}}{cells}   ({reference})")
    problems = []
    for backend in backends:
        cells, agrees = "", True
        for n in ns:
            row = by_key.get((backend, n))
            if row is None:
                cells += f"{'':>{width}}"
                continue
            mark = "E" if row.error else ("" if row.agrees else "!")
            cells += f"{_cell(row.count) + mark:>{width}}"
            if not row.agrees:
                agrees = False
                problems.append(_problem(row))
        lines.append(f"{backend:<{name_width}}{cells}   {'yes' if agrees else 'NO'}")
    if problems:
        lines.append("")
        lines.extend(problems)
    return "\n".join(lines)


def _cell(count: int | None) -> str:
    return "-" if count is None else str(count)


def _problem(row: Any) -> str:
    if row.error:
        return f"! {row.backend} n={row.n}: {row.error}"
    parts = [
        f"{getattr(row, kind + '_count')} {kind}"
        for kind in ("missing", "extra", "invalid", "duplicated")
        if getattr(row, kind + "_count")
    ]
    if row.count != row.reference_count:
        parts.insert(0, f"{row.count} boards for {row.reference_count} solutions")
    example = next(
        (getattr(row, kind) for kind in ("missing", "extra", "invalid") if getattr(row, kind)), ()
    )
    if example:
        parts.append(f"e.g. {example[0]}")
    return f"! {row.backend} n={row.n}: {', '.join(parts) or 'differs from the reference'}"
