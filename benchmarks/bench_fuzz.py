"""What a hunt costs and what it finds: cpqueens.fuzz's rate, its overhead per run of the
target over running the program bare, and its time to the first failure of each mutant.

Run from the repository root:

    PYTHONPATH=. python benchmarks/bench_fuzz.py                  # about 6 minutes
    PYTHONPATH=. python benchmarks/bench_fuzz.py --quick          # about 2 minutes
    PYTHONPATH=. python benchmarks/bench_fuzz.py --budget 60 --mutants hang,mirror

Three measurements, in one run:

1. Rate. Two correct programs are hunted (``question="all"``, ``max_n=10``, seed 0)
   for ``--rate-budget`` seconds, ``--repeat`` times each, with the default relations
   and reference, on one worker and on two: ``queens.c``, examples/queens.c built with
   ``cc -O2`` into a temporary folder and run as ``Command("queens {n}")`` (a program
   told only the size: it is given plain boards only; skipped, with the reason, when
   ``fuzz`` refuses a command without ``{instance}`` or no C compiler is found), and
   ``correct.py``, tests/programs/mutants/correct.py, run as
   ``Command("python -S correct.py {instance}")`` (it reads each instance's JSON file).
   Printed: instances a second (``report.tried / report.seconds``), runs of the target
   a second, and the ratio of two workers to one.

2. Overhead per run of the target. Every run the hunt makes is recorded (the instance
   and the time spent in it, through a wrapper around the hunt's runner); each run that
   ended before the budget did is then run again bare, ``subprocess.run`` of the same
   command line on the same instance (its file written with ``cpqueens.write_instance``
   beforehand), output captured. The hunt's seconds a run are its wall time, minus the
   time of the one run cut by the end of the budget, divided by the runs that ended; the
   overhead a run is that minus the bare seconds a run. Two settings, one worker each:
   ``relations=[]`` and ``reference=None`` (each instance exactly one run of the target),
   and the defaults (each instance the run on it and, mostly, one run on a relation's
   partner, plus the reference's solve in this process, shown apart: the overhead is
   also given without it). Runs are counted, not instances.

3. Time to the first failure of each deliberately wrong program of
   tests/programs/mutants, hunted as ``Command("python -S NAME.py {instance}")`` with
   ``max_n=8``, ``time_limit=2``, seed 0, two workers and ``--budget`` seconds
   (``question="count"`` for count_overflow, ``"all"`` for the others): the smallest
   ``found_after`` of its failures and that failure's ``shrink_seconds``, the kind and
   instance of the smallest failure (``report.failures[0]``; "minimal": its shrinking
   ended, not cut by the budget), and whether that instance
   is the smallest failing instance stated in tests/house/test_mutants.py (``SMALLEST``):
   "exact", "near" (a size at most one apart and at most two squares more or fewer
   given or blocked), else "no".

4. Rate of each installed solver, in isolation. Every registered backend that can run
   here, and every solver behind one (its ``solver=`` values that run here:
   python-sat's, cpmpy's, MiniZinc's), is hunted as a backend target (each run in a
   process of its own forked from a warm one) for ``--solver-budget`` seconds, seed 0,
   ``max_n=10``, one worker, ``question="all"`` (``"decide"`` for a backend that does not
   search the whole space). Printed: instances a second, instances tried, failures and
   time-outs found (a failure here is a finding to report, with its reproduce line),
   and the slowdown the hunt allowed for the machine's load. ``--solvers none`` skips
   it; ``--solvers sat,cpmpy`` hunts those backends' solvers only.

Each figure is the median over ``--repeat`` repeats (3 at least; the settings are
interleaved within a repeat, so that other load on the machine hits them alike); the
mutants are hunted once each (a hunt of a fixed seed tries the same instances). The
load average is printed at the start and the end.

The overhead includes reading the program's output: every solution of n = 10 printed
one a line (724 lines) takes about 18 ms to read and check, n = 8 about 2 ms, n = 6 under
0.2 ms; ``--max-n 6`` measures the process handling alone.

Goals, checked at the end: overhead a run of the target at most 10 ms (a campaign pays
about 8 ms a run: benchmarks/bench_campaign.py); every mutant found within 60 s.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import cpqueens
from cpqueens.errors import InvalidInputError
from cpqueens.fuzzing import hunt as hunting

ROOT = Path(__file__).resolve().parents[1]
QUEENS_C = ROOT / "examples" / "queens.c"
MUTANTS = ROOT / "tests" / "programs" / "mutants"
CORRECT = MUTANTS / "correct.py"
MUTANT_NAMES = (
    "diagonal_sign",
    "last_column_blocks",
    "unchecked_givens",
    "mirror",
    "count_overflow",
    "dense_unsat",
    "last_row_crash",
    "hang",
)
COUNTING = {"count_overflow"}
RATE_MAX_N = 10
MUTANT_MAX_N = 8
MUTANT_TIME_LIMIT = 2.0
MUTANT_WORKERS = 2
SEED = 0
GOAL_OVERHEAD_MS = 10.0
GOAL_FOUND_S = 60.0

#: The settings of measurements 1 and 2: (label, workers, fuzz keywords).
SETTINGS = (
    ("defaults", 1, {}),
    ("one run", 1, {"relations": [], "reference": None}),
    ("defaults", 2, {}),
)


@dataclass
class Recorded:
    """What one hunt did: each run of the target, and the reference's time."""

    runs: list[tuple[cpqueens.Instance, float, float]] = field(default_factory=list)
    reference_seconds: float = 0.0


class Recorder:
    """Wraps the hunt's runner and reference look-ups to record every run and its time."""

    def __init__(self) -> None:
        self.now = Recorded()
        self.run = hunting.Runner.run
        self.expected = hunting.Hunt.expected

    def __enter__(self) -> Recorder:
        recorder, run, expected = self, self.run, self.expected

        def timed_run(runner, instance, question, limit, program=None):
            started = time.monotonic()
            answer = run(runner, instance, question, limit, program)
            ended = time.monotonic()
            recorder.now.runs.append((instance, ended - started, ended))
            return answer

        def timed_expected(hunt, instance):
            started = time.monotonic()
            answer = expected(hunt, instance)
            recorder.now.reference_seconds += time.monotonic() - started
            return answer

        hunting.Runner.run = timed_run
        hunting.Hunt.expected = timed_expected
        return self

    def __exit__(self, *exc: object) -> None:
        hunting.Runner.run = self.run
        hunting.Hunt.expected = self.expected

    def hunt(self, target: cpqueens.Command, budget: float, workers: int, **options):
        """One hunt, and what it ran: (report, Recorded, the clock's deadline)."""
        self.now = Recorded()
        started = time.monotonic()
        report = cpqueens.fuzz(
            target,
            question="all",
            budget=budget,
            seed=SEED,
            max_n=RATE_MAX_N,
            workers=workers,
            **options,
        )
        return report, self.now, started + budget


@dataclass
class Measured:
    """One hunt of measurements 1 and 2, with its bare replay (one worker only)."""

    tried: int
    seconds: float
    runs: int
    ended: int = 0
    fuzz_per_run: float | None = None
    bare_per_run: float | None = None
    reference_per_run: float | None = None

    @property
    def rate(self) -> float:
        return self.tried / self.seconds

    @property
    def runs_rate(self) -> float:
        return self.runs / self.seconds


def bare(target: cpqueens.Command, instances: list[cpqueens.Instance], folder: Path) -> float:
    """Mean seconds of ``subprocess.run`` of the target on each instance, as the hunt
    ran it (the files written before the clock starts)."""
    argvs = []
    for index, instance in enumerate(instances):
        path = None
        if target.takes_instance:
            path = folder / f"bare-{index}.json"
            cpqueens.write_instance(instance, path)
        argvs.append(target.argv(instance.n, None if path is None else str(path)))
    total = 0.0
    for argv in argvs:
        started = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, check=False)
        total += time.perf_counter() - started
        if done.returncode != 0:
            raise SystemExit(f"{target.name}: bare run {argv} failed: {done.stderr[-300:]!r}")
    return total / len(argvs)


def measure_once(
    recorder: Recorder,
    target: cpqueens.Command,
    budget: float,
    workers: int,
    options: dict,
    folder: Path,
) -> Measured:
    report, recorded, deadline = recorder.hunt(target, budget, workers, **options)
    if report.failures:
        # A correct program: a failure is a hunt's fault (or a run cut by the budget).
        print(
            f"  note: {target.name}, {workers} worker(s) {options or ''}: "
            f"{len(report.failures)} failure(s) reported, first: "
            f"{report.failures[0].kind} on {report.failures[0].instance!r} "
            f"({report.failures[0].observed})"
        )
    measured = Measured(report.tried, report.seconds, len(recorded.runs))
    if workers != 1:
        return measured
    ended = [(instance, seconds) for instance, seconds, end in recorded.runs if end < deadline]
    cut = sum(seconds for _, seconds, end in recorded.runs if end >= deadline)
    if not ended:
        return measured
    measured.ended = len(ended)
    measured.fuzz_per_run = (report.seconds - cut) / len(ended)
    measured.reference_per_run = recorded.reference_seconds / len(ended)
    measured.bare_per_run = bare(target, [instance for instance, _ in ended], folder)
    return measured


def targets(folder: Path) -> list[cpqueens.Command]:
    """The correct programs hunted in measurements 1 and 2 (queens.c when it can be)."""
    chosen = []
    compiler = shutil.which("cc")
    if compiler is None:
        print("skipped: queens.c (no cc found)")
    else:
        exe = folder / "queens"
        subprocess.run([compiler, "-O2", "-o", str(exe), str(QUEENS_C)], check=True)
        chosen.append(cpqueens.Command(f"{exe} {{n}}", name="queens.c"))
    chosen.append(
        cpqueens.Command([sys.executable, "-S", str(CORRECT), "{instance}"], name="correct.py")
    )
    return chosen


def warm_up(recorder: Recorder, chosen: list[cpqueens.Command]) -> list[cpqueens.Command]:
    """A short hunt of each (the reference's first solves, the imports, the sandbox's
    first fork); the targets fuzz accepts."""
    accepted = []
    for target in chosen:
        try:
            recorder.hunt(target, 1.5, 1)
        except InvalidInputError as error:
            print(f"skipped: {target.name} (fuzz refuses it: {error})")
            continue
        accepted.append(target)
    return accepted


def measure(
    recorder: Recorder, chosen: list[cpqueens.Command], budget: float, repeat: int, folder: Path
) -> dict:
    """Every setting of every target, ``repeat`` times, interleaved."""
    found: dict = {(t.name, s): [] for t in chosen for s in range(len(SETTINGS))}
    for i in range(repeat):
        order = list(range(len(SETTINGS)))
        order = order[i % len(order) :] + order[: i % len(order)]  # a different one first
        for target in chosen:
            for s in order:
                _, workers, options = SETTINGS[s]
                found[(target.name, s)].append(
                    measure_once(recorder, target, budget, workers, options, folder)
                )
    return found


def median(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.1f}"


def print_rates(chosen: list[cpqueens.Command], found: dict, budget: float, repeat: int) -> None:
    print(
        f"\n1. rate: question all, max_n {RATE_MAX_N}, seed {SEED}, budget {budget:g} s, "
        f"default relations and reference; median of {repeat}\n"
    )
    print(
        "| target | workers | instances | instances/s | runs/s | ms per instance "
        "| ratio to 1 worker |"
    )
    print("|:--|--:|--:|--:|--:|--:|--:|")
    for target in chosen:
        one = median([m.rate for m in found[(target.name, 0)]])
        for s, (label, workers, _) in enumerate(SETTINGS):
            if label != "defaults":
                continue
            runs = found[(target.name, s)]
            rate = median([m.rate for m in runs])
            print(
                f"| {target.name} | {workers} | {median([m.tried for m in runs]):.0f} "
                f"| {rate:.1f} | "
                f"{median([m.runs_rate for m in runs]):.1f} | "
                f"{ms(median([m.seconds / m.tried for m in runs]))} | {rate / one:.2f} |"
            )


def print_overheads(chosen: list[cpqueens.Command], found: dict, repeat: int) -> dict:
    print(f"\n2. overhead per run of the target, 1 worker, median of {repeat} (ms)\n")
    print(
        "| target | setting | runs | runs per instance | hunt per run | bare per run | "
        "ratio | reference per run | overhead per run | overhead, reference excluded |"
    )
    print("|:--|:--|--:|--:|--:|--:|--:|--:|--:|--:|")
    overheads = {}
    for target in chosen:
        for s, (_, workers, options) in enumerate(SETTINGS):
            if workers != 1:
                continue
            runs = found[(target.name, s)]
            hunt = median([m.fuzz_per_run for m in runs])
            alone = median([m.bare_per_run for m in runs])
            reference = median([m.reference_per_run for m in runs])
            over = median(
                [None if m.fuzz_per_run is None else m.fuzz_per_run - m.bare_per_run for m in runs]
            )
            harness = median(
                [
                    None
                    if m.fuzz_per_run is None
                    else m.fuzz_per_run - m.bare_per_run - m.reference_per_run
                    for m in runs
                ]
            )
            setting = "relations=[], reference=None" if options else "defaults"
            ratio = "-" if hunt is None or not alone else f"{hunt / alone:.1f}"
            print(
                f"| {target.name} | {setting} | {median([m.ended for m in runs]):.0f} | "
                f"{median([m.ended / m.tried for m in runs if m.tried]):.2f} | {ms(hunt)} | "
                f"{ms(alone)} | {ratio} | {ms(reference)} | {ms(over)} | {ms(harness)} |"
            )
            overheads[(target.name, setting)] = over if options else harness
    return overheads


def smallest_stated() -> dict:
    """tests/house/test_mutants.py's SMALLEST table (empty when it cannot be read)."""
    try:
        spec = importlib.util.spec_from_file_location(
            "bench_test_mutants", ROOT / "tests" / "test_mutants.py"
        )
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return dict(module.SMALLEST)
    except Exception as error:  # only the match column is lost
        print(f"note: tests/house/test_mutants.py not read ({type(error).__name__}: {error})")
        return {}


def matches(found: cpqueens.Instance, stated: cpqueens.Instance | None) -> str:
    if stated is None:
        return "?"
    if found == stated:
        return "exact"
    squares = len(found.fixed) + len(found.blocked) - len(stated.fixed) - len(stated.blocked)
    return "near" if abs(found.n - stated.n) <= 1 and abs(squares) <= 2 else "no"


def hunt_mutants(names: list[str], budget: float) -> dict:
    stated = smallest_stated()
    print(
        f"\n3. mutants: max_n {MUTANT_MAX_N}, time_limit {MUTANT_TIME_LIMIT:g} s, seed {SEED}, "
        f"{MUTANT_WORKERS} workers, budget {budget:g} s each\n"
    )
    print(
        "| mutant | question | instances | failures | first found after (s) | its shrinking (s) | "
        "kind of the smallest | smallest instance | minimal | stated | match |"
    )
    print("|:--|:--|--:|--:|--:|--:|:--|:--|:--|:--|:--|")
    found = {}
    for name in names:
        question = "count" if name in COUNTING else "all"
        target = cpqueens.Command(
            [sys.executable, "-S", str(MUTANTS / f"{name}.py"), "{instance}"], name=name
        )
        report = cpqueens.fuzz(
            target,
            question=question,
            budget=budget,
            seed=SEED,
            max_n=MUTANT_MAX_N,
            time_limit=MUTANT_TIME_LIMIT,
            workers=MUTANT_WORKERS,
        )
        expected = stated.get(name)
        # A hang is found as time-outs, kept apart from the wrong answers.
        failures = report.failures or report.timeouts
        if not failures:
            found[name] = None
            print(
                f"| {name} | {question} | {report.tried} | 0 | - | - | - | - | - "
                f"| {expected!r} | no |"
            )
            continue
        first = min(failures, key=lambda failure: failure.found_after)
        smallest = failures[0]
        found[name] = first.found_after
        print(
            f"| {name} | {question} | {report.tried} | {len(failures)} "
            f"| {first.found_after:.2f} | {first.shrink_seconds:.2f} | {smallest.kind} "
            f"| {smallest.instance!r} | {'yes' if smallest.minimal else 'no'} "
            f"| {expected!r} | {matches(smallest.instance, expected)} |"
        )
    return found


def solver_targets(backends: list[str] | None) -> list[tuple[str, dict]]:
    """Every backend that runs here, with each of its solvers that runs here."""
    from cpqueens.solvers import REGISTRY

    chosen = []
    for name, backend in REGISTRY.items():
        if (backends is not None and name not in backends) or not backend.is_available():
            continue
        solvers = backend.solvers_here() if "solver" in backend.options else ()
        chosen += [(name, {"solver": solver}) for solver in solvers] or [(name, {})]
    return chosen


def hunt_solvers(backends: list[str] | None, budget: float) -> None:
    """Measurement 4: each installed solver hunted alone; instances a second."""
    from cpqueens.solvers import REGISTRY

    print(f"\n4. each installed solver hunted alone ({budget:.0f} s, max_n 10, seed 0, "
          "one worker, each run isolated):")  # fmt: skip
    print(f"  {'target':34} {'inst/s':>7} {'tried':>6} {'failures':>8} {'time-outs':>9} "
          f"{'slowdown':>8}")  # fmt: skip
    for name, options in solver_targets(backends):
        question = "all" if REGISTRY[name].exhaustive else "decide"
        label = name + (f" ({options['solver']})" if options else "")
        try:
            report = cpqueens.fuzz(name, options=options, question=question, budget=budget,
                                   seed=0, max_n=10, time_limit=5.0)  # fmt: skip
        except cpqueens.CPQueensError as error:
            print(f"  {label:34} not hunted: {error}")
            continue
        rate = report.tried / report.seconds if report.seconds else 0.0
        print(f"  {label:34} {rate:7.1f} {report.tried:6d} {len(report.failures):8d} "
              f"{len(report.timeouts):9d} {report.load[2]:8.2f}")  # fmt: skip
        for failure in report.failures + report.timeouts:
            print(f"      {failure.kind}: {failure.instance!r}; {failure.observed}")
            print(f"      reproduce: {failure.reproduce}")


def main() -> None:
    global RATE_MAX_N
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--budget", type=float, default=30.0, help="seconds per mutant's hunt (default 30)"
    )
    parser.add_argument(
        "--rate-budget",
        type=float,
        default=4.0,
        help="seconds per hunt of measurements 1 and 2 (default 4)",
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="repeats of measurements 1 and 2 (at least 3)"
    )
    parser.add_argument(
        "--mutants", default=",".join(MUTANT_NAMES), help="which mutants (default all)"
    )
    parser.add_argument(
        "--max-n",
        type=int,
        default=10,
        help="largest board of measurements 1 and 2 (default 10; at 6 a program's "
        "output is a few lines, and the overhead is the process handling alone)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="short budgets: --rate-budget 2, --budget 8"
    )
    parser.add_argument(
        "--solvers",
        default="all",
        help="measurement 4: all (default), none, or backends A,B (each of their solvers)",
    )
    parser.add_argument(
        "--solver-budget",
        type=float,
        default=5.0,
        help="seconds per solver's hunt in measurement 4 (default 5)",
    )
    args = parser.parse_args()
    RATE_MAX_N = args.max_n
    if args.quick:
        args.rate_budget, args.budget = min(args.rate_budget, 2.0), min(args.budget, 8.0)
    if args.repeat < 3:
        parser.error("--repeat must be at least 3 (the figures are medians)")
    names = [name.strip() for name in args.mutants.split(",") if name.strip()]
    unknown = set(names) - set(MUTANT_NAMES)
    if unknown:
        parser.error(f"unknown mutants: {', '.join(sorted(unknown))}")

    load = os.getloadavg()
    print(
        f"{os.cpu_count()} cores, load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the start; "
        f"python {sys.version.split()[0]}, cpqueens {cpqueens.__version__}"
    )
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bench-fuzz-") as name, Recorder() as recorder:
        folder = Path(name)
        chosen = warm_up(recorder, targets(folder))
        found = measure(recorder, chosen, args.rate_budget, args.repeat, folder) if chosen else {}
    if chosen:
        print_rates(chosen, found, args.rate_budget, args.repeat)
        overheads = print_overheads(chosen, found, args.repeat)
    else:
        overheads = {}
    first = hunt_mutants(names, args.budget)
    if args.solvers != "none":
        backends = None if args.solvers == "all" else args.solvers.split(",")
        hunt_solvers(backends, args.solver_budget)
    load = os.getloadavg()
    print(
        f"\nload {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the end; "
        f"{time.monotonic() - started:.0f} s in all\n"
    )
    print("goals:")
    for (target, setting), over in overheads.items():
        what = "overhead per run" + (", reference excluded" if setting == "defaults" else "")
        met = "met" if over is not None and over * 1000 <= GOAL_OVERHEAD_MS else "NOT met"
        print(
            f"  {target} ({setting}): goal: {what} <= {GOAL_OVERHEAD_MS:.0f} ms: "
            f"{met} ({ms(over)} ms)"
        )
    for name, after in first.items():
        met = "met" if after is not None and after <= GOAL_FOUND_S else "NOT met"
        seen = "not found" if after is None else f"{after:.1f} s"
        print(f"  {name}: goal: found within {GOAL_FOUND_S:.0f} s: {met} ({seen})")


if __name__ == "__main__":
    main()
