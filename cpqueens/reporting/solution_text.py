"""The solutions of a Result as text: the articles' board styles and the field's formats.

Every format is written in pieces (:func:`solution_pieces`), so a board of ten
million rows goes to a file or a pipe without a list of its columns or one string
of it being made (see :mod:`cpqueens.display.streaming`).

>>> import cpqueens
>>> print(format_solutions(cpqueens.solve(4), "letters"), end="")
bdac
cadb
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from typing import Any

from ..board import render
from ..columns import Columns
from ..display.streaming import column_text, holds_columns, iter_json
from ..result import Result


def format_solutions(result: Result, fmt: str) -> str:
    """Return the solutions of ``result`` as text in ``fmt``, ending with a newline.

    ``fmt`` is a board style of :func:`cpqueens.render` (boards separated by a blank
    line; ``letters`` one per line), ``json`` (the whole result), ``csv`` (a row
    per solution, a column per row of the board) or ``xcsp`` (the XCSP competitions'
    answer: an ``s`` line, then a ``v`` line of an ``<instantiation>`` a solution, of
    the array ``q`` that cpqueens' XCSP3 files declare).

    >>> import cpqueens
    >>> print(format_solutions(cpqueens.solve(4, limit=1), "csv"), end="")
    solution,row0,row1,row2,row3
    1,1,3,0,2
    >>> print(format_solutions(cpqueens.solve(4, limit=1), "xcsp"), end="")
    s SATISFIABLE
    v <instantiation id="sol1" type="solution"> <list> q[] </list> <values> 1 3 0 2 </values> \
</instantiation>
    """
    return "".join(solution_pieces(result, fmt))


def solution_pieces(result: Result, fmt: str) -> Iterator[str]:
    """:func:`format_solutions`'s text in pieces, for writing as it is made."""
    if fmt == "xcsp":
        yield from _xcsp_answer(result)
    elif fmt == "json":
        record = result_record(result)
        # Indented as before for boards of tuples; compact, in pieces, for Columns.
        yield from iter_json(record) if holds_columns(record) else json.dumps(record, indent=2)
        yield "\n"
    elif fmt == "csv":
        yield from _csv_rows(result)
    else:
        separator = "\n" if fmt == "letters" else "\n\n"
        for index, solution in enumerate(result.solutions):
            yield (separator if index else "") + render(solution, style=fmt)  # type: ignore[arg-type]
        if result.solutions:
            yield "\n"


def _csv_rows(result: Result) -> Iterator[str]:
    if result.n > 1000:  # a header of a million names: written as the boards are
        yield "solution,row"
        yield from column_text(Columns(_row_names(result.n)), ",row")
    else:
        out = io.StringIO()
        csv.writer(out, lineterminator="").writerow(
            ["solution", *(f"row{r}" for r in range(result.n))]
        )
        yield out.getvalue()
    yield "\n"
    for index, solution in enumerate(result.solutions, 1):
        yield f"{index},"
        yield from column_text(solution, ",")
        yield "\n"


def _row_names(n: int) -> Any:
    import numpy as np

    return np.arange(n)


def _xcsp_answer(result: Result) -> Iterator[str]:
    status = {True: "SATISFIABLE", False: "UNSATISFIABLE", None: "UNKNOWN"}[result.satisfiable]
    yield f"s {status}\n"
    for index, solution in enumerate(result.solutions, 1):
        yield f'v <instantiation id="sol{index}" type="solution"> <list> q[] </list> <values> '
        yield from column_text(solution, " ")
        yield " </values> </instantiation>\n"


def result_record(result: Result) -> dict[str, Any]:
    """A JSON-serialisable dict of a :class:`~cpqueens.Result`.

    A board of :class:`~cpqueens.columns.Columns` stays one (no list of ten million
    ints): write the record with :func:`cpqueens.display.streaming.iter_json`.
    """
    return {
        "n": result.n,
        "backend": result.backend,
        # How many solutions are listed here, and how many there are when that is known
        # (the search ran to the end): "count" alone was read as the total.
        "found": result.count,
        "total": result.count if result.complete else None,
        "complete": result.complete,
        "elapsed": result.elapsed,
        "stats": dict(result.stats),
        "fixed": {str(row): column for row, column in result.fixed.items()},
        "blocked": [list(square) for square in result.blocked],
        "satisfiable": result.satisfiable,
        "solutions": [s if isinstance(s, Columns) else list(s) for s in result.solutions],
        **({"certificate": certificate_record(result.certificate)} if result.certificate else {}),
    }


def certificate_record(certificate: Any) -> dict[str, Any]:
    """A JSON-serialisable dict of a :class:`~cpqueens.Certificate`, ``proved`` with it."""
    from dataclasses import asdict

    return {**asdict(certificate), "proved": certificate.proved}
