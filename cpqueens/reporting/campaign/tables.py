"""A campaign's runs as grids for the terminal and the report: summary, what ran, solvers, spread.

:func:`summary_grid` lays out the summary of :func:`cpqueens.campaigns.summary.summarize`
and :func:`summary_legend` says what its columns mean;
:func:`campaign_details` says what was asked, under which limits, how often, where and
when; :func:`solver_grid` gives each solver's configuration and versions and
:func:`spread_grid` the spread of its solved times.

>>> summary_grid([{"solver": "stack", "runs": 2, "solved": 2, "sat": 1, "unsat": 1,
...                "unknown": 0, "memout": 0, "error": 0, "wrong": 0, "par2": 0.5,
...                "median_time": 0.25, "alone": 0}])[1][:3]
['stack', '2', '2']
"""

from __future__ import annotations

import socket
import statistics
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from ...campaigns.summary import COLUMNS, VBS
from ...campaigns.verify import SOLVED
from ...display.numbers import plural, seconds, thousands
from ..tables import Grid
from .runs import Row, distinct, first_runs, memory_limits, time_limits
from .solver_programs import programs_of

#: How the summary's columns are headed in a report.
_HEADINGS = {"par2": "PAR-2", "median_time": "median time"}

#: The columns holding seconds; the others hold counts (and the solver's name).
_TIMES = ("par2", "median_time")


def _cell(column: str, value: Any) -> str:
    """A summary value in the one number style.

    >>> _cell("par2", 12.5), _cell("median_time", 0.0123), _cell("runs", 1200), _cell("sat", None)
    ('12.5 s', '12.3 ms', '1,200', '-')
    """
    if value is None:
        return "-"
    if column in _TIMES:
        return seconds(float(value))
    if isinstance(value, int) and not isinstance(value, bool):
        return thousands(value)
    return str(value)


def summary_grid(summary: Sequence[dict[str, Any]]) -> list[list[str]]:
    """A campaign's summary (:func:`cpqueens.campaigns.summary.summarize`) as a grid,
    header first: a row per solver, then the virtual best; for the terminal and the
    report alike."""
    # "proved" only for a certified campaign: elsewhere it would be a column of dashes.
    shown = [c for c in COLUMNS if c != "proved" or any(e.get(c) is not None for e in summary)]
    header = [_HEADINGS.get(column, column) for column in shown]
    return [header] + [[_cell(c, entry.get(c)) for c in shown] for entry in summary]


def summary_legend(summary: Sequence[dict[str, Any]]) -> list[str]:
    """The lines under the summary's table that say what its columns mean.

    >>> for line in summary_legend([{"solver": "stack"}, {"solver": "VBS"}]):
    ...     print(line)
    solved = sat or unsat, the answer checked; unknown = stopped without an answer; \
memout = stopped at the memory limit; error = the run failed; wrong = an answer found wrong
    PAR-2 = mean time a run, one not solved counted at twice the time limit; median \
time = of the solved runs; alone = instances no other solver solved; VBS = the virtual \
best solver: on each instance, the fastest that solved it
    """
    lines = [
        "solved = sat or unsat, the answer checked; unknown = stopped without an answer; "
        "memout = stopped at the memory limit; error = the run failed; "
        "wrong = an answer found wrong",
        "PAR-2 = mean time a run, one not solved counted at twice the time limit; "
        "median time = of the solved runs; alone = instances no other solver solved",
    ]
    if any(entry.get("solver") == VBS for entry in summary):
        lines[1] += "; VBS = the virtual best solver: on each instance, the fastest that solved it"
    if any(entry.get("proved") is not None for entry in summary):
        lines[1] += "; proved = answers backed by a checked proof"
    return lines


def campaign_details(rows: Sequence[Row]) -> list[tuple[str, str]]:
    """What was asked, under which limits, how often, where and when, as (what, value).

    >>> rows = [{"campaign": "c", "question": "decide", "time_limit": 10.0,
    ...          "memory_limit_mb": 2000, "repeat": r, "instance_hash": "x",
    ...          "host": "h", "cpqueens_version": "1.0",
    ...          "started": f"2026-01-0{r + 1}T10:00:00+00:00"} for r in (0, 1)]
    >>> for what, value in campaign_details(rows): print(f"{what}: {value}")
    campaign: c
    question: decide
    time limit: 10.0 s of wall time per run
    memory limit: 2,000 MB of resident memory per run (its whole process tree)
    repeats: 2 runs of each instance and solver
    runs: 2 runs on 1 instance
    hosts: h
    runs started: 2026-01-01T10:00:00+00:00 to 2026-01-02T10:00:00+00:00
    cpqueens: 1.0
    """
    here = socket.gethostname()
    hosts = [f"{host} (this machine)" if host == here else host for host in distinct(rows, "host")]
    started = distinct(rows, "started")
    repeats = max((int(row["repeat"]) for row in rows), default=0) + 1
    details = [
        ("campaign", ", ".join(distinct(rows, "campaign")) or "-"),
        ("question", ", ".join(distinct(rows, "question")) or "-"),
        ("time limit", time_limits(rows) + " of wall time per run"),
        ("memory limit", memory_limits(rows)
         + " of resident memory per run (its whole process tree)"),
        ("repeats", plural(repeats, "run") + " of each instance and solver"),
        ("runs", f"{plural(len(rows), 'run')} on "
                 f"{plural(len({row['instance_hash'] for row in rows}), 'instance')}"),
        ("hosts", ", ".join(hosts) or "-"),
        # Stored in UTC with its offset: the time zone is in the text.
        ("runs started", f"{started[0]} to {started[-1]}" if started else "-"),
        ("cpqueens", ", ".join(distinct(rows, "cpqueens_version")) or "-"),
    ]  # fmt: skip
    return details


def _configuration(row: Row) -> str:
    if row.get("backend"):
        options = " ".join(f"{k}={v!r}" for k, v in sorted((row.get("options") or {}).items()))
        return f"backend {row['backend']}" + (f" ({options})" if options else "")
    return f"command {row.get('command')!r}"


def solver_grid(rows: Sequence[Row]) -> Grid:
    """A row per solver: its configuration, the versions its runs recorded, and the
    versions of the programs it runs that are found here (:func:`program_versions`)."""
    versions: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        if row.get("solver_version"):
            versions[row["solver"]].add(row["solver_version"])
    grid = [["solver", "configuration", "version of its runs", "programs (found here)"]]
    for label, row in first_runs(rows, "solver").items():
        recorded = ", ".join(sorted(versions[label])) or "-"
        grid.append([label, _configuration(row), recorded, programs_of(row) or "-"])
    return grid


def spread_grid(rows: Sequence[Row]) -> Grid:
    """The spread of each solver's solved times: quartiles over its solved runs, and,
    with repeats, how far an instance's repeated times lie apart ((max - min) / median,
    the median of it over the instances solved more than once)."""
    solved: dict[str, list[float]] = defaultdict(list)
    repeated: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        solved.setdefault(row["solver"], [])
        if row.get("verdict", row.get("status")) in SOLVED:
            solved[row["solver"]].append(float(row["wall"]))
            repeated[row["solver"]][row["instance_hash"]].append(float(row["wall"]))
    grid = [["solver", "solved runs", "first quartile", "median", "third quartile",
             "spread over repeats"]]  # fmt: skip
    for label, times in solved.items():
        if len(times) > 1:
            low, middle, high = statistics.quantiles(times, n=4, method="inclusive")
        else:
            low = middle = high = times[0] if times else None
        ratios = [
            (max(walls) - min(walls)) / statistics.median(walls)
            for walls in repeated[label].values()
            if len(walls) > 1 and statistics.median(walls) > 0
        ]
        spread = f"{statistics.median(ratios):.0%}" if ratios else "-"
        grid.append([label, thousands(len(times)), *map(seconds, (low, middle, high)), spread])
    return grid
