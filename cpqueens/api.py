"""The front functions: check the input once, pick the backend, run it, build the Result.

``solve``, ``solutions`` and ``count`` share one path: :func:`_prepare` validates
every argument eagerly (so a bad call fails where it is made), and :func:`_search`
is the single lazy iterator the three are built on.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from .arguments import Square, check_int, check_n, check_time_limit
from .board import Solution, canonical
from .errors import InvalidInputError, SearchTimeoutError, UnsupportedOptionError
from .instances import as_instance
from .result import Result
from .solvers import REGISTRY, Backend, BackendInfo, Problem, SearchRun, get_backend
from .solvers.run import DeadlineReached

DEFAULT_BACKEND = "recursive"


@dataclass(frozen=True)
class _Plan:
    backend: Backend
    problem: Problem
    limit: int | None
    time_limit: float | None
    unique: bool
    #: When the call began (time.monotonic()): its checks and lazy imports count
    #: against the time limit too.
    started: float


def _prepare(
    n: object,
    backend: str,
    *,
    limit: int | None,
    fixed: Mapping[int, int] | None,
    blocked: Iterable[Square] | None,
    seed: int | None,
    time_limit: float | None,
    workers: int | None,
    unique: bool,
    options: dict[str, Any],
) -> _Plan:
    started = time.monotonic()
    engine = get_backend(backend)
    # The general size limit, then the backend's, before anything of size n is made.
    instance = as_instance(
        n, fixed, blocked, largest=lambda size: check_size(engine, check_n(size))
    )
    n = instance.n
    if limit is not None:
        limit = check_int(limit, "limit", 1)
    time_limit = check_time_limit(time_limit)
    if seed is not None:
        # Any integer type (numpy's too), as a plain int: random.Random refuses numpy's.
        seed = check_int(seed, "seed")
    if workers is not None:
        workers = check_int(workers, "workers", 1)
    squares = instance.blocked_set

    def refuse(option: str, flag: str) -> None:
        able = [b.name for b in REGISTRY.values() if getattr(b, flag)]
        raise UnsupportedOptionError(
            f"backend {engine.name!r} does not support {option}; backends that do: "
            f"{', '.join(able) or 'none'}"
        )

    if instance.fixed and not engine.supports_fixed:
        refuse("fixed", "supports_fixed")
    if squares and not engine.supports_blocked:
        refuse("blocked", "supports_blocked")
    if unique and not engine.exhaustive:
        raise UnsupportedOptionError(
            f"unique=True keeps one solution per symmetry class of every solution, and "
            f"backend {engine.name!r} does not search them all; use an exhaustive backend"
        )
    if squares and unique:
        raise UnsupportedOptionError(
            "unique=True counts classes of solutions under the board's rotations and "
            "reflections, which blocked squares break; ask without unique"
        )
    if seed is not None and not engine.randomized:
        refuse("seed", "randomized")
    if workers is not None and not engine.supports_workers:
        refuse("workers", "supports_workers")
    if time_limit is not None and not engine.supports_time_limit:
        refuse("time_limit", "supports_time_limit")
    unknown = sorted(set(options) - set(engine.options))
    if unknown:
        allowed = ", ".join(engine.options) or "none"
        raise UnsupportedOptionError(
            f"backend {engine.name!r} got unknown option(s) {', '.join(unknown)}; "
            f"its own options are: {allowed}"
        )
    problem = Problem(
        n=n,
        fixed=instance.fixed_per_row(),
        seed=seed,
        workers=workers,
        # With unique=True several solutions make one class, so the backend cannot
        # know how many raw solutions the limit amounts to.
        limit=None if unique else limit,
        options=dict(options),
        blocked=squares,
    )
    # A missing package first: nothing else about the call matters until it is there.
    engine.require()
    engine.check_problem(problem)
    return _Plan(engine, problem, limit, time_limit, bool(unique), started)


def _given(per_row: tuple[int | None, ...]) -> dict[int, int]:
    """The fixed queens as ``{row: column}``, without a Python step per row when none
    is given (a board of ten million rows)."""
    if per_row.count(None) == len(per_row):
        return {}
    return {row: col for row, col in enumerate(per_row) if col is not None}


def check_size(engine: Backend, n: int) -> None:
    """Refuse a board larger than the backend takes, before anything of size n is built.

    The message names the backends that do take it, so a caller knows where to go.

    >>> check_size(REGISTRY["bitmask"], 40)
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: n=40 is beyond what backend 'bitmask' handles \
(n <= 32); backends that take n=40: recursive, stack, tree, random, cpsat, ...
    """
    largest = engine.largest_n()
    if largest is None or n <= largest:
        return
    able = [b.name for b in REGISTRY.values() if (b.largest_n() or n) >= n]
    if len(able) > 5:
        able = [*able[:5], "..."]
    where = (
        f"backends that take n={n:,}: {', '.join(able)}"
        if able
        else f"no backend here takes n={n:,} (the largest: {_largest_taken()})"
    )
    raise InvalidInputError(
        f"n={n:,} is beyond what backend {engine.name!r} handles (n <= {largest:,}); {where}"
    )


def _largest_taken() -> str:
    sizes = {b.name: b.largest_n() for b in REGISTRY.values()}
    name = max(sizes, key=lambda k: sizes[k] or 0)
    return f"{name}, n <= {sizes[name]:,}"


def _search(plan: _Plan, run: SearchRun) -> Iterator[Solution]:
    """The one iterator under solve, solutions and count: limit, uniqueness, time."""
    if not plan.backend.enumerates:
        raise UnsupportedOptionError(
            f"backend {plan.backend.name!r} only counts; use cpqueens.count, "
            "or an enumerating backend to list solutions"
        )
    seen: set[Solution] = set()
    produced = 0
    found = plan.backend.search(plan.problem, run)
    try:
        for solution in found:
            if plan.unique:
                solution = canonical(solution)
                if solution in seen:
                    continue
                seen.add(solution)
            yield solution
            produced += 1
            if plan.limit is not None and produced >= plan.limit:
                run.complete = False
                return
    except DeadlineReached:
        run.mark_timed_out()
    finally:
        found.close()


def solutions(
    n: int,
    backend: str = DEFAULT_BACKEND,
    *,
    limit: int | None = None,
    fixed: Mapping[int, int] | None = None,
    blocked: Iterable[Square] | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
    unique: bool = False,
    **options: Any,
) -> Iterator[Solution]:
    """Iterate lazily over the solutions of the n-queens problem.

    Arguments are checked at the call, before the first solution is asked for.
    Deterministic backends yield solutions in lexicographic order; ``unique=True``
    yields one canonical representative per class of solutions equal up to rotation
    and reflection. A ``time_limit`` ends the iteration quietly when it runs out.

    >>> import cpqueens
    >>> it = cpqueens.solutions(8)
    >>> next(it)
    (0, 4, 7, 5, 2, 6, 1, 3)
    >>> sum(1 for _ in cpqueens.solutions(8, unique=True))
    12
    """
    plan = _prepare(
        n,
        backend,
        limit=limit,
        fixed=fixed,
        blocked=blocked,
        seed=seed,
        time_limit=time_limit,
        workers=workers,
        unique=unique,
        options=options,
    )
    return _search(plan, SearchRun(plan.time_limit))


def solve(
    n: int,
    backend: str = DEFAULT_BACKEND,
    *,
    limit: int | None = None,
    fixed: Mapping[int, int] | None = None,
    blocked: Iterable[Square] | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
    unique: bool = False,
    certify: bool | str | os.PathLike = False,
    **options: Any,
) -> Result:
    """Solve the n-queens problem with one backend and return a :class:`Result`.

    Parameters
    ----------
    n : int or Instance
        Board size, at least 1 (n=2 and n=3 have no solution), or a
        :class:`~cpqueens.Instance` (its queens and blocked squares then come with it).
    backend : str
        A name from :func:`backends`; default ``"recursive"``.
    limit : int, optional
        Stop after this many solutions (``Result.complete`` is then False).
    fixed : mapping of int to int, optional
        Queens placed in advance, row -> column (the completion problem). Queens
        that attack each other simply leave no solution.
    blocked : iterable of (int, int), optional
        Squares no queen may occupy, ``(row, column)``, 0-based (blocked n-queens).
    seed : int, optional
        Seed of a randomised backend, for reproducible runs.
    time_limit : float, optional
        Seconds after which the search stops with the solutions found so far.
    workers : int, optional
        Parallel workers, for the backends that support them.
    unique : bool
        Keep one canonical solution per symmetry class (rotations and reflections).
    certify : bool or path
        Prove the answer (a count with no ``limit``; with ``limit=1`` a solution, or
        that there is none) with a proof an independent checker accepts; the
        :class:`~cpqueens.Certificate` is ``Result.certificate``. A path keeps the
        formula and the proof in that folder. Backends that prove: ``propagate``,
        ``exactcover``, ``sat`` (see :func:`cpqueens.certify`).
    **options
        Backend-specific options, listed by :func:`backends`.

    Examples
    --------
    >>> import cpqueens
    >>> cpqueens.solve(8, limit=1).solutions[0]
    (0, 4, 7, 5, 2, 6, 1, 3)
    >>> r = cpqueens.solve(8, backend="tree")
    >>> r.count, r.stats["nodes"], r.stats["attempts"]
    (92, 2056, 15720)
    >>> cpqueens.solve(4, fixed={0: 0}).count
    0
    """
    plan = _prepare(
        n,
        backend,
        limit=limit,
        fixed=fixed,
        blocked=blocked,
        seed=seed,
        time_limit=time_limit,
        workers=workers,
        unique=unique,
        options=options,
    )
    proving = None
    if certify not in (False, None):
        from .proofs.asking import check_certify

        proving = check_certify(certify, plan.backend.name, plan.limit, plan.unique)
    run = SearchRun(plan.time_limit, started=plan.started)
    start = time.perf_counter()
    if plan.backend.enumerates:
        found = tuple(_search(plan, run))
        total = len(found)
    else:
        found, total = (), _count(plan, run)
    elapsed = time.perf_counter() - start
    result = Result(
        n=plan.problem.n,
        backend=plan.backend.name,
        solutions=found,
        count=total,
        complete=run.complete,
        stats=MappingProxyType(dict(run.stats, timed_out=run.timed_out)),
        elapsed=elapsed,
        fixed=MappingProxyType(_given(plan.problem.fixed)),
        blocked=tuple(sorted(plan.problem.blocked)),
    )
    if proving is None:
        return result
    from .proofs.asking import certificate_of

    return replace(result, certificate=certificate_of(result, plan.limit, proving))


def _count(plan: _Plan, run: SearchRun) -> int:
    # A backend's own counter is exact only for the whole count; fundamental solutions
    # of a completion problem have no native counter (fixed queens break the symmetry).
    if plan.limit is not None:
        counter = None
    elif plan.unique:
        native = _has_own_counter(plan.backend, "count_unique") and not plan.problem.has_fixed
        counter = plan.backend.count_unique if native else None
    else:
        counter = plan.backend.count if _has_own_counter(plan.backend, "count") else None
    if counter is None:
        return sum(1 for _ in _search(plan, run))
    try:
        return counter(plan.problem, run)
    except DeadlineReached:
        run.mark_timed_out()
        return run.stats.get("partial_count", 0)


def _has_own_counter(backend: Backend, method: str) -> bool:
    return getattr(type(backend), method) is not getattr(Backend, method)


def count(
    n: int,
    backend: str = DEFAULT_BACKEND,
    *,
    limit: int | None = None,
    fixed: Mapping[int, int] | None = None,
    blocked: Iterable[Square] | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
    unique: bool = False,
    certify: bool | str | os.PathLike = False,
    **options: Any,
) -> int:
    """Return the number of solutions (of symmetry classes with ``unique=True``).

    With ``limit`` the count stops there. If ``time_limit`` runs out first,
    :class:`~cpqueens.errors.SearchTimeoutError` is raised, carrying the partial
    count, since a partial number would pass for an exact one.

    Examples
    --------
    >>> import cpqueens
    >>> [cpqueens.count(n) for n in range(1, 9)]
    [1, 0, 0, 2, 10, 4, 40, 92]
    >>> cpqueens.count(10, backend="stack", unique=True)
    92

    With ``certify=True`` (backends ``propagate``, ``exactcover``, ``sat``) the count is proved
    (see :func:`cpqueens.certify`) and returned as a
    :class:`~cpqueens.CertifiedCount`, an int that carries its ``certificate``:

    >>> counted = cpqueens.count(8, backend="propagate", certify=True)
    >>> counted, counted.certificate.verdict
    (92, 'proved')
    """
    if certify not in (False, None):
        # solve() checks every argument at its door, certify= among them.
        result = solve(n, backend, limit=limit, fixed=fixed, blocked=blocked, seed=seed,
                       time_limit=time_limit, workers=workers, unique=unique, certify=certify,
                       **options)  # fmt: skip
        if not result.complete:
            raise _count_timed_out(result.n, result.backend, time_limit, result.count)
        from .proofs.asking import CertifiedCount

        return CertifiedCount(result.count, result.certificate)
    plan = _prepare(
        n,
        backend,
        limit=limit,
        fixed=fixed,
        blocked=blocked,
        seed=seed,
        time_limit=time_limit,
        workers=workers,
        unique=unique,
        options=options,
    )
    run = SearchRun(plan.time_limit, started=plan.started)
    total = _count(plan, run)
    if run.timed_out:
        raise _count_timed_out(plan.problem.n, plan.backend.name, time_limit, total)
    return total


def _count_timed_out(n: int, backend: str, time_limit: float | None, total: int) -> Exception:
    """The error of a count its time limit stopped: a partial number would pass for an
    exact one, so it travels in the error (``partial``)."""
    return SearchTimeoutError(
        f"count(n={n}, backend={backend!r}) ran out of its time_limit of {time_limit} s "
        f"after {total} solutions",
        partial=total,
    )


def backends() -> tuple[BackendInfo, ...]:
    """Describe every registered backend: its name, its source and what it can do.

    Examples
    --------
    >>> import cpqueens
    >>> [info.name for info in cpqueens.backends()][:4]
    ['recursive', 'stack', 'tree', 'random']
    """
    return tuple(backend.info() for backend in REGISTRY.values())
