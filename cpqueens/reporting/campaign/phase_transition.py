"""The phase transition of a campaign: satisfiable fraction and effort against a parameter.

In the way of Gent et al., :func:`transition_table` takes, for each value of a
generator parameter (the density of blocked squares, the fill of given queens, n, or
any key of the instances' ``params``), the fraction of the decided instances that are
satisfiable (crossing 0.5 at the phase transition) and each solver's median effort with
its inter-quartile band, which peaks there. :func:`~.campaign_plots.transition` draws it.

>>> rows = [{"instance": f"i{k}", "instance_hash": f"i{k}", "n": 4, "blocked_count": k,
...          "fixed_count": 0, "solver": "a", "verdict": v, "wall": 1.0, "time_limit": 9.0}
...         for k, v in [(4, "sat"), (8, "unsat")]]
>>> transition_table(rows, "density").fractions
{4: {0.25: 1.0, 0.5: 0.0}}
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from ...errors import InvalidInputError
from ..effort import is_number
from .runs import (
    FAILED,
    UNFINISHED,
    Row,
    check_runs,
    instance_verdicts,
    is_solved,
    outcome,
)

#: Parameters computed from every instance, whatever its generator.
FIXED_PARAMETERS = ("density", "fill", "n")


@dataclass
class TransitionTable:
    """The numbers behind :func:`~.campaign_plots.transition`.

    Attributes
    ----------
    parameter, effort
        As given to :func:`transition_table`.
    fractions
        ``{n: {x: fraction of the decided instances that are sat}}``; a single key None
        when the runs are pooled over n (parameter ``"n"``). An x value with no decided
        instance is left out.
    samples
        ``{n: {x: (decided instances, instances)}}``: how many instances each fraction
        is taken over, and how many there were.
    efforts
        ``{solver: {x: median effort of its runs}}``, pooled over n; runs that ended
        in an error or a wrong answer are left out (their time means nothing).
    spread
        ``{solver: {x: (first quartile, third quartile)}}`` of the same runs.
    runs
        ``{solver: {x: runs the median is taken over}}``.
    unfinished
        ``{solver: {x: runs among them that did not finish}}`` (time-out or memout):
        counted at the time limit for ``"wall"``, with the count they reached else.
    left_out
        ``{solver: runs left out}``: those that ended in an error or a wrong answer.
    """

    parameter: str
    effort: str
    fractions: dict[int | None, dict[float, float]] = field(default_factory=dict)
    samples: dict[int | None, dict[float, tuple[int, int]]] = field(default_factory=dict)
    efforts: dict[str, dict[float, float]] = field(default_factory=dict)
    spread: dict[str, dict[float, tuple[float, float]]] = field(default_factory=dict)
    runs: dict[str, dict[float, int]] = field(default_factory=dict)
    unfinished: dict[str, dict[float, int]] = field(default_factory=dict)
    left_out: dict[str, int] = field(default_factory=dict)


def transition_parameters(rows: Sequence[Row]) -> list[str]:
    """The parameters a transition takes for these rows: fixed ones, then params keys."""
    keys = dict.fromkeys(key for row in rows for key in (row.get("params") or {}))
    return list(FIXED_PARAMETERS) + [key for key in keys if key not in FIXED_PARAMETERS]


def check_parameter(rows: Sequence[Row], parameter: str) -> None:
    """Refuse a parameter the rows have no value for, naming those allowed."""
    allowed = transition_parameters(rows)
    if parameter not in allowed:
        raise InvalidInputError(f"unknown parameter {parameter!r}; allowed: {', '.join(allowed)}")


def parameter_value(row: Row, parameter: str) -> float | None:
    """The x value of a run's instance for ``parameter``, or None if its generator has none."""
    if parameter == "density":
        return row["blocked_count"] / row["n"] ** 2
    if parameter == "fill":
        return row["fixed_count"] / row["n"]
    if parameter == "n":
        return row["n"]
    value = (row.get("params") or {}).get(parameter)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
        raise InvalidInputError(
            f"parameter {parameter!r} of instance {row['instance']!r} is {value!r}, "
            "not a number: it cannot be an axis"
        )
    return value


def transition_table(rows: Sequence[Row], parameter: str, effort: str = "wall") -> TransitionTable:
    """The satisfiable fraction and each solver's median effort for each value of ``parameter``.

    Parameters
    ----------
    rows
        Judged runs; those whose instance has no value for ``parameter`` are left out.
    parameter
        ``"density"`` (blocked squares / n²), ``"fill"`` (given queens / n), ``"n"``, or
        a key of the instances' generator ``params``.
    effort
        ``"wall"`` for wall time, runs that did not finish (time-out, memout) counted
        at their time limit; any other string is a key of the runs' ``stats`` (e.g.
        ``"nodes"``), over the runs that report it. Either way runs that ended in an
        error or a wrong answer are left out: their time measures no search.
    """
    rows = check_runs(rows)
    check_parameter(rows, parameter)
    return tabulate(rows, parameter, effort)


def tabulate(rows: list[Row], parameter: str, effort: str) -> TransitionTable:
    """:func:`transition_table` of runs and a parameter already checked (a door checks
    them once: :func:`check_runs`, :func:`check_parameter`)."""
    placed = [(x, row) for row in rows if (x := parameter_value(row, parameter)) is not None]
    if not placed:
        raise InvalidInputError(f"no instance has a value for the parameter {parameter!r}")
    table = TransitionTable(parameter, effort)
    verdicts = instance_verdicts(rows)
    # Instances, not runs, make up the fraction: each counted once whatever its runs.
    instances: dict[int | None, dict[float, dict[str, str]]] = defaultdict(
        lambda: defaultdict(dict)
    )
    for x, row in placed:
        key = None if parameter == "n" else row["n"]
        instances[key][x][row["instance_hash"]] = verdicts[row["instance_hash"]]
    for key in sorted(instances, key=lambda k: (k is not None, k or 0)):
        decided = {
            x: [v for v in seen.values() if v != "unknown"]
            for x, seen in sorted(instances[key].items())
        }
        table.fractions[key] = {
            x: sum(v == "sat" for v in found) / len(found) for x, found in decided.items() if found
        }
        table.samples[key] = {
            x: (len(found), len(instances[key][x])) for x, found in decided.items() if found
        }
    _fill_efforts(table, placed)
    return table


def _fill_efforts(table: TransitionTable, placed: list[tuple[float, Row]]) -> None:
    values: dict[str, dict[float, list[float]]] = defaultdict(lambda: defaultdict(list))
    unfinished: dict[str, dict[float, int]] = defaultdict(lambda: defaultdict(int))
    for x, row in placed:
        status = outcome(row)
        if status in FAILED:
            table.left_out[row["solver"]] = table.left_out.get(row["solver"], 0) + 1
            continue
        if table.effort == "wall":
            # A time-out is at least the limit: counting it there keeps hard points high.
            value = row["wall"] if is_solved(row) else row["time_limit"]
        else:
            value = (row.get("stats") or {}).get(table.effort)
            if isinstance(value, bool) or not isinstance(value, int | float):
                continue
        values[row["solver"]][x].append(float(value))
        unfinished[row["solver"]][x] += status in UNFINISHED
    if not values:
        if table.effort == "wall":
            raise InvalidInputError("no run to draw: every run ended in an error or was wrong")
        counters = sorted(
            {
                key
                for _, row in placed
                for key, value in (row.get("stats") or {}).items()
                if is_number(value)
            }
        )
        raise InvalidInputError(
            f"no run reports {table.effort!r} as a number; use 'wall' (seconds) or a "
            f"figure the runs report: {', '.join(counters) or 'none'}"
        )
    for label, by_x in values.items():
        ordered = sorted(by_x.items())
        table.efforts[label] = {x: statistics.median(v) for x, v in ordered}
        table.spread[label] = {x: _quartiles(v) for x, v in ordered}
        table.runs[label] = {x: len(v) for x, v in ordered}
        table.unfinished[label] = {x: unfinished[label][x] for x, _ in ordered}


def _quartiles(values: list[float]) -> tuple[float, float]:
    """The first and third quartiles (linear interpolation, as numpy's default)."""
    if len(values) == 1:
        return values[0], values[0]
    first, _, third = statistics.quantiles(values, n=4, method="inclusive")
    return first, third
