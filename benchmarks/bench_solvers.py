"""The solver families side by side, and each against its library driven bare.

    PYTHONPATH=. python benchmarks/bench_solvers.py               # everything below
    PYTHONPATH=. python benchmarks/bench_solvers.py --part table --sizes 8-10
    PYTHONPATH=. python benchmarks/bench_solvers.py --part choco --repeat 5
    PYTHONPATH=. python benchmarks/bench_solvers.py --part sat --repeat 7 --cpu

Parts (``--part``, default all of them):

* ``table``: every available backend's time to list every solution for n = 8..12,
  medians of ``--repeat`` runs, all backends at one n in turn within each repeat so
  that the load of the machine falls on all alike; a backend slower than ``--cap``
  seconds at one n is left out of the larger ones.
* ``encodings``: the sat backend under each of pysat's encodings at n=10.
* ``choco``: the choco backend at n=11 and 12 against the same model driven by bare
  pychoco (``find_all_solutions``, values read from each solution); goal <= 1.2x.
* ``sat``: the sat backend at n=11 and 12 (CaDiCaL, the default solver; Glucose and
  MiniSat at n=11) against a bare python-sat loop, same encoding and solver, one
  blocking clause per solution, with and without the backend's implied clause per
  column; goal <= 1.0x. On a plain board the backend searches the blocks of the left
  half and hands on their mirror images (the bare loop searches the whole board).
* ``cpsat``: the cpsat backend at n=11 and 12 against one bare CP-SAT run of the same
  model (one integer per row, three all-different), the same fixed search and
  parameters, one worker, ``enumerate_all_solutions`` and a callback that reads each
  row's value; also the backend with ``split_depth=0`` (one run, no blocks), whose
  ratio is the cost of the backend's own layers; goal <= 1.2x.
* ``cpmpy``: the cpmpy backend against cpmpy's own ``solveAll`` on the same model,
  for each solver cpmpy finds installed, at n=10, or n=8 for the solvers that take
  over half a second there (those without a native enumeration re-solve once per
  solution); goal <= 1.2x.

Every ratio is the backend's median over the bare median: below 1 the backend is
faster; each part prints whether its goal is met. A part's first run of each solver
(imports, a JVM's start) is made before the timed ones. The figures in
docs/backends.md come from this script.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from collections.abc import Callable

import cpqueens
from cpqueens.solvers import REGISTRY

PARTS = ("table", "encodings", "choco", "sat", "cpsat", "cpmpy")


#: The clock of every measure: the wall clock, or with ``--cpu`` the process's CPU time.
clock = time.perf_counter


def timed(task: Callable[[], int]) -> tuple[float, int]:
    start = clock()
    count = task()
    return clock() - start, count


def backend_run(n: int, backend: str, **options) -> Callable[[], int]:
    return lambda: len(cpqueens.solve(n, backend=backend, **options).solutions)


def side_by_side(tasks: dict[str, Callable[[], int]], repeat: int) -> dict[str, float]:
    """Median seconds of each task, the tasks taking turns within each repeat."""
    seconds: dict[str, list[float]] = {name: [] for name in tasks}
    counts: dict[str, int] = {}
    for _ in range(repeat):
        for name, task in tasks.items():
            elapsed, counts[name] = timed(task)
            seconds[name].append(elapsed)
    if len(set(counts.values())) > 1:
        sys.exit(f"the runs disagree on the number of solutions: {counts}")
    return {name: statistics.median(times) for name, times in seconds.items()}


def bare_choco(n: int) -> Callable[[], int]:
    """The choco backend's model and search, listed by pychoco's find_all_solutions."""

    def run() -> int:
        from pychoco import Model

        model = Model()
        rows = [model.intvar(0, n - 1) for _ in range(n)]
        model.all_different(rows).post()
        model.all_different([model.int_offset_view(q, r) for r, q in enumerate(rows)]).post()
        model.all_different([model.int_offset_view(q, -r) for r, q in enumerate(rows)]).post()
        solver = model.get_solver()
        solver.set_input_order_lb_search(*rows)
        found = [tuple(s.get_int_val(q) for q in rows) for s in solver.find_all_solutions()]
        return len(found)

    return run


def bare_sat(n: int, encoding: str, name: str, columns: bool = False) -> Callable[[], int]:
    """One loop over the whole board: solve, read the queens, forbid them, again.

    The formula is the plain one (a clause per row, at-most-ones everywhere);
    ``columns=True`` adds the backend's implied clause per column.
    """

    def run() -> int:
        from pysat.card import CardEnc, EncType
        from pysat.formula import IDPool
        from pysat.solvers import Solver

        squares = [[r * n + c + 1 for c in range(n)] for r in range(n)]
        lines = [*squares, *zip(*squares, strict=True)]
        for d in range(2 * n - 1):
            lines.append([squares[r][d - r] for r in range(n) if 0 <= d - r < n])
            lines.append([squares[r][d - n + 1 + r] for r in range(n) if 0 <= d - n + 1 + r < n])
        pool = IDPool(start_from=n * n + 1)
        clauses = [list(line) for line in lines[: 2 * n if columns else n]]
        for line in lines:
            if len(line) > 1:
                clauses += CardEnc.atmost(
                    list(line), 1, vpool=pool, encoding=getattr(EncType, encoding)
                ).clauses
        found = []
        with Solver(name=name, bootstrap_with=clauses) as solver:
            while solver.solve():
                queens = [lit for lit in solver.get_model()[: n * n] if lit > 0]
                found.append(tuple((lit - 1) % n for lit in queens))
                solver.add_clause([-lit for lit in queens])
        return len(found)

    return run


def bare_cpsat(n: int) -> Callable[[], int]:
    """The cpsat backend's row model, its fixed search and parameters, in one CP-SAT run.

    One worker enumerating every solution, a callback that reads each row's value;
    the backend instead splits the board into blocks on its first rows.
    """

    def run() -> int:
        from ortools.sat.python import cp_model

        from cpqueens.solvers.cpsat import BLOCK_PARAMETERS

        model = cp_model.CpModel()
        rows = [model.new_int_var(0, n - 1, f"q{r}") for r in range(n)]
        model.add_all_different(rows)
        model.add_all_different(q + r for r, q in enumerate(rows))
        model.add_all_different(q - r for r, q in enumerate(rows))
        model.add_decision_strategy(rows, cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE)
        found: list[tuple[int, ...]] = []

        class Reader(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                found.append(tuple(self.value(q) for q in rows))

        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.search_branching = cp_model.FIXED_SEARCH
        for key, value in BLOCK_PARAMETERS.items():
            setattr(solver.parameters, key, value)
        solver.solve(model, Reader())
        return len(found)

    return run


def bare_cpmpy(n: int, name: str) -> Callable[[], int]:
    """The cpmpy backend's model, enumerated by the solver's solveAll."""

    def run() -> int:
        import cpmpy as cp

        q = [cp.intvar(0, n - 1, name=f"q{r}") for r in range(n)]
        model = cp.Model(
            cp.AllDifferent(q),
            cp.AllDifferent([q[r] + r for r in range(n)]),
            cp.AllDifferent([q[r] - r for r in range(n)]),
        )
        found = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            solver = cp.SolverLookup.get(name, model)
            solver.solveAll(display=lambda: found.append(tuple(int(v.value()) for v in q)))
        return len(found)

    return run


def ratio_lines(title: str, medians: dict[str, float], pairs, goal: float) -> None:
    print(f"\n{title}")
    width = max(map(len, medians)) + 2
    for name, median in medians.items():
        print(f"  {name:<{width}}{median:9.3f} s")
    for ours, bare in pairs:
        ratio = medians[ours] / medians[bare]
        verdict = "met" if ratio <= goal else "NOT met"
        print(f"  {ours} / {bare}: {ratio:.2f}x (goal <= {goal}x: {verdict})")


def part_table(sizes: list[int], repeat: int, cap: float) -> None:
    names = [
        name for name, b in REGISTRY.items() if b.enumerates and b.exhaustive and b.is_available()
    ]
    for name in names:  # imports, compilation, first model builds: not timed
        cpqueens.solve(6, backend=name)
    grid: dict[str, dict[int, float]] = {name: {} for name in names}
    for n in sizes:
        running = [name for name in names if all(t <= cap for t in grid[name].values())]
        medians = side_by_side({name: backend_run(n, name) for name in running}, repeat)
        for name, median in medians.items():
            grid[name][n] = median
        print(f"  n={n} done", file=sys.stderr)
    print(f"\nseconds to list every solution (median of {repeat}), '-': over {cap} s before")
    print("backend".ljust(12) + "".join(f"n={n}".rjust(10) for n in sizes))
    for name in names:
        cells = [f"{grid[name][n]:.3f}" if n in grid[name] else "-" for n in sizes]
        print(name.ljust(12) + "".join(cell.rjust(10) for cell in cells))


def part_encodings(repeat: int) -> None:
    from cpqueens.solvers.sat.backend import ENCODINGS

    tasks = {  # native needs a solver with cardinality constraints
        encoding: (
            backend_run(10, "sat", encoding=encoding, solver="minicard")
            if encoding == "native"
            else backend_run(10, "sat", encoding=encoding)
        )
        for encoding in ENCODINGS
    }
    medians = side_by_side(tasks, repeat)
    sizes = {
        e: cpqueens.solve(4, backend="sat", encoding=e, solver="minicard").stats for e in tasks
    }
    print(f"\nsat at n=10 (724 solutions), cadical195 (native: minicard), median of {repeat}")
    print(f"  {'encoding':<13}{'seconds':>9}{'vars (n=4)':>12}{'clauses (n=4)':>15}")
    for encoding, median in medians.items():
        stats = sizes[encoding]
        print(f"  {encoding:<13}{median:9.3f}{stats['variables']:12}{stats['clauses']:15}")


def part_choco(repeat: int) -> None:
    backend_run(6, "choco")(), bare_choco(6)()  # the JVM's start, first model: not timed
    for n in (11, 12):
        medians = side_by_side(
            {"choco backend": backend_run(n, "choco"), "bare pychoco": bare_choco(n)}, repeat
        )
        ratio_lines(f"choco at n={n}", medians, [("choco backend", "bare pychoco")], 1.2)


def part_sat(repeat: int) -> None:
    encoding = "seqcounter"
    # The default solver at both sizes; the others at n=11, where their bare loop
    # already takes seconds.
    runs = [("cadical195", 11), ("cadical195", 12), ("glucose4", 11), ("minisat22", 11)]
    for solver, n in runs:
        backend_run(6, "sat", solver=solver)()  # the solver's first start: not timed
        medians = side_by_side(
            {
                "sat backend": backend_run(n, "sat", solver=solver, encoding=encoding),
                "bare loop": bare_sat(n, encoding, solver),
                "bare loop + column clauses": bare_sat(n, encoding, solver, columns=True),
            },
            repeat,
        )
        title = f"sat at n={n}, {solver}, {encoding}"
        pairs = [("sat backend", "bare loop"), ("sat backend", "bare loop + column clauses")]
        ratio_lines(title, medians, pairs, 1.0)


def part_cpsat(repeat: int) -> None:
    backend_run(6, "cpsat")(), bare_cpsat(6)()  # imports, first solver: not timed
    for n in (11, 12):
        medians = side_by_side(
            {
                "cpsat backend": backend_run(n, "cpsat"),
                "cpsat backend, split_depth=0": backend_run(n, "cpsat", split_depth=0),
                "bare CP-SAT": bare_cpsat(n),
            },
            repeat,
        )
        pairs = [("cpsat backend", "bare CP-SAT"), ("cpsat backend, split_depth=0", "bare CP-SAT")]
        ratio_lines(f"cpsat at n={n}, one worker", medians, pairs, 1.2)


def part_cpmpy(repeat: int) -> None:
    from cpqueens.solvers.cpmpy import _looked_up_solvers

    for solver in _looked_up_solvers()[0]:
        seconds, _ = timed(bare_cpmpy(8, solver))  # also keeps the first import untimed
        # n=8 takes the solvers that re-solve per solution a second or more; the
        # native enumerators get n=10, where there is something to measure.
        n = 10 if seconds < 0.5 else 8
        ours, bare = backend_run(n, "cpmpy", solver=solver), bare_cpmpy(n, solver)
        medians = side_by_side({"cpmpy backend": ours, "bare solveAll": bare}, repeat)
        title = f"cpmpy at n={n}, solver {solver}"
        ratio_lines(title, medians, [("cpmpy backend", "bare solveAll")], 1.2)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=PARTS, action="append", help="default: all")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sizes", default="8-12", help="table sizes, as 8-12")
    parser.add_argument("--cap", type=float, default=20.0, help="table: seconds per run")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time by the process's CPU time (all its threads), not the wall clock: "
        "steadier on a busy machine, where waiting for a core counts in wall time",
    )
    args = parser.parse_args(argv)
    if args.cpu:
        global clock
        clock = time.process_time
    low, _, high = args.sizes.partition("-")
    sizes = list(range(int(low), int(high or low) + 1))
    parts = args.part or PARTS
    if "table" in parts:
        part_table(sizes, args.repeat, args.cap)
    if "encodings" in parts:
        part_encodings(args.repeat)
    if "choco" in parts:
        part_choco(args.repeat)
    if "sat" in parts:
        part_sat(args.repeat)
    if "cpsat" in parts:
        part_cpsat(args.repeat)
    if "cpmpy" in parts:
        part_cpmpy(args.repeat)


if __name__ == "__main__":
    main()
