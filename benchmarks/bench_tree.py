"""Time and memory of building the explicit decision tree, beside the search it records.

    PYTHONPATH=. python benchmarks/bench_tree.py                 # n = 8, 10, 12
    PYTHONPATH=. python benchmarks/bench_tree.py --sizes 6-11 --repeat 5 --rejected
    PYTHONPATH=. python benchmarks/bench_tree.py --sizes 10 --export

Every build runs in a fresh Python process, so its peak memory (``ru_maxrss``) is
its own; the figure printed is the peak minus the process's size just before the
build, and the same per graph node. Each row gives the median of ``--repeat``
runs of: ``decision_tree`` (build), the size estimate alone, and
``solve(n, backend="tree")``, the same search without the graph; "x search" is
build time over search time, measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def parse_sizes(text: str) -> list[int]:
    if "-" in text:
        low, high = text.split("-")
        return list(range(int(low), int(high) + 1))
    return [int(part) for part in text.split(",")]


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def child(n: int, rejected: bool, export: bool) -> None:
    """Build one tree in this process and print its figures as JSON."""
    import networkx  # noqa: F401  (loaded before the baseline is taken)

    import cpqueens
    from cpqueens.trees.size import estimate_tree_size

    cpqueens.decision_tree(4)
    start = time.perf_counter()
    estimate_tree_size(n, (None,) * n, include_rejected=rejected)
    estimate = time.perf_counter() - start
    start = time.perf_counter()
    cpqueens.solve(n, backend="tree")
    search = time.perf_counter() - start
    before = peak_mb()
    start = time.perf_counter()
    G = cpqueens.decision_tree(n, include_rejected=rejected, max_nodes=50_000_000)
    build = time.perf_counter() - start
    figures = {
        "nodes": G.number_of_nodes(),
        "build": build,
        "estimate": estimate,
        "search": search,
        "memory": peak_mb() - before,
        "peak": peak_mb(),
    }
    if export:
        with tempfile.TemporaryDirectory() as folder:
            for suffix in (".graphml", ".gexf", ".json", ".dot"):
                start = time.perf_counter()
                path = cpqueens.export_tree(G, Path(folder) / f"tree{suffix}")
                figures[f"write{suffix}"] = time.perf_counter() - start
                figures[f"size{suffix}"] = path.stat().st_size / 1e6
                start = time.perf_counter()
                cpqueens.read_tree(path)
                figures[f"read{suffix}"] = time.perf_counter() - start
    print(json.dumps(figures))


def run_child(n: int, rejected: bool, export: bool) -> dict:
    command = [sys.executable, __file__, "--child", str(n)]
    command += ["--rejected"] * rejected + ["--export"] * export
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=os.environ)
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="8,10,12", help="e.g. 8,10,12 or 6-11")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rejected", action="store_true", help="include rejected attempts")
    parser.add_argument("--export", action="store_true", help="also time each file format")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.rejected, args.export)
        return 0
    print(
        f"{'n':>3}{'graph nodes':>13}{'build s':>10}{'search s':>10}{'x search':>10}"
        f"{'estimate s':>12}{'memory MB':>11}{'bytes/node':>12}{'peak RSS MB':>13}"
    )
    for n in parse_sizes(args.sizes):
        runs = [run_child(n, args.rejected, args.export) for _ in range(args.repeat)]

        def median(key: str, runs: list[dict] = runs) -> float:
            return statistics.median(run[key] for run in runs)

        nodes, build, search = runs[0]["nodes"], median("build"), median("search")
        print(
            f"{n:>3}{nodes:>13,}{build:>10.3f}{search:>10.3f}{build / search:>10.1f}"
            f"{median('estimate'):>12.3f}{median('memory'):>11.0f}"
            f"{median('memory') * 2**20 / nodes:>12,.0f}{median('peak'):>13.0f}"
        )
        if args.export:
            for suffix in (".graphml", ".gexf", ".json", ".dot"):
                print(
                    f"    {suffix:<9} write {median('write' + suffix):7.2f} s   read "
                    f"{median('read' + suffix):7.2f} s   {median('size' + suffix):8.1f} MB"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
