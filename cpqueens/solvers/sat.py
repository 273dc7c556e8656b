"""SAT solvers through python-sat (``pysat``), under each of its cardinality encodings.

The formula is :mod:`cpqueens.instances.cnf`'s: one Boolean variable per square
(square ``(r, c)`` is variable ``r * n + c + 1``, so the first ``n * n`` variables are
the board and a model is read without a search), a clause and an at-most-one per row,
an at-most-one per column and per diagonal, the implied clause "at least one queen"
per column. The at-most-ones are written in the encoding chosen with ``encoding=``
(pysat's ``CardEnc.atmost``, whose auxiliary variables come after the squares).
``native`` hands the at-most-ones to a solver with cardinality constraints of its own
(MiniCard, GlueCard) instead of clauses. A queen given in advance is a unit clause,
and so is a blocked square, negated: ``-square(r, c)``.
:func:`cpqueens.instances.cnf.dimacs` writes the same formula out for any solver.

Enumeration adds, after each solution, the clause that forbids it; the clause needs
only the ``n`` squares holding a queen, since any other solution moves one of them.
The board is split on row 0: the solver is called under the assumption "the queen of
row 0 is in column c", for each column c that is not blocked in turn, so each block
has n - 1 free rows and its solutions are sorted before they are yielded (a complete
enumeration comes out in lexicographic order). Measured side by side at n=11 (medians
of 3, on the same formula), the blocks made CaDiCaL 1.9.5 about 1.5x and Glucose 4
about 1.4x faster than one loop over the whole board; ``benchmarks/bench_solvers.py``
compares the backend with such a loop. Kissat in pysat cannot take a clause after a
solve, so for it each solution is a fresh solver run (slow, but right).

``time_limit`` is checked between two solutions, and each call of a solver that
pysat can interrupt is bounded by a timer, so a long call stops too; CaDiCaL solves
in slices of conflicts. Kissat and Lingeling can be neither interrupted nor sliced:
with a time limit, their search runs in a child process that is killed at the
deadline (:func:`models_in_child`).
"""

from __future__ import annotations

import json
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

from ..board import Solution
from ..errors import InvalidInputError, SolverError
from ..instances.cnf import (
    CLAUSE_ENCODINGS,
    DEFAULT_ENCODING,
    NATIVE,
    blocked_clauses,
    board_formula,
)
from .base import Backend
from .guards import check_choice, check_solution
from .problem import Problem
from .run import OutOfTime, SearchRun
from .sat_solvers import SOLVERS, cardinality_solvers, interruptible, usable_solvers
from .stopping import run_stoppable

#: pysat's at-most-one encodings, by the names of ``pysat.card.EncType``, and ``native``.
ENCODINGS = (*CLAUSE_ENCODINGS, NATIVE)
EXTRA_PACKAGES = {"cryptosat": "pip install pycryptosat"}
#: Solvers whose pysat binding cannot add a clause after a solve.
NON_INCREMENTAL = ("kissat404",)
#: Solvers that pysat can neither interrupt nor give a budget and call again.
UNSTOPPABLE = ("kissat404", "lingeling")
#: Most conflicts per call of a solver that is stopped between calls (CaDiCaL); the
#: slices shrink or grow to last about SLICE_SECONDS each.
SLICE_CONFLICTS = 20_000
SLICE_SECONDS = 0.2
#: Conflicts a call may take in the caller's thread, on a formula of at most so many
#: variables (a board of about 32): a few milliseconds at most.
QUICK_CONFLICTS, QUICK_VARIABLES = 500, 4096
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
    supports_blocked = True

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
            models = models_in_child(problem, run)
        else:
            models = find_models(problem, run)
        block: list[Solution] = []
        for model in models:
            if model is BLOCK_END:
                block.sort()
                yield from block
                block = []
            else:
                block.append(model)


#: What :func:`find_models` yields when a block (one column of row 0) is done.
BLOCK_END = None


def find_models(problem: Problem, run: SearchRun) -> Iterator[Solution | None]:
    """The solutions, block by block (one block per column of row 0, each followed by
    :data:`BLOCK_END`), in the order the solver finds them."""
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
        except OutOfTime:
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
    # block's first queen is a unit clause and every solution a fresh solver.
    incremental = name not in NON_INCREMENTAL
    blocking: list[list[int]] = []
    solver = None
    produced = 0
    try:
        # A blocked square of row 0 is no block: its assumption would fail at once.
        for first in problem.allowed_columns(0):
            found = 0
            wanted = None if problem.limit is None else problem.limit - produced
            while wanted is None or found < wanted:
                if solver is None:
                    solver = start(blocking if incremental else [*blocking, [first + 1]])
                if not _solve(solver, name, [first + 1] if incremental else [], run, label):
                    break
                queens = [lit for lit in solver.get_model()[: n * n] if lit > 0]
                solution = check_solution([(lit - 1) % n for lit in queens], problem, label)
                blocking.append([-lit for lit in queens])
                if incremental:
                    solver.add_clause(blocking[-1])
                else:
                    finish(solver)
                    solver = None
                found += 1
                yield solution
            if not incremental and solver is not None:
                finish(solver)
                solver = None
            yield BLOCK_END
            produced += found
            if run.timed_out:
                return
    finally:
        if solver is not None:
            finish(solver)


def models_in_child(problem: Problem, run: SearchRun) -> Iterator[Solution | None]:
    """:func:`find_models` in a child process, killed at ``run``'s deadline.

    Solutions and block ends are yielded as the child finds them (see
    :mod:`._sat_child`); at the deadline, on Ctrl-C or when the caller stops taking
    solutions, the child is killed, and the block under way ends there. A child
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
    child = subprocess.Popen(
        [sys.executable, "-m", f"{__package__}._sat_child"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # Ctrl-C reaches the caller, which ends the child
    )
    lines: queue.Queue[str | None] = queue.Queue()
    errors: list[str] = []

    def read_out() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.put(line)
        lines.put(None)

    def read_err() -> None:
        assert child.stderr is not None
        errors.extend(child.stderr.read().splitlines()[-3:])

    threading.Thread(target=read_out, daemon=True).start()
    err_reader = threading.Thread(target=read_err, daemon=True)
    err_reader.start()
    finished = False
    try:
        assert child.stdin is not None
        child.stdin.write(json.dumps(spec))
        child.stdin.close()
        while True:
            left = run.remaining()
            try:
                if left == 0:
                    raise queue.Empty  # lines may keep coming: the deadline comes first
                line = lines.get(timeout=left)
            except queue.Empty:
                run.mark_timed_out()
                yield BLOCK_END
                return
            if line is None:
                break
            if line.startswith("v "):
                columns = [int(c) for c in line[2:].split()]
                yield check_solution(columns, problem, label)
            elif line.startswith("c block"):
                yield BLOCK_END
            elif line.startswith("c stats "):
                run.stats.update(json.loads(line[len("c stats ") :]))
            elif line.startswith("s DONE"):
                finished = True
        child.wait()
        err_reader.join(1.0)
        if not finished or child.returncode != 0:
            said = " | ".join(e.strip() for e in errors if e.strip()) or "nothing on standard error"
            raise SolverError(f"{label} died (status {child.returncode}): {said}")
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def _solve(solver: Any, name: str, assumptions: list[int], run: SearchRun, label: str) -> bool:
    """One solver call under ``assumptions``; False when unsatisfiable or out of time.

    The call runs where the deadline and Ctrl-C can stop it (:func:`run_stoppable`):
    a solver pysat can interrupt is interrupted; CaDiCaL cannot be, so it solves in
    slices of :data:`SLICE_CONFLICTS` conflicts, keeping what it learnt, and the
    stop is seen between two slices. Kissat and Lingeling can be neither: with a
    time limit they run in a child process (:func:`models_in_child`); without one,
    Ctrl-C waits for their current call.
    """
    remaining = run.remaining()
    if remaining is not None and remaining <= 0:
        run.mark_timed_out()
        return False
    if name.startswith(("cadical", "cd")) and solver.nof_vars() <= QUICK_VARIABLES:
        # Most calls of an enumeration are easy: one runs here first, bounded by a
        # conflict budget (CaDiCaL's limits last one call), with no thread to start;
        # past the budget, the call goes on where the deadline can stop it.
        solver.conf_budget(QUICK_CONFLICTS)
        # Ctrl-C waits the few milliseconds of the call: pysat's own SIGINT handling in
        # the main thread leaves CaDiCaL in a state that aborts the process.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            found = solver.solve_limited(assumptions=assumptions)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        if found is not None:
            return found
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
