"""Running a campaign: every (instance, solver, repeat) not yet in the store, each in a
limited process of its own, on local workers or a Dask cluster, each result recorded
as soon as it is in: what was measured here, its status as the checking family judges
it (:func:`cpqueens.campaigns.run_verdicts.run_verdict`).
"""

from __future__ import annotations

import datetime
import os
import socket
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .._version import __version__
from ..arguments import check_int
from ..disk.transactions import immediate
from ..display.cells import html_table
from ..display.numbers import seconds, thousands
from ..display.terminal import printable
from ..errors import InvalidInputError
from .certificates import apply_certificates, certificate_lines, certify_campaign
from .isolation import Outcome
from .run_verdicts import run_verdict
from .shared_runs import Claims
from .spec import CampaignSpec, SolverConfig, load_spec
from .store import Store
from .summary import COLUMNS, VBS, errored, summarize
from .verify import judge, solutions_hash
from .workers import Task, locally, on_dask

#: The solvers (and problems) a report's repr names before it says how many more.
_SHOWN = 12
#: How the summary's columns are headed where they are not their own name.
_HEADINGS = {"par2": "PAR-2", "median_time": "median time"}


@dataclass
class CampaignReport:
    """What a campaign run did and found.

    ``ok`` is False when any run is wrong, any instance disputed or any run ended in
    an error (``errors``: per solver, how many and the first reason; see
    :func:`~cpqueens.campaigns.summary.errored`): the headline says which first.
    """

    name: str
    db: str
    ran: int
    skipped: int
    summary: list[dict[str, Any]]
    wrong: list[dict[str, Any]] = field(default_factory=list)
    disputed: list[str] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    #: Runs that another process running the same campaign on the store did (or holds).
    others: int = 0
    #: ``certify = true``: a line for each instance whose answer was not proved.
    unproved: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.wrong and not self.disputed and not self.errors and not self.unproved

    def __repr__(self) -> str:
        # The headline and each solver's solved runs: a campaign's summary and wrong
        # answers may run to thousands of entries, which stay in the fields.
        solved = [f"{e['solver']} {e['solved']}/{e['runs']}" for e in self.summary]
        if len(solved) > _SHOWN:
            solved[_SHOWN:] = [f"... {len(solved) - _SHOWN} more"]
        lines = [
            f"CampaignReport(name={self.name!r}, db={self.db!r}, ran={self.ran}, "
            f"skipped={self.skipped}, ok={self.ok})",
            self.headline(),
        ]
        if solved:
            lines.append(f"solved (of runs): {', '.join(solved)}")
        return "\n".join(printable(line) for line in lines)

    def _repr_html_(self) -> str:
        """The headline, what went wrong and the summary table, for a notebook.

        Solver and instance labels come from the campaign's files: every text is escaped.
        """
        import html

        notes = [f"wrong: {w['solver']} on {w['instance']}: {w['reason']}" for w in self.wrong]
        notes += [f"disputed: {label}" for label in self.disputed]
        notes += [f"error: {e['solver']}, {e['errors']} of {e['runs']} runs: {e['reason']}"
                  for e in self.errors]  # fmt: skip
        notes += self.unproved
        if len(notes) > _SHOWN:
            notes[_SHOWN:] = [f"... {len(notes) - _SHOWN} more"]
        parts = [f"<p><strong>{html.escape(self.headline())}</strong></p>"]
        parts += [f"<p>{html.escape(line)}</p>" for line in notes]
        if self.summary:
            parts.append(_summary_html(self.summary))
        parts.append(f"<p><small>results in {html.escape(self.db)}</small></p>")
        return "<div>" + "".join(parts) + "</div>"

    def headline(self) -> str:
        """The first line a campaign prints: wrong answers first of all."""
        if self.wrong:
            who = sorted({w["solver"] for w in self.wrong})
            return (
                f"WRONG: {len(self.wrong)} wrong answer{'s' * (len(self.wrong) != 1)} "
                f"(by {', '.join(who)}) in campaign {self.name!r}"
            )
        if self.disputed:
            count = len(self.disputed)
            return f"DISPUTED: the counts of {count} instance(s) disagree with no majority"
        if self.unproved:
            count = len(self.unproved)
            return f"NOT PROVED: the answers of {count} instance(s) in campaign {self.name!r}"
        shared = f", {self.others} by another process" if self.others else ""
        done = f"({self.ran} runs now, {self.skipped} already done{shared})"
        if self.errors:
            return f"{error_line(self.errors, self.summary, self.name)} {done}"
        return f"campaign {self.name!r}: no wrong answer {done}"


def _summary_html(summary: list[dict[str, Any]]) -> str:
    """The summary (one row a solver, then the virtual best) as an HTML table: counts
    with separators, times in the one number style, every cell escaped."""
    shown = [c for c in COLUMNS if c != "proved" or any(e.get(c) is not None for e in summary)]

    def cell(column: str, value: Any) -> str:
        if value is None:
            return "-"
        if column in ("par2", "median_time"):
            return seconds(float(value))
        return thousands(value) if isinstance(value, int) else str(value)

    heading = [_HEADINGS.get(c, c) for c in shown]
    return html_table([heading, *([cell(c, entry.get(c)) for c in shown] for entry in summary)])


def error_line(
    errors: list[dict[str, Any]], summary: list[dict[str, Any]], campaign: str | None = None
) -> str:
    """The first line of a campaign with runs that ended in an error (and none wrong):
    how many, by whom, and whether any run answered at all.

    >>> error_line([{"solver": "mine", "errors": 2}], [{"solver": "mine", "runs": 2}])
    'ERROR: all 2 runs ended in an error (by mine): nothing was answered'
    """
    count = sum(e["errors"] for e in errors)
    runs = sum(s["runs"] for s in summary if s["solver"] != VBS)
    head = f"{count} run{'s' * (count != 1)} ended in an error"
    head += f" (by {', '.join(e['solver'] for e in errors)})"
    if campaign is not None:
        head += f" in campaign {campaign!r}"
    if count == runs:
        return f"ERROR: all {head}: nothing was answered"
    return f"ERROR: {head}; none of the other {runs - count} runs is wrong"


def run_campaign(
    spec: str | os.PathLike | Mapping[str, Any] | CampaignSpec,
    db: str | os.PathLike,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
    progress: Callable[[int, int, int], None] | None = None,
    notify: Callable[[str], None] | None = None,
) -> CampaignReport:
    """Run a campaign and keep every finished run in the SQLite file ``db``.

    Parameters
    ----------
    spec : path, dict or CampaignSpec
        The campaign (see :mod:`cpqueens.campaigns.spec`).
    db : path
        The results file, created if it is new; a file that is neither new nor a
        cpqueens store is refused and left as it is. Runs already in it are skipped,
        so a campaign that was stopped is resumed by running it again.
    workers : int, optional
        Runs at a time on this machine, one per core by default (one run per core
        keeps the timings honest).
    scheduler, client : optional
        A Dask scheduler's address or a ``distributed.Client``: the runs go to its
        workers instead, each still in a limited process of its own there.
    progress : callable, optional
        Called as ``progress(done, total, failures)`` after every run.
    notify : callable, optional
        Called with a line when another process is seen running the same campaign
        on the same file: the two share the runs (see :mod:`.claims`).

    Notes
    -----
    Ctrl-C stops the runs in flight (they are not written) and raises
    KeyboardInterrupt; every finished run is in the file.

    Examples
    --------
    >>> import tempfile, os, cpqueens
    >>> spec = {"campaign": {"time_limit": 10},
    ...         "instances": [{"generator": "plain", "n": [4, 6]}],
    ...         "solvers": [{"backend": "stack"}, {"backend": "exactcover"}]}
    >>> db = os.path.join(tempfile.mkdtemp(), "results.sqlite")
    >>> report = cpqueens.run_campaign(spec, db, workers=2)
    >>> report.ok, report.ran, [(s["solver"], s["solved"]) for s in report.summary]
    (True, 4, [('stack', 2), ('exactcover', 2), ('VBS', 2)])
    >>> cpqueens.run_campaign(spec, db).skipped
    4
    """
    spec = spec if isinstance(spec, CampaignSpec) else load_spec(spec)
    if workers is not None:
        workers = check_int(workers, "workers", 1)
    with Store(db) as store:
        skipped, pending = _pending(spec, store, store.finished(spec.name))
        total = len(spec.instances) * len(spec.solvers) * spec.repeats - skipped
        warm = [_solver_dict(config) for config in spec.solvers]
        done = failures = 0
        with Claims(store, spec.name, notify) as claims:
            if progress is not None:
                progress(0, total, 0)
            tasks = claims.take(pending)
            if client is not None or scheduler is not None:
                results = on_dask(tasks, warm, client, scheduler)
            else:
                results = locally(tasks, warm, workers or os.cpu_count() or 1)
            try:
                for key, task, outcome in results:
                    fields = record(task, outcome)
                    store.add_run(key, fields)
                    done += 1
                    failures += fields["status"] in ("error", "wrong", "memout")
                    if progress is not None:
                        progress(done, max(total - claims.left, done), failures)
            finally:
                # On Ctrl-C (or any error) the runs in flight are killed now, not whenever
                # the traceback that holds this frame is let go.
                results.close()
            others = total - done
        rows = store.rows(spec.name)
        if spec.certify:
            certify_campaign(store, spec, rows)
        rows, disputed = judge(rows)
        certificates = store.certificates()
        disputed = apply_certificates(rows, disputed, certificates)
    wrong = [
        {"instance": r["instance"], "solver": r["solver"], "repeat": r["repeat"],
         "reason": r["verdict_reason"]}
        for r in rows if r["verdict"] == "wrong"
    ]  # fmt: skip
    return CampaignReport(
        name=spec.name,
        db=os.fspath(db),
        ran=done,
        skipped=skipped,
        others=others,
        summary=summarize(rows),
        wrong=wrong,
        disputed=disputed,
        errors=errored(rows),
        unproved=certificate_lines(rows, certificates) if spec.certify else [],
    )


def load_results(db: str | os.PathLike, campaign: str | None = None) -> list[dict[str, Any]]:
    """Every run of the file (of one campaign), with its ``verdict`` after the checks
    across runs (see :mod:`cpqueens.campaigns.verify`).

    Examples
    --------
    >>> import os, tempfile, cpqueens
    >>> spec = {"campaign": {"name": "tiny", "time_limit": 10},
    ...         "instances": [{"generator": "plain", "n": [4, 5]}],
    ...         "solvers": [{"backend": "stack"}]}
    >>> db = os.path.join(tempfile.mkdtemp(), "results.sqlite")
    >>> _ = cpqueens.run_campaign(spec, db, workers=1)
    >>> rows = cpqueens.load_results(db, "tiny")
    >>> sorted((row["instance"], row["solver"], row["verdict"], row["solution"]) for row in rows)
    [('plain-n4', 'stack', 'sat', (1, 3, 0, 2)), ('plain-n5', 'stack', 'sat', (0, 2, 4, 1, 3))]
    >>> cpqueens.load_results(db, "other")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: no campaign 'other' in '...results.sqlite'; it holds: tiny
    """
    with Store(db, create=False) as store:
        if campaign is not None and campaign not in store.campaigns():
            raise InvalidInputError(
                f"no campaign {campaign!r} in {os.fspath(db)!r}; it holds: "
                f"{', '.join(store.campaigns()) or 'no run'}"
            )
        rows, disputed = judge(store.rows(campaign))
        apply_certificates(rows, disputed, store.certificates())
    return rows


def _pending(spec: CampaignSpec, store: Store, finished: set[tuple]) -> tuple[int, Iterator[Task]]:
    """How many of the campaign's runs are in the store already, and the others as
    ``(key, task)`` pairs, made one at a time as they are asked for."""
    with immediate(store.db):
        solver_ids = [
            store.solver_id(config.key, config.label, _solver_dict(config))
            for config in spec.solvers
        ]
        instance_ids = [
            store.instance_id(item.key, item.label, item.instance, item.source)
            for item in spec.instances
        ]
    limits = (spec.question, spec.time_limit, spec.memory_limit_mb)
    ours = set(instance_ids), set(solver_ids)
    skipped = sum(
        1
        for instance_id, solver_id, *asked, repeat in finished
        if instance_id in ours[0] and solver_id in ours[1] and tuple(asked) == limits
        and repeat < spec.repeats
    )  # fmt: skip

    def tasks() -> Iterator[Task]:
        solvers = list(zip(spec.solvers, solver_ids, strict=True))
        for item, instance_id in zip(spec.instances, instance_ids, strict=True):
            for repeat in range(spec.repeats):
                for config, solver_id in solvers:
                    if (instance_id, solver_id, *limits, repeat) in finished:
                        continue
                    key = {
                        "campaign": spec.name,
                        "instance_id": instance_id,
                        "solver_id": solver_id,
                        "question": spec.question,
                        "time_limit": spec.time_limit,
                        "memory_limit_mb": spec.memory_limit_mb,
                        "repeat": repeat,
                    }
                    task = {
                        "question": spec.question,
                        "time_limit": spec.time_limit,
                        "memory_limit_mb": spec.memory_limit_mb,
                        "instance": item.instance,
                        "solver": _solver_dict(config),
                        # Randomised backends: reproducible with a campaign seed, and
                        # each repeat a run of its own.
                        "seed": None if spec.seed is None else spec.seed + repeat,
                    }
                    yield key, task

    return skipped, tasks()


def record(task: dict[str, Any], outcome: Outcome) -> dict[str, Any]:
    """The row of a finished run: what was measured, what it answered, and its status
    (see :func:`~cpqueens.campaigns.run_verdicts.run_verdict`)."""
    fields: dict[str, Any] = {
        "wall": round(outcome.wall, 6),
        "cpu": round(outcome.cpu, 6),
        "peak_mb": round(outcome.peak_mb, 1),
        "host": socket.gethostname(),
        "cpqueens_version": __version__,
        "started": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "stats": {},
    }
    answer = outcome.answer
    if outcome.ended == "answered" and answer is not None:
        fields["stats"] = {**answer.get("stats", {}), "solve_seconds": answer.get("solve_seconds")}
        if "partial_count" in answer:
            fields["stats"]["partial_count"] = answer["partial_count"]
        fields["solver_version"] = answer.get("solver_version")
        if "error" not in answer:
            solutions = answer.get("solutions") or []
            fields["count"] = answer.get("count")
            fields["solution"] = solutions[0] if solutions else None
            if task["question"] == "all" and answer["answer"] != "unknown":
                # A fingerprint of the set, for the checks across runs (verify.judge).
                fields["solutions_hash"] = solutions_hash(solutions)
    status, reason = run_verdict(
        task["instance"],
        task["question"],
        answer,
        ended=outcome.ended,
        wall=outcome.wall,
        time_limit=task["time_limit"],
        memory_limit_mb=task["memory_limit_mb"],
        exit=outcome.exit,
    )
    return {**fields, "status": status, "reason": reason}


def _solver_dict(config: SolverConfig) -> dict[str, Any]:
    return {
        "label": config.label,
        "backend": config.backend,
        "options": config.options,
        "command": config.command,
        "format": config.format,
        "parse": config.parse,
        "folder": config.folder,
    }
