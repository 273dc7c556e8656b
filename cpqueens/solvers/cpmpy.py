"""One cpmpy model, solved by any solver cpmpy drives (``solver=``).

The model is the row model of the other CP backends: ``q[r] = intvar(0, n - 1)``,
``AllDifferent`` on ``q``, on ``q[r] + r`` and on ``q[r] - r``; a fixed queen is an
equality ``q[r] == c``, a blocked square a disequality ``q[r] != c``. cpmpy hands it
to the solver named by ``solver=`` (``cpmpy.SolverLookup``: ``ortools`` by default,
``choco``, ``exact``, ``z3``, ``pysat``, ``pumpkin``, ... and ``"pysat:glucose4"``
style names for a subsolver) and enumerates with the solver's ``solveAll``, passing
``limit`` as its ``solution_limit`` and the time left as its ``time_limit``. Some
solvers enumerate natively (OR-Tools, Choco); for the others cpmpy adds a clause
forbidding each solution and solves again, which is slower.

``solveAll`` returns when it is done, so the solutions are collected, sorted and
then yielded: a complete enumeration comes out in lexicographic order.

:func:`cpqueens.backends` lists cpmpy's solvers with what installs each, read from
cpmpy's own package metadata (its extras) so that listing imports nothing; the
``solver=`` given at a call is checked against ``cpmpy.SolverLookup`` itself.
"""

from __future__ import annotations

import functools
import re
import shutil
import warnings
from collections.abc import Iterator
from typing import Any

from ..board import Solution
from ..errors import SolverError
from ..programs.running import program_says
from .base import Backend
from .guards import check_choice, check_solution
from .problem import Problem
from .run import SearchRun
from .stopping import signal_handlers_kept

DEFAULT_SOLVER = "ortools"
#: cpmpy's extras that are not solvers.
NOT_SOLVERS = ("all", "test", "type", "docs", "xcsp3")
#: Solvers cpmpy lists that cannot enumerate the solutions of a satisfaction problem.
CANNOT_ENUMERATE = {"rc2": "a MaxSAT solver, it needs an objective"}
#: The oldest MiniZinc that cpmpy 1.1's minizinc solver accepts.
MINIZINC_FOR_CPMPY = (2, 8, 2)
#: What a solver needs beyond its pip package, for the ones that need more.
NEEDS_MORE = {
    "minizinc": "the MiniZinc toolchain >= 2.8.2, e.g. from minizinc.org",
    "pysat": "pip install python-sat[pb] pypblib, for the pseudo-Boolean constraints",
}


class CpmpyBackend(Backend):
    """The row model in cpmpy, enumerated by ``solveAll`` of the solver named.

    Option ``solver``: a name ``cpmpy.SolverLookup`` knows and finds installed
    (default ``"ortools"``). ``stats`` holds the ``solver``, cpmpy's exit ``status``
    and ``solve_time`` (seconds) and the number of ``solutions`` it reported.

    >>> import cpqueens
    >>> result = cpqueens.solve(8, backend="cpmpy")
    >>> result.count, result.solutions[0], result.stats["status"]
    (92, (0, 4, 7, 5, 2, 6, 1, 3), 'OPTIMAL')
    >>> cpqueens.count(6, backend="cpmpy", solver="choco")
    4
    >>> cpqueens.count(8, backend="cpmpy", blocked=[(0, 0), (3, 3)])
    80

    See Also
    --------
    ChocoBackend : Choco driven directly through pychoco.
    CPSatBackend : OR-Tools CP-SAT driven directly, with row-prefix blocks.
    """

    name = "cpmpy"
    # The largest board taken: cpmpy's model translation cannot be stopped by the time limit.
    max_n = 2_000
    summary = "cpmpy: one model, any solver cpmpy finds installed (solver=...)"
    source = "cpmpy (cpmpy.Model, SolverLookup, solveAll)"
    requires = "cpmpy"
    install_hint = "cpmpy"
    lexicographic = False  # the order of a limited enumeration is the solver's
    supports_blocked = True
    options = ("solver",)

    def solver_choices(self) -> dict[str, str | None]:
        return {name: CANNOT_ENUMERATE.get(name, need) for name, need in _declared_solvers()}

    def check_options(self, options: dict[str, Any]) -> None:
        solver = options.get("solver", DEFAULT_SOLVER)
        if not self.is_available():
            return  # the call is refused next, naming the package to install
        usable, missing = _looked_up_solvers()
        base, _, sub = solver.partition(":") if isinstance(solver, str) else (solver, "", "")
        check_choice("cpmpy", "solver", base, usable, missing)
        if sub:
            check_choice("cpmpy", f"solver {base}:", sub, _subsolvers(base))

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        import cpmpy as cp

        name = problem.options.get("solver", DEFAULT_SOLVER)
        label = f"cpmpy's solver {name!r}"
        n = problem.n
        q = [cp.intvar(0, n - 1, name=f"q{r}") for r in range(n)]
        model = cp.Model(
            cp.AllDifferent(q),
            cp.AllDifferent([q[r] + r for r in range(n)]),
            cp.AllDifferent([q[r] - r for r in range(n)]),
            [q[r] == column for r, column in enumerate(problem.fixed) if column is not None],
            [q[r] != column for r, column in sorted(problem.blocked)],
        )
        found: list[tuple[int, ...]] = []
        try:
            with warnings.catch_warnings(), signal_handlers_kept():
                # cpmpy warns that enumerating leaves the solver object spent; it is.
                warnings.simplefilter("ignore")
                solver = cp.SolverLookup.get(name, model)
                # The solver's clock starts after the model was handed over to it.
                remaining = run.remaining()
                if remaining is not None and remaining <= 0.001:
                    run.mark_timed_out()
                    return
                settings = _interrupt_settings(name)
                if _enumerates_natively(solver):
                    solver.solveAll(
                        display=lambda: found.append(tuple(int(v.value()) for v in q)),
                        solution_limit=problem.limit,
                        time_limit=remaining,
                        **settings,
                    )
                    exit_status = solver.status().exitstatus.name
                else:
                    exit_status = _enumerate_by_nogoods(solver, q, problem.limit, run, found)
        except Exception as error:
            # Exact catches SIGINT itself and raises this: it is Ctrl-C, not a failure.
            if "interrupted by user" in str(error):
                raise KeyboardInterrupt from error
            raise SolverError(f"{label} failed: {type(error).__name__}: {error}") from error
        run.stats.update(
            solver=name,
            status=exit_status,
            solve_time=solver.status().runtime,
            solutions=len(found),
        )
        solutions = sorted(check_solution(s, problem, label) for s in found)
        ended_by_limit = problem.limit is not None and len(found) >= problem.limit
        if exit_status not in ("OPTIMAL", "UNSATISFIABLE") and not ended_by_limit:
            # FEASIBLE without reaching the limit, or UNKNOWN: the time limit stopped it.
            run.mark_timed_out()
        yield from solutions


def _enumerates_natively(solver: Any) -> bool:
    """Whether the solver has a ``solveAll`` of its own (OR-Tools, Choco, Exact, ...)."""
    from cpmpy.solvers.solver_interface import SolverInterface

    return type(solver).solveAll is not SolverInterface.solveAll


def _enumerate_by_nogoods(
    solver: Any, q: list[Any], limit: int | None, run: SearchRun, found: list[tuple[int, ...]]
) -> str:
    """Every solution by solving again with each one forbidden; cpmpy's exit status.

    cpmpy's own loop for the solvers without a native ``solveAll`` (SAT through
    pysat, Z3, Pumpkin) counts only the solver's time against the limit, not the time
    it spends adding each solution's nogood, and overran a limit of 4 s by 4 s at
    n=10; here the time left is read from the wall clock before every solve.
    """
    import cpmpy as cp

    while limit is None or len(found) < limit:
        remaining = run.remaining()
        if remaining is not None and remaining <= 0.001:
            return "UNKNOWN"
        if not solver.solve(time_limit=remaining):
            # UNSATISFIABLE: no solution is left, every one was found.
            status = solver.status().exitstatus.name
            return "OPTIMAL" if status == "UNSATISFIABLE" and found else status
        found.append(tuple(int(v.value()) for v in q))
        solver.add(cp.any([v != v.value() for v in q]))
    return "FEASIBLE"


def _interrupt_settings(name: str) -> dict[str, Any]:
    """Solver settings that let Ctrl-C reach Python instead of quietly ending the search.

    CP-SAT and Z3 catch SIGINT themselves and return what they had, which would pass
    for a search stopped by its time limit; without their handlers the interrupt
    raises :class:`KeyboardInterrupt` at the next solution, as everywhere else.
    """
    base = name.split(":")[0]
    if base == "ortools":
        return {"catch_sigint_signal": False}
    if base == "z3":
        import z3

        z3.set_param("ctrl_c", False)
    return {}


@functools.cache
def _declared_solvers() -> tuple[tuple[str, str | None], ...]:
    """cpmpy's solvers as its extras declare them: name -> None if installed, else the need.

    Reads package metadata only (no import; for MiniZinc, asks the program its
    version). An extra counts as installed when every distribution it requires is
    installed, whatever the version: cpmpy's pins lag behind (it asks for
    pychoco < 0.3, and pychoco 0.4 works).
    """
    import importlib.metadata  # here: it costs tens of milliseconds at import cpqueens

    requirements = importlib.metadata.requires("cpmpy") or []
    extras: dict[str, list[str]] = {}
    for requirement in requirements:
        marker = re.search(r'extra\s*==\s*"([^"]+)"', requirement)
        if marker is None:
            continue
        extra = marker.group(1)
        if extra in NOT_SOLVERS or extra.startswith("io-"):
            continue
        extras.setdefault(extra, []).append(re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0])
    # Two solvers need more than their extra brings: say so rather than list them usable.
    extras.setdefault("pysat", []).extend(["pindakaas", "pypblib"])
    choices = []
    for extra, packages in extras.items():
        absent = [p for p in dict.fromkeys(packages) if not _installed(p)]
        need = "pip install " + " ".join(absent) if absent else None
        if extra == "minizinc" and need is None:
            need = _minizinc_need()
        choices.append((extra, need))
    return tuple(choices)


def _minizinc_need() -> str | None:
    """None when the MiniZinc program cpmpy 1.1 can drive (2.8.2 or later) is here."""
    program = shutil.which("minizinc")
    if program is None:
        return NEEDS_MORE["minizinc"]
    out = program_says([program, "--version"])
    if out is None:
        return NEEDS_MORE["minizinc"]
    found = re.search(r"version (\d+)\.(\d+)\.(\d+)", out)
    if found is None or tuple(map(int, found.groups())) < MINIZINC_FOR_CPMPY:
        version = ".".join(found.groups()) if found else "unknown"
        return f"{NEEDS_MORE['minizinc']} (found {version})"
    return None


def _installed(distribution: str) -> bool:
    import importlib.metadata

    try:
        importlib.metadata.distribution(distribution)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


@functools.cache
def _looked_up_solvers() -> tuple[tuple[str, ...], dict[str, str]]:
    """The solvers ``cpmpy.SolverLookup`` finds usable, and the others with their need."""
    import cpmpy as cp

    declared = dict(_declared_solvers())
    usable, missing = [], {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # cpmpy warns about each solver it cannot use
        for name, cls in cp.SolverLookup.base_solvers():
            try:
                ready = bool(cls.supported())
            except Exception:  # a solver whose own check fails is not usable
                ready = False
            if name in CANNOT_ENUMERATE:
                missing[name] = CANNOT_ENUMERATE[name]
            elif ready:
                usable.append(name)
            else:
                missing[name] = NEEDS_MORE.get(name) or declared.get(name) or "not installed"
    return tuple(usable), missing


@functools.cache
def _subsolvers(base: str) -> tuple[str, ...]:
    import cpmpy as cp

    cls = cp.SolverLookup.lookup(base)
    names = getattr(cls, "solvernames", None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return tuple(names()) if names is not None else ()
