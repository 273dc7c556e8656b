"""What every backend shares: the problem it is given, the run it reports to, its base class.

A backend is an object with a :meth:`Backend.search` generator that yields every
solution of a :class:`Problem`, while counting its effort into a :class:`SearchRun`.
Everything else (``solve``, ``count``, limits, timing, the :class:`~cpqueens.Result`)
is built on that one lazy iterator by :mod:`cpqueens.api`.

Search effort is counted the same way by every hand-written backend, so that their
figures can be compared (the definitions of article 001):

* a **node** is one queen placed safely; the empty root is not counted;
* an **attempt** is one candidate square tested for safety. A backend that tests
  every square of the next row once per expanded node makes
  ``attempts == n * (expanded nodes, root included)``; a row whose queen is fixed in
  advance has one candidate only.
"""

from __future__ import annotations

import contextlib
import importlib.util
import signal
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..board import Solution, is_valid
from ..errors import BackendUnavailableError, InvalidInputError, SolverError


@dataclass(frozen=True)
class Problem:
    """One n-queens question, already validated.

    ``fixed[r]`` is the column that row ``r`` must use, or None when row ``r`` is free
    (the n-queens completion problem). ``options`` holds backend-specific options that
    the backend declared in :attr:`Backend.options`. ``limit`` is the number of
    solutions the caller will take: the API stops the iteration there itself, so a
    backend may ignore it, but one that searches in bulk (a solver run that returns
    only at its end) can use it to stop early. It is None when every solution is
    wanted, and also with ``unique=True``, where several solutions may count as one.
    """

    n: int
    fixed: tuple[int | None, ...]
    seed: int | None = None
    workers: int | None = None
    limit: int | None = None
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def has_fixed(self) -> bool:
        return any(column is not None for column in self.fixed)


class OutOfTime(Exception):
    """Raised inside a backend by :meth:`SearchRun.check_time`; caught by the API."""


class SearchRun:
    """The mutable side of one search: its statistics, its deadline, its completeness.

    Backends write their effort counters into :attr:`stats`, call
    :meth:`check_time` now and then (it raises :class:`OutOfTime` past the deadline),
    and set :attr:`complete` to False when they cannot vouch that they saw every
    solution (for instance a parallel solver that may skip some).
    """

    def __init__(self, time_limit: float | None = None):
        self.stats: dict[str, Any] = {}
        self.deadline = None if time_limit is None else time.monotonic() + time_limit
        self.time_limit = time_limit
        self.complete = True
        self.timed_out = False

    def remaining(self) -> float | None:
        """Seconds left before the deadline, or None without a time limit."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    def check_time(self) -> None:
        """Raise :class:`OutOfTime` once the deadline has passed."""
        if self.deadline is not None and time.monotonic() >= self.deadline:
            self.mark_timed_out()
            raise OutOfTime

    def mark_timed_out(self) -> None:
        self.timed_out = True
        self.complete = False


#: How many nodes a backend searches between two looks at the clock.
TIME_CHECK_INTERVAL = 1024


@dataclass(frozen=True)
class BackendInfo:
    """What a backend is and what it can do, as listed by :func:`cpqueens.backends`."""

    name: str
    summary: str
    source: str | None
    available: bool
    requires: str | None
    enumerates: bool
    fixed: bool
    randomized: bool
    lexicographic: bool
    time_limit: bool
    workers: bool
    max_n: int | None
    options: tuple[str, ...]
    #: For a backend that drives several solvers: each solver's name mapped to None
    #: when it is usable here, else to the pip requirement that would bring it.
    solvers: dict[str, str | None] = field(default_factory=dict)


class Backend:
    """Base class of the backends: subclasses set the class attributes and ``search``.

    ``requires`` names the importable module an optional backend needs and
    ``install_hint`` the pip requirement that provides it; the backend imports it
    lazily inside ``search`` so that ``import cpqueens`` never does.
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    source: ClassVar[str | None] = None
    requires: ClassVar[str | None] = None
    install_hint: ClassVar[str | None] = None
    enumerates: ClassVar[bool] = True
    supports_fixed: ClassVar[bool] = True
    randomized: ClassVar[bool] = False
    lexicographic: ClassVar[bool] = True
    supports_time_limit: ClassVar[bool] = True
    supports_workers: ClassVar[bool] = False
    max_n: ClassVar[int | None] = None
    #: True for a search that recurses one call deeper per row, bounded by the stack.
    recurses: ClassVar[bool] = False
    options: ClassVar[tuple[str, ...]] = ()

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        """Yield every solution of ``problem`` once, as tuples."""
        raise NotImplementedError(f"{type(self).__name__} does not enumerate solutions")

    def check_problem(self, problem: Problem) -> None:
        """Refuse, at the call, a problem this backend cannot take.

        The front functions call this once, after their own checks and before they
        return, so that a bad call fails where it is made, never at the first
        ``next()`` of a lazy iterator. The default refuses a board larger than
        :attr:`max_n` or deeper than the recursion allows (:attr:`recurses`), then
        checks the options with :meth:`check_options`; a backend with limits of its
        own extends it.
        """
        if self.max_n is not None and problem.n > self.max_n:
            raise InvalidInputError(
                f"backend {self.name!r} handles n up to {self.max_n}, got n={problem.n}"
            )
        if self.recurses:
            ensure_recursion_depth(problem.n, self.name)
        self.check_options(problem.options)

    def check_options(self, options: dict[str, Any]) -> None:
        """Raise :class:`InvalidInputError` for a bad value of one of :attr:`options`.

        Called by :meth:`check_problem`, so a bad value fails at the call.
        """

    def choice(self, options: dict[str, Any], key: str, allowed: tuple[str, ...]) -> str:
        """Return option ``key`` (default: the first of ``allowed``), refusing other values."""
        value = options.get(key, allowed[0])
        check_choice(self.name, key, value, allowed)
        return value

    def count(self, problem: Problem, run: SearchRun) -> int:
        """Return the number of solutions; backends with a faster counter override this."""
        return sum(1 for _ in self.search(problem, run))

    def count_unique(self, problem: Problem, run: SearchRun) -> int:
        """Return the number of classes of solutions up to rotation and reflection.

        Only for problems without fixed queens. Backends that can count the classes
        natively override this; the others are counted by canonical forms instead.
        """
        raise NotImplementedError(f"{type(self).__name__} does not count classes natively")

    def solver_choices(self) -> dict[str, str | None]:
        """The solvers behind this backend: name -> None if usable, else what installs it.

        Listed by :func:`cpqueens.backends` without importing any solver package;
        backends that drive a single solver return an empty dict.
        """
        return {}

    def is_available(self) -> bool:
        return self.requires is None or importlib.util.find_spec(self.requires) is not None

    def require(self) -> None:
        """Raise :class:`BackendUnavailableError` when the needed package is missing."""
        if not self.is_available():
            raise BackendUnavailableError(
                f"backend {self.name!r} needs the package {self.install_hint!r}; "
                f"install it with: pip install {self.install_hint}"
            )

    def info(self) -> BackendInfo:
        return BackendInfo(
            name=self.name,
            summary=self.summary,
            source=self.source,
            available=self.is_available(),
            requires=self.install_hint,
            enumerates=self.enumerates,
            fixed=self.supports_fixed,
            randomized=self.randomized,
            lexicographic=self.lexicographic,
            time_limit=self.supports_time_limit,
            workers=self.supports_workers,
            max_n=self.max_n,
            options=self.options,
            solvers=self.solver_choices() if self.is_available() else {},
        )

    def __repr__(self) -> str:
        return f"<cpqueens backend {self.name!r}>"


def check_choice(
    backend: str,
    option: str,
    value: object,
    usable: Iterable[str],
    missing: Mapping[str, str] | None = None,
) -> None:
    """Refuse ``value`` unless it is one of ``usable``, listing the valid names.

    ``missing`` maps the names known but not usable here to what would make them
    usable (a pip requirement, a system package), so the message says so.
    """
    usable = tuple(usable)
    if value in usable:
        return
    message = (
        f"{backend} option {option} must be one of {', '.join(usable) or '(none usable here)'}"
    )
    if missing:
        message += "; not usable here: " + ", ".join(f"{k} ({v})" for k, v in missing.items())
    raise InvalidInputError(f"{message}; got {value!r}")


#: Signals a native solver may take over for its own shutdown and leave taken.
_GUARDED_SIGNALS = ("SIGINT", "SIGTERM", "SIGXCPU", "SIGALRM", "SIGHUP")


@contextlib.contextmanager
def signal_handlers_kept() -> Iterator[None]:
    """Put back the process's signal handlers after a solver library has run.

    Exact, for one, installs C-level handlers for SIGTERM and SIGXCPU and leaves them:
    a process pool forked afterwards then has workers that ignore the SIGTERM its
    ``terminate`` sends, and the pool never shuts down. Only the main thread may set
    handlers, so elsewhere this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved = {}
    for name in _GUARDED_SIGNALS:
        number = getattr(signal, name, None)
        if number is not None:
            saved[number] = signal.getsignal(number)
    try:
        yield
    finally:
        for number, handler in saved.items():
            # None: a handler set outside Python before the run; leave that one be.
            if handler is not None:
                signal.signal(number, handler)


def check_solution(values: Iterable[int], problem: Problem, solver: str) -> Solution:
    """Return the solver's assignment as a tuple once it is known to solve ``problem``.

    A solver that hands back anything else (a wrong model, a lost fixed queen) gets a
    :class:`~cpqueens.errors.SolverError` naming it, never a place in a Result.

    >>> check_solution([1, 3, 0, 2], Problem(4, (None, None, None, None)), "demo")
    (1, 3, 0, 2)
    """
    solution = tuple(values)
    n = problem.n
    valid = is_valid(solution, n)
    if valid and problem.has_fixed:
        pairs = zip(problem.fixed, solution, strict=True)
        valid = all(want is None or want == got for want, got in pairs)
    if valid:
        return solution
    raise SolverError(
        f"{solver} returned {solution!r}, which is not a solution of the {n}-queens "
        "problem with the fixed queens given"
    )


#: The deepest recursion a recursive backend will attempt. Python 3.11 keeps each
#: generator resumption on the C stack, so the interpreter's limit may be raised,
#: but only so far before a deep search could overflow the real stack.
MAX_RECURSION_DEPTH = 5_000


def ensure_recursion_depth(n: int, backend: str) -> None:
    """Make room for a recursion of depth ``n`` or refuse with a clear error.

    The interpreter's recursion limit is only ever raised, never lowered, so that
    another search suspended at depth keeps working.
    """
    needed = n + 200
    if needed > MAX_RECURSION_DEPTH:
        raise InvalidInputError(
            f"backend {backend!r} recurses once per row and cannot go {n} rows deep "
            f"(at most {MAX_RECURSION_DEPTH - 200}); use backend='stack', which "
            "searches without recursion"
        )
    if sys.getrecursionlimit() < needed:
        sys.setrecursionlimit(needed)
