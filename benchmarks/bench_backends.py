"""Time every backend side by side: median seconds, nodes, nodes per second, solutions per second.

    python benchmarks/bench_backends.py                     # n = 4..10, every backend
    python benchmarks/bench_backends.py --sizes 8-12 --repeat 5 --backends stack,tree
    python benchmarks/bench_backends.py --tree-14           # CodeProject tree's n=14 figures

Each (backend, n) pair runs ``--repeat`` times and the median is printed, with the
ratio to the fastest backend at the same n, all measured in this one run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import cpqueens
from cpqueens.solvers import REGISTRY


def parse_sizes(text: str) -> list[int]:
    if "-" in text:
        low, high = text.split("-")
        return list(range(int(low), int(high) + 1))
    return [int(part) for part in text.split(",")]


def measure(backend: str, n: int, repeat: int) -> tuple[float, cpqueens.Result]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = cpqueens.solve(n, backend=backend)
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="4-10", help="e.g. 4-10 or 8,10,12")
    parser.add_argument("--backends", default=",".join(REGISTRY), help="comma-separated names")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tree-14", action="store_true", help="also run tree at n=14 once")
    args = parser.parse_args()
    names = [name for name in args.backends.split(",") if REGISTRY[name].is_available()]
    print(
        f"{'backend':<12}{'n':>4}{'median s':>11}{'x fastest':>10}{'solutions':>11}"
        f"{'nodes':>12}{'nodes/s':>12}{'solutions/s':>13}"
    )
    for n in parse_sizes(args.sizes):
        rows = [(name, *measure(name, n, args.repeat)) for name in names]
        fastest = min(seconds for _, seconds, _ in rows) or 1e-9
        for name, seconds, result in rows:
            nodes = result.stats.get("nodes")
            per_second = f"{nodes / seconds:>12,.0f}" if nodes and seconds else f"{'-':>12}"
            sols = f"{result.count / seconds:>13,.0f}" if seconds else f"{'-':>13}"
            print(
                f"{name:<12}{n:>4}{seconds:>11.4f}{seconds / fastest:>10.1f}{result.count:>11,}"
                f"{nodes if nodes is not None else '-':>12}{per_second}{sols}"
            )
    if args.tree_14:
        start = time.perf_counter()
        result = cpqueens.solve(14, backend="tree")
        seconds = time.perf_counter() - start
        print(
            f"\ntree n=14: {result.count:,} solutions, {result.stats['nodes']:,} nodes, "
            f"{result.stats['attempts']:,} attempts in {seconds:.1f} s "
            "(CodeProject tree article: 365,596 / 27,358,552 / 377,901,398)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
