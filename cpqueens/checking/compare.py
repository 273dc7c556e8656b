"""Cross-checking solvers: does every backend find exactly the reference's solutions?

:func:`crosscheck` runs each backend (registry names, or your own functions
``f(n) -> iterable of solutions``) for each board size and compares what it
returns with a reference solution set. By default the reference is read off the
explicit decision tree (:func:`cpqueens.decision_tree`), the one source that
shows every branch of the search.

Every returned board is sorted into one of four faults: *invalid* (wrong length,
off the board, or queens attacking each other), *duplicated* (a valid solution
returned more than once), *extra* (valid, but not in the reference) and
*missing* (in the reference, never returned). A backend agrees when it has none.

A backend stopped by ``time_limit`` is its own outcome, *timed out*: the boards it
found are judged, the solutions it had no time to reach are not missing, and the
report does not disagree because of it unless ``timeouts_fail=True``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import IO, Any

from ..api import solve
from ..arguments import check_time_limit
from ..disk.reading import MEGABYTE, read_stream
from ..errors import InvalidInputError, InvalidTypeError, SolverError, UnknownBackendError
from ..instances import Instance
from ..outputs.boards import Ignore, compile_ignore, read_output
from ..outputs.parsed_output import ParsedOutput
from ..result import Result
from ..solvers import REGISTRY
from .cases import Case, cases_of, describe
from .external import Command, check_reading
from .judging.output_judge import judge_output
from .judging.run_judge import (
    Runner,
    compare_row,
    decision_row,
    function_runner,
    stopped_by_time_limit,
)
from .judging.verdicts import CrossCheckReport
from .references import (
    backend_decider,
    backend_solutions,
    check_reference,
    tree_decider,
    tree_solutions_of,
)
from .row import CrossCheckRow

__all__ = ["check_output", "crosscheck"]

#: The most of a program's output :func:`check_output` reads from a file: every
#: solution of n=15 printed one a line is under a third of it.
MAX_OUTPUT_FILE = 256 * MEGABYTE


def crosscheck(
    ns: int | Instance | Iterable[int | Instance],
    backends: Iterable[str | Callable] | Mapping[str, str | Callable] | None = None,
    reference: str | Callable = "tree",
    *,
    time_limit: float | None = None,
    timeouts_fail: bool = False,
    on_start: Callable[[Any, str | None], None] | None = None,
    on_done: Callable[[Any, list[CrossCheckRow]], None] | None = None,
    question: str | None = None,
) -> CrossCheckReport:
    """Compare the solutions of several backends with a reference, for each board size.

    Parameters
    ----------
    ns : int, Instance, or iterable of them
        The board sizes to check, or :class:`~cpqueens.Instance` objects (queens
        given, squares blocked): each backend then solves the instance, a function
        is called with the instance instead of n, and a program gets the instance's
        file through ``{instance}`` in its command (see :class:`cpqueens.Command`).
    backends : list or dict, optional
        Registry names, plain functions ``f(n) -> iterable of solutions`` and
        external programs (:class:`cpqueens.Command`), mixed freely; a function is
        labelled by its ``__name__``, a program by its command, or pass a dict
        ``{label: backend}``. None (the default) checks every available backend of
        the registry that lists solutions.
    reference : str or callable
        ``"tree"`` (default): the solutions read off :func:`cpqueens.decision_tree`.
        The tree is refused beyond n=12 (:class:`~cpqueens.TreeTooLargeError`); for
        larger boards name a registry backend instead, e.g. ``reference="stack"``,
        or pass a function.
    time_limit : float, optional
        Seconds allowed to each registry backend per board size (for those that
        support it). A backend that runs out gets a row with ``timed_out`` True:
        the boards it found are judged (an invalid, extra or repeated one is a
        disagreement), the solutions it did not reach are not counted missing.
        Your own functions are not interrupted, but one may report a time-out the
        same way by raising :class:`~cpqueens.SearchTimeoutError` (the boards it
        yielded before are judged) or by returning a :class:`~cpqueens.Result`
        whose ``stats["timed_out"]`` is True. A program stops at its own
        ``timeout``, which is an error: a program that hangs is a fault.
    timeouts_fail : bool
        False (default): a timed-out row that found nothing wrong does not make the
        report disagree; it is listed in ``report.timed_out``. True: it counts as a
        failure, for a check that must run every backend to the end.
    on_start : callable, optional
        Called as ``on_start(case, label)`` before each backend runs on a size or
        instance, and as ``on_start(case, None)`` before the reference is worked
        out: to show which one is running.
    on_done : callable, optional
        Called as ``on_done(case, rows)`` when every backend has run on a size or
        instance, with its rows: to show progress, or what was finished.
    question : {None, "all", "decide"}
        What is compared. ``"all"``: every solution, for a size or an instance
        (refused at once, with the estimate, for an instance whose reference would
        search too long; see :func:`check_enumerable`). ``"decide"``: the decision
        (satisfiable, unsatisfiable, unknown) against the reference's, every board
        shown checked against the instance and any count stated held to them
        (:mod:`cpqueens.checking.judging.decision`); no solution set is listed. None (the
        default): every solution of a board size, the decision of an instance.

    Returns
    -------
    CrossCheckReport
        ``report.agrees`` (also ``report.ok``), ``report.failures``,
        ``report.timed_out``, ``print(report)``, ``report.to_records()``;
        ``report.fault_records()`` and ``report.write_faults(path)`` list every
        faulty board, with the line a program printed it on. A function whose
        boards are all solutions once shifted down by one (1-based columns) gets a
        ``hint`` saying so.
        Each row says in ``compared`` what was compared: ``"all"`` for registry
        backends and functions; for a program, what its ``expect`` asked for.

    Examples
    --------
    >>> import cpqueens
    >>> cpqueens.crosscheck(range(1, 7), ["recursive", "stack"]).ok
    True
    >>> def my_solver(n):   # forgets the last solution
    ...     return sorted(cpqueens.solutions(n))[:-1]
    >>> report = cpqueens.crosscheck(6, [my_solver])
    >>> report.ok, report.rows[0].missing
    (False, ((4, 2, 0, 5, 3, 1),))
    """
    # The door: every argument checked, and the reference priced, before any work.
    cases = cases_of(ns, question)
    time_limit = check_time_limit(time_limit)
    if not isinstance(timeouts_fail, bool):
        raise InvalidTypeError(f"timeouts_fail must be True or False, got {timeouts_fail!r}")
    for name, hook in (("on_start", on_start), ("on_done", on_done)):
        if hook is not None and not callable(hook):
            raise InvalidTypeError(f"{name} must be a function or None, got {hook!r}")
    runners = _resolve(backends, time_limit)
    check_told_the_case(runners.values(), cases)
    reference_label, solutions_of, decision_of = _reference(reference)
    check_reference(cases, reference)
    rows = []
    for case in cases:
        # The caller's callbacks get what the caller gave: n, or the instance.
        if on_start is not None:
            on_start(case.given, None)
        if case.question == "decide":
            found = decision_of(case)
            checked = [
                _announce(on_start, case, label) or decision_row(case, label, run, found)
                for label, run in runners.items()
            ]
        else:
            expected = solutions_of(case)
            checked = [
                _announce(on_start, case, label) or compare_row(case, label, run, expected)
                for label, run in runners.items()
            ]
        case_rows = [replace(row, instance=case.label) for row in checked]
        rows.extend(case_rows)
        if on_done is not None:
            on_done(case.given, case_rows)
    return CrossCheckReport(
        rows=tuple(rows), reference=reference_label, timeouts_fail=timeouts_fail
    )


def check_output(
    text: str | bytes | IO[str] | IO[bytes],
    n: int,
    *,
    parse: str = "auto",
    expect: str = "all",
    base: int | None = None,
    reference: str | Callable = "tree",
    label: str = "output",
    ignore: Ignore = None,
) -> tuple[CrossCheckRow, ParsedOutput]:
    """Check a program's saved output for size ``n`` against the reference.

    ``text`` is the output, or a file to read it from (read once every argument
    has been checked, so a bad call never waits on standard input). The output is
    read with :func:`cpqueens.parse_boards` (``parse``, ``base``, ``ignore``) and
    compared as a :class:`cpqueens.Command` with the same ``expect`` would be.
    Returns the row and what was read.

    >>> row, parsed = check_output("bdac cadb bdac", 4)
    >>> row.agrees, row.duplicated, parsed.style
    (False, ((1, 3, 0, 2),), 'letters')
    """
    case = Case(Instance(n), "all", sized=True)
    check_reading(parse, expect, base)
    patterns = compile_ignore(ignore)
    _, solutions_of, _ = _reference(reference)
    check_reference((case,), reference)
    if hasattr(text, "read"):
        # A file (standard input, say) is read only once every argument is known good,
        # and no further than any program's output can need.
        name = str(getattr(text, "name", "the output"))
        text = read_stream(text, name=name, what="a program's output", limit=MAX_OUTPUT_FILE)
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if not isinstance(text, str):
        raise InvalidTypeError(
            f"text must be a str, bytes or a file to read, got {type(text).__name__}"
        )
    parsed = read_output(text, case.instance.n, parse, base, patterns)
    expected = solutions_of(case)
    row = judge_output(parsed, case.instance, expected, label=label, parse=parse, expect=expect)
    return row, parsed


def check_told_the_case(runners: Iterable[Any], cases: Sequence[Case]) -> None:
    """Refuse a program that is never told what to solve, when the cases differ: its
    command holds neither ``{n}`` nor ``{instance}``, so it would print the same for
    every size (or, reading its argument, fail in every row)."""
    if len({(case.label, case.instance.n) for case in cases}) < 2:
        return
    for runner in runners:
        if isinstance(runner, Command) and not runner.told_the_case:
            raise InvalidInputError(
                f"the command {runner.name!r} holds neither {{n}} (replaced by each board "
                "size) nor {instance} (replaced by each instance file's path), so the "
                f'program cannot be told what to solve; e.g. "{runner.name} {{n}}"'
            )


def _announce(on_start: Callable[[Any, str | None], None] | None, case: Case, label: str) -> None:
    if on_start is not None:
        on_start(case.given, label)


def _reference(
    reference: Any,
) -> tuple[str, Callable[[Case], set], Callable[[Case], Any]]:
    """The reference's label, its solution set of a case and its decision of one."""
    if isinstance(reference, str) and reference == "tree":
        return "decision tree", tree_solutions_of, tree_decider(tree_solutions_of)
    ((label, run),) = _resolve([reference], None).items()
    return label, backend_solutions(label, run), backend_decider(label, run)


def _registry_runner(name: str, time_limit: float | None) -> Runner:
    backend = REGISTRY[name]
    limit = time_limit if backend.supports_time_limit else None
    # A construction or a local search finds a solution and lists no whole set: its
    # one solution is checked (valid, and one of the reference's).
    finds = not backend.exhaustive
    wanted = {"limit": 1} if finds else {}

    def run(case: Case, *, decide: bool = False) -> Result:
        # solve is a front function with a door of its own: it gets what the caller gave.
        if decide:
            return solve(case.given, backend=name, time_limit=limit, limit=1)
        result = solve(case.given, backend=name, time_limit=limit, **wanted)
        if not finds and not result.complete and not stopped_by_time_limit(result):
            # Incomplete for another reason (a parallel solver that may skip some):
            # nothing tells which solutions are missing, so it is not comparable.
            raise SolverError(
                f"backend {name!r} returned {result.count} solutions for "
                f"{describe(case.instance)} without vouching that they are all of them "
                "(Result.complete is False)"
            )
        # The whole Result, so that the row sees whether the time limit stopped it.
        return result

    run.__name__ = name
    run.compared = "some" if finds else "all"  # type: ignore[attr-defined]
    run.decides = True  # type: ignore[attr-defined]  # takes decide=True: one solution
    return run


def _resolve(backends: Any, time_limit: float | None) -> dict[str, Runner | Command]:
    if backends is None:
        return {name: _registry_runner(name, time_limit) for name in default_backends()}
    if isinstance(backends, str) or (callable(backends) and not isinstance(backends, Iterable)):
        backends = [backends]  # one name, program or function: that one backend
    if not isinstance(backends, Iterable):
        raise InvalidTypeError(
            "backends must be a name, a list of names, callables or cpqueens.Command "
            f"programs, or a dict label -> backend; got {type(backends).__name__}"
        )
    items = backends.items() if isinstance(backends, Mapping) else ((None, b) for b in backends)
    runners: dict[str, Runner | Command] = {}
    for label, backend in items:
        if isinstance(backend, Command):
            runner = backend
            label = backend.name if label is None else label
        elif isinstance(backend, str):
            if backend not in REGISTRY:
                raise UnknownBackendError(backend, REGISTRY)
            engine = REGISTRY[backend]
            engine.require()
            if not engine.enumerates:
                raise InvalidInputError(
                    f"backend {backend!r} only counts solutions, so crosscheck cannot compare "
                    "its solution set; compare cpqueens.count(n, backend=...) instead"
                )
            runner = _registry_runner(backend, time_limit)
        elif callable(backend):
            # Called with what the caller gave: n for a size, else the instance.
            runner = function_runner(backend)
            label = label if label is not None else getattr(backend, "__name__", repr(backend))
        else:
            raise InvalidTypeError(
                f"backends must hold registry names or callables f(n) -> solutions (or "
                f"cpqueens.Command programs), got {backend!r} ({type(backend).__name__})"
            )
        label = label if label is not None else getattr(runner, "__name__", repr(runner))
        if label in runners:
            raise InvalidInputError(
                f"two backends are labelled {label!r}; pass a dict label -> backend to name them"
            )
        runners[str(label)] = runner
    if not runners:
        raise InvalidInputError("backends is empty; pass None for every registered backend")
    for runner in runners.values():
        if isinstance(runner, Command):
            # A program that cannot start is refused here, before any reference work.
            runner.check_program()
    return runners


def default_backends() -> list[str]:
    """The backends a cross-check compares when none are named: every installed one
    that lists every solution. The others are left out: a counter lists nothing to
    compare (none today), and a construction or local search (``qs``,
    ``minconflicts``, ``construct``) finds solutions but proves nothing, so it is
    checked only when named (its one solution is then checked).

    >>> "stack" in default_backends(), "qs" in default_backends()
    (True, False)
    """
    return [
        name
        for name, backend in REGISTRY.items()
        if backend.enumerates and backend.exhaustive and backend.is_available()
    ]
