"""The MiniZinc model shipped with cpqueens, run through the ``minizinc`` package.

``cpqueens/solvers/minizinc/queens.mzn`` is an ordinary MiniZinc model (one can open it
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
list every solution, that is whose configuration accepts ``-a``, and any other for
one solution).

Every solution comes from one run (``-a``; ``limit`` becomes ``-n``, ``time_limit``
the run's time limit), read when the run ends, so the solutions are sorted and then
yielded. ``stats`` holds the statistics the solver prints (Gecode: ``nodes``,
``failures``, ``propagations``, ``peakDepth``, ``solveTime``...), times in seconds.

The model's header comment gives its data format, so that a ``.dzn`` file written
elsewhere runs from the command line (``minizinc --solver gecode -a queens.mzn
instance.dzn``).

``model="my.mzn"`` runs a model of the user's own instead, with the same data names
and the same checks of every board (:mod:`.minizinc_models`); ``solver=`` takes any
solver ``minizinc --solvers`` lists (:mod:`.minizinc_solvers`).

The backend needs the ``minizinc`` Python package and the MiniZinc toolchain on the
``PATH``: Debian and Ubuntu ship both the toolchain and Gecode in the package
``minizinc`` (``apt-get install minizinc``); elsewhere see https://www.minizinc.org.
"""

from __future__ import annotations

import datetime
import functools
import importlib.resources
import importlib.util
import json
import os
import shutil
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ...board import Solution
from ...errors import BackendUnavailableError, InvalidInputError, SolverError, WrongSolutionError
from ...programs.process_trees import kill_tree
from ..base import Backend
from ..guards import check_choice, check_solution
from ..problem import Problem
from ..run import SearchRun
from ..stopping import run_stoppable
from .models import (
    DEFAULT_OUTPUT,
    ModelInterface,
    board_of,
    check_base,
    first_error,
    load_model,
    model_data,
    model_file,
    other_base_hint,
    refuse_false_none,
    refuse_unmet_data,
)
from .solvers import check_question, pick_solver

DEFAULT_SOLVER = "gecode"
SEARCHES = ("auto", "input", "first-fail")
INSTALL_TOOLCHAIN = (
    "backend 'minizinc' needs the MiniZinc toolchain, and the 'minizinc' program is not "
    "on the PATH; install it with: apt-get install minizinc (Debian/Ubuntu, brings "
    "Gecode too), or from https://www.minizinc.org"
)


class MiniZincBackend(Backend):
    """queens.mzn compiled by MiniZinc and solved by Gecode or another MiniZinc solver.

    Options: ``solver``, a solver of ``minizinc --solvers``, by its short name
    (``"gecode"``) or its id (``"org.gecode.gecode"``); ``search``, ``"auto"``,
    ``"input"`` or ``"first-fail"`` (see the module); ``model``, a ``.mzn`` file of
    the user's own to run instead of queens.mzn, with ``base`` (0 or 1: how it
    numbers rows and columns) and ``output`` (its array of columns, ``"q"``), see
    :mod:`.minizinc_models`.

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
    summary = "MiniZinc: queens.mzn or your own (model=...), solved by Gecode (solver=...)"
    source = "MiniZinc toolchain through the minizinc package (Instance.solve)"
    requires = "minizinc"
    install_hint = "minizinc"
    lexicographic = False  # sorted when complete; a limited run stops where the solver was
    supports_blocked = True
    options = ("solver", "search", "model", "base", "output")
    neutral_options = (("search", SEARCHES),)
    programs = (("minizinc", "apt-get install minizinc"),)  # the toolchain, Gecode with it

    def is_available(self) -> bool:
        return _has_package() and shutil.which("minizinc") is not None

    def require(self) -> None:
        if not _has_package():
            super().require()  # names the pip package
        if shutil.which("minizinc") is None:
            raise BackendUnavailableError(INSTALL_TOOLCHAIN)

    def solver_choices(self) -> dict[str, str | None]:
        from .solvers import listed_solvers

        return {solver.name: solver.unusable for solver in listed_solvers()}

    def check_options(self, options: dict[str, Any]) -> None:
        check_choice("minizinc", "search", options.get("search", "auto"), SEARCHES)
        if "model" in options:
            model_file(options["model"])  # a missing file is named even without MiniZinc
            check_base(options.get("base", 0))
        else:
            for key in ("base", "output"):
                if key in options:
                    raise InvalidInputError(
                        f"minizinc option {key} is for a model of your own: give "
                        "model=FILE.mzn with it"
                    )
        if not self.is_available():
            return  # the call is refused next, saying how to install MiniZinc
        solver = pick_solver(options.get("solver", DEFAULT_SOLVER))
        if "model" in options:
            load_model(options["model"], solver.id, options.get("output", DEFAULT_OUTPUT))

    def check_problem(self, problem: Problem) -> None:
        super().check_problem(problem)
        options = problem.options
        check_question(pick_solver(options.get("solver", DEFAULT_SOLVER)), problem.limit)
        if "model" in options:
            refuse_unmet_data(_loaded(options), problem, options.get("search", "auto"))

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        import minizinc
        from minizinc.json import MZNJSONEncoder

        options = problem.options
        tag = options.get("solver", DEFAULT_SOLVER)
        solver = pick_solver(tag)
        remaining = run.remaining()
        if remaining is not None and remaining <= 0:
            run.mark_timed_out()
            return
        search = options.get("search", "auto")
        if search == "auto":
            search = "input" if problem.limit is None else "first-fail"
        if "model" in options:
            interface = _loaded(options)
            path, output, base = interface.path, options.get("output", DEFAULT_OUTPUT), 0
            base = check_base(options.get("base", 0))
            data = model_data(problem, interface, base, search == "first-fail")
            label = f"MiniZinc model {path.name} with solver {tag!r}"
        else:
            path, output, base = Path(str(model_path())), DEFAULT_OUTPUT, 0
            data = _shipped_data(problem, search == "first-fail")
            label = f"MiniZinc with solver {tag!r}"
        # Every file of the solve (the data, MiniZinc's FlatZinc, the solver's output) is
        # written in a folder of cpqueens' own, removed however the solve ends: MiniZinc
        # killed at a deadline, or by SIGTERM, cannot remove its own temporary files.
        with tempfile.TemporaryDirectory(
            prefix="cpqueens-mzn-", ignore_cleanup_errors=True
        ) as name:
            folder = Path(name)
            driver = _tracked_driver()
            driver.temporary = folder
            instance = minizinc.Instance(
                minizinc.Solver.lookup(tag), minizinc.Model(str(path)), driver
            )
            # The data as a file of the folder, not through minizinc-python, which would write
            # its own temporary file where cpqueens cannot remove it.
            data_file = folder / "data.json"
            data_file.write_text(json.dumps(data, cls=MZNJSONEncoder), encoding="utf-8")
            instance.add_file(data_file, parse_data=False)
            limit = None if remaining is None else datetime.timedelta(seconds=remaining)

            def call() -> Any:
                with warnings.catch_warnings():
                    # Debian's Gecode configuration overrides some library globals and
                    # MiniZinc warns about it on every run: nothing the user can act on.
                    warnings.simplefilter("ignore", minizinc.error.MiniZincWarning)
                    if problem.limit is None or (problem.limit > 1 and "-n" not in solver.flags):
                        return instance.solve(all_solutions=True, time_limit=limit)
                    if "-n" in solver.flags:
                        return instance.solve(nr_solutions=problem.limit, time_limit=limit)
                    return instance.solve(time_limit=limit)  # one solution: any solver

            # In a helper thread, so that Ctrl-C and the deadline end MiniZinc at once:
            # minizinc-python answers an interrupt by asking MiniZinc to stop and waiting,
            # which has been seen to wait for good; here its processes are killed.
            try:
                result = run_stoppable(call, driver.kill, run)
            except minizinc.error.MiniZincError as error:
                if driver.killed:  # killed at the deadline: what it printed is lost
                    run.mark_timed_out()
                    return
                raise SolverError(f"{label} failed: {first_error(str(error), path)}") from error
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
            solutions = sorted(_checked(s, output, base, problem, label) for s in found)
            complete = status in (minizinc.Status.ALL_SOLUTIONS, minizinc.Status.UNSATISFIABLE)
            if complete and not solutions and "model" in options:
                refuse_false_none(problem, label, base)
            if not complete and (problem.limit is None or len(solutions) < problem.limit):
                run.mark_timed_out()  # ended without proving there is nothing more: the clock
            yield from solutions


def _loaded(options: dict[str, Any]) -> ModelInterface:
    """The interface of the user's model (read once per file version and solver)."""
    solver = pick_solver(options.get("solver", DEFAULT_SOLVER))
    return load_model(options["model"], solver.id, options.get("output", DEFAULT_OUTPUT))


def _shipped_data(problem: Problem, fewest_first: bool) -> dict[str, Any]:
    """The data of queens.mzn, as its header describes them."""
    return {
        "n": problem.n,
        "fixed": [-1 if column is None else column for column in problem.fixed],
        "nblocked": len(problem.blocked),
        "blocked": [[row, column] for row, column in sorted(problem.blocked)],
        "fewest_first": fewest_first,
    }


def _checked(found: Any, output: str, base: int, problem: Problem, label: str) -> Solution:
    """One solution MiniZinc printed, read in ``base`` and checked against ``problem``."""
    # minizinc-python renames an output that is a Python keyword with a mzn_ prefix.
    values = getattr(found, output, getattr(found, f"mzn_{output}", None))
    board = board_of(values, base, label)
    try:
        return check_solution(board, problem, label)
    except WrongSolutionError as error:
        hint = other_base_hint(board, problem.n, base)
        raise WrongSolutionError(f"{error}{hint}", error.board) from None


@functools.cache
def _tracked_driver_type() -> type:
    import minizinc

    class TrackedDriver(minizinc.Driver):
        """MiniZinc's driver, keeping the processes it starts so they can be killed."""

        def __init__(self, executable: Any):
            super().__init__(executable)
            self.pids: list[int] = []
            self.killed = False
            self.temporary: Path | None = None

        async def _create_process(self, args: Any, solver: Any = None) -> Any:
            # MiniZinc writes its temporary files (the FlatZinc it compiles) under TMPDIR:
            # the solve's own folder. The environment is the process's, so it is set only
            # while the process is started (its child takes a copy) and put back at once.
            previous = os.environ.get("TMPDIR")
            if self.temporary is not None:
                os.environ["TMPDIR"] = str(self.temporary)
            try:
                process = await super()._create_process(args, solver)
            finally:
                if previous is None:
                    os.environ.pop("TMPDIR", None)
                else:
                    os.environ["TMPDIR"] = previous
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
    return importlib.resources.files(__package__) / "queens.mzn"


def _plain(value: Any) -> Any:
    """A statistic as a plain number: MiniZinc reports times as timedeltas."""
    return value.total_seconds() if isinstance(value, datetime.timedelta) else value
