"""The ``exactcover`` backend against ``sat``, ``cpsat`` and a C reference, on blocked boards.

Run from the repository root:

    PYTHONPATH=. python benchmarks/bench_exactcover.py                  # n = 28..56 by 4, 2 each
    PYTHONPATH=. python benchmarks/bench_exactcover.py --instances 5 --sizes 28,56
    PYTHONPATH=. python benchmarks/bench_exactcover.py --only exactcover,c --instances 20
    PYTHONPATH=. python benchmarks/bench_exactcover.py --scan           # where is it hardest?
    PYTHONPATH=. python benchmarks/bench_exactcover.py --rows-only      # what columns are worth
    PYTHONPATH=. python benchmarks/bench_exactcover.py --dlx            # dancing links instead

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
"""

from __future__ import annotations

import argparse
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
from cpqueens.reporting.machine import cpu_model
from cpqueens.solvers import REGISTRY

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
    squares = "".join(f"{r} {c}\n" for r, c in instance.blocked)
    return f"{instance.n} {len(instance.blocked)}\n{squares}"


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


def rows_only(args: argparse.Namespace, binary: Path) -> int:
    """Nodes of the C search choosing among rows and columns, and among rows only."""
    print(f"rows only: cut at {args.node_limit:,} nodes (marked >)")
    print(f"{'n':>3} {'m':>5} {'sat?':>5} {'rows+columns':>13} {'rows only':>14} {'x':>9}")
    ratios = []
    for _, instance in instances(args.sizes, args.instances, args.seed, args.blocked):
        found, both, _ = run_reference(binary, instance)
        more, rows, _ = run_reference(
            binary, instance, "--rows-only", "--node-limit", str(args.node_limit)
        )
        mark = ">" if more < 0 else " "
        ratios.append(rows / both)
        print(
            f"{instance.n:>3} {len(instance.blocked):>5} {_yes(bool(found)):>5} {both:>13,}"
            f" {mark}{rows:>13,} {mark}{rows / both:>8.0f}",
            flush=True,
        )
    print(
        f"rows only / rows and columns: median {statistics.median(ratios):.0f}x, "
        f"from {min(ratios):.1f}x to {max(ratios):.0f}x"
    )
    return 0


def dancing_links(args: argparse.Namespace) -> int:
    """Dancing links against the bitsets: the same tree, so only the data structure differs."""
    sys.path.insert(0, str(HERE))
    import exactcover_dlx as dlx

    from cpqueens.solvers.exactcover.backend import allowed_masks
    from cpqueens.solvers.exactcover.kernels import Search
    from cpqueens.solvers.problem import Problem

    def bitsets(n, allowed):
        search = Search(n, allowed)
        start = time.perf_counter()
        found = search.next_solutions(1, 1 << 62)
        return len(found), search.nodes, time.perf_counter() - start

    def links(n, allowed):
        arrays = dlx.build(n, allowed)
        start = time.perf_counter()
        found, nodes = dlx.decide(n, *arrays)
        return found, nodes, time.perf_counter() - start

    bitsets(4, [15] * 4)
    links(4, [15] * 4)  # compile or load both first
    print(f"{'n':>3} {'m':>5} {'sat?':>5} {'nodes':>11} {'bitsets s':>10} {'links s':>9} {'x':>6}")
    ratios = []
    for _, instance in instances(args.sizes, args.instances, args.seed, args.blocked):
        problem = Problem(instance.n, (None,) * instance.n, blocked=frozenset(instance.blocked))
        allowed = allowed_masks(problem)
        found, nodes, fast = bitsets(instance.n, allowed)
        other = links(instance.n, allowed)
        same = "" if other[:2] == (found, nodes) else "  DIFFERENT TREES"
        ratios.append(other[2] / fast)
        print(
            f"{instance.n:>3} {len(instance.blocked):>5} {_yes(bool(found)):>5} {nodes:>11,}"
            f" {fast:>10.4f} {other[2]:>9.4f} {other[2] / fast:>6.2f}{same}",
            flush=True,
        )
    print(f"dancing links / bitsets: median {statistics.median(ratios):.2f}x")
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
        "--only", type=lambda t: t.split(","), default=["c", *SOLVERS],
        help="what to compare exactcover with: c, sat, cpsat (all)",
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
    args = parser.parse_args()
    print(f"machine: {machine()}")
    if args.scan:
        return scan(args)
    if args.dlx:
        return dancing_links(args)
    with tempfile.TemporaryDirectory() as tmp:
        binary = build_reference(Path(tmp))
        if args.rows_only:
            return rows_only(args, binary)
        return compare(args, binary)


if __name__ == "__main__":
    sys.exit(main())
