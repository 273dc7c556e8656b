"""Time the propagating backend against plain recursive backtracking, side by side.

    PYTHONPATH=. python benchmarks/bench_propagation.py              # n = 12, 3 runs each
    PYTHONPATH=. python benchmarks/bench_propagation.py --sizes 8-12 --repeat 5

Every run lists all solutions. The runs of one n alternate between the searches
(recursive, then each propagation and order, then again), so a machine that gets
busier or quieter affects them alike. The table gives the median wall-clock time
and the median CPU time of this process (``time.process_time``: what other
programs on a shared machine do not inflate), each with its ratio to the median
of ``recursive``. Goals at n=12, on the CPU ratio: ``forward`` at most 1.0x,
``arc`` at most 2.0x; the exit status is 1 when one is missed.
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
    print(
        f"{'search':<28}{'n':>4}{'wall s':>9}{'x rec':>7}{'cpu s':>9}{'x rec':>7}"
        f"{'nodes':>10}{'goal':>7}"
    )
    failed = False
    for n in parse_sizes(args.sizes):
        wall: list[list[float]] = [[] for _ in SEARCHES]
        cpu: list[list[float]] = [[] for _ in SEARCHES]
        results = [None] * len(SEARCHES)
        for _ in range(args.repeat):
            for i, (backend, options) in enumerate(SEARCHES):
                start, start_cpu = time.perf_counter(), time.process_time()
                results[i] = cpqueens.solve(n, backend=backend, **options)
                cpu[i].append(time.process_time() - start_cpu)
                wall[i].append(time.perf_counter() - start)
        base_wall, base_cpu = statistics.median(wall[0]), statistics.median(cpu[0])
        for i, (backend, options) in enumerate(SEARCHES):
            median_wall, median_cpu = statistics.median(wall[i]), statistics.median(cpu[i])
            ratio = median_cpu / base_cpu
            goal = GOALS.get((options.get("propagation"), options.get("order", "row")))
            mark = "" if goal is None else f"{goal:.1f}" + ("" if ratio <= goal else " !")
            failed = failed or (goal is not None and ratio > goal)
            print(
                f"{label(backend, options):<28}{n:>4}{median_wall:>9.3f}"
                f"{median_wall / base_wall:>7.2f}{median_cpu:>9.3f}{ratio:>7.2f}"
                f"{results[i].stats['nodes']:>10,}{mark:>7}"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
