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
import functools
import importlib.util
import itertools
import operator
import os
import re
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from ..board import NUMPY_CHECK_N, Solution, is_valid
from ..errors import BackendUnavailableError, InvalidInputError, SolverError

T = TypeVar("T")


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
    #: Squares no queen may occupy, ``(row, column)``, 0-based (blocked n-queens).
    blocked: frozenset[tuple[int, int]] = frozenset()

    @property
    def has_fixed(self) -> bool:
        return any(column is not None for column in self.fixed)

    @property
    def has_blocked(self) -> bool:
        return bool(self.blocked)

    def allowed_columns(self, row: int) -> list[int]:
        """The columns of ``row`` a queen may take: its fixed one, or every unblocked one."""
        if self.fixed[row] is not None:
            return [self.fixed[row]]
        mask = self.blocked_masks()[row] if self.blocked else 0
        if not mask:
            return list(range(self.n))
        return [c for c in range(self.n) if not mask >> c & 1]

    def blocked_masks(self) -> list[int]:
        """Per row, a bit mask of its blocked columns (bit ``c`` for column ``c``)."""
        cached = self.__dict__.get("_blocked_masks")
        if cached is None:
            cached = [0] * self.n
            for row, column in self.blocked:
                cached[row] |= 1 << column
            # A frozen dataclass still has a __dict__: the masks are kept for the next row.
            object.__setattr__(self, "_blocked_masks", cached)
        return list(cached)


class OutOfTime(Exception):
    """Raised inside a backend by :meth:`SearchRun.check_time`; caught by the API."""


class SearchRun:
    """The mutable side of one search: its statistics, its deadline, its completeness.

    Backends write their effort counters into :attr:`stats`, call
    :meth:`check_time` now and then (it raises :class:`OutOfTime` past the deadline),
    and set :attr:`complete` to False when they cannot vouch that they saw every
    solution (for instance a parallel solver that may skip some).
    """

    def __init__(self, time_limit: float | None = None, *, started: float | None = None):
        self.stats: dict[str, Any] = {}
        # The clock runs from ``started`` (a time.monotonic() reading: when the call
        # began, its checks included), or from now.
        began = time.monotonic() if started is None else started
        self.deadline = None if time_limit is None else began + time_limit
        self.time_limit = time_limit
        self.complete = True
        self.timed_out = False

    @contextlib.contextmanager
    def clock_stopped(self) -> Iterator[None]:
        """Run the block off the clock: the deadline moves on by the time it took.

        For compiling a backend's kernels or loading them from numba's cache on disk
        (seconds on the first call after installing, a fraction of one in every new
        process after that), which a time limit must never pay for.

        >>> run = SearchRun(0.5)
        >>> with run.clock_stopped():
        ...     time.sleep(0.6)
        >>> run.check_time()  # the sleep came off the clock: not past the deadline
        """
        began = time.monotonic()
        try:
            yield
        finally:
            if self.deadline is not None:
                self.deadline += time.monotonic() - began

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


#: How many cheap nodes a backend searches between two looks at the clock.
TIME_CHECK_INTERVAL = 1024

#: Seconds a call may run past its ``time_limit``: the larger of this and
#: :data:`TIME_LIMIT_SLACK_SHARE` of the limit (a solver's own clean-up, a model
#: build step that cannot be cut in two). Documented in docs/limits.md.
TIME_LIMIT_SLACK = 1.0
TIME_LIMIT_SLACK_SHARE = 0.1


def check_interval(work_per_node: int) -> int:
    """Nodes between two looks at the clock, for nodes that cost ``work_per_node`` steps.

    A node of a small board costs a few steps and the clock is read every
    :data:`TIME_CHECK_INTERVAL` nodes; a node of a board of thousands of rows costs
    thousands of steps, and reading the clock at every one of them costs nothing
    next to it, so the interval shrinks as the work grows.

    >>> check_interval(8), check_interval(2000), check_interval(2000 * 2000)
    (1024, 4, 1)
    """
    return max(1, TIME_CHECK_INTERVAL * 8 // max(1, work_per_node))


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
    #: Whether it takes blocked squares.
    blocked: bool = False
    #: Whether it searches the whole space (lists every solution, proves none).
    exhaustive: bool = True
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
    #: False for a backend that finds solutions but searches no whole space (a
    #: construction, a local search): it lists what ``limit`` asks for and never
    #: proves that there is no solution, so cross-checks of whole solution sets skip it.
    exhaustive: ClassVar[bool] = True
    #: Whether the backend takes blocked squares (``Problem.blocked``).
    supports_blocked: ClassVar[bool] = False
    randomized: ClassVar[bool] = False
    #: False for a backend whose runtime starts threads when it first solves (a JVM):
    #: a process that warmed it up must not be forked, since the child would lose them.
    fork_safe: ClassVar[bool] = True
    lexicographic: ClassVar[bool] = True
    supports_time_limit: ClassVar[bool] = True
    supports_workers: ClassVar[bool] = False
    max_n: ClassVar[int | None] = None
    #: True for a backend whose search is compiled (numba): its kernels are compiled on
    #: first use, cached on disk by numba, and readied by :meth:`load_kernels`.
    compiled: ClassVar[bool] = False
    #: True for a search that recurses one call deeper per row, bounded by the stack.
    recurses: ClassVar[bool] = False
    options: ClassVar[tuple[str, ...]] = ()

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        """Yield every solution of ``problem`` once, as tuples."""
        raise NotImplementedError(f"{type(self).__name__} does not enumerate solutions")

    def load_kernels(self) -> None:
        """Compile a :attr:`compiled` backend's kernels, or load them from numba's cache.

        Every kernel its searches call, with the argument types they pass, on a tiny
        board: the first call in a new environment compiles them (seconds) and numba
        writes them to its cache on disk (the ``__pycache__`` beside the installed
        package when it is writable, else the user's cache directory, or
        ``NUMBA_CACHE_DIR``); every new process after that loads them (a fraction of
        a second); in a process that has them it costs microseconds. The searches
        call it under :meth:`SearchRun.clock_stopped`, so no time limit pays for it.
        Nothing to do for a backend that is not compiled.
        """

    def largest_n(self) -> int | None:
        """The largest board this backend takes: :attr:`max_n`, and the recursion bound."""
        bounds = [self.max_n] if self.max_n is not None else []
        if self.recurses:
            bounds.append(MAX_RECURSION_DEPTH - 200)
        return min(bounds, default=None)

    def check_problem(self, problem: Problem) -> None:
        """Refuse, at the call, a problem this backend cannot take.

        The front functions call this once, after their own checks and before they
        return, so that a bad call fails where it is made, never at the first
        ``next()`` of a lazy iterator. (A board larger than :meth:`largest_n` was
        refused earlier still, before anything of its size was built.) The default
        makes room for the recursion (:attr:`recurses`) and checks the options with
        :meth:`check_options`; a backend with limits of its own extends it.
        """
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

    @functools.cached_property
    def package_version(self) -> str | None:
        """The version of :attr:`package` installed here; None when the backend is built
        on none or it is not installed. Read once: the installed packages' metadata
        is slow to scan."""
        from importlib import metadata  # slow to import: only when asked

        if self.package is None:
            return None
        try:
            return metadata.version(self.package)
        except metadata.PackageNotFoundError:
            return None

    @property
    def package(self) -> str | None:
        """The pip package the backend is built on (its ``install_hint`` without extras
        or version bounds), or None for one built on none."""
        if not self.install_hint:
            return None
        return re.split(r"[\s\[<>=!~;@]", self.install_hint.strip(), maxsplit=1)[0] or None

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
            blocked=self.supports_blocked,
            exhaustive=self.exhaustive,
            randomized=self.randomized,
            lexicographic=self.lexicographic,
            time_limit=self.supports_time_limit,
            workers=self.supports_workers,
            max_n=self.largest_n(),
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


def run_stoppable(
    call: Callable[[], T], stop: Callable[[], None], run: SearchRun, *, grace: float = 0.5
) -> T:
    """Run a native solver's ``call()`` where the deadline and Ctrl-C can stop it.

    A native solver holds the main thread inside C++ or Java: Python's signal
    handlers and the clock wait until it returns. So the call runs in a helper
    thread while the main thread waits: at the deadline (plus ``grace``, for the
    solver's own time limit to act first) it calls ``stop()`` and marks ``run``
    timed out; on Ctrl-C it calls ``stop()``, waits for the call to return and
    raises :class:`KeyboardInterrupt`, so no result is made of an interrupted run.
    ``stop`` must make ``call`` return soon (CP-SAT's ``stop_search``, pysat's
    ``interrupt``). An exception of ``call`` is raised here.
    """
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = call()
        except BaseException as error:  # handed to the caller's thread below
            outcome["error"] = error

    worker = threading.Thread(target=target, name="cpqueens-solver", daemon=True)
    stopped = False
    worker.start()
    try:
        while worker.is_alive():
            left = run.remaining()
            if left is None or stopped:
                worker.join(0.1)
            elif left > 0:
                worker.join(min(0.1, left))
            else:
                worker.join(grace)  # the solver's own time limit acts first
                if worker.is_alive():
                    stopped = True
                    run.mark_timed_out()
                    stop()
    except KeyboardInterrupt:
        stop()
        worker.join()
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


@contextlib.contextmanager
def watched(stop: Callable[[], None], run: SearchRun, *, grace: float = 0.5) -> Iterator[None]:
    """Call ``stop()`` if Ctrl-C or the deadline comes while a native call runs here.

    For a solver that must run on the caller's thread (CP-SAT aborts the process when
    Ctrl-C reaches it on another thread) and that does not look at Python's signals
    itself: a watcher thread learns of SIGINT through :func:`signal.set_wakeup_fd`
    (Python's own C handler writes there at once, whatever the main thread is doing)
    and stops the solver; once the call returns, Python raises the pending
    :class:`KeyboardInterrupt` as usual. At the deadline plus ``grace`` the watcher
    stops the solver too and marks ``run`` timed out.
    """
    reader = writer = None
    previous = -1
    if threading.current_thread() is threading.main_thread():
        reader, writer = os.pipe()
        os.set_blocking(writer, False)
        try:
            previous = signal.set_wakeup_fd(writer, warn_on_full_buffer=False)
        except ValueError:  # a wakeup fd that cannot be set here: the clock only
            os.close(reader)
            os.close(writer)
            reader = writer = None
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            left = run.remaining()
            wait = 0.1 if left is None else max(0.0, min(0.1, left + grace))
            if reader is not None:
                ready, _, _ = select.select([reader], [], [], wait)
                if ready and signal.SIGINT in os.read(reader, 64):
                    stop()
                    return
            else:
                done.wait(wait)
            late = run.deadline is not None and time.monotonic() >= run.deadline + grace
            if late and not done.is_set():
                run.mark_timed_out()
                stop()
                return

    watcher = threading.Thread(target=watch, name="cpqueens-watch", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        if writer is not None:
            os.write(writer, b"\0")  # wake the watcher from its select at once
        watcher.join()
        if writer is not None:
            signal.set_wakeup_fd(previous)
            os.close(reader)
            os.close(writer)


def check_solution(values: Iterable[int], problem: Problem, solver: str) -> Solution:
    """Return the solver's assignment as a tuple once it is known to solve ``problem``.

    A solver that hands back anything else (a wrong model, a lost fixed queen) gets a
    :class:`~cpqueens.errors.SolverError` naming it, never a place in a Result.
    ``values`` may be a numpy array: a large one is checked as it is (see
    :func:`~cpqueens.board.is_valid`) and only then made a tuple of ints. Only the
    fixed queens that are set and the blocked squares are looked at one by one,
    never every row, so a board of millions of rows is checked in vector operations.

    >>> check_solution([1, 3, 0, 2], Problem(4, (None, None, None, None)), "demo")
    (1, 3, 0, 2)
    >>> import numpy
    >>> check_solution(numpy.array([2, 0, 3, 1]), Problem(4, (2, None, None, None)), "demo")
    (2, 0, 3, 1)
    """
    n = problem.n
    if hasattr(values, "tolist") and getattr(values, "ndim", None) == 1:
        rows = len(values)  # type: ignore[arg-type]
        if rows > NUMPY_CHECK_N:
            # Checked as an array first: no tuple of Python ints is made of a wrong one.
            valid = is_valid(values, n)  # type: ignore[arg-type]
            solution = tuple(values.tolist()) if valid else ()  # type: ignore[attr-defined]
        else:
            solution = tuple(values.tolist())  # type: ignore[attr-defined]
            valid = is_valid(solution, n)
    else:
        solution = tuple(values)
        rows = len(solution)
        valid = is_valid(solution, n)
    if valid and problem.fixed.count(None) != n:  # a C-level look, not has_fixed's loop
        # Only the rows whose queen is fixed come out to Python.
        is_set = map(operator.is_not, problem.fixed, itertools.repeat(None))
        pairs = itertools.compress(enumerate(problem.fixed), is_set)
        valid = all(solution[row] == want for row, want in pairs)
    if valid and problem.blocked:
        valid = not any(solution[row] == column for row, column in problem.blocked)
    if valid:
        return solution
    shown = repr(solution) if rows <= 32 else f"a board of {rows:,} rows"
    raise SolverError(
        f"{solver} returned {shown}, which is not a solution of the {n}-queens "
        "problem with the fixed queens and blocked squares given"
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
