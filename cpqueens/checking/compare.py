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
"""

from __future__ import annotations

import operator
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..api import check_n, check_time_limit, solve
from ..board import Solution, is_valid
from ..errors import InvalidInputError, InvalidTypeError, UnknownBackendError
from ..solvers import REGISTRY
from .report import EXAMPLES, CrossCheckReport, CrossCheckRow

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


def compare(n: int, boards: list[tuple], reference: set[Solution]) -> dict[str, Any]:
    """Sort the boards a backend returned into the four faults against ``reference``."""
    invalid = [b for b in boards if not is_valid(b, n)]
    valid = Counter(b for b in boards if is_valid(b, n))
    duplicated = sorted(b for b, times in valid.items() if times > 1)
    missing = sorted(reference - valid.keys())
    extra = sorted(valid.keys() - reference)
    return {
        "missing": tuple(missing[:EXAMPLES]),
        "extra": tuple(extra[:EXAMPLES]),
        "invalid": tuple(invalid[:EXAMPLES]),
        "duplicated": tuple(duplicated[:EXAMPLES]),
        "missing_count": len(missing),
        "extra_count": len(extra),
        "invalid_count": len(invalid),
        "duplicated_count": sum(valid[b] - 1 for b in duplicated),
    }


def _registry_runner(name: str, time_limit: float | None) -> Runner:
    backend = REGISTRY[name]
    limit = time_limit if backend.supports_time_limit else None

    def run(n: int) -> Iterable[Solution]:
        result = solve(n, backend=name, time_limit=limit)
        if not result.complete:
            raise TimeoutError(
                f"stopped by time_limit={time_limit} s after {result.count} solutions"
            )
        return result.solutions

    run.__name__ = name
    return run


def _resolve(backends: Any, time_limit: float | None) -> dict[str, Runner]:
    if backends is None:
        return {
            name: _registry_runner(name, time_limit)
            for name, backend in REGISTRY.items()
            if backend.enumerates and backend.is_available()
        }
    items = backends.items() if isinstance(backends, Mapping) else ((None, b) for b in backends)
    runners: dict[str, Runner] = {}
    for label, backend in items:
        if isinstance(backend, str):
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
                f"backends must hold registry names or callables f(n) -> solutions, "
                f"got {backend!r} ({type(backend).__name__})"
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

        return "decision tree", lambda n: tree_solutions(decision_tree(n))
    runner = _resolve([reference], None)
    ((label, run),) = runner.items()
    return label, lambda n: {_board(b) for b in run(n)}


def _sizes(ns: int | Iterable[int]) -> tuple[int, ...]:
    if isinstance(ns, int) and not isinstance(ns, bool):
        return (check_n(ns),)
    try:
        sizes = tuple(check_n(n) for n in ns)
    except TypeError as error:
        if "not iterable" not in str(error):
            raise
        raise InvalidTypeError(
            f"ns must be an integer or an iterable of integers, got {ns!r}"
        ) from None
    if not sizes:
        raise InvalidInputError("ns holds no board size; pass an integer or e.g. range(1, 9)")
    return sizes


def crosscheck(
    ns: int | Iterable[int],
    backends: Iterable[str | Runner] | Mapping[str, str | Runner] | None = None,
    reference: str | Runner = "tree",
    *,
    time_limit: float | None = None,
) -> CrossCheckReport:
    """Compare the solutions of several backends with a reference, for each board size.

    Parameters
    ----------
    ns : int or iterable of int
        The board sizes to check.
    backends : list or dict, optional
        Registry names and plain functions ``f(n) -> iterable of solutions``, mixed
        freely; a function is labelled by its ``__name__``, or pass a dict
        ``{label: name or function}``. None (the default) checks every available
        backend of the registry that lists solutions.
    reference : str or callable
        ``"tree"`` (default): the solutions read off :func:`cpqueens.decision_tree`.
        The tree is refused beyond n=12 (:class:`~cpqueens.TreeTooLargeError`); for
        larger boards name a registry backend instead, e.g. ``reference="stack"``,
        or pass a function.
    time_limit : float, optional
        Seconds allowed to each registry backend per board size (for those that
        support it); a backend that runs out gets a row with an error. Your own
        functions are not interrupted.

    Returns
    -------
    CrossCheckReport
        ``report.ok``, ``report.failures``, ``print(report)``, ``report.to_records()``.

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
    runners = _resolve(backends, time_limit)
    reference_label, reference_of = _reference(reference)
    rows = []
    for n in sizes:
        expected = reference_of(n)
        for label, run in runners.items():
            rows.append(_check(n, label, run, expected))
    return CrossCheckReport(rows=tuple(rows), reference=reference_label)


def _check(n: int, label: str, run: Runner, expected: set[Solution]) -> CrossCheckRow:
    boards: list[tuple] = []
    error = None
    start = time.perf_counter()
    try:
        boards.extend(_board(item) for item in run(n))
    except Exception as raised:  # a user's solver may raise anything: report it
        error = f"{type(raised).__name__}: {raised}"
    elapsed = time.perf_counter() - start
    # After an error the boards are counted but not compared: the list is unfinished.
    faults = compare(n, boards, expected) if error is None else compare(n, [], set())
    agrees = error is None and not any(
        faults[f"{kind}_count"] for kind in ("missing", "extra", "invalid", "duplicated")
    )
    return CrossCheckRow(
        n=n,
        backend=label,
        count=len(boards),
        reference_count=len(expected),
        agrees=agrees,
        elapsed=elapsed,
        error=error,
        **faults,
    )
