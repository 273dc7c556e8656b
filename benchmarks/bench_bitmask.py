"""The compiled ``bitmask`` counter against a C reference, side by side in one run.

    PYTHONPATH=. python benchmarks/bench_bitmask.py              # n = 14..16
    PYTHONPATH=. python benchmarks/bench_bitmask.py --with-17    # and n = 17, once each
    PYTHONPATH=. python benchmarks/bench_bitmask.py --sizes 12-15 --repeat 5

The reference (benchmarks/reference_count.c: single-threaded bitmask search with
mirror symmetry) is compiled here with ``gcc -O3`` into a temporary directory. For
each n it runs next to ``count(n, backend="bitmask")`` with one worker and with
every core; the median of ``--repeat`` runs is printed (one run from n=17 on), with
the ratios to the reference. The kernels' compile time is measured first, apart:
cold (empty numba cache, in a fresh process) and warm (loading the cache).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cpqueens
from cpqueens.parallel.pool import default_workers

HERE = Path(__file__).resolve().parent
A000170 = {14: 365596, 15: 2279184, 16: 14772512, 17: 95815104, 18: 666090624}


def parse_sizes(text: str) -> list[int]:
    if "-" in text:
        low, high = text.split("-")
        return list(range(int(low), int(high) + 1))
    return [int(part) for part in text.split(",")]


def build_reference(folder: Path) -> Path:
    compiler = shutil.which("gcc")
    if compiler is None:
        sys.exit("gcc not found: the C reference cannot be built")
    binary = folder / "reference_count"
    subprocess.run(
        [compiler, "-O3", "-o", str(binary), str(HERE / "reference_count.c")], check=True
    )
    return binary


def run_reference(binary: Path, n: int) -> tuple[float, int]:
    output = subprocess.run([str(binary), str(n)], capture_output=True, text=True, check=True)
    _, count, seconds = output.stdout.split()
    return float(seconds), int(count)


def run_bitmask(n: int, workers: int) -> tuple[float, int]:
    start = time.perf_counter()
    count = cpqueens.count(n, backend="bitmask", workers=workers)
    return time.perf_counter() - start, count


def compile_times(folder: Path) -> tuple[float, float]:
    """Seconds to compile the kernels into an empty cache, then to load them from it."""
    code = (
        "import time; t = time.perf_counter(); "
        "from cpqueens.solvers.bitmask import tasks; tasks.warm_up(); "
        "print(time.perf_counter() - t)"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=str(folder / "numba-cache"))
    times = []
    for _ in range(2):  # the first run fills the empty cache, the second loads it
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        times.append(float(out.stdout))
    return times[0], times[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="14-16", help="e.g. 14-16 or 12,14")
    parser.add_argument("--with-17", action="store_true", help="also n=17 (about a minute)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per size below n=17")
    args = parser.parse_args()
    sizes = parse_sizes(args.sizes) + ([17] if args.with_17 else [])
    cores = default_workers()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        binary = build_reference(folder)
        cold, warm = compile_times(folder)
        print(f"kernel compile: {cold:.2f} s into an empty cache, {warm:.2f} s from the cache")
        cpqueens.count(8, backend="bitmask", workers=1)  # load the kernels here, untimed
        print(
            f"{'n':>3}{'reference s':>13}{'1 worker s':>12}{'x ref':>7}"
            f"{f'{cores} workers s':>14}{'x ref':>7}   count"
        )
        for n in sizes:
            repeat = args.repeat if n < 17 else 1
            runs = {"ref": [], "one": [], "all": []}
            counts = set()
            for _ in range(repeat):  # interleaved, so that load on the machine hits all
                for key, run, arg in (
                    ("ref", run_reference, binary),
                    ("one", run_bitmask, 1),
                    ("all", run_bitmask, cores),
                ):
                    seconds, count = run(arg, n) if key == "ref" else run(n, arg)
                    runs[key].append(seconds)
                    counts.add(count)
            ref, one, full = (statistics.median(runs[k]) for k in ("ref", "one", "all"))
            (count,) = counts  # every run must agree
            check = "" if n not in A000170 else (" ok" if count == A000170[n] else " WRONG")
            print(
                f"{n:>3}{ref:>13.3f}{one:>12.3f}{one / ref:>7.2f}"
                f"{full:>14.3f}{full / ref:>7.2f}   {count:,}{check}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
