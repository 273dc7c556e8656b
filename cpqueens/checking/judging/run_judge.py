"""One backend, function or program on one case: asked, then judged, as one row.

A registry backend and a caller's function return boards (or a
:class:`~cpqueens.Result`); a program (:class:`cpqueens.Command`) prints them, to be
read and judged by :mod:`.output_judge`. Whatever goes wrong in the run (an
exception, a program that fails) becomes a row with a message, never a traceback.
A time-out is its own outcome: what was found is judged, the rest not missing.

>>> from cpqueens import Instance
>>> from cpqueens.checking.cases import cases_of
>>> (case,) = cases_of(4)
>>> row = compare_row(case, "mine", function_runner(lambda n: [(1, 3, 0, 2)]),
...                   {(1, 3, 0, 2), (2, 0, 3, 1)})
>>> row.agrees, row.missing
(False, ((2, 0, 3, 1),))
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from ...board import Solution
from ...errors import CommandFailedError, SearchTimeoutError, WrongSolutionError
from ...outputs.answers import BadOutput
from ...result import Result
from ..cases import Case, as_board
from ..external import Command
from ..row import CrossCheckRow
from .decision import Decision, decision_of, judge_decision, program_decision
from .faults import error_row, has_faults, no_faults, sort_faults
from .output_judge import count_row, judge_output, with_proof

#: A backend as the checking family calls it: with a case, returning boards or a
#: Result. A registry backend's also takes ``decide=True`` (see :func:`decision_by`).
Runner = Callable[[Case], Any]


def function_runner(function: Callable[[Any], Any]) -> Runner:
    """A caller's function ``f(n) -> boards`` as a runner: called with what the
    caller gave (``n`` for a board size, the instance for an instance)."""

    def run(case: Case) -> Any:
        return function(case.given)

    return run


def answer_of(run: Runner | Command, case: Case) -> Any:
    """What a backend or function returns for ``case``; for a program, the boards it
    prints (see :meth:`cpqueens.Command.__call__`)."""
    return run(case.instance) if isinstance(run, Command) else run(case)


def stopped_by_time_limit(answer: Any) -> bool:
    """True when a backend's answer is a :class:`Result` cut short by its time limit."""
    return isinstance(answer, Result) and bool(answer.stats.get("timed_out"))


def compare_row(
    case: Case, label: str, run: Runner | Command, expected: set[Solution]
) -> CrossCheckRow:
    """The row of ``run`` on ``case``: its solutions compared with ``expected``."""
    if isinstance(run, Command):
        return command_row(run, case, expected, label=label)
    return function_row(case, label, run, expected)


def command_row(
    command: Command, case: Case, expected: set[Solution], *, label: str
) -> CrossCheckRow:
    """Run ``command`` on ``case``, read its output and compare it with ``expected``."""
    start = time.perf_counter()
    try:
        printed = command.run(case.instance)
    except CommandFailedError as error:
        elapsed = time.perf_counter() - start
        return error_row(
            case.instance.n, label, str(error), len(expected), elapsed, compared=command.expect
        )
    row = judge_output(
        command.parse_output(printed, case.instance.n),
        case.instance,
        expected,
        label=label,
        parse=command.parse,
        expect=command.expect,
        elapsed=printed.elapsed,
    )
    return with_proof(row, printed.certificate)


def function_row(case: Case, label: str, run: Runner, expected: set[Solution]) -> CrossCheckRow:
    """Call a backend or function on ``case`` and compare its boards with ``expected``."""
    n = case.instance.n
    compared = getattr(run, "compared", "all")
    boards: list[tuple] = []
    error = None
    timed_out = stopped = False
    if compared == "some" and not expected:
        # Nothing to find: a local search would look for ever, and finding nothing
        # is the right answer.
        return _row(n, label, [], expected, 0.0, compared, no_faults())
    start = time.perf_counter()
    try:
        answer = run(case)
        if is_count(answer) and compared == "all":
            # Its count is its answer, compared as a count (no board to compare).
            elapsed = time.perf_counter() - start
            return count_row(n, label, answer, len(expected), elapsed=elapsed)
        if not isinstance(answer, Iterable) or isinstance(answer, (str, bytes)):
            error = not_solutions(answer)
        else:
            timed_out = stopped_by_time_limit(answer)
            boards.extend(as_board(item) for item in answer)
    except SearchTimeoutError:
        # A function giving up at its own time limit: what it yielded so far is judged.
        timed_out = True
    except WrongSolutionError as raised:
        # A backend that caught its solver's board wrong stops there: that board is
        # judged with the others (an invalid board, a wrong row), the rest unclaimed.
        boards.append(as_board(raised.board))
        stopped = True
    except Exception as raised:  # a user's solver may raise anything: report it
        error = f"{type(raised).__name__}: {raised}"
    elapsed = time.perf_counter() - start
    if error is not None:
        # The boards returned before the error are counted but not compared: unfinished.
        return error_row(n, label, error, len(expected), elapsed, count=len(boards))
    # A timed-out run claims only the boards it found, like a program printing a few.
    claimed = "some" if timed_out or stopped else compared
    faults = sort_faults(n, boards, expected, claimed, instance=case.instance)
    return replace(_row(n, label, boards, expected, elapsed, compared, faults), timed_out=timed_out)


def is_count(answer: Any) -> bool:
    """True for a number a function returned where boards were expected."""
    return isinstance(answer, int) and not isinstance(answer, bool)


def not_solutions(answer: Any) -> str:
    """What to say of a function that returned neither boards nor a count."""
    return (
        f"the function returned {answer!r} ({type(answer).__name__}); a function checked "
        "here returns its solutions: a list or iterator of boards, each a sequence of "
        "0-based columns (or a number: its count, compared as a count)"
    )


def _row(
    n: int,
    label: str,
    boards: list[tuple],
    expected: set[Solution],
    elapsed: float,
    compared: str,
    faults: dict[str, Any],
) -> CrossCheckRow:
    return CrossCheckRow(
        n=n,
        backend=label,
        count=len(boards),
        reference_count=len(expected),
        agrees=not has_faults(faults),
        elapsed=elapsed,
        compared=compared,
        **faults,
    )


def decision_by(run: Runner | Command, case: Case) -> Decision:
    """What a backend, function or program answers on ``case``."""
    if isinstance(run, Command):
        return program_decision(run, case.instance)
    if getattr(run, "decides", False):  # a registry backend: asked for one solution
        return decision_of(run(case, decide=True))  # type: ignore[call-arg]
    return decision_of(run(case))


def decision_row(case: Case, label: str, run: Runner | Command, found: Decision) -> CrossCheckRow:
    """The row of ``run``'s decision of ``case``, judged against the reference's."""
    start = time.perf_counter()
    try:
        decision = decision_by(run, case)
    except SearchTimeoutError:
        decision = Decision("unknown", timed_out=True)
    except Exception as raised:  # a user's solver may raise anything: report it
        elapsed = time.perf_counter() - start
        error = str(raised) if isinstance(raised, (CommandFailedError, BadOutput)) else (
            f"{type(raised).__name__}: {raised}"
        )  # fmt: skip
        row = error_row(case.instance.n, label, error, len(found.boards), elapsed)
        return replace(row, compared="decision", reference_answer=found.answer)
    row = judge_decision(case.instance, label, decision, found, elapsed=time.perf_counter() - start)
    return with_proof(row, decision.certificate)
