"""Text for the terminal: the cross-check table and the grids of the reports.

The solutions as text in the articles' board styles and the field's formats are
:mod:`.solution_text`'s (kept importable from here).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..checking.judging.faults import why_invalid
from ..checking.judging.row_text import EXAMPLE_KINDS, decision_details, note_lines
from ..checking.row import EXAMPLES
from ..display.cells import html_table, markdown_text
from ..display.numbers import plural, thousands
from ..display.terminal import printable
from .solution_text import format_solutions, result_record

__all__ = ["format_solutions", "result_record"]


Grid = list[list[str]]
"""A table as rows of cells, the header row first."""


def format_grid(grid: Grid, style: str = "text") -> str:
    """Lay out a grid as aligned text, an HTML ``<table>`` or a Markdown pipe table.

    The first column is aligned left, the others right (they hold numbers). Every
    cell is shown as written, whatever it holds: on a terminal through
    :func:`~cpqueens.display.terminal.printable` (no control character reaches it, a
    newline is ``\\n``), in HTML escaped, in Markdown through
    :func:`~cpqueens.display.cells.markdown_text` (a ``|`` or ``<img>`` in a label
    neither splits the row nor becomes HTML).

    >>> print(format_grid([["backend", "n"], ["stack", "8"]]))
    backend  n
    stack    8
    >>> print(format_grid([["backend", "n"], ["stack", "8"]], "markdown"))
    | backend | n |
    |:--|--:|
    | stack | 8 |
    """
    if style == "markdown":
        lines = ["| " + " | ".join(map(markdown_text, row)) + " |" for row in grid]
        lines.insert(1, "|:--|" + "--:|" * (len(grid[0]) - 1))
        return "\n".join(lines)
    if style == "html":
        return html_table(grid)
    grid = [[printable(cell) for cell in row] for row in grid]
    widths = [max(len(row[i]) for row in grid if i < len(row)) for i in range(len(grid[0]))]
    return "\n".join(
        "  ".join(
            cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row)
        ).rstrip()
        for row in grid
    )


def crosscheck_grid(
    rows: Sequence[Any], reference: str = "reference", proved: Mapping[Any, bool] | None = None
) -> tuple[Grid, list[str]]:
    """Arrange cross-check rows as a backends x n grid of counts, plus a line per disagreement.

    The ``reference`` row holds the reference's counts, ``reference`` naming it; with
    ``proved`` (a column's key -> whether its answer was certified) a row says which
    answers a checked proof backs.
    A count is marked ``!`` when the backend's solutions differ from the reference's,
    ``E`` when the backend failed and ``T`` when the time limit stopped it before it
    found anything wrong (the count is then how far it got); the lines below say
    how. The ``agrees`` column is ``yes``, ``NO`` or ``timed out`` (nothing wrong,
    but not every n finished). The ``compared`` column says what was compared:
    ``all`` solutions, ``some`` (a program that prints a few) or the ``count`` alone.
    """
    # A column per board size, or per instance (named, in the order checked).
    ns = (
        list(dict.fromkeys(_column(row) for row in rows))
        if any(row.instance for row in rows)
        else sorted({row.n for row in rows})
    )
    by_key = {(row.backend, _column(row)): row for row in rows}
    backends = list(dict.fromkeys(row.backend for row in rows))
    reference_counts = {_column(row): _reference_cell(row) for row in rows}
    head = "instance" if any(row.instance for row in rows) else "n"
    grid = [[head, *map(str, ns), "compared", "agrees"]]
    grid.append([f"reference ({reference})", *(reference_counts[n] for n in ns), "", ""])
    if proved is not None:
        # The reference's answer, certified: every row that agrees with it is proved too.
        cells = ["yes" if proved.get(n) else "NO" for n in ns]
        grid.append(["proved (DRAT, checked)", *cells, "", "yes" if all(proved.values()) else "NO"])
    problems = []
    for backend in backends:
        cells, verdicts, compared = [], [], []
        for n in ns:
            row = by_key.get((backend, n))
            if row is None:
                cells.append("")
                continue
            shown = row.answer if getattr(row, "compared", "") == "decision" else None
            cells.append((shown or _cell(row.count)) + _mark(row))
            compared.append(row.compared)
            verdicts.append(_verdict(row))
            if not row.agrees:
                problems.append(_problem(row))
            elif row.timed_out:
                problems.append(_timed_out(row))
            problems.extend(f"  {backend} {_where(row)}: {note}" for note in note_lines(row))
        kinds = ",".join(dict.fromkeys(compared))
        # One wrong n outweighs any time-out: a disagreement is the news.
        worst = "NO" if "NO" in verdicts else "timed out" if "timed out" in verdicts else "yes"
        grid.append([backend, *cells, kinds, worst])
    return grid, problems


def crosscheck_table(
    rows: Sequence[Any], reference: str = "reference", proved: Mapping[Any, bool] | None = None
) -> str:
    """Format cross-check rows as text: the grid of :func:`crosscheck_grid`, then the
    problems, a line each (labels and what programs printed made :func:`printable`)."""
    grid, problems = crosscheck_grid(rows, reference, proved)
    shown = [printable(problem) for problem in problems]
    return "\n".join([format_grid(grid), *([""] if shown else []), *shown])


#: What each value of the ``compared`` column means, for the line under the table.
COMPARED = {
    "all": "every solution, each once",
    "some": "each board printed is a distinct solution",
    "count": "the number of solutions",
    "decision": "whether a solution exists, each board shown checked",
}


def crosscheck_legend(rows: Sequence[Any], reference: str) -> str:
    """The line under a cross-check's table that says what its words mean.

    >>> from types import SimpleNamespace as Row
    >>> print(crosscheck_legend([Row(compared="all")], "tree"))
    reference (tree) = the solutions of the explicit decision tree; compared all = every \
solution, each once; agrees yes = the same as the reference

    A program that printed its boards for some n and only a count for others is marked
    ``all,count``, and the line says so:

    >>> rows = [Row(backend="./q", compared="all"), Row(backend="./q", compared="count")]
    >>> print(crosscheck_legend(rows, "stack").partition("; agrees")[0])
    reference (stack) = what stack answers; compared all = every solution, each once; \
compared count = the number of solutions; compared all,count = all on some n, count on \
the others
    """
    source = "the solutions of the explicit decision tree" if reference == "tree" else (
        f"what {reference} answers"
    )  # fmt: skip
    kinds = dict.fromkeys(getattr(row, "compared", "all") for row in rows)
    compared = "; ".join(f"compared {k} = {COMPARED[k]}" for k in kinds if k in COMPARED)
    # A backend compared one way on some n and another on the rest shows both, "all,count".
    mixed = {}
    for row in rows:
        mixed.setdefault(getattr(row, "backend", None), {})[getattr(row, "compared", "all")] = 1
    for found in dict.fromkeys(",".join(k) for k in mixed.values() if len(k) > 1):
        compared += f"; compared {found} = {' on some n, '.join(found.split(','))} on the others"
    return f"reference ({reference}) = {source}; {compared}; agrees yes = the same as the reference"


def _where(row: Any) -> str:
    """``n=8``, or the instance's label."""
    instance = getattr(row, "instance", None)
    return instance if instance else f"n={row.n}"


def _column(row: Any) -> Any:
    """A row's column: its instance's label, or its board size."""
    return getattr(row, "instance", None) or row.n


def _cell(number: int | None) -> str:
    return thousands(number)


def _reference_cell(row: Any) -> str:
    """The reference's count, or for a decision its answer."""
    if getattr(row, "compared", "") == "decision":
        return row.reference_answer or ""
    return _cell(row.reference_count)


def _mark(row: Any) -> str:
    if row.error:
        return "E"
    if not row.agrees:
        return "!"
    return "T" if row.timed_out else ""


#: What each mark of :func:`crosscheck_grid` means, for a legend.
MARKS = {
    "!": "a wrong answer",
    "E": "no answer: the run failed or its output could not be read",
    "T": "timed out",
}


def marks_used(rows: Sequence[Any], *, disagreeing: bool | None = None) -> list[str]:
    """The marks (``!``, ``E``, ``T``) :func:`crosscheck_grid` puts on these rows, in
    that order; only the rows that disagree (or agree) when ``disagreeing`` says so.

    >>> from types import SimpleNamespace as Row
    >>> marks_used([Row(error="boom", agrees=False, timed_out=False)])
    ['E']
    """
    found = {_mark(row) for row in rows if disagreeing is None or disagreeing == (not row.agrees)}
    return [mark for mark in MARKS if mark in found]


def _origin(row: Any, board: tuple, kind: str) -> str:
    """Where a program printed an example board (``printed 1-based on line 3: ...``)."""
    finder = getattr(row, "origin_of", None)
    origin = finder(board, EXAMPLE_KINDS[kind]) if finder is not None else None
    return origin.describe() if origin is not None else ""


def _verdict(row: Any) -> str:
    if not row.agrees:
        return "NO"
    return "timed out" if row.timed_out else "yes"


def _timed_out(row: Any) -> str:
    return (
        f"T {row.backend} {_where(row)}: timed out after {plural(row.count, 'board')}, "
        f"none wrong (the reference has {thousands(row.reference_count)}); "
        "the rest was not compared"
    )


def _problem(row: Any) -> str:
    mark = _mark(row) or "!"
    if row.error:
        return f"{mark} {row.backend} {_where(row)}: {row.error}"
    if row.compared == "decision":
        return f"{mark} {row.backend} {_where(row)}: {decision_details(row)}"
    unproved = [fault.detail for fault in row.faults if fault.kind == "unproved"]
    if row.compared == "count" and unproved and row.count == row.reference_count:
        return f"{mark} {row.backend} {_where(row)}: {unproved[0]}"
    if row.compared == "count":
        return (
            f"{mark} {row.backend} {_where(row)}: states {plural(row.count, 'solution')}, "
            f"the reference has {thousands(row.reference_count)}"
        )
    parts = [
        f"{thousands(getattr(row, kind + '_count'))} {kind}"
        for kind in ("missing", "extra", "invalid", "duplicated")
        if getattr(row, kind + "_count")
    ]
    if row.timed_out:
        # Its count is how far it got, not a claim of the total: say so, not "n for m".
        parts.insert(0, f"timed out after {plural(row.count, 'board')}")
    elif row.count != row.reference_count:
        parts.insert(
            0, f"{plural(row.count, 'board')} for {plural(row.reference_count, 'solution')}"
        )
    if row.miscounted:
        parts.append(f"states {plural(row.stated_count, 'solution')}")
    # The first example of a fault; one a program printed, with its line, when there is one.
    # Named by its kind: "e.g. missing (0, 4, 7, ...)" is not read as an invalid board.
    candidates = [
        (kind, board, _origin(row, board, kind))
        for kind in ("missing", "extra", "invalid")
        for board in getattr(row, kind)[:1]
    ]
    traced = [candidate for candidate in candidates if candidate[2]]
    if candidates:
        kind, board, origin = (traced or candidates)[0]
        parts.append(f"e.g. {kind} {board}" + (f" ({origin})" if origin else ""))
    elif row.invalid_lines:
        line, text = row.invalid_lines[0]
        parts.append(f"e.g. line {line}: {text.strip()[:60]!r} is not a board")
    hint = getattr(row, "hint", None)
    if hint:
        parts.append(hint)
    parts += unproved
    what = ", ".join(parts) or "differs from the reference"
    return f"{mark} {row.backend} {_where(row)}: {what}"


def verify_lines(row: Any, parsed: Any, reference: str) -> list[str]:
    """Say what a program's output held and how it compares: the text of ``cpqueens verify``.

    ``row`` is the cross-check row of the output, ``parsed`` what
    :func:`cpqueens.parse_boards` read from it. A faulty board is shown 0-based, as
    compared, with the line the program printed it on (and its base) below it. Each
    line is one line, :func:`printable` (a file's name and a program's words shown, not
    obeyed).
    """
    return [printable(line) for line in _verify_lines(row, parsed, reference)]


def _verify_lines(row: Any, parsed: Any, reference: str) -> list[str]:
    head = f"n={row.n}, {row.backend}"
    against = f"the reference ({reference}) has {plural(row.reference_count, 'solution')}"
    if row.error:
        return [f"{head}: {row.error}", against]
    if row.compared == "count":
        verdict = "agrees" if row.agrees else "DISAGREES"
        return [f"{head}: states {plural(row.count, 'solution')}; {against}: {verdict}"]
    how = [parsed.style, "1-based" if parsed.base == 1 else None, parsed.pairs and (
        f"{parsed.pairs} pairs"
    )]  # fmt: skip
    read_as = f" ({', '.join(part for part in how if part)})" if parsed.style else ""
    if parsed.silent:
        read_as = " (the output is empty: a program that exits 0 printing nothing says no solution)"
    lines = [f"{head}: read {plural(row.count, 'board')}{read_as}; {against}"]
    lines.extend(note_lines(row))
    if parsed.captions:
        first = parsed.captions[0][1].strip()[:60]
        lines.append(f"{plural(len(parsed.captions), 'caption')} around the boards, e.g. {first!r}")
    if parsed.ignored:
        lines.append(f"ignored {plural(len(parsed.ignored), 'line')} as asked")
    # Lines shaped like a board that are none are counted with the invalid boards.
    for kind, label in (
        ("missing", "missing"),
        ("extra", "extra"),
        ("invalid", "invalid"),
        ("duplicated", "repeated"),
    ):
        total = getattr(row, f"{kind}_count")
        if not total:
            continue
        lines.append(f"{label}: {thousands(total)}")
        examples = getattr(row, kind)
        for board in examples:
            why = f": {_why_invalid(board, row.n)}" if kind == "invalid" else ""
            lines.append(f"  {board}{why}")
            origin = _origin(row, board, kind)
            if origin:
                lines.append(f"    {origin}")
        if kind == "invalid":
            lines.extend(
                f"  line {k}: {text.strip()[:80]!r}  (not a board of size {row.n})"
                for k, text in parsed.invalid_lines[:EXAMPLES]
            )
            examples += parsed.invalid_lines[:EXAMPLES]
        if total > len(examples):
            lines.append(f"  ... and {thousands(total - len(examples))} more")
    if row.miscounted:
        lines.append(
            f"states {plural(row.stated_count, 'solution')} but printed "
            f"{plural(row.count, 'board')}"
        )
    hint = getattr(row, "hint", None)
    if hint:
        lines.append(f"hint: {hint}")
    if row.agrees:
        what = "every solution, each once" if row.compared == "all" else "valid, distinct solutions"
        lines.append(f"agrees: {what}")
    else:
        lines.append("DISAGREES with the reference")
    return lines


def _why_invalid(board: tuple, n: int) -> str:
    return why_invalid(board, n)
