"""SAT solvers through python-sat (``pysat``), under each of its cardinality encodings.

The formula is :mod:`cpqueens.instances.formats.cnf`'s: one Boolean variable per square
(square ``(r, c)`` is variable ``r * n + c + 1``, so the first ``n * n`` variables are
the board and a model is read without a search), a clause and an at-most-one per row,
an at-most-one per column and per diagonal, the implied clause "at least one queen"
per column. The at-most-ones are written in the encoding chosen with ``encoding=``
(pysat's ``CardEnc.atmost``, whose auxiliary variables come after the squares).
``native`` hands the at-most-ones to a solver with cardinality constraints of its own
(MiniCard, GlueCard) instead of clauses. A queen given in advance is a unit clause,
and so is a blocked square, negated: ``-square(r, c)``.
:func:`cpqueens.instances.formats.cnf.dimacs` writes the same formula out for any solver.

Enumeration adds, after each solution, the clause that forbids it; the clause needs
only the squares holding a queen, since any other solution moves one of them, and
not even the last row's (see :func:`_enumerate`). The board is split on its first
:data:`BLOCK_ROWS` rows: the solver is called under the assumption of their queens,
for each placement of them on squares not blocked and not attacking each other in
turn (lexicographic order), so each block has n - 2 free rows and its solutions are
sorted before they are yielded. On a board with nothing given or blocked, only the
blocks of the left half are searched (a first queen left of the middle, or on the
middle column of an odd board with the second left of it): each block's mirror image
is the block of the mirrored queens, so it is handed on as well, mirrored, instead of
being searched (no solution is its own mirror image past n = 1, so nothing comes
twice). That halves the solver's work; the solver's figures in ``stats`` are those
of the half it searched. Measured side by side at n=11 (CPU time, medians of 3 to 7, on the same
formula), the backend with blocks on two rows took about 3 % less than one plain
loop over the whole board with CaDiCaL 1.9.5 (and 5 % less than with blocks on row
0), 43 % less with Glucose 4 and 64 % less with MiniSat 2.2;
``benchmarks/bench_solvers.py`` compares the backend with such a loop. Kissat in
pysat cannot take a clause after a solve, so for it each solution is a fresh solver
run (slow, but right).

Each call of CaDiCaL, Glucose 4 or MiniSat 2.2 runs first in the caller's thread
under a budget of conflicts, and only a call past it runs where ``time_limit`` and
Ctrl-C can stop it, as any call of the other solvers does
(:mod:`cpqueens.solvers.sat.solvers`): a solver pysat can interrupt is interrupted
at the deadline, CaDiCaL solves in slices of conflicts. Kissat and Lingeling can be
neither interrupted nor sliced: with a time limit, their search runs in a child
process that is killed at the deadline (:func:`models_in_child`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from ...board import Solution
from ...errors import InvalidInputError, SolverError
from ...instances.formats.cnf import (
    CLAUSE_ENCODINGS,
    DEFAULT_ENCODING,
    NATIVE,
    blocked_clauses,
    board_formula,
)
from ...programs.lines import LineProcess
from ...programs.running import python_environment, python_module
from ..base import Backend
from ..guards import check_choice, check_solution
from ..problem import Problem
from ..run import DeadlineReached, SearchRun
from .solvers import (
    SOLVERS,
    UNSTOPPABLE,
    Calls,
    cardinality_solvers,
    enumeration_calls,
    solve_call,
    usable_solvers,
)

#: pysat's at-most-one encodings, by the names of ``pysat.card.EncType``, and ``native``.
ENCODINGS = (*CLAUSE_ENCODINGS, NATIVE)
EXTRA_PACKAGES = {"cryptosat": "pip install pycryptosat"}
#: Solvers whose pysat binding cannot add a clause after a solve.
NON_INCREMENTAL = ("kissat404",)
#: Rows whose queens each block assumes: n * (n - 2) or so blocks of n - 2 free rows.
#: Measured at n=11 against one block per column of row 0 (CPU time, medians of 7),
#: CaDiCaL took about 6 % less.
BLOCK_ROWS = 2
#: Clauses handed to the solver at a time, so that loading a large board can stop.
LOAD_CHUNK = 100_000
DEFAULT_SOLVER = "cadical195"


class SatBackend(Backend):
    """A SAT solver from python-sat on one Boolean per square, with a chosen encoding.

    Options: ``solver`` (a name from pysat, default ``"cadical195"``) and ``encoding``
    (the at-most-one encoding, default ``"seqcounter"``). ``stats`` holds the
    solver's ``decisions``, ``conflicts``, ``propagations`` and ``restarts``
    (summed over its runs), and the size of the formula: ``variables`` and
    ``clauses`` (the blocked squares' unit clauses included, the clauses that forbid
    each solution found not).

    Blocked squares are unit clauses ``-square(r, c)``.

    >>> import cpqueens
    >>> result = cpqueens.solve(8, backend="sat")
    >>> result.count, result.solutions[0], result.stats["solver"]
    (92, (0, 4, 7, 5, 2, 6, 1, 3), 'cadical195')
    >>> cpqueens.count(8, backend="sat", solver="minisat22", encoding="ladder")
    92
    >>> cpqueens.count(8, backend="sat", blocked=[(0, 0), (3, 3)])
    80

    See Also
    --------
    CPSatBackend : CP-SAT, whose ``search="free"`` uses the same square model.
    """

    name = "sat"
    # The largest board taken: one variable per square and the encoding's
    # auxiliaries make 4 million clauses at n=600.
    max_n = 600
    summary = "SAT (python-sat): one Boolean per square, pysat's cardinality encodings"
    source = "python-sat (pysat.card.CardEnc, pysat.solvers.Solver)"
    requires = "pysat"
    install_hint = "python-sat"
    lexicographic = False  # a complete enumeration is sorted; a limited one is not
    options = ("solver", "encoding")
    neutral_options = (("encoding", ENCODINGS),)
    supports_blocked = True

    def solvers_here(self) -> tuple[str, ...]:
        return usable_solvers()  # asks pysat itself: a name it knows may not be built in

    def check_options(self, options: dict[str, Any]) -> None:
        check_choice("sat", "encoding", options.get("encoding", DEFAULT_ENCODING), ENCODINGS)
        solver = options.get("solver", DEFAULT_SOLVER)
        if not self.is_available():
            return  # the call is refused next, naming the package to install
        usable = usable_solvers()
        missing = {
            name: EXTRA_PACKAGES.get(name, "not built into this python-sat")
            for name in SOLVERS
            if name not in usable
        }
        check_choice("sat", "solver", solver, usable, missing)
        if options.get("encoding") == "native" and solver not in cardinality_solvers():
            raise InvalidInputError(
                f"sat option encoding='native' needs a solver with cardinality constraints "
                f"({', '.join(cardinality_solvers())}), got solver={solver!r}"
            )

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        name = problem.options.get("solver", DEFAULT_SOLVER)
        if name in UNSTOPPABLE and run.deadline is not None:
            # Neither interrupt nor budget reaches these: a process of its own does.
            blocks = models_in_child(problem, run)
        else:
            blocks = find_models(problem, run)
        for block in blocks:
            block.sort()
            yield from block


def find_models(
    problem: Problem, run: SearchRun, on_solution: Callable[[Solution], Any] | None = None
) -> Iterator[list[Solution]]:
    """The solutions, one list per block (one column of row 0), each list in the order
    the solver found them; ``on_solution``, when given, is called with each solution
    as soon as it is found (a child process writes it out at once)."""
    from pysat.solvers import Solver

    name = problem.options.get("solver", DEFAULT_SOLVER)
    encoding = problem.options.get("encoding", DEFAULT_ENCODING)
    n = problem.n
    clauses, atmosts, top = board_formula(n, encoding, problem.fixed, run.check_time)
    clauses += blocked_clauses(n, problem.blocked)
    stats = run.stats
    stats.update(solver=name, encoding=encoding, variables=top, clauses=len(clauses))
    stats.update(decisions=0, conflicts=0, propagations=0, restarts=0, solver_runs=0)
    label = f"the SAT solver {name}"
    check = _checker(problem, label)

    def start(blocking: list[list[int]]) -> Any:
        try:
            solver = Solver(name=name)
        except Exception as error:
            raise SolverError(f"{label} failed to start: {error}") from error
        try:
            # In chunks, so that loading the clauses of a large board can stop in time.
            formula = clauses + blocking
            for begin in range(0, len(formula), LOAD_CHUNK):
                solver.append_formula(formula[begin : begin + LOAD_CHUNK])
                run.check_time()
            for lits in atmosts:
                solver.add_atmost(lits, 1)
        except DeadlineReached:
            solver.delete()
            raise
        except Exception as error:
            solver.delete()
            raise SolverError(f"{label} failed to load the formula: {error}") from error
        return solver

    def finish(solver: Any) -> None:
        stats["solver_runs"] += 1
        try:
            figures = solver.accum_stats()
        except NotImplementedError:  # Kissat keeps its figures to itself in pysat
            figures = {}
        for key in ("decisions", "conflicts", "propagations", "restarts"):
            stats[key] += figures.get(key, 0)
        solver.delete()

    # Kissat in pysat solves once per solver and takes no assumptions: for it, the
    # block's first queen is a unit clause and every solution a fresh solver, started
    # with every blocking clause so far.
    incremental = name not in NON_INCREMENTAL
    blocking: list[list[int]] = []
    solver = None
    produced = 0
    try:
        mirror = _mirrors(problem) and incremental and on_solution is None
        for prefix in _prefixes(problem, mirror):
            wanted = None if problem.limit is None else problem.limit - produced
            block: list[Solution] = []
            if incremental:
                if solver is None:
                    solver = start([])
                    calls = enumeration_calls(solver, name, run, label)
                block = _enumerate(calls, prefix, wanted, n, check, on_solution)
                if mirror and block:
                    yield block
                    produced += len(block)
                    # The mirror image of checked boards: boards, by construction.
                    block = [tuple(n - 1 - c for c in solution) for solution in block]
            while not incremental and (wanted is None or len(block) < wanted):
                solver = start([*blocking, *([lit] for lit in prefix)])
                satisfiable = solve_call(solver, name, [], run, label)
                if satisfiable:
                    queens = [lit for lit in solver.get_model()[: n * n] if lit > 0]
                    block.append(check([queens])[0])
                    blocking.append([-lit for lit in queens])
                    if on_solution is not None:
                        on_solution(block[-1])
                finish(solver)
                solver = None
                if not satisfiable:
                    break
            yield block
            produced += len(block)
            if run.timed_out:
                return
    finally:
        if solver is not None:
            finish(solver)


def _mirrors(problem: Problem) -> bool:
    """Whether the left half's blocks and their mirror images make every solution:
    nothing given or blocked (the board is its own mirror image), and n >= 4."""
    return problem.n >= 4 and not problem.blocked and problem.fixed.count(None) == problem.n


def _prefixes(problem: Problem, half: bool = False) -> Iterator[list[int]]:
    """The blocks' assumptions, in lexicographic order: the queens of the first
    :data:`BLOCK_ROWS` rows, on squares not blocked and not attacking each other (an
    assumption that fails at once is no block). ``half``: only the blocks whose
    mirror image is another block (a first queen left of the middle, or on the
    middle column with the second left of it).

    >>> from cpqueens.solvers.problem import Problem
    >>> [p for p in _prefixes(Problem(5, (None,) * 5), half=True)]
    [[1, 8], [1, 9], [1, 10], [2, 9], [2, 10], [3, 6]]
    """
    n = problem.n
    depth = min(BLOCK_ROWS, n)
    middle = n // 2

    def extend(columns: tuple[int, ...]) -> Iterator[list[int]]:
        row = len(columns)
        if row == depth:
            if not half or columns[0] < middle or (n % 2 and columns[0] == middle > columns[1]):
                yield [r * n + c + 1 for r, c in enumerate(columns)]
            return
        for column in problem.allowed_columns(row):
            if all(c != column and abs(c - column) != row - r for r, c in enumerate(columns)):
                yield from extend((*columns, column))

    yield from extend(())


def _enumerate(
    calls: Calls,
    assumptions: list[int],
    wanted: int | None,
    n: int,
    check: Callable[[list[list[int]]], list[Solution]],
    on_solution: Callable[[Solution], Any] | None,
) -> list[Solution]:
    """The solutions under ``assumptions`` (at most ``wanted``), each forbidden once found.

    The loop a bare python-sat enumeration is: solve, read the queens (the true
    literals among the first ``n * n`` variables), forbid them. The clause that
    forbids them leaves out the last row's queen: two solutions that agree on every
    other row agree on it too (the one column left), and the shorter clause
    propagates one step sooner. The queens are checked all at once when the block
    ends (:func:`_checker`), before any of them is handed on.
    """
    solve, model, add_clause = calls
    squares = n * n
    found: list[list[int]] = []
    while (wanted is None or len(found) < wanted) and solve(assumptions):
        queens = [lit for lit in model()[:squares] if lit > 0]
        found.append(queens)
        add_clause([-lit for lit in queens[:-1]])
        if on_solution is not None:
            on_solution(check([queens])[0])
    return check(found)


def _checker(problem: Problem, label: str) -> Callable[[list[list[int]]], list[Solution]]:
    """Turn the true queen variables of models into solutions, checked, or raise.

    Each model's ``n`` true variables, the ``r``-th in row ``r`` (a model lists the
    variables in order), in distinct columns and diagonals: a solution. A block's
    models are checked together in a few numpy operations. Fixed queens and blocked
    squares are unit clauses; a problem with some goes through :func:`check_solution`
    model by model, as do models that fail here (one then raises
    :class:`~cpqueens.errors.WrongSolutionError`).
    """
    import numpy

    n = problem.n
    starts = numpy.arange(n) * n + 1
    rows = numpy.arange(n)
    full = problem.fixed.count(None) != n or bool(problem.blocked)

    def distinct(lines: Any) -> bool:
        ordered = numpy.sort(lines, axis=1)
        return bool((ordered[:, 1:] != ordered[:, :-1]).all())

    def check(found: list[list[int]]) -> list[Solution]:
        if not found:
            return []
        if not full and all(len(queens) == n for queens in found):
            columns = numpy.array(found, dtype=numpy.int64) - starts
            if (
                ((columns >= 0) & (columns < n)).all()
                and distinct(columns)
                and distinct(columns + rows)
                and distinct(columns - rows)
            ):
                return list(map(tuple, columns.tolist()))
        return [check_solution([(q - 1) % n for q in queens], problem, label) for queens in found]

    return check


def models_in_child(problem: Problem, run: SearchRun) -> Iterator[list[Solution]]:
    """:func:`find_models` in a child process, killed at ``run``'s deadline.

    The child writes each solution as it finds it and each block's end (see
    :mod:`._child`); each block is yielded once it ends. At the deadline the
    child is killed and the block under way ends with what it had; on Ctrl-C or
    when the caller stops taking solutions, the child is killed. A child
    that dies (a native crash included) is a :class:`SolverError`.
    """
    name = problem.options.get("solver", DEFAULT_SOLVER)
    label = f"the SAT solver {name} (in a child process)"
    spec = {
        "n": problem.n,
        "fixed": list(problem.fixed),
        "blocked": sorted(problem.blocked),
        "limit": problem.limit,
        "options": problem.options,
    }
    finished = False
    block: list[Solution] = []
    argv = python_module(f"{__package__}._child")
    with LineProcess(argv, env=python_environment(), input=json.dumps(spec).encode()) as child:
        for line in child.lines(run.deadline):
            if line.startswith("v "):
                columns = [int(c) for c in line[2:].split()]
                block.append(check_solution(columns, problem, label))
            elif line.startswith("c block"):
                yield block
                block = []
            elif line.startswith("c stats "):
                run.stats.update(json.loads(line[len("c stats ") :]))
            elif line.startswith("s DONE"):
                finished = True
        child.wait(run.deadline)
        if child.killed:  # at the deadline: the block under way ends with what it had
            run.mark_timed_out()
            yield block
            return
        status = child.exit_status()
        if not finished or status != 0:
            errors = [e.strip() for e in child.stderr_tail().splitlines() if e.strip()][-3:]
            said = " | ".join(errors) or "nothing on standard error"
            raise SolverError(f"{label} died (status {status}): {said}")
