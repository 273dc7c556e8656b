"""Time the propagating backend against plain recursive backtracking, side by side.

    PYTHONPATH=. python benchmarks/bench_propagation.py              # n = 12, 3 runs each
    PYTHONPATH=. python benchmarks/bench_propagation.py --sizes 8-12 --repeat 5

Every run lists all solutions. The runs of one n alternate between the searches
(recursive, then each propagation and order, then again), so a machine that gets
busier or quieter affects them alike; the table gives each median and its ratio to
the median of ``recursive``. Goals at n=12: ``forward`` at most 1.0x, ``arc`` at
most 2.0x.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import cpqueens

SEARCHES = [
    ("recursive", {}),
    ("propagate", {"propagation": "none"}),
    ("propagate", {"propagation": "forward"}),
    ("propagate", {"propagation": "forward", "order": "first-fail"}),
    ("propagate", {"propagation": "arc"}),
    ("propagate", {"propagation": "arc", "order": "first-fail"}),
]
GOALS = {("forward", "row"): 1.0, ("arc", "row"): 2.0}


def parse_sizes(text: str) -> list[int]:
    if "-" in text:
        low, high = text.split("-")
        return list(range(int(low), int(high) + 1))
    return [int(part) for part in text.split(",")]


def label(backend: str, options: dict) -> str:
    if not options:
        return backend
    return f"{backend} {options['propagation']}/{options.get('order', 'row')}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="12", help="e.g. 12 or 8-12")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'search':<28}{'n':>4}{'median s':>10}{'x recursive':>13}{'nodes':>10}{'goal':>7}")
    failed = False
    for n in parse_sizes(args.sizes):
        times: list[list[float]] = [[] for _ in SEARCHES]
        results = [None] * len(SEARCHES)
        for _ in range(args.repeat):
            for i, (backend, options) in enumerate(SEARCHES):
                start = time.perf_counter()
                results[i] = cpqueens.solve(n, backend=backend, **options)
                times[i].append(time.perf_counter() - start)
        base = statistics.median(times[0])
        for (backend, options), runs, result in zip(SEARCHES, times, results, strict=True):
            median = statistics.median(runs)
            ratio = median / base
            key = (options.get("propagation"), options.get("order", "row"))
            goal = GOALS.get(key)
            mark = "" if goal is None else f"{goal:.1f}" + ("" if ratio <= goal else " !")
            failed = failed or (goal is not None and ratio > goal)
            print(
                f"{label(backend, options):<28}{n:>4}{median:>10.3f}{ratio:>13.2f}"
                f"{result.stats['nodes']:>10,}{mark:>7}"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
