"""Timings as text: the bench table and its CSV, the notes on what was stopped, the report's grids.

:func:`bench_table` (aligned text, from :func:`bench_grid`; :func:`bench_legend` is the
line under it) and :func:`bench_csv` list a row per (backend, n); :func:`bench_notes`
says which backend timed out and what was left unstarted; :func:`timing_grid` and
:func:`effort_grid` lay the medians and the search effort out as a row per backend and a
column per n, as the report shows them.

>>> print(bench_csv([Timing("stack", 4, (0.5,), 2, 16)]), end="")
backend,n,median_seconds,runs_seconds,count,nodes,effort,error,status
stack,4,0.5,0.5,2,16,nodes,,done
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence

from ...display import numbers
from ...display.cells import spreadsheet_cell
from ..tables import Grid, format_grid
from .runs import NOT_STARTED, Timing, after_time_out

#: Branches (CP-SAT) and decisions (SAT solvers) stand in for nodes: marked so as not
#: to pass for them.
EFFORT_MARKS = {"nodes": "", "branches": " b", "decisions": " d"}


def effort_cell(timing: Timing) -> str:
    """A timing's search effort as a cell: the count and the mark of its kind, or ``-``.

    >>> effort_cell(Timing("cpsat", 4, (0.1,), 2, 1234, effort="branches"))
    '1,234 b'
    """
    if timing.nodes is None:
        return "-"
    return numbers.thousands(timing.nodes) + EFFORT_MARKS.get(timing.effort or "", "")


def bench_grid(timings: Sequence[Timing]) -> Grid:
    """Arrange the timings as a grid of cells (header first), with each median's ratio to
    the fastest median at the same n. Branches (CP-SAT) are marked ``b``, decisions
    (SAT solvers) ``d``."""
    fastest: dict[int, float] = {}
    for t in timings:
        if t.median is not None:
            fastest[t.n] = min(fastest.get(t.n, t.median), t.median)
    grid = [["backend", "n", "median", "x fastest", "solutions", "nodes", "nodes/s"]]
    for t in timings:
        if t.median is None:
            grid.append([t.backend, str(t.n), "skipped", "", "", "", t.error or ""])
            continue
        ratio = t.median / fastest[t.n] if fastest[t.n] > 0 else 1.0
        rate = (
            "-"
            if t.nodes is None or t.median <= 0
            else numbers.thousands(round(t.nodes / t.median))
        )
        grid.append(
            [
                t.backend,
                str(t.n),
                numbers.seconds(t.median),
                f"{ratio:.1f}",
                numbers.thousands(t.count),
                effort_cell(t),
                rate,
            ]
        )
    return grid


def bench_table(timings: Sequence[Timing]) -> str:
    """Format the timings as aligned text (see :func:`bench_grid`).

    >>> print(bench_table([Timing("stack", 4, (0.5, 0.25, 0.75), 2, 16)]))
    backend  n  median  x fastest  solutions  nodes  nodes/s
    stack    4  500 ms        1.0          2     16       32
    """
    grid = bench_grid(timings)
    # A pair that did not finish says how it ended: refused, timed out or skipped.
    if len(grid) == len(timings) + 1:
        for row, t in zip(grid[1:], timings, strict=True):
            if t.status != "done" and row[:2] == [t.backend, str(t.n)]:
                row[:] = [t.status if cell == "skipped" else cell for cell in row]
    return format_grid(grid)


def bench_legend(timings: Sequence[Timing]) -> str:
    """The line under the bench table that says what its columns and marks mean.

    >>> print(bench_legend([Timing("stack", 4, (0.5,), 2, 16)]))
    median = of the runs; x fastest = the median over the fastest median at that n; \
nodes = search nodes (for the backtrackers, queens placed, the root not counted)
    >>> bench_legend([Timing("cpsat", 4, (0.1,), 2, 1234, effort="branches")]).split("; ")[-1]
    "b = CP-SAT's branches, counted in place of nodes"
    """
    parts = [
        "median = of the runs",
        "x fastest = the median over the fastest median at that n",
        "nodes = search nodes (for the backtrackers, queens placed, the root not counted)",
    ]
    # Only the marks the table shows are explained.
    efforts = {t.effort for t in timings if t.nodes is not None}
    shown = [
        f"{mark} = {what}"
        for effort, mark, what in (
            ("branches", "b", "CP-SAT's branches"),
            ("decisions", "d", "the SAT solver's decisions"),
        )
        if effort in efforts
    ]
    if shown:
        parts.append(", ".join(shown) + ", counted in place of nodes")
    if any(t.median is not None and t.nodes is None for t in timings):
        parts.append("- = no search figure reported")
    return "; ".join(parts)


def bench_csv(timings: Sequence[Timing]) -> str:
    """Format the timings as CSV, one row per (backend, n); the runs are space-separated."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["backend", "n", "median_seconds", "runs_seconds", "count", "nodes", "effort", "error"]
    header.append("status")
    writer.writerow(header)
    for t in timings:
        writer.writerow(
            [
                spreadsheet_cell(t.backend),
                t.n,
                "" if t.median is None else f"{t.median:.6g}",
                " ".join(f"{s:.6g}" for s in t.seconds),
                "" if t.count is None else t.count,
                "" if t.nodes is None else t.nodes,
                t.effort or "",
                spreadsheet_cell(t.error or ""),
                t.status,
            ]
        )
    return out.getvalue()


def bench_notes(timings: Sequence[Timing]) -> list[str]:
    """A line for each backend that timed out and for the pairs left unstarted, saying why.

    >>> bench_notes([Timing.timed_out("stack", 12, "run 1 of 3 passed the time limit of 60.0 s"),
    ...              Timing.skipped("stack", 13, "stack timed out at n=12"),
    ...              Timing.skipped("stack", 14, "stack timed out at n=12")])
    ['stack n=12 timed out: run 1 of 3 passed the time limit of 60.0 s; n=13..14 not tried']
    """
    notes = []
    for t in timings:
        if t.status == "timed out":
            after = [s.n for s in timings if s.backend == t.backend and s.error == _after(t)]
            tail = f"; {_span(after)} not tried" if after else ""
            notes.append(f"{t.backend} n={t.n} {t.error}{tail}")
    unstarted: dict[str, dict[str, list[int]]] = {}
    for t in timings:
        if t.status == "skipped" and not any(t.error == _after(s) for s in timings):
            why = (t.error or "").removeprefix(NOT_STARTED)
            unstarted.setdefault(why, {}).setdefault(t.backend, []).append(t.n)
    for why, pairs in unstarted.items():
        where = ", ".join(f"{backend} {_span(ns)}" for backend, ns in pairs.items())
        notes.append(f"not started ({why}): {where}")
    return notes


def _after(t: Timing) -> str:
    """The error of the pairs skipped because ``t`` timed out."""
    return NOT_STARTED + after_time_out(t.backend, t.n)


def _span(ns: Sequence[int]) -> str:
    """``n=4..6,9`` for [4, 5, 6, 9]."""
    parts: list[list[int]] = []
    for n in sorted(ns):
        if parts and n == parts[-1][1] + 1:
            parts[-1][1] = n
        else:
            parts.append([n, n])
    return "n=" + ",".join(str(a) if a == b else f"{a}..{b}" for a, b in parts)


# ----------------------------------------------------------------------------- report grids


#: How a timing grid's cell reads for a (backend, n) pair without a median.
_NO_MEDIAN = {"refused": "refused", "timed out": "timed out", "skipped": "not run"}


def _grid_of(timings: Sequence[Timing], cell: Callable[[Timing], str]) -> Grid:
    """A row per backend and a column per n (header first), each cell ``cell(timing)``."""
    ns = sorted({t.n for t in timings})
    by_pair = {(t.backend, t.n): t for t in timings}
    grid = [["backend", *(f"n={n}" for n in ns)]]
    for backend in dict.fromkeys(t.backend for t in timings):
        cells = [by_pair.get((backend, n)) for n in ns]
        grid.append([backend, *("" if t is None else cell(t) for t in cells)])
    return grid


def timing_grid(timings: Sequence[Timing]) -> Grid:
    """The median times as a grid: a row per backend, a column per n (header first).

    >>> timing_grid([Timing("stack", 4, (0.5, 0.25), 2, 16), Timing("stack", 5, (1.5,), 10, 53)])
    [['backend', 'n=4', 'n=5'], ['stack', '375 ms', '1.50 s']]
    """

    def cell(t: Timing) -> str:
        if t.median is not None:
            return numbers.seconds(t.median)
        return _NO_MEDIAN.get(getattr(t, "status", ""), "-")

    return _grid_of(timings, cell)


def effort_grid(timings: Sequence[Timing]) -> Grid | None:
    """The search effort as a grid like :func:`timing_grid`; None when no run counted any.

    >>> effort_grid([Timing("stack", 4, (0.5,), 2, 16),
    ...              Timing("cpsat", 4, (0.1,), 2, 1234, effort="branches")])
    [['backend', 'n=4'], ['stack', '16'], ['cpsat', '1,234 b']]
    """
    if not any(t.nodes is not None for t in timings):
        return None
    return _grid_of(timings, effort_cell)
