"""The Choco solver through ``pychoco`` (a native build of Choco: no Java needed).

The model is the classic one: one integer variable per row, an ``allDifferent`` on
the columns and one on each diagonal family, the diagonals through Choco's offset
views ``q[r] + r`` and ``q[r] - r`` (no auxiliary variables). A fixed queen is a
row whose domain is its one column, so conflicting fixed queens fail at the root; a
blocked square is a column left out of its row's domain (an enumerated domain). A
row with every square blocked has no solution: Choco, given an empty domain, ends
the whole process, so the solver is not started (``stats["empty_row"]`` names it).

Option ``search``: ``"input"`` is Choco's input order with the smallest value first
(rows in order, columns from the left), so solutions come in lexicographic order;
measured side by side it lists every solution faster than Choco's default search
(0.52 s against 0.90 s for the 2,680 solutions of n=11). ``"first-fail"`` takes the
row with the fewest columns left first, smallest column first: it finds a first
solution for n=200 in under a second, where the input order does not finish n=30 in
20 s. ``"auto"`` (the default) is ``"input"`` without a ``limit`` and
``"first-fail"`` with one, as the cpsat backend does.

Each call to the solver's ``solve`` resumes the search to the next solution, so
solutions are yielded as they are found and ``limit`` stops the search where it is.
``time_limit`` becomes Choco's own time limit; a search it stops leaves the result
incomplete.

Option ``consistency`` is the filtering level of the three ``allDifferent``
constraints, as pychoco names it: ``"AC"`` (arc consistency, Zhang's improvement of
Regin's algorithm; Choco's default), ``"AC_REGIN"``, ``"AC_ZHANG"``, ``"BC"`` (bound
consistency) or ``"DEFAULT"`` (bound consistency plus a probabilistic AC propagator).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..board import Solution
from ..errors import SolverError
from ._domains import row_domains
from .base import Backend
from .guards import check_choice, check_solution
from .problem import Problem
from .run import SearchRun

CONSISTENCIES = ("AC", "AC_REGIN", "AC_ZHANG", "BC", "DEFAULT")
SEARCHES = ("auto", "input", "first-fail")


class ChocoBackend(Backend):
    """Choco through pychoco: one variable per row, three allDifferent over offset views.

    Options: ``consistency`` of the allDifferent constraints and ``search``
    (``"auto"``, ``"input"``, ``"first-fail"``), described in the module.

    ``stats`` holds the solver's own figures: ``nodes``, ``fails``, ``backtracks``,
    ``restarts``, ``solver_time`` (seconds) and the final search ``state``
    (``TERMINATED`` after a complete search, ``STOPPED`` by the time limit), with
    the ``consistency`` and ``search`` used.

    >>> import cpqueens
    >>> result = cpqueens.solve(8, backend="choco")
    >>> result.count, result.solutions[0], result.stats["state"]
    (92, (0, 4, 7, 5, 2, 6, 1, 3), 'TERMINATED')
    >>> cpqueens.count(8, backend="choco", consistency="BC")
    92
    >>> cpqueens.is_valid(cpqueens.solve(100, backend="choco", limit=1).solution)
    True
    >>> cpqueens.count(8, backend="choco", blocked=[(0, 0), (3, 3)])
    80

    See Also
    --------
    CPSatBackend : the same row model on OR-Tools CP-SAT.
    MiniZincBackend : the same model in MiniZinc, solved by Gecode.
    """

    name = "choco"
    # The largest board taken: Choco builds its model in Java, out of the time
    # limit's reach, for over a minute at n=20000.
    max_n = 2_000
    summary = "Choco (pychoco): three allDifferent over offset views, solutions as found"
    source = "Choco solver through pychoco (Model.all_different, Solver.solve)"
    requires = "pychoco"
    install_hint = "pychoco"
    # GraalVM's threads start with the first solve and do not survive a fork.
    fork_safe = False
    lexicographic = False  # with a limit, the first-fail search finds its own order
    supports_blocked = True
    options = ("consistency", "search")
    neutral_options = (("consistency", CONSISTENCIES), ("search", SEARCHES))

    def check_options(self, options: dict[str, Any]) -> None:
        check_choice("choco", "consistency", options.get("consistency", "AC"), CONSISTENCIES)
        check_choice("choco", "search", options.get("search", "auto"), SEARCHES)

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        # pychoco.backend is the module pychoco's own methods call. Calling it directly
        # skips a per-call assertion and a stop-criterion array per solution, and
        # reads the node count, which Solver.get_node_count (pychoco 0.4.0) gets wrong:
        # it returns the time count.
        from pychoco import Model
        from pychoco import backend as choco

        n = problem.n
        consistency = problem.options.get("consistency", "AC")
        search = problem.options.get("search", "auto")
        if search == "auto":
            search = "input" if problem.limit is None else "first-fail"
        run.stats.update(consistency=consistency, search=search)
        domains = row_domains(problem)
        empty = next((row for row, columns in enumerate(domains) if not columns), None)
        if empty is not None:
            run.stats.update(empty_row=empty, nodes=0, fails=0, backtracks=0, restarts=0)
            return
        model = Model(f"{n}-queens")
        rows = [_row(model, r, columns, n) for r, columns in enumerate(domains)]
        for sign in (0, 1, -1):  # columns, then q[r] + r, then q[r] - r
            views = [model.int_offset_view(q, sign * r) if sign else q for r, q in enumerate(rows)]
            model.all_different(views, consistency).post()
        solver = model.get_solver()
        if search == "input":
            solver.set_input_order_lb_search(*rows)
        else:
            solver.set_min_dom_lb_search(*rows)
        remaining = run.remaining()
        if remaining is not None:
            # Choco reads the limit as text and dies (the whole process with it) on a
            # limit that rounds to zero: at least a millisecond.
            solver.limit_time(f"{max(remaining, 0.001):.3f}s")
        handle, squares = solver._handle, [q._handle for q in rows]
        no_criterion = choco.create_criterion_array(0)
        try:
            while _next_solution(choco, handle, no_criterion):
                yield check_solution([choco.get_intvar_value(q) for q in squares], problem, "Choco")
            state = str(choco.get_search_state(handle))
            if state == "STOPPED":
                run.mark_timed_out()
        finally:
            run.stats.update(
                nodes=choco.get_node_count(handle),
                fails=choco.get_fail_count(handle),
                backtracks=choco.get_backtrack_count(handle),
                restarts=choco.get_restart_count(handle),
                solver_time=choco.get_time_count(handle),
                state=str(choco.get_search_state(handle)),
            )


def _row(model: Any, row: int, columns: list[int], n: int) -> Any:
    """Row ``row``'s variable over ``columns``: a range when nothing is blocked in it."""
    if len(columns) == n:
        return model.intvar(0, n - 1, f"q{row}")
    if len(columns) == 1:
        return model.intvar(columns[0], columns[0])
    return model.intvar(columns, None, f"q{row}")


def _next_solution(choco: Any, handle: Any, criterion: Any) -> bool:
    try:
        return bool(choco.solve(handle, criterion))
    except Exception as error:  # whatever the native library raises, named as Choco's
        raise SolverError(f"the Choco solver failed: {error}") from error
