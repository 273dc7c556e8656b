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
peak memory of ``solve(n, backend="qs", limit=1)`` for every n from 10^7 in
``--sizes``, and of ``construct`` at the largest, is read in a child process each
(``resource.getrusage``, so the number is that run's peak alone, with Python,
numpy and numba loaded; they run first, while this process is small, since Linux
keeps a parent's peak in the child's count). At 10^7 the command line's
``cpqueens solve 10000000 -b construct --json > /dev/null`` is timed too, from the
start of the interpreter to the last byte written. A least-squares fit of log time
on log n gives each method's growth exponent.

Goals, checked at the end: ``qs`` end to end (the call to the returned, checked
Result) at most 1.5x the C search at 10^7 and 2x at 10^8, in under 1 GB and 8 GB;
``construct`` end to end at most 0.1 s at 10^6, 0.25 s at 10^7 and 3 s at 10^8, in
under 2 GB; ``minconflicts`` at most 0.8 s at 10^6; the JSON of a 10^7 solution
written by the command line in under 2 s. The kernel's own ratio to C is printed
beside (its earlier goal: at most 2x). ``--sizes 5,6,7,8`` adds 10^8 (minutes).
"""

from __future__ import annotations

import argparse
import json
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
GOAL_QS_RATIO = 2.0  # the kernel alone
GOAL_QS_END_TO_END = {10**7: 1.5, 10**8: 2.0}
GOAL_CONSTRUCT = {10**6: 0.1, 10**7: 0.25, 10**8: 3.0}
GOAL_MINCONFLICTS = {10**6: 0.8}
#: Peak memory (GB) of one call in a child process, by backend and n.
GOAL_MEMORY_GB = {("qs", 10**7): 1.0, ("qs", 10**8): 8.0, ("construct", 10**7): 2.0,
                  ("construct", 10**8): 2.0}  # fmt: skip
GOAL_JSON_SECONDS = 2.0
JSON_N = 10**7
#: The methods of the table, in its order.
METHODS = ("qs kernel", "qs solve", "C qs", "construct", "C construct", "minconflicts")

CHILD = """
import resource, sys, time
import cpqueens
backend = sys.argv[2]
seed = {} if backend == "construct" else {"seed": 1}
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
cpqueens.solve(20_000, backend=backend, limit=1, **seed)
loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
r = cpqueens.solve(int(sys.argv[1]), backend=backend, limit=1, **seed)
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


def peak_memory(n: int, backend: str) -> tuple[float, float, float, float]:
    """Peak resident memory (GB) of a child: at start, numba loaded, after the run; seconds."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(n), backend],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    ).stdout.split()
    if out[4] != "1":
        sys.exit(f"{backend} found no solution for n={n} in the memory run")
    before, loaded, peak = (int(x) / 2**20 for x in out[:3])  # ru_maxrss is in KiB on Linux
    return before, loaded, peak, float(out[3])


def json_seconds(n: int, repeat: int) -> float:
    """Median seconds of ``cpqueens solve N -b construct --json > /dev/null``, interpreter
    start to the last byte, after checking once that what it writes is the board."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", "cpqueens", "solve", str(n), "-b", "construct", "--json"]
    with tempfile.TemporaryFile() as out:
        subprocess.run(command, check=True, stdout=out, env=env)
        out.seek(0)
        board = np.asarray(json.load(out)["solutions"][0])
    if len(board) != n or not cpqueens.is_valid(board):
        sys.exit("the --json of construct is not a solution")
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


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
    memory = {}
    if not args.no_memory:
        for n in sizes:
            if n >= 10**7:
                memory["qs", n] = peak_memory(n, "qs")
        memory["construct", max(sizes)] = peak_memory(max(sizes), "construct")
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
    json_time = json_seconds(JSON_N, args.repeat_large) if JSON_N in sizes else None

    print()
    print(
        "| n | "
        + " | ".join(f"{m} s" for m in METHODS)
        + " | kernel/C qs | solve/C qs | construct/C |"
    )
    print("|--:|" + "--:|" * (len(METHODS) + 3))
    for n, row in rows.items():
        cells = [fmt(row.get(m)) for m in METHODS]
        ratio = row["qs kernel"] / row["C qs"]
        whole = row["qs solve"] / row["C qs"]
        ratio_c = row["construct"] / row["C construct"]
        print(
            f"| 10^{round(math.log10(n))} | "
            + " | ".join(cells)
            + f" | {ratio:.2f} | {whole:.2f} | {ratio_c:.1f} |"
        )
    print()
    print("growth exponents (least squares of log time on log n):")
    for method in METHODS:
        slope = exponent([(n, row[method]) for n, row in rows.items() if method in row])
        print(f"  {method:13s} " + ("-" if slope is None else f"{slope:.2f}"))

    for (backend, n), (before, loaded, peak, took) in memory.items():
        print(
            f"\npeak memory of solve({n:,}, backend={backend!r}, limit=1) in a child: "
            f"{peak:.2f} GB (at its start {before:.2f} GB, loaded {loaded:.2f} GB; "
            f"the run took {took:.2f} s)"
        )
    if json_time is not None:
        print(f"\ncpqueens solve {JSON_N} -b construct --json > /dev/null: {json_time:.2f} s")
    print(f"load {os.getloadavg()[0]:.2f} at the end\n")

    print("goals:")

    def judge(what: str, value: float, goal: float, unit: str) -> None:
        met = "met" if value <= goal else "NOT met"
        print(f"  {what} <= {goal}{unit}: {value:.4g}{unit}, {met}")

    for n, row in rows.items():
        judge(f"qs kernel / C at n = {n:,}", row["qs kernel"] / row["C qs"], GOAL_QS_RATIO, "x")
        if n in GOAL_QS_END_TO_END:
            judge(
                f"qs end to end / C at n = {n:,}",
                row["qs solve"] / row["C qs"],
                GOAL_QS_END_TO_END[n],
                "x",
            )
    for goals, method in ((GOAL_CONSTRUCT, "construct"), (GOAL_MINCONFLICTS, "minconflicts")):
        for n, goal in goals.items():
            if n in rows and method in rows[n]:
                judge(f"{method} at n = {n:,}", rows[n][method], goal, " s")
    for (backend, n), (_, _, peak, _) in memory.items():
        if (backend, n) in GOAL_MEMORY_GB:
            judge(f"{backend} peak memory at n = {n:,}", peak, GOAL_MEMORY_GB[backend, n], " GB")
    if json_time is not None:
        judge(f"--json of a {JSON_N:,} solution", json_time, GOAL_JSON_SECONDS, " s")


if __name__ == "__main__":
    main()
