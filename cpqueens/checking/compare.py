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

import itertools
import operator
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from ..api import solve
from ..arguments import check_n, check_time_limit
from ..board import Solution
from ..errors import (
    InvalidInputError,
    InvalidTypeError,
    SearchTimeoutError,
    SolverError,
    UnknownBackendError,
)
from ..instances import Instance
from ..result import Result
from ..solvers import REGISTRY
from .cases import Case, describe, label_of, size_of, solves
from .external import Command, check_command, check_reading, judge_output
from .parsing import Ignore, ParsedOutput, parse_boards
from .verdicts import EXAMPLES, CrossCheckReport, CrossCheckRow, error_row, has_faults, sort_faults

__all__ = ["EXAMPLES", "check_output", "crosscheck"]

Runner = Callable[[int], Iterable[Any]]


def _board(item: Any) -> tuple:
    """A returned board as a tuple, with integer-like columns made plain ints."""
    try:
        columns = tuple(item)
    except TypeError:
        return (item,)

    def plain(column: Any) -> Any:
        try:
            return operator.index(column)
        except TypeError:
            return column

    return tuple(plain(c) for c in columns)


def _registry_runner(name: str, time_limit: float | None) -> Runner:
    backend = REGISTRY[name]
    limit = time_limit if backend.supports_time_limit else None
    # A construction or a local search finds a solution and lists no whole set: its
    # one solution is checked (valid, and one of the reference's).
    finds = not backend.exhaustive
    wanted = {"limit": 1} if finds else {}

    def run(case: Case) -> Result:
        result = solve(case, backend=name, time_limit=limit, **wanted)
        if not finds and not result.complete and not _stopped_by_time_limit(result):
            # Incomplete for another reason (a parallel solver that may skip some):
            # nothing tells which solutions are missing, so it is not comparable.
            raise SolverError(
                f"backend {name!r} returned {result.count} solutions for {describe(case)} "
                "without vouching that they are all of them (Result.complete is False)"
            )
        # The whole Result, so that _check sees whether the time limit stopped it.
        return result

    run.__name__ = name
    run.compared = "some" if finds else "all"  # type: ignore[attr-defined]
    return run


def _resolve(backends: Any, time_limit: float | None) -> dict[str, Runner | Command]:
    if backends is None:
        return {
            name: _registry_runner(name, time_limit)
            for name, backend in REGISTRY.items()
            if backend.enumerates and backend.exhaustive and backend.is_available()
        }
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
            runner = backend
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
    return runners


def _reference(reference: Any) -> tuple[str, Callable[[int], set[Solution]]]:
    if isinstance(reference, str) and reference == "tree":
        from ..trees.build import decision_tree, tree_solutions

        def tree_reference(case: Case) -> set[Solution]:
            if isinstance(case, int):
                return tree_solutions(decision_tree(case))
            extra = {"blocked": case.blocked} if case.blocked else {}
            return tree_solutions(decision_tree(case.n, case.fixed_rows or None, **extra))

        return "decision tree", tree_reference
    runner = _resolve([reference], None)
    ((label, run),) = runner.items()

    def reference_solutions(case: Case) -> set[Solution]:
        # Everything is judged against the reference: it must hold nothing but solutions.
        answer = run(case)
        if isinstance(answer, (str, bytes)) or not isinstance(answer, Iterable):
            raise SolverError(
                f"the reference {label!r} returned {type(answer).__name__} for "
                f"{describe(case)}, not an iterable of boards"
            )
        boards = {_board(b) for b in answer}
        wrong = next((b for b in boards if not solves(b, case)), None)
        if wrong is not None:
            raise SolverError(
                f"the reference {label!r} returned {wrong!r} for {describe(case)}, not a solution"
            )
        return boards

    return label, reference_solutions


#: The most board sizes one cross-check takes: more than any backend has boards.
MAX_SIZES = 20_000


def _sizes(ns: Case | Iterable[Case]) -> tuple[Case, ...]:
    """The board sizes and instances to check, each size checked."""
    if isinstance(ns, Instance):
        return (ns,)
    if isinstance(ns, int) and not isinstance(ns, bool):
        return (check_n(ns),)
    if isinstance(ns, range) and len(ns) > MAX_SIZES:
        raise InvalidInputError(f"ns={ns!r} holds {len(ns):,} sizes; at most {MAX_SIZES:,}")
    try:
        sizes = tuple(
            n if isinstance(n, Instance) else check_n(n)
            for n in itertools.islice(ns, MAX_SIZES + 1)
        )
    except TypeError as error:
        if "not iterable" not in str(error):
            raise
        raise InvalidTypeError(
            f"ns must be an integer, an Instance or an iterable of them, got {ns!r}"
        ) from None
    if len(sizes) > MAX_SIZES:
        raise InvalidInputError(f"ns holds more than {MAX_SIZES:,} sizes; at most {MAX_SIZES:,}")
    if not sizes:
        raise InvalidInputError("ns holds no board size; pass an integer or e.g. range(1, 9)")
    return sizes


def crosscheck(
    ns: Case | Iterable[Case],
    backends: Iterable[str | Runner] | Mapping[str, str | Runner] | None = None,
    reference: str | Runner = "tree",
    *,
    time_limit: float | None = None,
    timeouts_fail: bool = False,
    on_start: Callable[[Case, str | None], None] | None = None,
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
    sizes = _sizes(ns)
    check_time_limit(time_limit)
    if not isinstance(timeouts_fail, bool):
        raise InvalidTypeError(f"timeouts_fail must be True or False, got {timeouts_fail!r}")
    runners = _resolve(backends, time_limit)
    reference_label, reference_of = _reference(reference)
    if on_start is not None and not callable(on_start):
        raise InvalidTypeError(f"on_start must be a function or None, got {on_start!r}")
    rows = []
    for case in sizes:
        if on_start is not None:
            on_start(case, None)
        expected = reference_of(case)
        for label, run in runners.items():
            if on_start is not None:
                on_start(case, label)
            if isinstance(run, Command):
                row = check_command(run, case, expected, label=label)
            else:
                row = _check(case, label, run, expected)
            rows.append(replace(row, instance=label_of(case)))
    return CrossCheckReport(
        rows=tuple(rows), reference=reference_label, timeouts_fail=timeouts_fail
    )


def check_output(
    text: str | bytes,
    n: int,
    *,
    parse: str = "auto",
    expect: str = "all",
    base: int | None = None,
    reference: str | Runner = "tree",
    label: str = "output",
    ignore: Ignore = None,
) -> tuple[CrossCheckRow, ParsedOutput]:
    """Check a program's saved output for size ``n`` against the reference.

    The output is read with :func:`cpqueens.parse_boards` (``parse``, ``base``,
    ``ignore``) and
    compared as a :class:`cpqueens.Command` with the same ``expect`` would be.
    Returns the row and what was read.

    >>> row, parsed = check_output("bdac cadb bdac", 4)
    >>> row.agrees, row.duplicated, parsed.style
    (False, ((1, 3, 0, 2),), 'letters')
    """
    n = check_n(n)
    check_reading(parse, expect, base)
    _, reference_of = _reference(reference)
    parsed = parse_boards(text, n, parse, base, ignore=ignore)
    row = judge_output(parsed, n, reference_of(n), label=label, parse=parse, expect=expect)
    return row, parsed


def _stopped_by_time_limit(answer: Any) -> bool:
    """True when a backend's answer is a :class:`Result` cut short by its time limit."""
    return isinstance(answer, Result) and bool(answer.stats.get("timed_out"))


def _check(case: Case, label: str, run: Runner, expected: set[Solution]) -> CrossCheckRow:
    n = size_of(case)
    compared = getattr(run, "compared", "all")
    boards: list[tuple] = []
    error = None
    timed_out = False
    start = time.perf_counter()
    if compared == "some" and not expected:
        # Nothing to find: a local search would look for ever, and finding nothing
        # is the right answer.
        faults = sort_faults(n, [], expected, compared)
        return CrossCheckRow(
            n=n,
            backend=label,
            count=0,
            reference_count=0,
            agrees=True,
            elapsed=0.0,
            compared=compared,
            **faults,
        )
    try:
        answer = run(case)
        timed_out = _stopped_by_time_limit(answer)
        boards.extend(_board(item) for item in answer)
    except SearchTimeoutError:
        # A function giving up at its own time limit: what it yielded so far is judged.
        timed_out = True
    except Exception as raised:  # a user's solver may raise anything: report it
        error = f"{type(raised).__name__}: {raised}"
    elapsed = time.perf_counter() - start
    if error is not None:
        # The boards returned before the error are counted but not compared: unfinished.
        return error_row(n, label, error, len(expected), elapsed, count=len(boards))
    # A timed-out run claims only the boards it found, like a program printing a few.
    faults = sort_faults(n, boards, expected, "some" if timed_out else compared, case=case)
    return CrossCheckRow(
        n=n,
        backend=label,
        count=len(boards),
        reference_count=len(expected),
        agrees=not has_faults(faults),
        elapsed=elapsed,
        timed_out=timed_out,
        compared=compared,
        **faults,
    )
