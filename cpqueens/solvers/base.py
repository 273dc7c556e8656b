"""The backend contract: what a backend declares it can do, and the one method it implements.

A backend is an object with a :meth:`Backend.search` generator that yields every
solution of a :class:`~cpqueens.solvers.problem.Problem`, while counting its effort
into a :class:`~cpqueens.solvers.run.SearchRun`. Everything else (``solve``,
``count``, limits, timing, the :class:`~cpqueens.Result`) is built on that one lazy
iterator by :mod:`cpqueens.api`.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..board import Solution
from ..errors import BackendUnavailableError
from .guards import MAX_RECURSION_DEPTH, check_choice, ensure_recursion_depth
from .problem import Problem
from .provenance import Provenance, program_version
from .run import SearchRun


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
    #: Where it comes from: cpqueens' own Python code, a Python package, the programs
    #: of the system and the jar it runs.
    origin: str = "cpqueens"
    #: The versions of what it runs here (``"ortools 9.12.4544"``), None when unknown.
    version: str | None = None
    #: The command that installs what it needs (pip, apt-get), None for nothing.
    install: str | None = None
    #: The command that installs only what is missing here, None when nothing is.
    missing: str | None = None


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
    #: Options that must not change the answer, each with the values a bug hunt tries
    #: (``cpqueens fuzz``'s ``options`` relation: the same instance, another setting).
    neutral_options: ClassVar[tuple[tuple[str, tuple[Any, ...]], ...]] = ()
    #: The programs of the system it runs, each with the command that installs it:
    #: ``(("minizinc", "apt-get install minizinc"),)``.
    programs: ClassVar[tuple[tuple[str, str], ...]] = ()

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

    def solvers_here(self) -> tuple[str, ...]:
        """The values of its ``solver=`` option that run on this machine (may import
        the solver packages, unlike :meth:`solver_choices`); empty for a backend that
        drives a single solver."""
        return tuple(name for name, need in self.solver_choices().items() if need is None)

    def solver_version(self) -> str | None:
        """The version of the solver it runs, when that is not its package's (a jar's:
        ``"ACE 2.6"``); None by default."""
        return None

    @functools.cached_property
    def provenance(self) -> Provenance:
        """Where it comes from, the versions of what it runs here, and the commands that
        install them; the programs asked their ``--version`` once, with a short timeout.

        >>> from cpqueens.solvers import REGISTRY
        >>> REGISTRY["stack"].provenance.origin, REGISTRY["stack"].provenance.install
        ("cpqueens' own Python code", None)
        """
        from .._version import __version__

        own = self.solver_version()
        versions = [own] if own else []
        missing: list[str] = []
        if self.package is None:
            origin, installs = ["cpqueens' own Python code"], []
            versions.append(f"cpqueens {__version__}")
        else:
            origin, installs = (
                [f"Python package {self.package}"],
                [f"pip install {self.install_hint}"],
            )
            found = self.package_version
            versions.append(f"{self.package} {found}" if found else f"{self.package} missing")
            if not self.is_available():
                missing.append(installs[0])
        for program, install in self.programs:
            origin.append(f"program {program}")
            installs.append(install)
            found = program_version(program)
            named = f"{program} (program)" if program == self.package else program
            versions.append(f"{named} {found}" if found else f"{named} missing")
            if not found:
                missing.append(install)
        return Provenance(
            " + ".join(origin),
            ", ".join(versions),
            " && ".join(installs) or None,
            " && ".join(missing) or None,
        )

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
            origin=self.provenance.origin,
            version=self.provenance.version,
            install=self.provenance.install,
            missing=self.provenance.missing,
        )

    def __repr__(self) -> str:
        return f"<cpqueens backend {self.name!r}>"
