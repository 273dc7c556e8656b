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
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from ..api import solve
from ..arguments import check_n, check_time_limit
from ..board import Solution
from ..errors import (
    CommandFailedError,
    InvalidInputError,
    InvalidTypeError,
    SearchTimeoutError,
    SolverError,
    UnknownBackendError,
)
from ..instances import Instance
from ..result import Result
from ..solvers import REGISTRY
from .answers import BadOutput
from .cases import Case, as_board, describe, label_of, size_of, solves
from .decision import Decision, decision_of, judge_decision, program_decision, reference_decision
from .external import Command, check_command, check_reading, judge_output
from .parsing import Ignore, ParsedOutput, parse_boards
from .verdicts import EXAMPLES, CrossCheckReport, CrossCheckRow, error_row, has_faults, sort_faults

__all__ = ["EXAMPLES", "check_output", "crosscheck"]

Runner = Callable[[int], Iterable[Any]]


def _registry_runner(name: str, time_limit: float | None) -> Runner:
    backend = REGISTRY[name]
    limit = time_limit if backend.supports_time_limit else None
    # A construction or a local search finds a solution and lists no whole set: its
    # one solution is checked (valid, and one of the reference's).
    finds = not backend.exhaustive
    wanted = {"limit": 1} if finds else {}

    def run(case: Case, *, decide: bool = False) -> Result:
        if decide:
            return solve(case, backend=name, time_limit=limit, limit=1)
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
        boards = {as_board(b) for b in answer}
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
    on_done: Callable[[Case, list[CrossCheckRow]], None] | None = None,
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
        (:mod:`cpqueens.checking.decision`); no solution set is listed. None (the
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
    sizes = _sizes(ns)
    check_time_limit(time_limit)
    if question not in QUESTIONS:
        raise InvalidInputError(
            f"question must be one of: {', '.join(map(repr, QUESTIONS))}; got {question!r}"
        )
    if not isinstance(timeouts_fail, bool):
        raise InvalidTypeError(f"timeouts_fail must be True or False, got {timeouts_fail!r}")
    for name, hook in (("on_start", on_start), ("on_done", on_done)):
        if hook is not None and not callable(hook):
            raise InvalidTypeError(f"{name} must be a function or None, got {hook!r}")
    runners = _resolve(backends, time_limit)
    asked = {case: question_of(case, question) for case in sizes}
    for case in sizes:
        if asked[case] == "all" and isinstance(case, Instance):
            check_enumerable(case, reference)
    reference_label, reference_of = _reference(reference)
    decide_reference = _decider(reference, reference_of) if "decide" in asked.values() else None
    rows = []
    for case in sizes:
        if on_start is not None:
            on_start(case, None)
        if asked[case] == "decide":
            assert decide_reference is not None
            found = decide_reference(case)
            checked = [
                _announce(on_start, case, label) or _decide_row(case, label, run, found)
                for label, run in runners.items()
            ]
        else:
            expected = reference_of(case)
            checked = [
                _announce(on_start, case, label) or _compare_row(case, label, run, expected)
                for label, run in runners.items()
            ]
        case_rows = [replace(row, instance=label_of(case)) for row in checked]
        rows.extend(case_rows)
        if on_done is not None:
            on_done(case, case_rows)
    return CrossCheckReport(
        rows=tuple(rows), reference=reference_label, timeouts_fail=timeouts_fail
    )


#: What a cross-check compares: None picks per case (every solution of a board
#: size, the decision of an instance), or one question for every case.
QUESTIONS = (None, "all", "decide")
#: The most search nodes the reference may need to list every solution of an
#: instance (its backtracking tree, estimated), beyond the decision tree's own guard.
MAX_ENUMERATION_NODES = 20_000_000


def question_of(case: Case, question: str | None) -> str:
    """The question asked of ``case``: ``question``, or by default ``"all"`` for a
    board size and ``"decide"`` for an instance."""
    if question is not None:
        return question
    return "decide" if isinstance(case, Instance) else "all"


def check_enumerable(
    case: Instance,
    reference: Any,
    instead: str = "compare the decision instead (question='decide', the default for an instance)",
) -> None:
    """Refuse, before any search, to list every solution of an instance whose
    reference would search more than it can: the decision tree past its guard, a
    backend past :data:`MAX_ENUMERATION_NODES` nodes (estimated, never built)."""
    from ..trees.size import DEFAULT_MAX_NODES, MAX_TREE_N

    budget = DEFAULT_MAX_NODES if reference == "tree" else MAX_ENUMERATION_NODES
    nodes = enumeration_nodes(case, budget)
    if nodes is None or nodes > budget:
        about = f"more than {MAX_TREE_N:,} rows" if nodes is None else f"about {nodes:,} nodes"
        who = "the decision tree" if reference == "tree" else f"the reference {reference!r}"
        raise InvalidInputError(
            f"comparing every solution of {describe(case)} needs {who} to search {about} "
            f"(at most {budget:,}); {instead}, or use a smaller instance"
        )


def enumeration_nodes(case: Instance, budget: int) -> int | None:
    """The estimated nodes of the backtracking tree of ``case`` (at least ``budget``
    when it is surely larger), or None for a board too large for a tree at all."""
    from ..arguments import check_fixed
    from ..trees.nodes import blocked_rows
    from ..trees.size import MAX_TREE_N, estimate_tree_size

    if case.n > MAX_TREE_N:
        return None
    blocked = blocked_rows(case.blocked, case.n) if case.blocked else None
    size = estimate_tree_size(
        case.n, check_fixed(case.fixed_rows, case.n), max_nodes=budget, blocked=blocked
    )
    return size.graph_nodes


def _announce(on_start: Callable[[Case, str | None], None] | None, case: Case, label: str) -> None:
    if on_start is not None:
        on_start(case, label)


def _compare_row(case: Case, label: str, run: Runner | Command, expected: set) -> CrossCheckRow:
    if isinstance(run, Command):
        return check_command(run, case, expected, label=label)
    return _check(case, label, run, expected)


def _decider(
    reference: Any, solutions_of: Callable[[Case], set[Solution]]
) -> Callable[[Case], Decision]:
    """The reference's decision of a case, its witness checked: the decision tree's
    solution set (``solutions_of``) says it, any other reference is asked for one."""
    if isinstance(reference, str) and reference == "tree":

        def from_tree(case: Case) -> Decision:
            found = solutions_of(case)
            return Decision("sat" if found else "unsat", (min(found),) if found else ())

        return from_tree
    ((label, run),) = _resolve([reference], None).items()

    def decide(case: Case) -> Decision:
        try:
            decision = _decision(run, case)
        except (CommandFailedError, BadOutput) as error:
            raise SolverError(
                f"the reference {label!r} failed on {describe(case)}: {error}"
            ) from None
        return reference_decision(decision, label, case)

    return decide


def _decision(run: Runner | Command, case: Case) -> Decision:
    """What a backend, function or program answers on ``case``."""
    if isinstance(run, Command):
        return program_decision(run, case)
    if getattr(run, "decides", False):  # a registry backend: asked for one solution
        return decision_of(run(case, decide=True))  # type: ignore[call-arg]
    return decision_of(run(case))


def _decide_row(case: Case, label: str, run: Runner | Command, found: Decision) -> CrossCheckRow:
    start = time.perf_counter()
    try:
        decision = _decision(run, case)
    except SearchTimeoutError:
        decision = Decision("unknown", timed_out=True)
    except Exception as raised:  # a user's solver may raise anything: report it
        elapsed = time.perf_counter() - start
        error = str(raised) if isinstance(raised, (CommandFailedError, BadOutput)) else (
            f"{type(raised).__name__}: {raised}"
        )  # fmt: skip
        row = error_row(size_of(case), label, error, len(found.boards), elapsed)
        return replace(row, compared="decision", reference_answer=found.answer)
    return judge_decision(case, label, decision, found, elapsed=time.perf_counter() - start)


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
        boards.extend(as_board(item) for item in answer)
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
