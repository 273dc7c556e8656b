"""Which pysat solvers run here, and what each can do: take at-most-one constraints
natively, be interrupted in a call. Asked once each (a solver is started to see)."""

from __future__ import annotations

import functools

#: The solvers pysat ships (``pysat.solvers.SolverNames``).
SOLVERS = (
    "cadical103",
    "cadical153",
    "cadical195",
    "cadical300",
    "cryptosat",
    "ergo",
    "gluecard3",
    "gluecard4",
    "glucose3",
    "glucose4",
    "glucose42",
    "kissat404",
    "lingeling",
    "maplechrono",
    "maplecm",
    "maplesat",
    "mergesat3",
    "minicard",
    "minisat22",
    "minisatgh",
    "minisatep",
)


@functools.cache
def usable_solvers() -> tuple[str, ...]:
    """The pysat solvers that start here (a name pysat knows may be left out of its build)."""
    from pysat.solvers import Solver

    usable = []
    for name in SOLVERS:
        try:
            Solver(name=name).delete()
        except Exception:  # pysat's NoSuchSolverError, or a missing optional module
            continue
        usable.append(name)
    return tuple(usable)


@functools.cache
def cardinality_solvers() -> tuple[str, ...]:
    """The usable solvers that take at-most-one constraints natively."""
    from pysat.solvers import Solver

    able = []
    for name in usable_solvers():
        solver = Solver(name=name)
        if solver.supports_atmost():
            able.append(name)
        solver.delete()
    return tuple(able)


@functools.cache
def interruptible(name: str) -> bool:
    """Whether pysat can interrupt a call of this solver (CaDiCaL, for one, cannot)."""
    from pysat.solvers import Solver

    solver = Solver(name=name)
    try:
        solver.interrupt()
        solver.clear_interrupt()
    except NotImplementedError:
        return False
    finally:
        solver.delete()
    return True
