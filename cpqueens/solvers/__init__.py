"""The backend registry: the one place where backend names are defined.

``REGISTRY`` maps each name to its backend object, in the order
:func:`cpqueens.backends` lists them. Tests and the cross-check take their list of
backends from here, so a backend registered here is tested everywhere at once.

Each backend lives in the module of its own name (``cpqueens.solvers.cpmpy`` holds
``cpmpy``, ``cpqueens.solvers.random`` holds ``random``), except the CodeProject
tree article's ``tree``, in ``cpqueens.solvers.nodetree``, so that it is not taken for the decision
trees of :mod:`cpqueens.trees`. ``ace``, ``bitmask``, ``exactcover``, ``minconflicts``,
``minizinc``, ``qs`` and ``sat`` are folders of several modules.

Map: what every backend shares: ``base`` (the backend contract: what a backend declares
it can do, and the one method it implements), ``problem`` (the ``Problem`` a backend is
given), ``run`` (the ``SearchRun`` it reports to: effort, deadline, whether it is whole),
``guards`` (what a backend refuses), ``stopping`` (a native solver stopped at the
deadline or on Ctrl-C), ``provenance`` (where a solver comes from, its version, what
installs it), ``installed`` (the solvers from elsewhere found here), ``_candidates`` (the
squares a row-by-row backtracker tries in each row), ``_domains`` (each row's columns at
once, for the backends that give every row a domain). The hand-written backends of the
articles: ``recursive`` (column-by-column recursive depth-first search), ``stack``
(backtracking over an array used as a stack, with bit masks), ``nodetree`` (a tree of
position nodes with parent pointers), ``random`` (row-by-row random choice with per-row
exclusion lists); then ``propagate`` (backtracking on the propagation engine's bit-mask
domains) and ``construct`` (one solution of any size in closed form, without search).
The solvers from elsewhere: ``cpsat`` (OR-Tools CP-SAT), ``constraint``
(python-constraint), ``choco`` (Choco, through pychoco), ``cpmpy`` (one cpmpy model, solved
by any solver cpmpy drives), ``sat`` (the instance's CNF solved by python-sat's SAT
solvers), ``minizinc`` (a MiniZinc model solved by the MiniZinc toolchain's solvers),
``ace`` (ACE, the XCSP3 reference solver, run as a Java program). The compiled backends:
``bitmask`` (bit-parallel search and counting with start constellations),
``exactcover`` (n-queens as exact cover, Knuth's Algorithm X on bitsets),
``minconflicts`` (Minton et al.'s min-conflicts local search), ``qs`` (Sosic and Gu's
conflict-minimising local search).
"""

from __future__ import annotations

import time

from ..errors import UnknownBackendError
from .ace.backend import AceBackend
from .base import Backend, BackendInfo
from .bitmask import BitmaskBackend
from .choco import ChocoBackend
from .constraint import ConstraintBackend
from .construct import ConstructBackend
from .cpmpy import CpmpyBackend
from .cpsat import CPSatBackend
from .exactcover import ExactCoverBackend
from .minconflicts import MinConflictsBackend
from .minizinc.backend import MiniZincBackend
from .nodetree import TreeBackend
from .problem import Problem
from .propagate import PropagationBackend
from .qs import QSBackend
from .random import RandomizedBackend
from .recursive import RecursiveBackend
from .run import SearchRun
from .sat.backend import SatBackend
from .stack import StackBackend

REGISTRY: dict[str, Backend] = {
    backend.name: backend
    for backend in (
        RecursiveBackend(),
        StackBackend(),
        TreeBackend(),
        RandomizedBackend(),
        CPSatBackend(),
        ConstraintBackend(),
        BitmaskBackend(),
        PropagationBackend(),
        ChocoBackend(),
        SatBackend(),
        CpmpyBackend(),
        MiniZincBackend(),
        ExactCoverBackend(),
        MinConflictsBackend(),
        QSBackend(),
        ConstructBackend(),
        AceBackend(),
    )
}


def get_backend(name: str) -> Backend:
    """Return the backend registered under ``name``.

    Raises :class:`~cpqueens.errors.UnknownBackendError`, listing the valid names,
    for any other value.
    """
    try:
        return REGISTRY[name]
    except (KeyError, TypeError):
        raise UnknownBackendError(name, REGISTRY) from None


def listing_backends(n: int) -> list[str]:
    """The backends that list every solution of a board of size ``n``, registry order.

    >>> listing_backends(30_000)
    []
    """
    return [
        name
        for name, backend in REGISTRY.items()
        if backend.exhaustive and backend.enumerates and (backend.largest_n() or n) >= n
    ]


def load_kernels() -> dict[str, float]:
    """Compile the kernels of every compiled backend usable here, or load them from
    numba's on-disk cache; return the seconds each backend took.

    The first call of a compiled backend in a new environment compiles its kernels
    (seconds); run this once after installing and no call pays for it:
    ``python -c "import cpqueens.solvers as s; print(s.load_kernels())"``.
    See :meth:`Backend.load_kernels`.
    """
    seconds = {}
    for name, backend in REGISTRY.items():
        if backend.compiled and backend.is_available():
            started = time.perf_counter()
            backend.load_kernels()
            seconds[name] = time.perf_counter() - started
    return seconds


__all__ = [
    "REGISTRY",
    "Backend",
    "BackendInfo",
    "Problem",
    "SearchRun",
    "get_backend",
    "listing_backends",
    "load_kernels",
]
