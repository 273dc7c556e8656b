"""Which pysat solvers run here, what each can do (take at-most-one constraints
natively, be interrupted in a call; asked once each, a solver is started to see), and
how the ``sat`` backend calls them where the deadline and Ctrl-C can stop them.

An enumeration makes thousands of short calls: CaDiCaL's are made through its own
calls in pysat's extension (:func:`core_calls`), each in the caller's thread under a
conflict budget, and only a call past the budget runs where it can be stopped
(:func:`enumeration_calls`, :func:`solve_call`).
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from ...errors import SolverError
from ..run import SearchRun
from ..stopping import run_stoppable

#: Solvers that pysat can neither interrupt nor give a budget and call again.
UNSTOPPABLE = ("kissat404", "lingeling")
#: Most conflicts per call of a solver that is stopped between calls (CaDiCaL); the
#: slices shrink or grow to last about SLICE_SECONDS each.
SLICE_CONFLICTS = 20_000
SLICE_SECONDS = 0.2
#: Conflicts a call may take in the caller's thread, on a formula of at most so many
#: variables (a board of about 32): a few milliseconds at most.
QUICK_CONFLICTS, QUICK_VARIABLES = 500, 4096
#: Calls in the caller's thread between two looks at the clock: each is bounded by
#: QUICK_CONFLICTS, so the deadline is seen within a few tens of milliseconds.
CLOCK_CALLS = 8

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


#: The solvers whose own calls in pysat's extension are used, beside CaDiCaL's: the
#: attribute of pysat's solver object that holds the solver, and the calls' prefix.
CORES = {"glucose4": ("glucose", "glucose41"), "minisat22": ("minisat", "minisat22")}


class CoreCalls(NamedTuple):
    """A solver's own calls in pysat's extension, bound to one solver.

    They skip pysat's two Python layers (``Solver`` and its solver class) per call,
    and pysat's handling of SIGINT in the main thread (a ``longjmp`` out of the
    solver, which leaves CaDiCaL in a state that aborts the process): each call is
    made as from any other thread, and Ctrl-C waits for it to return.
    """

    #: ``solve_limited(assumptions)``: True, False, or None once the budget is spent.
    solve_limited: Callable[[list[int]], bool | None]
    #: ``conf_budget(conflicts)``: the conflicts the next call may take; -1: no limit.
    conf_budget: Callable[[int], None]
    #: ``get_model()``: the last model, a literal per variable, auxiliaries included.
    get_model: Callable[[], list[int]]
    #: ``add_clause(literals)``.
    add_clause: Callable[[list[int]], Any]


def core_calls(solver: Any, name: str) -> CoreCalls | None:
    """The bound core calls of a pysat ``Solver`` named ``name``: CaDiCaL, and the
    solvers of :data:`CORES`; None for any other (or a pysat that names them otherwise)."""
    import pysolvers

    cadical = name.startswith("cadical")
    attribute, prefix = ("cadical", name) if cadical else CORES.get(name, ("", ""))
    handle = getattr(solver.solver, attribute, None) if attribute else None
    names = [f"{prefix}_{call}" for call in ("solve_lim", "cbudget", "model", "add_cl")]
    if handle is None or not all(hasattr(pysolvers, call) for call in names):
        return None
    solve, budget, model, add = (getattr(pysolvers, call) for call in names)
    if attribute == "cadical":

        def solve_limited(assumptions: list[int]) -> bool | None:
            status = solve(handle, assumptions, 0)  # 1, -1, or 0 for the budget spent
            return None if status == 0 else status > 0

    else:

        def solve_limited(assumptions: list[int]) -> bool | None:
            return solve(handle, assumptions, 0, 0)  # no interrupt expected

    bound = functools.partial
    return CoreCalls(solve_limited, bound(budget, handle), bound(model, handle), bound(add, handle))


#: The solver calls an enumeration makes: solve under assumptions (False when
#: unsatisfiable or out of time), the last model, add a clause.
Calls = tuple[Callable[[list[int]], bool], Callable[[], list[int]], Callable[[list[int]], Any]]


def enumeration_calls(solver: Any, name: str, run: SearchRun, label: str) -> Calls:
    """The solve, model and add-clause calls of ``solver`` for an enumeration.

    CaDiCaL, Glucose 4 and MiniSat 2.2 on a board of at most :data:`QUICK_VARIABLES`
    variables: each call runs here first, through the solver's core calls
    (:func:`core_calls`), bounded by :data:`QUICK_CONFLICTS` conflicts (a few
    milliseconds: Ctrl-C waits for them); only a call past the budget goes on where
    the deadline and Ctrl-C can stop it (:func:`solve_call`, a thread of its own).
    The clock is read every :data:`CLOCK_CALLS` calls, not at each. Other solvers:
    every call through :func:`solve_call`.
    """
    core = core_calls(solver, name)
    if core is None or solver.nof_vars() > QUICK_VARIABLES or name in UNSTOPPABLE:
        return (
            lambda assumptions: solve_call(solver, name, assumptions, run, label),
            solver.get_model,
            solver.add_clause,
        )
    budget, solve_limited = core.conf_budget, core.solve_limited
    made = 0

    def solve(assumptions: list[int]) -> bool:
        nonlocal made
        made += 1
        if made % CLOCK_CALLS == 1 and run.deadline is not None and run.remaining() == 0:
            run.mark_timed_out()
            return False
        budget(QUICK_CONFLICTS)
        found = solve_limited(assumptions)
        if found is not None:
            return found
        budget(-1)  # MiniSat's and Glucose's budgets outlast the call
        return solve_call(solver, name, assumptions, run, label)

    return solve, core.get_model, core.add_clause


def solve_call(solver: Any, name: str, assumptions: list[int], run: SearchRun, label: str) -> bool:
    """One solver call under ``assumptions``; False when unsatisfiable or out of time.

    The call runs where the deadline and Ctrl-C can stop it (:func:`run_stoppable`):
    a solver pysat can interrupt is interrupted; CaDiCaL cannot be, so it solves in
    slices of :data:`SLICE_CONFLICTS` conflicts, keeping what it learnt, and the
    stop is seen between two slices. Kissat and Lingeling can be neither: with a
    time limit they run in a child process
    (:func:`~cpqueens.solvers.sat.backend.models_in_child`); without one, Ctrl-C waits for
    their current call.
    """
    remaining = run.remaining()
    if remaining is not None and remaining <= 0:
        run.mark_timed_out()
        return False
    halted = threading.Event()
    if interruptible(name):

        def call() -> bool | None:
            return solver.solve_limited(assumptions=assumptions, expect_interrupt=True)

        def stop() -> None:
            halted.set()
            solver.interrupt()

    elif name in UNSTOPPABLE:

        def call() -> bool | None:
            return solver.solve(assumptions=assumptions)

        stop = halted.set
    else:

        def call() -> bool | None:
            # Slices as long as SLICE_SECONDS or so: a large board makes each conflict
            # slow (n = 100: 20,000 conflicts took 1.5 s), a small one fast.
            budget = SLICE_CONFLICTS // 16
            while not halted.is_set():
                solver.conf_budget(budget)
                began = time.monotonic()
                found = solver.solve_limited(assumptions=assumptions)
                if found is not None:
                    return found
                took = time.monotonic() - began
                if took < SLICE_SECONDS / 2:
                    budget = min(budget * 2, SLICE_CONFLICTS)
                elif took > SLICE_SECONDS:
                    budget = max(budget // 2, 100)
            return None

        stop = halted.set
    try:
        found = run_stoppable(call, stop, run, grace=0.0)
    except KeyboardInterrupt:
        raise
    except Exception as error:
        raise SolverError(f"{label} failed: {error}") from error
    if interruptible(name):
        solver.clear_interrupt()
    if found is None or halted.is_set():
        run.mark_timed_out()
        return False
    return bool(found)
