"""A campaign's judged runs read for its plots: how each ended, per-instance times, the ranking.

Every function takes the rows of :meth:`Store.rows <cpqueens.campaigns.store.Store.rows>`
judged by :func:`~cpqueens.campaigns.verify.judge`. An instance's time for a solver is
the median wall time of its solved repeats (:func:`instance_times`); the cactus plot
draws their sorted series (:func:`cactus_series`, :func:`virtual_best_times`), the
scatter plot pairs two solvers' (:func:`scatter_points`), and every plot ranks the
solvers (:func:`solver_ranking`) and is headed alike (:func:`campaign_heading`).

A plot of times cannot show by itself what became of a solver that solved nothing: it
may have been slow, wrong, or unable to run, and a line of no points reads as slow.
:func:`solver_fates` reads it from the judged runs (the verdicts of
:func:`~cpqueens.campaigns.verify.judge`, the reasons the store keeps) and
:func:`fate_words` says it in a few words for a legend or an axis: **WRONG** on k
instances (a run gave a wrong answer there: a board that does not solve the instance,
an ``unsat`` where another run found a solution, a count outvoted or disproved),
**could not run** (every run ended in an error: its program or package not installed,
a crash at start; with the first reason the store records), or some runs **in error**.

>>> rows = [{"solver": "a", "instance_hash": i, "verdict": v, "wall": w}
...         for i, v, w in [("x", "sat", 2.0), ("y", "unknown", 9.0), ("z", "unsat", 0.5)]]
>>> instance_times(rows, "a")
{'x': 2.0, 'y': None, 'z': 0.5}
>>> rows = [{"solver": "mine", "instance_hash": "i", "verdict": "wrong",
...          "verdict_reason": "said unsat; ace found a verified solution"},
...         {"solver": "ace", "instance_hash": "i", "verdict": "error",
...          "verdict_reason": "BackendUnavailableError: backend 'ace' needs Java 17; "
...                            "install it with: apt-get install default-jre-headless"}]
>>> [fate_words(fate) for fate in solver_fates(rows).values()]
['WRONG on 1 instance', 'could not run (not installed)']
"""

from __future__ import annotations

import re
import statistics
import textwrap
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...campaigns.verify import SOLVED
from ...display.numbers import plural, seconds, thousands
from ...errors import InvalidInputError

Row = dict[str, Any]

#: Statuses of a run that did not finish: drawn at the time limit, and marked so.
UNFINISHED = ("unknown", "memout")

#: Statuses of a run whose time means nothing: never drawn as a time in the transition.
FAILED = ("error", "wrong")


def check_runs(rows: Sequence[Row]) -> list[Row]:
    """The runs as a list, refused when there are none to plot."""
    rows = list(rows)
    if not rows:
        raise InvalidInputError("no runs to plot: the campaign (or selection) has no results")
    return rows


def check_solver(rows: Sequence[Row], label: str) -> None:
    """Refuse a solver label that no run has, naming those that the runs have."""
    present = solvers(rows)
    if label not in present:
        raise InvalidInputError(
            f"unknown solver {label!r}; the runs have: {', '.join(present) or 'none'}"
        )


def outcome(row: Row) -> str:
    """How the run ended: its verdict, or its status when it is not judged yet."""
    # Judged rows may have been overruled (a wrong answer found across runs).
    return row.get("verdict") or row.get("status")


def is_solved(row: Row) -> bool:
    """True when the run answered its question (verdict ``sat`` or ``unsat``)."""
    return outcome(row) in SOLVED


def time_limit(rows: Sequence[Row]) -> float:
    """The largest time limit of the runs: where time-outs are drawn."""
    return max(float(row["time_limit"]) for row in rows)


def solvers(rows: Sequence[Row]) -> list[str]:
    """The solver labels, in the order of their first run."""
    return list(dict.fromkeys(row["solver"] for row in rows))


def distinct(rows: Sequence[Row], key: str) -> list[Any]:
    """The values the runs have under ``key``, sorted, each once (None left out).

    >>> distinct([{"host": "b"}, {"host": "a"}, {"host": "b"}, {"host": None}], "host")
    ['a', 'b']
    """
    return sorted({row[key] for row in rows if row.get(key) is not None})


def first_runs(rows: Sequence[Row], key: str) -> dict[Any, Row]:
    """The first run of each value of ``key`` (a solver, an instance), in order of appearance."""
    first: dict[Any, Row] = {}
    for row in rows:
        first.setdefault(row[key], row)
    return first


def time_limits(rows: Sequence[Row]) -> str:
    """The runs' time limits, ``"10.0 s"`` (``" / "`` between several)."""
    return " / ".join(seconds(float(v)) for v in distinct(rows, "time_limit"))


def memory_limits(rows: Sequence[Row]) -> str:
    """The runs' memory limits, ``"2,000 MB"`` (``" / "`` between several; empty for none)."""
    return " / ".join(f"{thousands(int(v))} MB" for v in distinct(rows, "memory_limit_mb"))


def campaign_heading(rows: Sequence[Row]) -> str:
    """What a plot's title says of the runs: campaign, question and limits.

    >>> campaign_heading([{"campaign": "blocked", "question": "decide", "time_limit": 10.0,
    ...                    "memory_limit_mb": 2000, "repeat": 0}])
    'campaign blocked: decide, time limit 10.0 s, memory limit 2,000 MB, 1 repeat'
    """
    parts = [", ".join(map(str, distinct(rows, "question")))]
    parts.append("time limit " + time_limits(rows))
    if memory := memory_limits(rows):
        parts.append("memory limit " + memory)
    if repeats := distinct(rows, "repeat"):
        parts.append(plural(int(repeats[-1]) + 1, "repeat"))
    names = distinct(rows, "campaign")
    head = f"campaign {', '.join(names)}: " if names else ""
    return head + ", ".join(part for part in parts if part)


def instance_verdicts(rows: Sequence[Row]) -> dict[str, str]:
    """Each instance's answer over all its runs: ``sat``, ``unsat`` or ``unknown``.

    ``sat`` if any run found it satisfiable, ``unsat`` if any run proved it unsatisfiable
    and none found a solution (a wrong run has verdict ``wrong`` and counts for nothing).
    """
    found: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        found[row["instance_hash"]].add(row.get("verdict") or row.get("status"))
    return {
        key: "sat" if "sat" in seen else "unsat" if "unsat" in seen else "unknown"
        for key, seen in found.items()
    }


def instance_times(rows: Sequence[Row], solver: str) -> dict[str, float | None]:
    """One solver's time on each instance it ran: the median wall of its solved repeats.

    None for an instance that the solver solved in none of its repeats.
    """
    times: dict[str, list[float]] = {}
    for row in rows:
        if row["solver"] == solver:
            solved = times.setdefault(row["instance_hash"], [])
            if is_solved(row):
                solved.append(float(row["wall"]))
    return {key: statistics.median(walls) if walls else None for key, walls in times.items()}


def cactus_series(rows: Sequence[Row]) -> dict[str, list[float]]:
    """Each solver's times on the instances it solved, sorted ascending (``[]`` if none).

    An instance's time is the median of its solved repeats (:func:`instance_times`),
    so the k-th point is the k-th instance, whatever the repeats.

    >>> rows = [{"solver": "a", "instance_hash": i, "verdict": v, "wall": w}
    ...         for i, v, w in [("x", "sat", 2.0), ("y", "unknown", 9.0), ("z", "unsat", 0.5)]]
    >>> cactus_series(rows)
    {'a': [0.5, 2.0]}
    """
    series = {}
    for label in solvers(rows):
        times = instance_times(rows, label).values()
        series[label] = sorted(time for time in times if time is not None)
    return series


def virtual_best_times(rows: Sequence[Row]) -> list[float]:
    """The virtual best solver's cactus series: per instance any solver solved, the
    best of the solvers' times (:func:`instance_times`), sorted ascending.

    >>> rows = [{"solver": s, "instance_hash": i, "verdict": v, "wall": w}
    ...         for s, i, v, w in [("a", "x", "sat", 2.0), ("b", "x", "sat", 1.0),
    ...                            ("a", "y", "unsat", 3.0), ("b", "y", "unknown", 9.0)]]
    >>> virtual_best_times(rows)
    [1.0, 3.0]
    """
    best: dict[str, float] = {}
    for label in solvers(rows):
        for key, time in instance_times(rows, label).items():
            if time is not None and (key not in best or time < best[key]):
                best[key] = time
    return sorted(best.values())


def solver_ranking(rows: Sequence[Row]) -> list[str]:
    """The solvers best first: most instances solved, then the least total time on them.

    The order of the cactus plot's lines from right to left, and the order in which
    the plots hand out their styles (:func:`~.style.ranked_styles`).
    """
    series = cactus_series(rows)
    order = {label: rank for rank, label in enumerate(series)}
    return sorted(series, key=lambda label: (-len(series[label]), sum(series[label]),
                                             order[label]))  # fmt: skip


def scatter_points(
    rows: Sequence[Row], first: str, second: str
) -> list[tuple[float | None, float | None, str]]:
    """``(first's time, second's time, verdict)`` for each instance both solvers ran.

    Times are from :func:`instance_times` (None when unsolved), the verdict from
    :func:`instance_verdicts`; instances that only one of the two ran are left out.
    """
    check_solver(rows, first)
    check_solver(rows, second)
    xs, ys = instance_times(rows, first), instance_times(rows, second)
    verdicts = instance_verdicts(rows)
    return [(xs[key], ys[key], verdicts[key]) for key in xs if key in ys]


# What became of each solver. ------------------------------------------------------------

#: The colour of a WRONG solver's words in a legend: a red no ranked line has.
WRONG_COLOUR = "#a50021"

#: The longest reason a legend quotes (characters): a store's reason can be a paragraph.
REASON_WIDTH = 40


@dataclass(frozen=True)
class SolverFate:
    """How one solver's runs ended, counted from the judged runs.

    Attributes
    ----------
    solver
        Its label.
    runs
        Its runs, every repeat counted.
    solved
        The instances on which at least one of its runs answered (``sat``, ``unsat``).
    wrong
        The instances on which at least one of its runs was judged wrong.
    errors
        Its runs that ended in an error.
    reason
        The reason the store records for its first run in error (None without one).
    """

    solver: str
    runs: int
    solved: int
    wrong: int
    errors: int
    reason: str | None

    @property
    def could_not_run(self) -> bool:
        """True when every run of the solver ended in an error: it answered nothing."""
        return self.runs > 0 and self.errors == self.runs

    @property
    def failed(self) -> bool:
        """True when the solver was wrong anywhere or could not run at all."""
        return self.wrong > 0 or self.could_not_run


def solver_fates(rows: Sequence[Row]) -> dict[str, SolverFate]:
    """Each solver's :class:`SolverFate`, in the order of its first run.

    >>> rows = [{"solver": "a", "instance_hash": i, "verdict": v, "verdict_reason": None}
    ...         for i, v in [("x", "sat"), ("x", "wrong"), ("y", "unknown")]]
    >>> solver_fates(rows)["a"]
    SolverFate(solver='a', runs=3, solved=1, wrong=1, errors=0, reason=None)
    """
    fates = {}
    for label in solvers(rows):
        runs = [row for row in rows if row["solver"] == label]
        failed = [row for row in runs if outcome(row) == "error"]
        first = failed[0] if failed else {}
        fates[label] = SolverFate(
            solver=label,
            runs=len(runs),
            solved=len({row["instance_hash"] for row in runs if is_solved(row)}),
            wrong=len({row["instance_hash"] for row in runs if outcome(row) == "wrong"}),
            errors=len(failed),
            # Judged rows carry the verdict's reason; rows read raw, the run's own.
            reason=first.get("verdict_reason") or first.get("reason"),
        )
    return fates


def short_reason(reason: str | None) -> str:
    """A store's reason for a run in error, short enough for a legend.

    A backend whose package or program is missing is "not installed" (one pointed at a
    program that is not there "not available here"); any other reason loses its
    exception's name and is cut to :data:`REASON_WIDTH` characters.

    >>> short_reason("BackendUnavailableError: backend 'ace' runs ACE on Java 17 or later, "
    ...              "and java is not on the PATH; install it with: apt-get install java")
    'not installed'
    >>> short_reason("program not found: './no-such-solver' in /tmp/campaign")
    "program not found: './no-such-solver'"
    >>> short_reason("the run's process died (SIGABRT)")
    "the run's process died (SIGABRT)"
    >>> short_reason(None)
    'no reason recorded'
    """
    if not reason:
        return "no reason recorded"
    if reason.startswith("BackendUnavailableError"):
        # The store's reason then ends with what to install, or says what is misnamed.
        return "not installed" if "install it with" in reason else "not available here"
    text = re.sub(r"^[A-Z]\w*(Error|Exception): ", "", reason.strip())
    # The folder a program was looked for in says nothing a legend needs.
    text = re.sub(r"^(program not found: '[^']*').*", r"\1", text)
    text = text.split(";")[0].strip()
    return textwrap.shorten(text, REASON_WIDTH, placeholder=" ...")


def fate_words(fate: SolverFate) -> str | None:
    """What a legend says of a solver besides its times, or None when nothing went wrong.

    >>> fate_words(SolverFate("b", runs=6, solved=2, wrong=0, errors=2,
    ...                       reason="the run's process died (SIGKILL)"))
    "2 runs in error: the run's process died (SIGKILL)"
    """
    parts = []
    if fate.wrong:
        parts.append(f"WRONG on {plural(fate.wrong, 'instance')}")
    if fate.could_not_run:
        parts.append(f"could not run ({short_reason(fate.reason)})")
    elif fate.errors:
        parts.append(f"{plural(fate.errors, 'run')} in error: {short_reason(fate.reason)}")
    return "; ".join(parts) or None


def instance_fates(rows: Sequence[Row], solver: str) -> dict[str, str | None]:
    """One solver's failure on each instance it ran, by instance hash: ``"wrong"`` when a
    run of it was wrong there, ``"error"`` when it answered none of its runs there and
    one ended in an error, None otherwise (answered, or out of time or memory).

    >>> rows = [{"solver": "a", "instance_hash": i, "verdict": v}
    ...         for i, v in [("x", "wrong"), ("y", "error"), ("y", "sat"), ("z", "error")]]
    >>> instance_fates(rows, "a")
    {'x': 'wrong', 'y': None, 'z': 'error'}
    """
    seen: dict[str, set[str]] = {}
    for row in rows:
        if row["solver"] == solver:
            seen.setdefault(row["instance_hash"], set()).add(outcome(row))
    fates: dict[str, str | None] = {}
    for key, ends in seen.items():
        if "wrong" in ends:
            fates[key] = "wrong"
        elif "error" in ends and not ends & set(SOLVED):
            fates[key] = "error"
        else:
            fates[key] = None
    return fates
