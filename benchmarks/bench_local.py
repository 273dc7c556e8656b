"""One solution of a large board: ``construct``, ``qs`` and ``minconflicts`` against C.

Run from the repository root:

    PYTHONPATH=. python benchmarks/bench_local.py                    # n = 10^5, 10^6, 10^7
    PYTHONPATH=. python benchmarks/bench_local.py --sizes 5,6 --repeat 3
    PYTHONPATH=. python benchmarks/bench_local.py --no-memory        # skip the child run

``--sizes`` takes powers of ten. For each n, in one interleaved loop (so that other
load on the machine hits every method alike), the median of ``--repeat`` runs
(``--repeat-large`` from 10^7 on, default 3) of:

* ``qs`` kernel: ``stats["search_seconds"]`` of the run below, the time spent in
  the compiled search alone;
* ``qs`` end to end: ``cpqueens.solve(n, backend="qs", limit=1, seed=s)``, set-up
  and the check of the solution included;
* C qs: benchmarks/local_reference.c, a plain-C port of the kernel's QS4 (the same
  generator, phases, bounds and list of candidates), compiled here with ``gcc -O2``,
  started with the backend's generator bits for the seed: it must write the very
  board the backend found (a checksum is compared), or the benchmark stops;
* ``construct`` end to end, and the C construction;
* ``minconflicts`` end to end, up to 10^6 (``--minconflicts-max``).

Each run uses its own seed (the same for the kernel and for C). Every backend is
called once first, so the numba caches are loaded before any clock starts. Then the
peak memory of ``solve(10^7, backend="qs", limit=1)`` is read in a child process
(``resource.getrusage``, so the number is that run's peak alone, with Python,
numpy and numba loaded; it runs first, while this process is small, since Linux keeps a
parent's peak in the child's count), and a least-squares fit of log time on log n gives each
method's growth exponent.

Goals, checked at the end: the ``qs`` kernel at most 2x the C port at every n;
``construct`` at most 0.1 s at 10^6 and 1 s at 10^7; ``minconflicts`` at most 2 s
at 10^6; the 10^7 ``qs`` run under 2 GB.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import cpqueens
from cpqueens.solvers.qs.backend import seed_bits

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GOAL_QS_RATIO = 2.0
GOAL_CONSTRUCT = {10**6: 0.1, 10**7: 1.0}
GOAL_MINCONFLICTS = {10**6: 2.0}
GOAL_MEMORY_GB = 2.0
MEMORY_N = 10**7
#: The methods of the table, in its order.
METHODS = ("qs kernel", "qs solve", "C qs", "construct", "C construct", "minconflicts")

CHILD = """
import resource, sys, time
import cpqueens
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
cpqueens.solve(1000, backend="qs", limit=1, seed=0)
loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
r = cpqueens.solve(int(sys.argv[1]), backend="qs", limit=1, seed=1)
seconds = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(before, loaded, peak, seconds, int(r.satisfiable is True))
"""


def build_reference(folder: Path) -> Path:
    compiler = shutil.which("gcc")
    if compiler is None:
        sys.exit("gcc not found: the C reference cannot be built")
    binary = folder / "local_reference"
    subprocess.run(
        [compiler, "-O2", "-o", str(binary), str(HERE / "local_reference.c")], check=True
    )
    return binary


def run_reference(binary: Path, method: str, n: int, seed: int) -> tuple[float, int]:
    """The C time of ``method`` and the checksum of the board it wrote."""
    # The generator starts where the backend's does for this seed: the same run, step for step.
    args = [str(binary), method, str(n)] + ([str(seed_bits(seed))] if method == "qs" else [])
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout.split()
    if out[1] != "1":
        sys.exit(f"the C {method} gave no solution for n={n}")
    return float(out[0]), int(out[3])


def checksum(solution) -> int:
    """The sum of (r + 1) * solution[r] modulo 2^64, as the C program computes it."""
    board = np.asarray(solution, dtype=np.uint64)
    return int(np.sum(np.arange(1, len(board) + 1, dtype=np.uint64) * board, dtype=np.uint64))


def same_board(backend: str, result: cpqueens.Result, reference: tuple[float, int]) -> float:
    """The C time, after making sure C wrote the board the backend found (same algorithm)."""
    if checksum(result.solution) != reference[1]:
        sys.exit(f"the C {backend} and the backend found different boards for n={result.n}")
    return reference[0]


def timed_solve(n: int, backend: str, seed: int | None) -> tuple[float, cpqueens.Result]:
    extra = {} if seed is None else {"seed": seed}
    started = time.perf_counter()
    result = cpqueens.solve(n, backend=backend, limit=1, **extra)
    seconds = time.perf_counter() - started
    if result.satisfiable is not True or not cpqueens.is_valid(result.solution):
        sys.exit(f"{backend} found no solution for n={n}")
    return seconds, result


def measure(n: int, repeat: int, binary: Path, with_minconflicts: bool) -> dict[str, float]:
    times: dict[str, list[float]] = {method: [] for method in METHODS}
    for i in range(repeat):
        seed = 1000 * i + 7
        seconds, result = timed_solve(n, "qs", seed)
        times["qs solve"].append(seconds)
        times["qs kernel"].append(result.stats["search_seconds"])
        times["C qs"].append(same_board("qs", result, run_reference(binary, "qs", n, seed)))
        del result
        seconds, result = timed_solve(n, "construct", None)
        times["construct"].append(seconds)
        reference = run_reference(binary, "construct", n, 0)
        times["C construct"].append(same_board("construct", result, reference))
        del result
        if with_minconflicts:
            times["minconflicts"].append(timed_solve(n, "minconflicts", seed)[0])
    return {method: statistics.median(ts) for method, ts in times.items() if ts}


def peak_memory(n: int) -> tuple[float, float, float, float]:
    """Peak resident memory (GB) of a child: at start, numba loaded, after the run; seconds."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(n)], check=True, capture_output=True, text=True, env=env
    ).stdout.split()
    if out[4] != "1":
        sys.exit(f"qs found no solution for n={n} in the memory run")
    before, loaded, peak = (int(x) / 2**20 for x in out[:3])  # ru_maxrss is in KiB on Linux
    return before, loaded, peak, float(out[3])


def exponent(points: list[tuple[int, float]]) -> float | None:
    """The slope of the least-squares line of log time on log n."""
    if len(points) < 2:
        return None
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )


def fmt(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds:.4f}" if seconds < 1 else f"{seconds:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="5,6,7", help="powers of ten (default 5,6,7)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per size (default 5)")
    parser.add_argument(
        "--repeat-large", type=int, default=3, help="runs per size from 10^7 on (default 3)"
    )
    parser.add_argument(
        "--minconflicts-max", type=int, default=6, help="largest power of ten for minconflicts"
    )
    parser.add_argument("--no-memory", action="store_true", help="skip the 10^7 memory run")
    args = parser.parse_args()
    sizes = [10 ** int(part) for part in args.sizes.split(",")]

    load = os.getloadavg()[0]
    print(f"{os.cpu_count()} cores, load {load:.2f} at the start; python {sys.version.split()[0]}")
    # First, while this process is still small: a child's peak counts from the size
    # of its parent at the fork (Linux keeps ru_maxrss across fork and exec).
    memory = None if args.no_memory else peak_memory(MEMORY_N)
    for backend in ("qs", "construct", "minconflicts"):  # load the numba caches
        timed_solve(1000, backend, None if backend == "construct" else 1)
    with tempfile.TemporaryDirectory() as folder:
        binary = build_reference(Path(folder))
        rows = {}
        for n in sizes:
            repeat = args.repeat_large if n >= 10**7 else args.repeat
            with_mc = n <= 10**args.minconflicts_max
            rows[n] = measure(n, repeat, binary, with_mc)
            print(f"n = 10^{round(math.log10(n))} done ({repeat} runs)", flush=True)

    print()
    print("| n | " + " | ".join(f"{m} s" for m in METHODS) + " | kernel/C qs | construct/C |")
    print("|--:|" + "--:|" * (len(METHODS) + 2))
    for n, row in rows.items():
        cells = [fmt(row.get(m)) for m in METHODS]
        ratio = row["qs kernel"] / row["C qs"]
        ratio_c = row["construct"] / row["C construct"]
        print(
            f"| 10^{round(math.log10(n))} | "
            + " | ".join(cells)
            + f" | {ratio:.2f} | {ratio_c:.1f} |"
        )
    print()
    print("growth exponents (least squares of log time on log n):")
    for method in METHODS:
        slope = exponent([(n, row[method]) for n, row in rows.items() if method in row])
        print(f"  {method:13s} " + ("-" if slope is None else f"{slope:.2f}"))

    if memory is not None:
        print(
            f"\npeak memory of solve(10^7, backend='qs', limit=1) in a child: {memory[2]:.2f} GB "
            f"(at its start {memory[0]:.2f} GB, numba loaded {memory[1]:.2f} GB; "
            f"the run took {memory[3]:.2f} s)"
        )
    print(f"load {os.getloadavg()[0]:.2f} at the end\n")

    print("goals:")
    for n, row in rows.items():
        ratio = row["qs kernel"] / row["C qs"]
        met = "met" if ratio <= GOAL_QS_RATIO else "NOT met"
        print(f"  qs kernel <= {GOAL_QS_RATIO}x C at n = {n:,}: {ratio:.2f}x, {met}")
    for goals, method in ((GOAL_CONSTRUCT, "construct"), (GOAL_MINCONFLICTS, "minconflicts")):
        for n, goal in goals.items():
            if n in rows and method in rows[n]:
                seconds = rows[n][method]
                met = "met" if seconds <= goal else "NOT met"
                print(f"  {method} <= {goal} s at n = {n:,}: {seconds:.4f} s, {met}")
    if memory is not None:
        met = "met" if memory[2] < GOAL_MEMORY_GB else "NOT met"
        print(f"  qs at 10^7 < {GOAL_MEMORY_GB} GB: {memory[2]:.2f} GB, {met}")


if __name__ == "__main__":
    main()
