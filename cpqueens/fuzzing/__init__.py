"""Hunting solver bugs: generated instances, metamorphic relations, every failure shrunk.

:func:`fuzz` draws instances from every family (plain, blocked squares, given queens,
both, Excluded Diagonals), weighted toward what breaks solvers, asks the target, and
judges each answer against a reference backend and by metamorphic relations that need
none (:mod:`.relations`). Every failure is shrunk to a minimal instance that fails the
same way (:mod:`.shrinking`). See docs/fuzzing.md.

Map: ``families`` (the instances drawn, a pure function of seed and index, weighted
toward what breaks solvers), ``targets`` (a backend, a program or a function as one
target, each run an ``Answer``), ``function_runs`` (a function target's call, in a
child forked from this process), ``references`` (the reference backend's answers,
remembered), ``judging`` (one answer judged: boards, decision, count, solutions),
``transforms`` (the symmetries and changes of an instance whose effect on the answer is
known), ``relations`` (the metamorphic relations built on them), ``shrinking`` (delta
debugging of a failing instance), ``hunt`` (the workers: instances drawn, asked, judged,
failures shrunk), ``state`` (what a hunt did, kept for resuming), ``report``
(``FuzzFailure`` and the ``FuzzReport`` holding them), ``output`` (the files ``-o``
writes: each shrunk instance, and ``report.json``).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..arguments import check_int, check_seconds
from ..errors import InvalidInputError, InvalidTypeError
from .families import FAMILIES, check_families
from .hunt import Hunt, run_hunt
from .references import Reference
from .relations import RELATIONS
from .report import FuzzFailure, FuzzReport
from .state import HuntState
from .targets import Target

__all__ = ["FAMILIES", "RELATIONS", "FuzzFailure", "FuzzReport", "fuzz"]

QUESTIONS = ("all", "decide", "count")

#: The largest board a hunt draws: the reference lists every solution of each.
MOST_N = 16


def fuzz(
    target: str | Any | Callable,
    *,
    options: Mapping[str, Any] | None = None,
    question: str = "all",
    budget: float = 60.0,
    seed: int = 0,
    reference: str | None = "auto",
    families: Sequence[str] | None = None,
    max_n: int = 12,
    workers: int = 1,
    time_limit: float = 5.0,
    relations: Sequence[str] | None = None,
    second_format: str | None = None,
    scheduler: str | None = None,
    client: Any = None,
    state: str | os.PathLike | None = None,
    max_failures: int | None = None,
    progress: Callable[[FuzzReport, float], None] | None = None,
) -> FuzzReport:
    """Hunt for bugs in a solver: try generated instances until the budget ends.

    Parameters
    ----------
    target : str, Command or callable
        A registry backend's name, a :class:`cpqueens.Command` whose command holds
        ``{instance}`` (each instance is written in its ``instance_format``; a program
        that prints nothing found no solution), or a function ``f(instance)``
        returning the solutions (or a count, for ``question="count"``, or a
        :class:`~cpqueens.Result`: one with ``complete=False`` proves nothing), called
        in a child process forked from this one, so that a crash or a call that hangs
        is a finding, never the end of the hunt.
    options : mapping, optional
        The backend's own options, as :func:`cpqueens.solve` takes them (say
        ``{"solver": "glucose4"}`` for ``sat``), checked here, before anything runs.
    question : {"all", "decide", "count"}
        What is asked and compared: every solution, satisfiable or not (each board
        verified), or the number of solutions.
    budget : float
        Seconds of wall time for the whole hunt, shrinking included; the run in
        flight is stopped when it ends.
    seed : int
        The same seed draws the same instances in the same order.
    reference : str or None
        ``"auto"``: for each instance an independent backend that takes it
        (:data:`~cpqueens.fuzzing.references.AUTO`); a backend's name; None: no
        reference, relations only.
    families : sequence of str, optional
        Of :data:`FAMILIES`; all by default.
    max_n : int
        The largest board drawn (1 to 16).
    workers : int
        Instances examined at a time (each run in a process of its own).
    time_limit : float
        Seconds one run of the target may take on a free machine: each run is allowed
        this times the machine's load (the cores' share a run gets when other
        processes want them too, ``report.load``). A run past it is run again once
        with three times as long; past that too, it is a time-out
        (``report.timeouts``, apart from the failures; for a backend that does not
        search the whole space, no answer).
    relations : sequence of str, optional
        The metamorphic relations checked (:data:`RELATIONS`); by default all but
        ``reduction`` for a program or a function (its boards hold about 266 n rows),
        and ``formats`` only with ``second_format``.
    second_format : str, optional
        For a program that reads two instance formats (say JSON, 0-based, and
        Essence' ``param``, 1-based): the second, for the ``formats`` relation.
    scheduler, client : optional
        A Dask scheduler's address or a ``distributed.Client``: the runs go to its
        workers, each in a limited process of its own, as a campaign's do.
    state : path, optional
        A JSON file keeping the instances tried and the failures: a hunt run again
        with the same file and settings goes on where it stopped.
    max_failures : int, optional
        Stop once this many distinct failures (wrong answers, crashes; not time-outs)
        are found and shrunk (1: at the first bug).
    progress : callable, optional
        Called as ``progress(report, seconds_left)`` as instances are tried.

    Returns
    -------
    FuzzReport
        ``report.failures`` (smallest first), ``report.timeouts``, ``report.tried``,
        ``report.by_family``, ``report.load``.

    Examples
    --------
    >>> import cpqueens
    >>> def forgets_the_last(instance):
    ...     return sorted(cpqueens.solutions(instance, backend="stack"))[:-1]
    >>> report = cpqueens.fuzz(forgets_the_last, budget=30, seed=1, max_n=6, max_failures=1)
    >>> (failure,) = report.failures     # the first bug found, shrunk
    >>> failure.kind in ("wrong decision", "missing solutions"), failure.minimal
    (True, True)
    >>> failure.instance in (cpqueens.Instance(1), cpqueens.Instance(4))   # its smallest boards
    True
    """
    if question not in QUESTIONS:
        raise InvalidInputError(
            f"question must be one of: {', '.join(QUESTIONS)}; got {question!r}"
        )
    budget = check_seconds(budget, "budget")
    time_limit = check_seconds(time_limit, "time_limit")
    if isinstance(seed, bool):
        raise InvalidTypeError(f"seed must be an int, got {seed!r}")
    seed = check_int(seed, "seed", 0)
    max_n = check_int(max_n, "max_n", 1)
    if max_n > MOST_N:
        raise InvalidInputError(
            f"max_n must be at most {MOST_N} (every solution of each board drawn is listed "
            f"by the reference), got {max_n}"
        )
    workers = check_int(workers, "workers", 1)
    if max_failures is not None:
        max_failures = check_int(max_failures, "max_failures", 1)
    hunted = Target(target, time_limit, options)
    if hunted.plain_only:
        if families is not None and set(check_families(families)) != {"plain"}:
            raise InvalidInputError(
                f"the command {hunted.label!r} is told only the board size ({{n}}): it can "
                "be hunted on plain boards only (families=['plain']); give it {instance} "
                "for the other families"
            )
        families = ["plain"]
    chosen_families = check_families(families)
    if hunted.kind == "backend" and not hunted.complete and question != "decide":
        raise InvalidInputError(
            f"{hunted.label!r} does not search the whole space: it can only be asked "
            "question='decide' (its boards are verified; a run with none proves nothing)"
        )
    if second_format is not None and hunted.program is None:
        raise InvalidInputError(
            "second_format is for a program (a cpqueens.Command) that reads two formats"
        )
    chosen_relations = _relations(relations, hunted, second_format)
    judge = Reference(reference, hunted)
    settings = {"target": hunted.label, "question": question, "seed": seed,
                "families": list(chosen_families), "max_n": max_n}  # fmt: skip
    saved = HuntState(state, settings)
    if client is not None or scheduler is not None:
        from ..parallel.cluster import connect

        if hunted.function is not None:
            raise InvalidInputError(
                "a function cannot be sent to a Dask cluster: give a backend or a Command"
            )
        client, owned = connect(client, scheduler)
    else:
        owned = False
    report = FuzzReport(hunted.label, question, seed, judge.label)
    saved.resume(report)
    started = time.monotonic()
    hunt = Hunt(
        hunted,
        question=question,
        seed=seed,
        reference=judge,
        relations=chosen_relations,
        second_format=second_format,
        time_limit=time_limit,
        deadline=started + budget,
        budget=budget,
        max_failures=max_failures,
        workers=workers,
        local=client is None,
    )
    try:
        run_hunt(hunt, saved, max_n=max_n, families=chosen_families, workers=workers,
                 client=client, progress=progress, report=report)  # fmt: skip
    finally:
        report.seconds = time.monotonic() - started
        if owned:
            client.close()
    return report


def _relations(
    relations: Sequence[str] | None, target: Target, second_format: str | None
) -> tuple[str, ...]:
    if relations is None:
        chosen = [name for name in RELATIONS if name != "formats" or second_format]
        if target.kind != "backend":
            chosen.remove("reduction")
        return tuple(chosen)
    if isinstance(relations, str):
        relations = [relations]
    unknown = [name for name in relations if name not in RELATIONS]
    if unknown:
        raise InvalidInputError(
            f"relations must be some of: {', '.join(RELATIONS)}; got {list(relations)!r}"
        )
    if "formats" in relations and second_format is None:
        raise InvalidInputError(
            "the formats relation needs second_format: the program's second file format"
        )
    return tuple(dict.fromkeys(relations))
