"""The MiniZinc model shipped with cpqueens, run through the ``minizinc`` package.

``cpqueens/solvers/models/queens.mzn`` is an ordinary MiniZinc model (one can open it
in the MiniZinc IDE): one variable per row, ``alldifferent`` on the columns and on
both diagonal families, the fixed queens as data (``-1`` for a free row), the blocked
squares as data too (``nblocked`` and an ``nblocked`` by 2 array ``blocked`` of
0-based ``(row, column)`` pairs, each a constraint ``q[row] != column``), and a
search annotation chosen by the data: rows in order and columns from the left
(``search="input"``: a complete enumeration comes out in lexicographic order), or the
row with the fewest columns left first (``search="first-fail"``: a first solution for
n=200 in seconds). ``"auto"`` (the default) takes the first without a ``limit`` and
the second with one, like the cpsat and choco backends. The ``minizinc`` Python
package compiles it with the MiniZinc toolchain and runs the solver named by
``solver=`` (Gecode by default; any solver ``minizinc --solvers`` lists that can
enumerate, that is whose configuration accepts ``-a``).

Every solution comes from one run (``-a``; ``limit`` becomes ``-n``, ``time_limit``
the run's time limit), read when the run ends, so the solutions are sorted and then
yielded. ``stats`` holds the statistics the solver prints (Gecode: ``nodes``,
``failures``, ``propagations``, ``peakDepth``, ``solveTime``...), times in seconds.

The model's header comment gives its data format, so that a ``.dzn`` file written
elsewhere runs from the command line (``minizinc --solver gecode -a queens.mzn
instance.dzn``).

The backend needs the ``minizinc`` Python package and the MiniZinc toolchain on the
``PATH``: Debian and Ubuntu ship both the toolchain and Gecode in the package
``minizinc`` (``apt-get install minizinc``); elsewhere see https://www.minizinc.org.
"""

from __future__ import annotations

import datetime
import functools
import importlib.resources
import importlib.util
import shutil
import warnings
from collections.abc import Iterator
from typing import Any

from ..board import Solution
from ..errors import BackendUnavailableError, SolverError
from ..parallel.processes import kill_tree
from .base import Backend
from .guards import check_choice, check_solution
from .problem import Problem
from .run import SearchRun
from .stopping import run_stoppable

DEFAULT_SOLVER = "gecode"
SEARCHES = ("auto", "input", "first-fail")
INSTALL_TOOLCHAIN = (
    "backend 'minizinc' needs the MiniZinc toolchain, and the 'minizinc' program is not "
    "on the PATH; install it with: apt-get install minizinc (Debian/Ubuntu, brings "
    "Gecode too), or from https://www.minizinc.org"
)


class MiniZincBackend(Backend):
    """queens.mzn compiled by MiniZinc and solved by Gecode or another MiniZinc solver.

    Options: ``solver``, a solver of ``minizinc --solvers`` that can list all
    solutions, by its short name (``"gecode"``) or its id (``"org.gecode.gecode"``);
    ``search``, ``"auto"``, ``"input"`` or ``"first-fail"`` (see the module).

    >>> import cpqueens
    >>> ready = next(i for i in cpqueens.backends() if i.name == "minizinc").available
    >>> result = cpqueens.solve(8, backend="minizinc") if ready else None
    >>> not ready or (result.count, result.solutions[0]) == (92, (0, 4, 7, 5, 2, 6, 1, 3))
    True
    >>> not ready or cpqueens.count(8, backend="minizinc", blocked=[(0, 0), (3, 3)]) == 80
    True

    See Also
    --------
    ChocoBackend : the same model on Choco, driven directly.
    """

    name = "minizinc"
    # The largest board taken: MiniZinc compiles the model before the solver's time limit starts.
    max_n = 10_000
    summary = "MiniZinc: the shipped queens.mzn compiled and solved by Gecode (solver=...)"
    source = "MiniZinc toolchain through the minizinc package (Instance.solve)"
    requires = "minizinc"
    install_hint = "minizinc"
    lexicographic = False  # sorted when complete; a limited run stops where the solver was
    supports_blocked = True
    options = ("solver", "search")

    def is_available(self) -> bool:
        return _has_package() and shutil.which("minizinc") is not None

    def require(self) -> None:
        if not _has_package():
            super().require()  # names the pip package
        if shutil.which("minizinc") is None:
            raise BackendUnavailableError(INSTALL_TOOLCHAIN)

    def check_options(self, options: dict[str, Any]) -> None:
        check_choice("minizinc", "search", options.get("search", "auto"), SEARCHES)
        solver = options.get("solver", DEFAULT_SOLVER)
        if not self.is_available():
            return  # the call is refused next, saying how to install MiniZinc
        usable, missing = _solvers()
        check_choice("minizinc", "solver", solver, usable, missing)

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        import minizinc

        tag = problem.options.get("solver", DEFAULT_SOLVER)
        label = f"MiniZinc with solver {tag!r}"
        remaining = run.remaining()
        if remaining is not None and remaining <= 0:
            run.mark_timed_out()
            return
        model = minizinc.Model(str(model_path()))
        driver = _tracked_driver()
        instance = minizinc.Instance(minizinc.Solver.lookup(tag), model, driver)
        instance["n"] = problem.n
        instance["fixed"] = [-1 if column is None else column for column in problem.fixed]
        instance["nblocked"] = len(problem.blocked)
        instance["blocked"] = [[row, column] for row, column in sorted(problem.blocked)]
        search = problem.options.get("search", "auto")
        if search == "auto":
            search = "input" if problem.limit is None else "first-fail"
        instance["fewest_first"] = search == "first-fail"
        limit = None if remaining is None else datetime.timedelta(seconds=remaining)

        def call() -> Any:
            with warnings.catch_warnings():
                # Debian's Gecode configuration overrides some library globals and
                # MiniZinc warns about it on every run: nothing the user can act on.
                warnings.simplefilter("ignore", minizinc.error.MiniZincWarning)
                if problem.limit is None:
                    return instance.solve(all_solutions=True, time_limit=limit)
                return instance.solve(nr_solutions=problem.limit, time_limit=limit)

        # In a helper thread, so that Ctrl-C and the deadline end MiniZinc at once:
        # minizinc-python answers an interrupt by asking MiniZinc to stop and waiting,
        # which has been seen to wait for good; here its processes are killed.
        try:
            result = run_stoppable(call, driver.kill, run)
        except minizinc.error.MiniZincError as error:
            if driver.killed:  # killed at the deadline: what it printed is lost
                run.mark_timed_out()
                return
            raise SolverError(f"{label} failed: {error}") from error
        status = result.status
        run.stats.update(
            solver=tag,
            search=search,
            status=status.name,
            **{key: _plain(value) for key, value in result.statistics.items()},
        )
        if status == minizinc.Status.ERROR:
            raise SolverError(f"{label} failed: status ERROR")
        found = result.solution or []
        if not isinstance(found, list):  # a single solution comes unwrapped
            found = [found]
        solutions = sorted(check_solution(s.q, problem, label) for s in found)
        complete = status in (minizinc.Status.ALL_SOLUTIONS, minizinc.Status.UNSATISFIABLE)
        if not complete and (problem.limit is None or len(solutions) < problem.limit):
            run.mark_timed_out()  # ended without proving there is nothing more: the clock
        yield from solutions


@functools.cache
def _tracked_driver_type() -> type:
    import minizinc

    class TrackedDriver(minizinc.Driver):
        """MiniZinc's driver, keeping the processes it starts so they can be killed."""

        def __init__(self, executable: Any):
            super().__init__(executable)
            self.pids: list[int] = []
            self.killed = False

        async def _create_process(self, args: Any, solver: Any = None) -> Any:
            process = await super()._create_process(args, solver)
            self.pids.append(process.pid)
            return process

        def kill(self) -> None:
            """Kill MiniZinc and the solver it started (its descendants)."""
            self.killed = True
            for pid in self.pids:
                kill_tree(pid)

    return TrackedDriver


def _tracked_driver() -> Any:
    import minizinc

    return _tracked_driver_type()(minizinc.default_driver._executable)


def _has_package() -> bool:
    return importlib.util.find_spec(MiniZincBackend.requires) is not None


def model_path() -> Any:
    """The path of the shipped model, ``queens.mzn``."""
    return importlib.resources.files(__package__) / "models" / "queens.mzn"


def _plain(value: Any) -> Any:
    """A statistic as a plain number: MiniZinc reports times as timedeltas."""
    return value.total_seconds() if isinstance(value, datetime.timedelta) else value


@functools.cache
def _solvers() -> tuple[tuple[str, ...], dict[str, str]]:
    """The names of the solvers MiniZinc lists, split by whether they can enumerate."""
    import minizinc

    usable, missing = [], {}
    seen = set()
    for solvers in minizinc.default_driver.available_solvers().values():
        for solver in solvers:
            if solver.id in seen:
                continue
            seen.add(solver.id)
            names = (solver.id.rsplit(".", 1)[-1], solver.id)
            if solver.id.endswith(".gist"):
                missing[names[0]] = "interactive: Gecode's search-tree window"
            elif "-a" in solver.stdFlags and "-n" in solver.stdFlags:
                usable += names
            else:
                missing[names[0]] = "cannot list all solutions (no -a)"
    return tuple(usable), missing
