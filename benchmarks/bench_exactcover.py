"""The ``exactcover`` backend against ``sat``, ``cpsat`` and a C reference, on blocked boards.

Run from the repository root:

    PYTHONPATH=. python benchmarks/bench_exactcover.py                  # n = 28..56 by 4, 2 each
    PYTHONPATH=. python benchmarks/bench_exactcover.py --instances 5 --sizes 28,56
    PYTHONPATH=. python benchmarks/bench_exactcover.py --only exactcover,c --instances 20
    PYTHONPATH=. python benchmarks/bench_exactcover.py --scan           # where is it hardest?
    PYTHONPATH=. python benchmarks/bench_exactcover.py --rows-only      # what columns are worth
    PYTHONPATH=. python benchmarks/bench_exactcover.py --dlx            # dancing links instead
    PYTHONPATH=. python benchmarks/bench_exactcover.py --baseline --instances 3  # no slowdown?
    PYTHONPATH=. python benchmarks/bench_exactcover.py --large --instances 3 --solver-limit 10

Instances: ``cpqueens.random_blocked(n, m, seed=s)`` (the generator of Gent et al.:
squares in a seeded random order, each blocked while its row and its column keep a
free square, until m are blocked), with m at the hardest density of each n: where
about half the instances have a solution (:func:`hardest_blocked`, found with
``--scan``). Each instance is decided (``limit=1``) by ``exactcover``, the C
reference (benchmarks/exactcover_reference.c, built here with ``gcc -O2
-march=native``), ``sat`` and ``cpsat`` with one worker, in turn (so that other load
on the machine hits all alike), after one untimed call of each has loaded its
compiled code. Printed per instance: seconds, the ratios, both node counts (equal:
the same search, the same ties) and nodes per second; then the medians of the
per-instance ratios against the goals: exactcover at most 0.1x sat, 0.05x cpsat
and 2.5x the C reference (its search time, ``stats["search_seconds"]``, against C's
own clock; the whole call is printed too). A backend that does not take blocked
squares here is skipped with a note. ``sat`` and ``cpsat`` get ``--solver-limit``
seconds per instance; a run cut there counts with that time (so its ratio is an
upper bound, marked ``<``). The medians are also given over the instances that
took the other backend :data:`HARD_SECONDS` or more, with the ratio of total times:
on easy instances the fixed costs of a call (checking the blocked squares, building
a model) are most of the time.

``--baseline``: the search seconds of today's backend against the kernel of
:data:`BASELINE_COMMIT` (one word a mask, before boards past 64), read with git and
run beside it in turn, each the median of ``--repeats`` runs (on a loaded machine a run
now and then loses a time slice, 12 ms, most of a small search), and the times recorded
then (:data:`RECORDED`); the goal: at most :data:`SLOWDOWN_GOAL` times as long.
``--large``: n = 64, 96, 128 (several words a mask past 64), blocked instances at
:func:`hardest_blocked` (the line of n = 28..56, extended) and random completions
(:data:`COMPLETION_SHARE`), decided by exactcover, the C reference (cut at
exactcover's nodes when the time limit cut exactcover), sat, cpsat and propagate.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import cpqueens
from cpqueens.reporting.page.machine import cpu_model
from cpqueens.solvers import REGISTRY

sys.path.insert(0, str(Path(__file__).resolve().parent))
import exactcover_dlx as other  # beside this file: the other ways to run the search

HERE = Path(__file__).resolve().parent
#: Free squares per row (n - m / n) where about half the instances have a solution:
#: ``HARDEST_FREE + HARDEST_SLOPE * (n - 28)``, the least-squares line through the
#: estimates of ``--scan`` for n = 28..56 (see docs/backends.md).
HARDEST_FREE, HARDEST_SLOPE = 6.75, 0.011
#: Largest median ratio that meets each goal.
GOALS = {"sat": 0.1, "cpsat": 0.05, "c": 2.5}
SOLVERS = ("sat", "cpsat")
#: Instances on which the other backend took this long or more are summed up apart.
HARD_SECONDS = 0.1
#: ``--baseline``: the commit of the one-word search before boards past 64 (run beside
#: today's), and its search seconds measured on 2026-11-27 (medians of 3 runs of
#: ``--only exactcover,c --instances 3``): per n, seeds 1, 2, 3 at :func:`hardest_blocked`.
BASELINE_COMMIT, SLOWDOWN_GOAL = "c0e4202", 1.05
RECORDED = {
    28: (0.0004, 0.0002, 0.0012), 32: (0.0019, 0.0014, 0.0022), 36: (0.0013, 0.0010, 0.0059),
    40: (0.0002, 0.0243, 0.0048), 44: (0.0004, 0.0015, 0.0264), 48: (0.0067, 0.0006, 0.2002),
    52: (0.0000, 0.9521, 0.8146), 56: (0.4291, 1.5230, 0.2817),
}  # fmt: skip
#: ``--large``: given queens of a random completion, a share of n where about half of
#: the instances can be completed (0.7 at n = 64, 0.8 at 128: 12 instances a point).
COMPLETION_SHARE, COMPLETION_SLOPE = 0.6, 1 / 640


def parse_sizes(text: str) -> list[int]:
    """``28-56`` (every fourth size), ``28-56/2`` (every second) or ``28,40,56``."""
    if "-" in text:
        span, _, step = text.partition("/")
        low, high = span.split("-")
        return list(range(int(low), int(high) + 1, int(step or 4)))
    return [int(part) for part in text.split(",")]


def hardest_blocked(n: int) -> int:
    """How many squares to block on an n x n board to be near its hardest density.

    >>> hardest_blocked(28), hardest_blocked(56)
    (595, 2741)
    """
    free = HARDEST_FREE + HARDEST_SLOPE * (n - 28)
    return round(n * (n - free))


def instances(sizes: list[int], count: int, first_seed: int, blocked=None) -> list:
    """``count`` instances of each size, seeded from ``first_seed`` on: (seed, instance)."""
    return [
        (seed, cpqueens.random_blocked(n, blocked or hardest_blocked(n), seed=seed))
        for n in sizes
        for seed in range(first_seed, first_seed + count)
    ]


# --- the C reference ------------------------------------------------------------------


def build_reference(folder: Path) -> Path:
    compiler = shutil.which("gcc")
    if compiler is None:
        sys.exit("gcc not found: the C reference cannot be built")
    binary = folder / "exactcover_reference"
    source = HERE / "exactcover_reference.c"
    # -march=native: numba compiles the backend for this processor too (popcnt, tzcnt).
    command = [compiler, "-O2", "-march=native", "-o", str(binary), str(source)]
    subprocess.run(command, check=True)
    return binary


def instance_text(instance) -> str:
    """The C reference's input: a given queen is its row's other squares blocked."""
    given = dict(instance.fixed)
    blocked = [(r, c) for r, c in instance.blocked if r not in given]
    blocked += [(r, c) for r, q in given.items() for c in range(instance.n) if c != q]
    squares = "".join(f"{r} {c}\n" for r, c in blocked)
    return f"{instance.n} {len(blocked)}\n{squares}"


def run_reference(binary: Path, instance, *flags: str) -> tuple[int, int, float]:
    """(solutions found, -1 when cut at a node limit; nodes; seconds) of one instance."""
    out = subprocess.run(
        [str(binary), *flags], input=instance_text(instance), capture_output=True, text=True
    )
    if out.returncode:
        sys.exit(f"the C reference failed: {out.stderr.strip()}")
    found, nodes, seconds = out.stdout.split()
    return int(found), int(nodes), float(seconds)


# --- the backends ---------------------------------------------------------------------


@dataclass
class Run:
    seconds: float
    answer: bool | None  # None: cut by the time limit
    stats: dict = field(default_factory=dict)


def decide(backend: str, instance, time_limit: float | None = None) -> Run:
    options = {"workers": 1} if backend == "cpsat" else {}
    start = time.perf_counter()
    result = cpqueens.solve(instance, backend=backend, limit=1, time_limit=time_limit, **options)
    seconds = time.perf_counter() - start
    return Run(seconds, result.satisfiable, dict(result.stats))


def usable(names: list[str]) -> list[str]:
    """The backends of ``names`` that run here and take blocked squares; notes for the rest."""
    kept = []
    for name in names:
        backend = REGISTRY.get(name)
        if backend is None:
            print(f"note: no backend {name!r} registered here: skipped")
        elif not backend.is_available():
            print(f"note: backend {name!r} is not installed here ({backend.install_hint}): skipped")
        elif not backend.supports_blocked:
            print(f"note: backend {name!r} does not take blocked squares yet: skipped")
        else:
            kept.append(name)
    return kept


def warm_up(names: list[str]) -> None:
    """Load each backend's compiled code and solver library once, untimed."""
    small = cpqueens.Instance(8, blocked=[(0, 0), (3, 4), (7, 7)])
    for name in names:
        REGISTRY[name].load_kernels()  # every kernel: one word a mask and several
        decide(name, small)


# --- the comparison -------------------------------------------------------------------


def compare(args: argparse.Namespace, binary: Path | None) -> int:
    solvers = usable([name for name in SOLVERS if name in args.only])
    wanted_c = "c" in args.only
    warm_up(["exactcover", *solvers])
    # Per comparison, per instance: (exactcover's seconds, the other's seconds).
    times: dict[str, list[tuple[float, float]]] = {"c": [], "sat": [], "cpsat": []}
    cut: dict[str, int] = {"sat": 0, "cpsat": 0}
    began = time.perf_counter()
    disagreements = 0
    header = f"{'n':>3} {'m':>5} {'seed':>4} {'sat?':>5} {'exactcover s':>12} {'search s':>9}"
    if wanted_c:
        header += f" {'C s':>8} {'x C':>6} {'nodes':>11} {'C nodes':>11} {'Mnodes/s':>8} {'C':>5}"
    for name in solvers:
        header += f" {name + ' s':>9} {'x ' + name:>8}"
    print(header)
    whole_calls: list[float] = []
    for seed, instance in instances(args.sizes, args.instances, args.seed, args.blocked):
        mine = decide("exactcover", instance)
        answers = {mine.answer}
        search = mine.stats["search_seconds"]
        nodes = mine.stats["nodes"]
        line = (
            f"{instance.n:>3} {len(instance.blocked):>5} {seed:>4} {_yes(mine.answer):>5} "
            f"{mine.seconds:>12.4f} {search:>9.4f}"
        )
        if wanted_c:
            found, c_nodes, c_seconds = run_reference(binary, instance)
            c_seconds = max(c_seconds, 1e-6)  # the clock's grain, for a search of a few nodes
            answers.add(bool(found))
            ratio = search / c_seconds
            times["c"].append((search, c_seconds))
            whole_calls.append(mine.seconds / c_seconds)
            same = "" if c_nodes == nodes else " DIFFERENT"
            line += (
                f" {c_seconds:>8.4f} {ratio:>6.2f} {nodes:>11,} {c_nodes:>11,}{same}"
                f" {_rate(nodes, search):>8} {_rate(c_nodes, c_seconds):>5}"
            )
        for name in solvers:
            theirs = decide(name, instance, args.solver_limit)
            mark = " "
            if theirs.answer is None:
                cut[name] += 1
                mark = "<"
            else:
                answers.add(theirs.answer)
            ratio = mine.seconds / theirs.seconds
            times[name].append((mine.seconds, theirs.seconds))
            line += f" {theirs.seconds:>9.3f} {mark}{ratio:>7.4f}"
        if len(answers) > 1:
            disagreements += 1
            line += "  ANSWERS DIFFER"
        print(line, flush=True)
    print()
    print(f"{time.perf_counter() - began:.0f} s in all; medians of the per-instance ratios:")
    for name, pairs in times.items():
        if not pairs:
            continue
        label = {"c": "exactcover search / C search"}.get(name, f"exactcover / {name}")
        median = statistics.median(mine / theirs for mine, theirs in pairs)
        extra = f" ({cut[name]} run(s) cut at {args.solver_limit:g} s)" if cut.get(name) else ""
        print(f"  {_verdict(label, median, GOALS[name])}{extra}")
        if name == "c":
            # The whole call (the front's checks, the chunked driver) as well, for the
            # record: on easy instances it is mostly fixed cost.
            print(
                f"    the whole call of exactcover / C search: median "
                f"{statistics.median(whole_calls):.2f}x"
            )
            continue
        # The fixed costs of a call (checking the blocked squares, building a model)
        # weigh on the easy instances; the hard ones show the searches.
        hard = [mine / theirs for mine, theirs in pairs if theirs >= HARD_SECONDS]
        total = sum(mine for mine, _ in pairs) / sum(theirs for _, theirs in pairs)
        where = f"median {statistics.median(hard):.3f}x" if hard else "none"
        print(
            f"    where {name} took {HARD_SECONDS:g} s or more ({len(hard)} of {len(pairs)}): "
            f"{where}; total time {total:.3f}x"
        )
    if disagreements:
        print(f"{disagreements} instance(s) got different answers")
    return 1 if disagreements else 0


def _yes(answer: bool | None) -> str:
    return {True: "yes", False: "no", None: "?"}[answer]


def _rate(nodes: int, seconds: float) -> str:
    return f"{nodes / seconds / 1e6:.1f}" if seconds > 0 else "-"


def _verdict(label: str, value: float, goal: float) -> str:
    outcome = "met" if value <= goal else "NOT met"
    return f"{label}: {value:.3f}x (goal <= {goal}x) {outcome}"


# --- the other measurements -----------------------------------------------------------


def scan(args: argparse.Namespace) -> int:
    """Decide many instances per density with exactcover; find where half have a solution."""
    warm_up(["exactcover"])
    print(f"{args.scan_instances} instances per point; free squares per row = n - m / n")
    print(f"{'n':>3} {'free/row':>8} {'m':>5} {'solvable':>9} {'median nodes':>12} {'max s':>7}")
    found = {}
    for n in args.sizes:
        points = []
        for step in range(args.scan_points):
            free = args.scan_low + step * args.scan_step
            m = round(n * (n - free))
            batch = instances([n], args.scan_instances, 0, m)
            runs = [decide("exactcover", instance) for _, instance in batch]
            share = sum(bool(run.answer) for run in runs) / len(runs)
            points.append((free, share))
            nodes = statistics.median(run.stats["nodes"] for run in runs)
            slowest = max(run.seconds for run in runs)
            print(
                f"{n:>3} {free:>8.2f} {m:>5} {share:>9.0%} {nodes:>12,.0f} {slowest:>7.3f}",
                flush=True,
            )
        found[n] = _half_way(points)
    print("free squares per row where half have a solution (linear between the points):")
    print("  " + ", ".join(f"{n}: {'not crossed' if f is None else f}" for n, f in found.items()))
    return 0


def _half_way(points: list[tuple[float, float]]) -> float | None:
    """Where the share of solvable instances, rising with the free squares, crosses 1/2."""
    for (free, share), (next_free, next_share) in itertools.pairwise(points):
        if share <= 0.5 <= next_share and next_share > share:
            return round(free + (0.5 - share) / (next_share - share) * (next_free - free), 2)
    return None


def baseline(args: argparse.Namespace) -> int:
    """Today's dispatch against the one-word search of :data:`BASELINE_COMMIT`, interleaved."""
    cases = instances(args.sizes, args.instances, args.seed, args.blocked)
    warm_up(["exactcover"])
    kept = RECORDED if args.blocked is None else {}
    ratios, recorded = other.against_commit(args.baseline, cases, args.repeats, decide, kept)
    print(_verdict("now / today's kernel, median", statistics.median(ratios), SLOWDOWN_GOAL))
    if recorded:
        print(
            f"  now / the times recorded on 2026-11-27: median {statistics.median(recorded):.3f}x"
        )
    return 0


def large(args: argparse.Namespace, binary: Path) -> int:
    """Boards past one word: blocked and completion instances near half solvable."""
    solvers = usable([name for name in ("sat", "cpsat", "propagate") if name in args.only])
    warm_up(["exactcover", *solvers])
    limit = args.solver_limit
    print(f"each run cut at {limit:g} s (marked <); C cut at exactcover's nodes when it was")
    head = f"{'n':>3} {'kind':>10} {'seed':>4} {'sat?':>5} {'exactcover s':>12} {'nodes':>11}"
    print(f"{head} {'C s':>8} {'x C':>6} " + " ".join(f"{name + ' s':>12}" for name in solvers))
    ratios: dict[str, list[float]] = {"blocked": [], "completion": []}
    for kind in ratios:
        for n in args.sizes:
            for seed in range(args.seed, args.seed + args.instances):
                if kind == "blocked":
                    instance = cpqueens.random_blocked(n, hardest_blocked(n), seed=seed)
                else:
                    given = round(n * (COMPLETION_SHARE + COMPLETION_SLOPE * n))
                    instance = cpqueens.random_completion(n, given, seed=seed)
                mine = decide("exactcover", instance, limit)
                nodes = mine.stats["nodes"]
                cap = () if mine.answer is not None else ("--node-limit", str(nodes))
                found, c_nodes, c_seconds = run_reference(binary, instance, *cap)
                ratio = mine.stats["search_seconds"] / max(c_seconds, 1e-6)
                ratios[kind].append(ratio)
                same = "" if c_nodes == nodes else " DIFFERENT"
                line = f"{n:>3} {kind:>10} {seed:>4} {_yes(mine.answer):>5} {mine.seconds:>12.3f}"
                line += f" {nodes:>11,} {c_seconds:>8.3f} {ratio:>6.2f}{same}"
                answers = {mine.answer, None if found < 0 else bool(found)}
                for name in solvers:
                    theirs = decide(name, instance, limit)
                    answers.add(theirs.answer)
                    mark = "<" if theirs.answer is None else " "
                    line += f" {mark}{theirs.seconds:>7.3f} {_yes(theirs.answer):>3}"
                print(line + ("  ANSWERS DIFFER" if len(answers - {None}) > 1 else ""), flush=True)
    every = [ratio for kind in ratios for ratio in ratios[kind]]
    print(_verdict("exactcover search / C search, median", statistics.median(every), GOALS["c"]))
    print("  " + ", ".join(f"{kind}: {statistics.median(r):.3f}x" for kind, r in ratios.items()))
    return 0


def machine() -> str:
    model = cpu_model()
    load = " ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}; load {load}"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--sizes", type=parse_sizes, default="28-56", help="28-56, 28-56/2 or 28,40"
    )
    parser.add_argument("--instances", type=int, default=2, help="instances per size (2)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first instance (1)")
    parser.add_argument(
        "--blocked", type=int, help="squares blocked (default: the hardest density)"
    )
    parser.add_argument(
        "--only", type=lambda t: t.split(","), default=["c", *SOLVERS, "propagate"],
        help="what to compare exactcover with: c, sat, cpsat, propagate (--large) (all)",
    )  # fmt: skip
    parser.add_argument(
        "--solver-limit", type=float, default=30.0, help="seconds per sat/cpsat run (30)"
    )
    parser.add_argument("--scan", action="store_true", help="find the hardest density instead")
    parser.add_argument("--scan-instances", type=int, default=20, help="instances per point (20)")
    parser.add_argument("--scan-low", type=float, default=6.25, help="fewest free squares per row")
    parser.add_argument(
        "--scan-step", type=float, default=0.25, help="step in free squares per row"
    )
    parser.add_argument("--scan-points", type=int, default=7, help="densities per size (7)")
    parser.add_argument("--rows-only", action="store_true", help="nodes when only rows are chosen")
    parser.add_argument("--node-limit", type=int, default=10**8, help="rows-only node cap (1e8)")
    parser.add_argument("--dlx", action="store_true", help="dancing links against the bitsets")
    parser.add_argument(
        "--baseline", nargs="?", const=BASELINE_COMMIT, help="today's against a commit's kernel"
    )
    parser.add_argument("--repeats", type=int, default=5, help="runs per instance (5)")
    parser.add_argument("--large", action="store_true", help="n = 64, 96, 128 instead")
    args = parser.parse_args()
    if args.large and "--sizes" not in sys.argv:
        args.sizes = [64, 96, 128]
    print(f"machine: {machine()}")
    if args.scan:
        return scan(args)
    cases = instances(args.sizes, args.instances, args.seed, args.blocked)
    if args.dlx:  # the same tree, so only the data structure differs
        return other.compare([case for _, case in cases])
    if args.baseline:
        return baseline(args)
    with tempfile.TemporaryDirectory() as tmp:
        binary = build_reference(Path(tmp))
        if args.rows_only:
            reference = functools.partial(run_reference, binary)
            return other.rows_only([case for _, case in cases], reference, args.node_limit)
        if args.large:
            return large(args, binary)
        return compare(args, binary)


if __name__ == "__main__":
    sys.exit(main())
