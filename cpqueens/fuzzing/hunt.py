"""The hunt: draw instances, ask the target, judge every answer, shrink every failure.

Each worker (a thread here) owns a runner, takes the next instance index, and examines
it: the target's answer is judged against the reference's (:mod:`.judging`), then one
metamorphic relation drawn for it is checked (:mod:`.relations`). A failure is first
run again (one that does not show again is flaky, reported as found; one whose rerun
did not finish is reported as not confirmed) and then shrunk (:mod:`.shrinking`) by
the same worker, within the budget. Failures that shrink to the same instance are one
failure, seen several times.

A slow answer is not a wrong one: a run past its time limit is run once more with
:data:`CONFIRM_FACTOR` times the limit before it is called a time-out, and a run that
then answers is judged as any other. Each run's limit is the time limit times the
machine's load (:func:`slowdown`): on a machine whose cores are all busy, a run gets
the wall time it would need on a free one.
"""

from __future__ import annotations

import contextlib
import os
import queue
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..instances import Instance
from .families import Drawn, draw
from .judging import Expected, Finding, judge, why_not_solution
from .references import Reference
from .relations import Relation, choose
from .report import FuzzFailure, FuzzReport
from .shrinking import NoTimeToJudge, shrink
from .state import HuntState
from .targets import Answer, Target, answer_of, call_function

#: Share of the budget one failure's shrinking may take, at least SHRINK_MIN seconds.
SHRINK_SHARE = 0.25
SHRINK_MIN = 10.0

#: The samples of the machine's load kept (one each half second or so).
LOAD_SAMPLES = 20

#: A run past its time limit is run again with this many times the limit, once,
#: before it is called a time-out.
CONFIRM_FACTOR = 3.0


def runnable_now() -> int | None:
    """The processes running or waiting for a core at this instant, this one included
    (Linux's ``/proc/loadavg``), or None where the system does not say."""
    try:
        with open("/proc/loadavg") as stats:
            return int(stats.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return None


class Load:
    """The machine's load while a hunt runs, and the slowdown it causes a run.

    The processes wanting a core are sampled as the hunt goes (the last
    :data:`LOAD_SAMPLES`); those of others are what is left when this process and the
    hunt's own runs (one a worker) are taken out. A run then shares the cores with
    them: it goes ``(others + workers) / cores`` times slower than on a free machine,
    and is allowed that much more wall time (at least 1).
    """

    def __init__(self, workers: int, local: bool = True):
        self.workers = workers
        self.local = local  # False: the runs go to a cluster's machines
        self.cores = _cores()
        self.samples: list[int] = []
        self.sample()

    def sample(self) -> None:
        runnable = runnable_now() if self.local else None
        if runnable is None:
            return
        self.samples = [*self.samples[-LOAD_SAMPLES + 1 :], runnable]

    @property
    def others(self) -> float:
        """The processes of others wanting a core, on average over the samples."""
        if not self.samples:
            return 0.0
        return max(0.0, sum(self.samples) / len(self.samples) - 1 - self.workers)

    @property
    def slowdown(self) -> float:
        if not self.samples:
            return 1.0
        return max(1.0, (self.others + self.workers) / self.cores)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


@dataclass(frozen=True)
class Found:
    """A failure as found on one instance (before shrinking)."""

    finding: Finding
    instance: Instance
    relation: Relation | None = None
    partner: Instance | None = None


class Runner:
    """Runs the target for one worker: in isolated processes (locally or on a Dask
    cluster) for a backend or a program, in a forked child for a function."""

    def __init__(self, target: Target, client: Any = None):
        self.target = target
        self.client = client
        self.box: Any = None
        self.future: Any = None
        self.child: int | None = None  # a function's call in flight
        self.last: Answer | None = None  # the answer of the last run

    def run(
        self,
        instance: Instance,
        question: str,
        limit: float,
        program: Any = None,
        options: dict[str, Any] | None = None,
    ) -> Answer:
        self.last = answer = self._run(instance, question, limit, program, options)
        return answer

    def _run(
        self,
        instance: Instance,
        question: str,
        limit: float,
        program: Any,
        options: dict[str, Any] | None,
    ) -> Answer:
        if self.target.function is not None:
            return call_function(self.target.function, instance, question, limit, self._child)
        task = self.target.task(instance, question, limit, options)
        if program is not None:
            task["solver"]["program"] = program
        if self.client is not None:
            from ..campaigns.workers import run_on_worker

            self.future = self.client.submit(run_on_worker, task, self.target.warm(), pure=False)
            try:
                return answer_of(self.future.result())
            except Exception as error:  # cancelled at the end of the budget, or a worker lost
                if self.future.cancelled():
                    return Answer("unknown", message="stopped with the budget")
                raise error from None
            finally:
                self.future = None
        if self.box is None:
            from ..campaigns.isolation import Sandbox

            self.box = Sandbox(self.target.warm())
        return answer_of(self.box.run(task))

    def _child(self, pid: int | None) -> None:
        self.child = pid

    def stop(self) -> None:
        child = self.child
        if child is not None:
            from ..programs.process_trees import kill_tree

            kill_tree(child)
        if self.box is not None:
            self.box.kill_current()
        future = self.future
        if future is not None:
            future.cancel()  # its run on the worker ends at its own time limit

    def close(self) -> None:
        if self.box is not None:
            self.box.close()
            self.box = None


class Hunt:
    """One hunt's settings and the work of examining and shrinking."""

    def __init__(
        self,
        target: Target,
        *,
        question: str,
        seed: int,
        reference: Reference,
        relations: tuple[str, ...],
        second_format: str | None,
        time_limit: float,
        deadline: float,
        budget: float,
        max_failures: int | None = None,
        workers: int = 1,
        local: bool = True,
    ):
        self.target = target
        self.question = question
        self.seed = seed
        self.reference = reference
        self.relations = relations
        self.second_format = second_format
        self.time_limit = time_limit
        self.deadline = deadline
        self.budget = budget
        self.max_failures = max_failures
        self.stopped = threading.Event()
        # Failures already shrunk, by kind, relation and the instance first found on.
        self.settled: dict[tuple, FuzzFailure] = {}
        self.lock = threading.Lock()
        self.started = time.monotonic()
        self.load = Load(workers, local)
        # Instances (and the relation they were asked under) confirmed slow: not given
        # a longer run again.
        self.slow: set[tuple[Instance, Any]] = set()
        self.sizes_left: set[int] | None = None  # a program told only {n}: the sizes to try

    def enough(self, report: FuzzReport) -> bool:
        """Whether the failures asked for (``max_failures``) are found: wrong answers
        and crashes, not time-outs."""
        return self.max_failures is not None and len(report.failures) >= self.max_failures

    def limit(self, factor: float = 1.0) -> float | None:
        """Seconds a run may take now: the time limit (times ``factor`` and the load's
        slowdown), or what is left of the budget."""
        left = self.deadline - time.monotonic()
        if left < 0.05 or self.stopped.is_set():
            return None
        return min(self.time_limit * self.load.slowdown * factor, left)

    def ask(
        self,
        runner: Runner,
        instance: Instance,
        relation: Relation | None = None,
        confirm: bool = True,
    ) -> Answer | None:
        limit = self.limit()
        if limit is None:
            return None
        program = options = None
        if relation is not None and relation.name == "formats":
            program = _in_format(self.target.program, relation.detail)
        if relation is not None and relation.name == "options":
            option, value, _ = relation.detail
            options = {**self.target.options, option: value}
        answer = runner.run(instance, self.question, limit, program, options)
        if answer.status == "timeout" and self.target.complete and confirm:
            # Slow is not wrong: once more with a longer limit before it is called a
            # time-out (an answer then is judged as any other).
            longer = self.limit(CONFIRM_FACTOR)
            asked = (instance, relation.detail if relation else None)
            if asked in self.slow:
                return answer
            if longer is None or longer <= limit:
                return None  # the budget ends before a longer run could: nothing judged
            answer = runner.run(instance, self.question, longer, program, options)
            if answer.status == "timeout":
                with self.lock:
                    self.slow.add(asked)
        if answer.status == "timeout" and not self.target.complete:
            # A search of part of the space proves nothing by running out of time.
            return Answer("unknown", message=answer.message)
        return answer

    def expected(self, instance: Instance) -> Expected | None:
        limit = self.limit()
        if limit is None:
            return None
        return self.reference.expected(instance, self.question, limit)

    def examine(self, runner: Runner, drawn: Drawn) -> Found | None:
        """The failure of the target on this instance, if any (None: none, or the
        budget ended first)."""
        instance = drawn.instance
        answer = self.ask(runner, instance)
        if answer is None:
            return None
        finding = judge(instance, self.question, answer, None)
        if finding is None and answer.definite:
            finding = judge(instance, self.question, answer, self.expected(instance))
        if finding is not None:
            return Found(finding, instance)
        if not answer.definite:
            return None
        rng = random.Random(f"cpqueens-fuzz-relation/{self.seed}/{drawn.index}")
        relation = choose(rng, instance, answer, self.relations, self.second_format,
                          self.target.alternatives)  # fmt: skip
        if relation is None:
            return None
        return self.related(runner, instance, answer, relation)

    def related(
        self, runner: Runner, instance: Instance, answer: Answer, relation: Relation
    ) -> Found | None:
        """The failure shown by ``relation`` from ``instance`` (whose answer is given)."""
        partner = relation.partner(instance)
        if partner is None or not self.target.accepts(partner):
            return None
        if relation.name == "fix" and not _has_queen(answer, instance, relation.detail):
            return None
        second = self.ask(runner, partner, relation)
        if second is None:
            return None
        finding = judge(partner, self.question, second, None)
        if finding is not None:  # the partner's own fault or invalid board
            return Found(finding, partner)
        if not second.definite:
            return None
        broken = relation.violated(self.question, answer, second, instance.n)
        if broken is None:
            return None
        expected, _, observed = broken.partition("; ")
        finding = Finding("relation", expected, observed or broken)
        return Found(finding, instance, relation, partner)

    def again(
        self, runner: Runner, found: Found, instance: Instance, moved: Callable
    ) -> Found | None:
        """``found``'s failure on another instance (``moved`` maps the squares), of the
        same kind, or None."""
        # A time-out shrinks under the plain limit: it was confirmed when first found.
        answer = self.ask(runner, instance, confirm=found.finding.kind != "timeout")
        if answer is None:
            return None
        if found.relation is None:
            finding = judge(instance, self.question, answer, None)
            if finding is None and answer.definite:
                finding = judge(instance, self.question, answer, self.expected(instance))
            if finding is not None and finding.kind == found.finding.kind:
                return Found(finding, instance)
            return None
        if judge(instance, self.question, answer, None) is not None or not answer.definite:
            return None
        relation = found.relation.moved(moved)
        if relation.name in ("block", "unblock", "fix") and relation.detail is None:
            return None
        result = self.related(runner, instance, answer, relation)
        if result is None or result.finding.kind != "relation":
            return None
        return result

    def settle(self, runner: Runner, drawn: Drawn, found: Found) -> FuzzFailure:
        """Run a failure again and shrink it: the failure as reported."""
        original = found.instance if found.relation is None else drawn.instance
        seen = (found.finding.kind, found.relation, original)
        with self.lock:
            known = self.settled.get(seen)
        if known is not None:  # the same failure on the same instance: shrunk already
            return replace(known, index=drawn.index, family=drawn.family)

        def identity(square):
            return square

        found_after = time.monotonic() - self.started
        if self.again(runner, found, original, identity) is None:
            # A rerun that ran out of time (or the budget) proves nothing either way.
            rerun = runner.last
            unfinished = self.limit() is None or (
                rerun is not None and rerun.status in ("timeout", "unknown")
            )
            return self.failure(drawn, found, original, flaky=not unfinished,
                                minimal=False, found_after=found_after,
                                confirmed=not unfinished)  # fmt: skip
        share = max(SHRINK_MIN, SHRINK_SHARE * self.budget)
        deadline = min(self.deadline, time.monotonic() + share)
        last: dict[str, Found] = {}

        def fails(candidate: Instance, moved: Callable) -> bool:
            if time.monotonic() > deadline or self.limit() is None:
                raise NoTimeToJudge
            result = self.again(runner, found, candidate, moved)
            if self.limit() is None:  # the run was cut by the end of the budget
                raise NoTimeToJudge
            if result is not None:
                last["found"] = result
            return result is not None

        shrinking = time.monotonic()
        shrunk = shrink(original, fails, deadline=deadline)
        smallest = last.get("found", found)
        if smallest.relation is None:
            smallest = replace(smallest, instance=shrunk.instance)
        failure = self.failure(drawn, smallest, original, flaky=False, minimal=shrunk.complete,
                               found_after=found_after,
                               shrink_seconds=time.monotonic() - shrinking)  # fmt: skip
        if shrunk.complete:
            with self.lock:
                self.settled[seen] = failure
        return failure

    def failure(self, drawn: Drawn, found: Found, original: Instance, *, flaky: bool,
                minimal: bool, found_after: float = 0.0, shrink_seconds: float = 0.0,
                confirmed: bool = True) -> FuzzFailure:  # fmt: skip
        relation = None
        if found.relation is not None:
            relation = f"{found.relation.name}: {found.relation.describe()}"
        return FuzzFailure(
            kind=found.finding.kind,
            instance=found.instance,
            original=original,
            expected=found.finding.expected,
            observed=found.finding.observed,
            reproduce=self.target.reproduce(found.instance, self.question),
            seed=self.seed,
            index=drawn.index,
            family=drawn.family,
            relation=relation,
            partner=found.partner,
            flaky=flaky,
            minimal=minimal,
            found_after=found_after,
            shrink_seconds=shrink_seconds,
            confirmed=confirmed,
        )


def _has_queen(answer: Answer, instance: Instance, square: Any) -> bool:
    row, column = square
    return any(
        why_not_solution(board, instance) is None and board[row] == column
        for board in answer.boards
    )


def _in_format(program: Any, instance_format: str) -> Any:
    import copy

    other = copy.copy(program)
    other.instance_format = instance_format
    return other


def run_hunt(
    hunt: Hunt,
    state: HuntState,
    *,
    max_n: int,
    families: tuple[str, ...],
    workers: int,
    client: Any,
    progress: Callable[[FuzzReport, float], None] | None,
    report: FuzzReport,
) -> None:
    """Examine instances on ``workers`` threads until the budget ends; fill ``report``."""
    indices = state.pending()
    lock = threading.Lock()
    if hunt.target.plain_only:
        # A program told only the board size has one instance per size: each is tried
        # once, and the hunt ends when every size is (report.exhausted says so).
        hunt.sizes_left = set(range(1, max_n + 1)) - _sizes_tried(report)
    results: queue.Queue = queue.Queue()
    runners = [Runner(hunt.target, client) for _ in range(workers)]

    def work(runner: Runner) -> None:
        try:
            while not hunt.stopped.is_set():
                with lock:
                    if hunt.sizes_left is not None and not hunt.sizes_left:
                        return  # every size taken: nothing left to draw
                    index = next(indices)
                drawn = draw(hunt.seed, index, max_n=max_n, families=families)
                if not hunt.target.accepts(drawn.instance) or not _new_size(hunt, drawn, lock):
                    results.put(("skipped", drawn, None))
                    continue
                found = hunt.examine(runner, drawn)
                if hunt.limit() is None:
                    return  # the budget ended during this instance, its run cut: not tried
                failure = None if found is None else hunt.settle(runner, drawn, found)
                results.put(("tried", drawn, failure))
        except BaseException as error:  # reported by the main thread
            results.put(("error", None, error))
        finally:
            results.put(("done", None, None))

    threads = [threading.Thread(target=work, args=(r,), daemon=True) for r in runners]
    for thread in threads:
        thread.start()
    running = len(threads)
    try:
        while running:
            left = hunt.deadline - time.monotonic()
            hunt.load.sample()
            if left <= 0 and not hunt.stopped.is_set():
                hunt.stopped.set()
                for runner in runners:
                    runner.stop()  # the runs in flight end with the budget
            try:
                what, drawn, payload = results.get(timeout=max(0.05, min(0.5, left)))
            except queue.Empty:
                if progress is not None:
                    progress(report, max(0.0, left))
                continue
            if what == "done":
                running -= 1
            elif what == "error":
                raise payload
            elif what == "skipped":
                state.skipped(drawn)
            elif what == "tried":
                if payload is not None and hunt.enough(report):
                    # Found by another worker after the last failure asked for: left
                    # untried, so a hunt resumed from its file tries it again.
                    continue
                state.tried(drawn, payload, report)
                if hunt.enough(report):
                    hunt.stopped.set()  # enough found: the workers end after their instance
                if hunt.sizes_left is not None and _every_size_tried(report, max_n):
                    report.exhausted = (
                        f"every board size 1..{max_n} was tried: a program told only "
                        "{n} has no other instance to try"
                    )
                    hunt.stopped.set()
                if progress is not None:
                    progress(report, max(0.0, hunt.deadline - time.monotonic()))
    finally:
        load = hunt.load
        report.load = (round(load.others, 2), load.cores, round(load.slowdown, 2))
        hunt.stopped.set()
        for runner in runners:
            runner.stop()
        for thread in threads:
            thread.join(timeout=10)
        for runner in runners:
            with contextlib.suppress(Exception):
                runner.close()
        state.save(report)


def _new_size(hunt: Hunt, drawn: Drawn, lock: threading.Lock) -> bool:
    """For a program told only {n}: whether this size is still to be tried (taken)."""
    if hunt.sizes_left is None:
        return True
    with lock:
        if drawn.instance.n not in hunt.sizes_left:
            return False
        hunt.sizes_left.discard(drawn.instance.n)
        return True


def _sizes_tried(report: FuzzReport) -> set[int]:
    return {n for sizes in report.by_family.values() for n in sizes}


def _every_size_tried(report: FuzzReport, max_n: int) -> bool:
    return _sizes_tried(report) >= set(range(1, max_n + 1))
