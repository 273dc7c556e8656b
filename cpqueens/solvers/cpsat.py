"""OR-Tools CP-SAT behind the backend interface, with two ways to search.

``search="blocks"`` (the default without a ``limit``) enumerates every solution on the
classic model: one integer variable per row, ``add_all_different`` on the columns and
on both diagonal families (``q[r] + r`` and ``q[r] - r``); fixed queens are equalities.
To enumerate, CP-SAT adds a clause forbidding each solution it finds and goes back to
the root, so one run over the whole board slows down as those clauses pile up. The
board is therefore split on its first ``split_depth`` rows (default 2): every
non-attacking placement of those rows, consistent with the fixed queens, is a block
that CP-SAT solves in a run of its own, with a fixed search (rows in order, smallest
column first) and presolve and inprocessing off. Blocks run in lexicographic order and
each block's solutions are sorted, so a complete enumeration comes out in
lexicographic order; a ``limit`` stops the search once enough solutions are in. For
n=12, ``python benchmarks/bench_cpsat.py`` measures this at about 5x faster than one
run of the same model with CP-SAT's default search (2.5 s against 14.4 s). Blocked
squares are taken out of their row's domain, so the blocks never place a queen on
one either; a row with every square blocked has no solution, and no run is made
(CP-SAT refuses a variable with an empty domain; ``stats["empty_row"]`` names it).

``search="free"`` (the default with a ``limit``) leaves the search to CP-SAT on a
boolean model: one literal per square, exactly one queen per row and per column, at
most one per diagonal; the literal of a blocked square is fixed false. Clause
propagation is what CP-SAT does fastest, so this finds a first solution for n=200 in
a few seconds, where the integer model needs much longer. Its solutions come in no
particular order.

A solver run reports its solutions only when it returns, so this backend is lazy
block by block, not solution by solution. ``time_limit`` becomes each run's
``max_time_in_seconds``; a run that ends on time leaves the result incomplete.

``workers=k`` runs CP-SAT's parallel portfolio, which speeds up finding one solution.
While enumerating, CP-SAT with several workers has been seen to report OPTIMAL after
skipping solutions and repeating others: repeats are dropped here, and the result is
marked incomplete with a warning in ``stats``. Enumeration uses one worker by default.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..board import Solution
from ..errors import InvalidInputError, SolverError
from ._domains import row_domains
from .base import Backend
from .guards import check_option_int
from .problem import Problem
from .run import SearchRun
from .stopping import Watcher

SEARCHES = ("auto", "blocks", "free")
DEFAULT_SPLIT_DEPTH = 2
#: The most workers CP-SAT takes (its parameter num_workers is refused beyond).
MAX_WORKERS = 10_000
ENUMERATION_WARNING = (
    "CP-SAT enumerating with several workers may skip solutions (repeats are removed); "
    "use workers=1 for a complete enumeration"
)

# Measured in benchmarks/bench_cpsat.py and its notes: presolve and inprocessing only
# cost time on a model this small whose search is fixed; the linear relaxation and
# the symmetry detection cost seconds on the 40,000 literals of n=200.
BLOCK_PARAMETERS = {"cp_model_presolve": False, "use_sat_inprocessing": False}
FREE_PARAMETERS = {
    "cp_model_presolve": False,
    "cp_model_probing_level": 0,
    "linearization_level": 0,
    "symmetry_level": 0,
}

Reader = Callable[[Any], Solution]


class CPSatBackend(Backend):
    """OR-Tools CP-SAT: enumeration over row-prefix blocks, or its own search for a few.

    Options: ``search`` (``"auto"``, ``"blocks"`` or ``"free"``) and ``split_depth``
    (rows fixed per block, 0 for a single run over the whole board). ``stats`` holds
    ``branches``, ``conflicts`` and ``wall_time`` summed over the solver runs, the
    ``status`` of the last run, ``solver_runs``, ``workers`` and ``search``.

    >>> import cpqueens
    >>> result = cpqueens.solve(8, backend="cpsat")
    >>> result.count, result.solutions[0], result.stats["workers"]
    (92, (0, 4, 7, 5, 2, 6, 1, 3), 1)
    >>> cpqueens.is_valid(cpqueens.solve(30, backend="cpsat", limit=1).solution)
    True
    >>> cpqueens.count(8, backend="cpsat", blocked=[(0, 0), (3, 3)])
    80

    See Also
    --------
    ConstraintBackend : python-constraint's backtracking on a comparable model.
    """

    name = "cpsat"
    # The largest board taken: one literal per square: a million at n=1000.
    max_n = 1_000
    summary = "OR-Tools CP-SAT: fixed search over row-prefix blocks, or its own search"
    source = "OR-Tools CP-SAT (ortools.sat.python.cp_model)"
    requires = "ortools"
    install_hint = "ortools"
    lexicographic = False  # only a complete "blocks" enumeration is in order
    supports_workers = True
    supports_blocked = True
    options = ("search", "split_depth")
    neutral_options = (("search", SEARCHES),)

    def check_problem(self, problem: Problem) -> None:
        super().check_problem(problem)
        if problem.workers is not None and problem.workers > MAX_WORKERS:
            raise InvalidInputError(
                f"cpsat takes at most {MAX_WORKERS:,} workers (CP-SAT's own bound), "
                f"got workers={problem.workers:,}"
            )

    def check_options(self, options: dict[str, Any]) -> None:
        self.choice(options, "search", SEARCHES)
        check_option_int(
            self.name, "split_depth", options.get("split_depth", DEFAULT_SPLIT_DEPTH), 0
        )

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        from ortools.sat.python import cp_model  # here, so that import cpqueens stays light

        search = self.choice(problem.options, "search", SEARCHES)
        if search == "auto":
            search = "blocks" if problem.limit is None else "free"
        workers = problem.workers or 1
        run.stats.update(
            search=search,
            workers=workers,
            branches=0,
            conflicts=0,
            wall_time=0.0,
            solver_runs=0,
            status="NOT_RUN",
        )
        if workers > 1 and problem.limit != 1:
            run.complete = False
            run.stats["warning"] = ENUMERATION_WARNING
        if search == "blocks":
            depth = min(problem.options.get("split_depth", DEFAULT_SPLIT_DEPTH), problem.n)
            run.stats["split_depth"] = depth
            yield from _enumerate_blocks(cp_model, problem, run, workers, depth)
        else:
            began = time.monotonic()
            model, read = _square_model(cp_model, problem, run)
            with Watcher(run, grace=WATCH_GRACE) as watcher:
                found, _ = _run_solver(
                    cp_model,
                    model,
                    read,
                    problem.limit,
                    run,
                    workers,
                    FREE_PARAMETERS,
                    watcher,
                    _collector_type()(),
                    built_in=time.monotonic() - began,
                )
            yield from found


def _enumerate_blocks(
    cp_model: Any, problem: Problem, run: SearchRun, workers: int, depth: int
) -> Iterator[Solution]:
    parameters = {**BLOCK_PARAMETERS, "search_branching": cp_model.FIXED_SEARCH}
    allowed = row_domains(problem)
    empty = next((row for row, columns in enumerate(allowed) if not columns), None)
    if empty is not None:  # no solution, and CP-SAT refuses an empty domain
        run.stats["empty_row"] = empty
        return
    produced = 0
    # One watcher and one collector for every block's run: a thread per run cost more
    # than the run.
    collector = _collector_type()()
    with Watcher(run, grace=WATCH_GRACE) as watcher:
        for prefix in _prefixes(problem.n, problem.fixed, allowed, depth):
            wanted = None if problem.limit is None else problem.limit - produced
            model, read = _row_model(cp_model, allowed, prefix, run)
            found, go_on = _run_solver(
                cp_model, model, read, wanted, run, workers, parameters, watcher, collector
            )
            found.sort()
            yield from found
            produced += len(found)
            if not go_on or (problem.limit is not None and produced >= problem.limit):
                return


def _prefixes(
    n: int, fixed: Sequence[int | None], allowed: Sequence[Sequence[int]], depth: int
) -> Iterator[tuple[int, ...]]:
    """Non-attacking placements of rows ``0..depth-1`` that respect every fixed queen.

    ``allowed[row]`` lists the columns row ``row`` may take (its fixed one, or those
    not blocked); no other square is tried.
    """
    given = [(row, column) for row, column in enumerate(fixed) if column is not None]

    def safe(row: int, column: int, queens: list[tuple[int, int]]) -> bool:
        return all(
            other_row == row or (column != other and abs(column - other) != abs(row - other_row))
            for other_row, other in queens
        )

    def extend(prefix: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        row = len(prefix)
        if row == depth:
            yield prefix
            return
        queens = [*enumerate(prefix), *given]
        for column in allowed[row]:
            if safe(row, column, queens):
                yield from extend((*prefix, column))

    yield from extend(())


def _row_model(
    cp_model: Any, allowed: Sequence[Sequence[int]], prefix: tuple[int, ...], run: SearchRun
) -> tuple[Any, Reader]:
    """One integer per row, all-different on columns and both diagonal families.

    Row ``r``'s domain is its column in ``prefix``, else ``allowed[r]`` (a fixed
    queen's column, or the columns not blocked); none may be empty.
    """
    model = _model_type()()
    n = len(allowed)
    rows = []
    for row in range(n):
        if not row % 256:
            run.check_time()
        if row < len(prefix):
            rows.append(model.new_int_var(prefix[row], prefix[row], f"q{row}"))
        elif len(allowed[row]) == n:
            rows.append(model.new_int_var(0, n - 1, f"q{row}"))
        else:
            domain = cp_model.Domain.from_values(allowed[row])
            rows.append(model.new_int_var_from_domain(domain, f"q{row}"))
    model.add_all_different(rows)
    model.add_all_different(q + row for row, q in enumerate(rows))
    model.add_all_different(q - row for row, q in enumerate(rows))
    model.add_decision_strategy(rows, cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE)

    def read(callback: Any) -> Solution:
        return tuple(callback.value(q) for q in rows)

    return model, read


def _square_model(cp_model: Any, problem: Problem, run: SearchRun) -> tuple[Any, Reader]:
    """One literal per square: exactly one queen per row and column, at most one per diagonal.

    A fixed queen's literal is fixed true, a blocked square's false.

    Building it takes seconds for a board of a thousand rows, all of it in Python, so
    the clock is read after each line of squares and the build stops at the deadline.
    """
    n = problem.n
    model = cp_model.CpModel()
    squares = []
    for row in range(n):
        squares.append([model.new_bool_var(f"x{row}_{column}") for column in range(n)])
        run.check_time()
    for line in range(n):
        model.add_exactly_one(squares[line])
        model.add_exactly_one(squares[row][line] for row in range(n))
        run.check_time()
    for diagonal in range(2 * n - 1):
        run.check_time()
        # diagonal = column - row + n - 1 on one family, column + row on the other.
        down = [squares[r][diagonal - n + 1 + r] for r in range(n) if 0 <= diagonal - n + 1 + r < n]
        up = [squares[r][diagonal - r] for r in range(n) if 0 <= diagonal - r < n]
        for cells in (down, up):
            if len(cells) > 1:
                model.add_at_most_one(cells)
    for row, column in enumerate(problem.fixed):
        if column is not None:
            model.add(squares[row][column] == 1)
    for row, column in sorted(problem.blocked):
        model.add(squares[row][column] == 0)

    def read(callback: Any) -> Solution:
        return tuple(
            next(column for column, square in enumerate(line) if callback.boolean_value(square))
            for line in squares
        )

    return model, read


@functools.cache
def _model_type() -> type:
    from ortools.sat.python import cp_model

    class Model(cp_model.CpModel):
        """CP-SAT's model without the old names of its methods (``AddAllDifferent``):
        OR-Tools adds them to each new model, about 1.5 ms at n=11, as long as a
        block's run, and they are not used here."""

        def _add_pre_pep8_methods(self) -> None:
            pass

    return Model


@functools.cache
def _collector_type() -> type:
    from ortools.sat.python import cp_model

    class Collector(cp_model.CpSolverSolutionCallback):
        """Keep the distinct solutions of one run; stop the run once ``wanted`` are in.

        One serves every run of an enumeration (:meth:`prepare` before each): making
        one costs about 1.5 ms (OR-Tools adds its methods' old names to each), more
        than a block's run at n=10.
        """

        def __init__(self) -> None:
            super().__init__()
            self.prepare(lambda callback: (), None)

        def prepare(self, read: Reader, wanted: int | None) -> None:
            self.read, self.wanted = read, wanted
            self.found: dict[Solution, None] = {}  # an ordered set
            self.stopped = False

        def on_solution_callback(self) -> None:
            self.found.setdefault(self.read(self), None)
            if self.wanted is not None and len(self.found) >= self.wanted:
                self.stopped = True
                self.stop_search()

    return Collector


#: Seconds past the deadline before a run is stopped from outside: just past it, since
#: a large model takes a few tenths of a second to stop.
WATCH_GRACE = 0.1
#: The share of a model's build time that CP-SAT's presolve of it may run unstopped.
PRESOLVE_SHARE = 0.25


def _run_solver(
    cp_model: Any,
    model: Any,
    read: Reader,
    wanted: int | None,
    run: SearchRun,
    workers: int,
    parameters: dict[str, Any],
    watcher: Watcher,
    collector: Any,
    *,
    built_in: float = 0.0,
) -> tuple[list[Solution], bool]:
    """Solve once, watched by ``watcher``, the solutions in ``collector`` (see
    :func:`_collector_type`), and add the solver's figures to ``run.stats``.

    Returns the distinct solutions found and whether the search may go on: False
    when the time limit cut the run short (``run`` is then marked timed out).
    ``built_in`` is how long the model took to build: CP-SAT's presolve of a large
    model does not look at its clock for about a quarter of that (n=1,000: a 4.8 s
    build, then 1.2 s of solving under a 0.5 s limit), so a run with less time left
    than that is not started.
    """
    remaining = run.remaining()
    if remaining is not None and remaining <= PRESOLVE_SHARE * built_in:
        run.mark_timed_out()
        return [], False
    solver = cp_model.CpSolver()
    settings = solver.parameters
    settings.num_workers = workers
    settings.enumerate_all_solutions = wanted != 1
    if remaining is not None:
        settings.max_time_in_seconds = remaining
    for key, value in parameters.items():
        setattr(settings, key, value)
    # CP-SAT's own SIGINT handler would end the search and report what it had as
    # OPTIMAL: a partial enumeration labelled complete. Without it, Ctrl-C raises
    # KeyboardInterrupt out of solve (CP-SAT stops and re-raises it). The solve stays
    # on this thread: CP-SAT run from another thread aborts the process on Ctrl-C.
    settings.catch_sigint_signal = False
    collector.prepare(read, wanted)
    with watcher.call(solver.stop_search):
        status = solver.solve(model, collector)
    if status == cp_model.MODEL_INVALID:
        reason = model.validate() or "no reason given (its parameters, then?)"
        raise SolverError(f"CP-SAT rejected the model: {reason}")
    _add_figures(cp_model, solver, status, run)
    if collector.stopped or status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        return list(collector.found), True
    # Any other ending is the time limit, except that several workers enumerating
    # have been seen to end FEASIBLE on their own; the run is then already incomplete.
    if remaining is not None and solver.wall_time >= 0.9 * remaining:
        run.mark_timed_out()
        return list(collector.found), False
    return list(collector.found), True


def _add_figures(cp_model: Any, solver: Any, status: Any, run: SearchRun) -> None:
    stats = run.stats
    stats["branches"] += solver.num_branches
    stats["conflicts"] += solver.num_conflicts
    stats["wall_time"] += solver.wall_time
    stats["solver_runs"] += 1
    stats["status"] = solver.status_name(status)
