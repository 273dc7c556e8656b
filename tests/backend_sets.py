"""The sets of backends the tests run over, read from the registry, defined here once.

Each set lists every registered backend of its kind, whether or not it can run on this
machine: a test over a set gives each backend a case of its own (:func:`params`), and a
backend that cannot run here is a skip of its own that says what it needs, never a case
quietly dropped. CI turns such skips into failures (``CPQUEENS_STRICT_SKIPS``, see
conftest.py).
"""

from __future__ import annotations

import pytest

from cpqueens.solvers import REGISTRY

#: Backends that search the whole space: every solution listed, none left means none.
#: A local search or a construction (``exhaustive = False``) finds solutions but never
#: proves there is none, and lists only what ``limit`` asks for: it has tests of its own.
EXHAUSTIVE = [name for name, backend in REGISTRY.items() if backend.exhaustive]

#: The exhaustive backends that list solutions (not only count them): the ones the
#: cross-check and the CLI's defaults compare.
ENUMERATING = [name for name in EXHAUSTIVE if REGISTRY[name].enumerates]

#: Backends that find solutions without searching the whole space.
FINDERS = [name for name in REGISTRY if name not in EXHAUSTIVE]


def examples(name: str, default: int) -> int:
    """How many examples a property test draws for backend ``name``: ``default``, or a
    fifth of it for a backend that starts a program at every call and pays its start
    each time (its ``start_seconds``: ACE's JVM, most of a second of CPU)."""
    if getattr(REGISTRY[name], "start_seconds", 0.0) >= 0.5:
        return max(1, default // 5)
    return default


def missing(name: str) -> str | None:
    """What backend ``name`` needs and this machine lacks, or None when it can run here."""
    backend = REGISTRY[name]
    if backend.is_available():
        return None
    try:
        backend.require()
    except ImportError as error:
        return str(error)
    return f"backend {name!r} needs something this machine lacks (is_available() is false)"


def usable(name: str) -> str:
    """``name``, or skip the test saying what is missing when the backend cannot run here."""
    reason = missing(name)
    if reason is not None:
        pytest.skip(reason)
    return name


def case(name: str, *values, id: str | None = None):
    """A ``pytest.param`` of backend ``name`` (and ``values``), marked to skip, saying
    what is missing, when the backend cannot run here."""
    reason = missing(name)
    marks = [pytest.mark.skip(reason=reason)] if reason else []
    return pytest.param(name, *values, marks=marks, id=id or name)


def params(names) -> list:
    """One case per backend of ``names``: see :func:`case`."""
    return [case(name) for name in names]


def solver_params(names) -> list:
    """One case ``(backend, solver)`` per solver each backend of ``names`` takes here
    (its ``solver=`` option, :meth:`~cpqueens.solvers.base.Backend.solvers_here`);
    a backend that cannot run here is one skip saying what it needs."""
    cases = []
    for name in names:
        if "solver" not in REGISTRY[name].options:
            continue
        if missing(name) is not None:
            cases.append(case(name, None, id=f"{name}-any"))
            continue
        for solver in REGISTRY[name].solvers_here():
            cases.append(pytest.param(name, solver, id=f"{name}-{solver}"))
    return cases


def present(names) -> list[str]:
    """The backends of ``names`` that can run here, in the registry's order."""
    return [name for name in names if missing(name) is None]


def skip_if_any_missing(names, checked: str) -> None:
    """Call after a test checked ``checked`` with :func:`present` backends: it becomes a
    skip naming the backends it had to leave out, if any (a check over a machine's
    backends that lacks some is not the whole check)."""
    absent = {name: missing(name) for name in names if missing(name) is not None}
    if absent:
        pytest.skip(
            f"{checked} checked without {', '.join(absent)}: "
            + "; ".join(reason for reason in absent.values())
        )
