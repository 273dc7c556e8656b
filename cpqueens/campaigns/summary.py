"""A campaign's results per solver: solved, statuses, PAR-2, the virtual best solver.

* **solved**: runs whose verdict is ``sat`` or ``unsat`` (a wrong answer is not solved);
* **PAR-2**: the mean over a solver's runs of the wall time of a solved run, and of
  twice the time limit for any other (unknown, memout, error, wrong), in seconds;
* **median time**: the median wall time of its solved runs;
* **virtual best solver** (``VBS``): per instance, the best any solver did (the
  shortest median time of its solved runs); it is a row of the table, its PAR-2 over
  the instances;
* **alone**: the instances only that solver solved;
* **proved** (a campaign with ``certify = true``): its answers proved by a checked
  proof (see :mod:`.certificates`); None otherwise.

:func:`errored` lists the solvers whose runs ended in an error, with the first reason.

>>> rows = [
...     {"solver": "a", "instance_hash": "i1", "instance": "x", "verdict": "sat", "wall": 1.0,
...      "time_limit": 10.0},
...     {"solver": "b", "instance_hash": "i1", "instance": "x", "verdict": "unknown",
...      "wall": 10.5, "time_limit": 10.0},
... ]
>>> [(s["solver"], s["solved"], s["par2"]) for s in summarize(rows)]
[('a', 1, 1.0), ('b', 0, 20.0), ('VBS', 1, 1.0)]
"""

from __future__ import annotations

import csv
import io
import json
import statistics
from collections import defaultdict
from typing import Any

from ..display.cells import spreadsheet_cell
from .verify import SOLVED

STATUSES = ("sat", "unsat", "unknown", "memout", "error", "wrong")
#: The columns of the summary, in the order of its table, CSV and JSON.
COLUMNS = ("solver", "runs", "solved", *STATUSES, "par2", "median_time", "alone", "proved")
VBS = "VBS"


def summarize(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One dict per solver (in the order first seen), then the virtual best solver."""
    per_solver: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        per_solver[row["solver"]].append(row)
    alone = solved_alone(rows)
    out = []
    for solver, runs in per_solver.items():
        entry = _entry(solver, [(r["verdict"], r["wall"], r["time_limit"]) for r in runs])
        entry["alone"] = len(alone.get(solver, []))
        if any("proved" in r for r in runs):  # a certified campaign: answers proved
            entry["proved"] = sum(1 for r in runs if r["proved"] == "yes")
        out.append(entry)
    best = []
    for runs in _by_instance(rows).values():
        time = _best_time(runs)
        limit = max(r["time_limit"] for r in runs)
        solved = {r["verdict"] for r in runs if r["verdict"] in SOLVED}
        verdict = "unknown" if time is None else "sat" if "sat" in solved else "unsat"
        best.append((verdict, time, limit))
    if len(per_solver) > 1:
        vbs = _entry(VBS, best)
        vbs["alone"] = None
        out.append(vbs)
    return out


def solved_alone(rows: list[dict[str, Any]]) -> dict[str, list[str]]:
    """The instances (labels) that one solver alone solved, by solver."""
    out: dict[str, list[str]] = defaultdict(list)
    for runs in _by_instance(rows).values():
        solvers = {r["solver"] for r in runs if r["verdict"] in SOLVED}
        if len(solvers) == 1:
            out[solvers.pop()].append(runs[0]["instance"])
    return dict(out)


def errored(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The solvers with runs that ended in an error (a missing program, a crash, output
    that answers nothing), in the order first seen: how many of their runs, and the
    reason of the first one. Such runs answer nothing, so the campaign is incomplete.

    >>> rows = [{"solver": "mine", "verdict": "error", "verdict_reason": "not found"},
    ...         {"solver": "mine", "verdict": "sat", "verdict_reason": None}]
    >>> errored(rows)
    [{'solver': 'mine', 'errors': 1, 'runs': 2, 'reason': 'not found'}]
    """
    per_solver: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        per_solver[row["solver"]].append(row)
    out = []
    for solver, runs in per_solver.items():
        failed = [r for r in runs if r["verdict"] == "error"]
        if failed:
            out.append({"solver": solver, "errors": len(failed), "runs": len(runs),
                        "reason": failed[0]["verdict_reason"]})  # fmt: skip
    return out


def _entry(solver: str, runs: list[tuple[str, float | None, float]]) -> dict[str, Any]:
    entry: dict[str, Any] = {"solver": solver, "runs": len(runs)}
    for status in STATUSES:
        entry[status] = sum(1 for verdict, _, _ in runs if verdict == status)
    entry["solved"] = entry["sat"] + entry["unsat"]
    scores = [wall if verdict in SOLVED else 2 * limit for verdict, wall, limit in runs]
    times = [wall for verdict, wall, _ in runs if verdict in SOLVED]
    entry["par2"] = round(statistics.fmean(scores), 4) if scores else None
    entry["median_time"] = round(statistics.median(times), 4) if times else None
    return {column: entry.get(column) for column in COLUMNS}


def _by_instance(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    grouped: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        grouped[row["instance_hash"]].append(row)
    return grouped


def _best_time(runs: list[dict[str, Any]]) -> float | None:
    """The shortest, over solvers, median time of their solved runs of one instance."""
    per_solver: dict[str, list[float]] = defaultdict(list)
    for run in runs:
        if run["verdict"] in SOLVED:
            per_solver[run["solver"]].append(run["wall"])
    if not per_solver:
        return None
    return min(statistics.median(times) for times in per_solver.values())


def summary_csv(summary: list[dict[str, Any]]) -> str:
    """The summary as CSV; a solver label a spreadsheet would run as a formula is
    quoted with a leading ``'``."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(COLUMNS), lineterminator="\n")
    writer.writeheader()
    writer.writerows(
        {key: spreadsheet_cell(value) for key, value in row.items()} for row in summary
    )
    return out.getvalue()


def summary_json(summary: list[dict[str, Any]]) -> str:
    return json.dumps(summary, indent=2)
