"""The compiled ``bitmask`` counter against a C reference, side by side in one run.

Run from the repository root:

    PYTHONPATH=. python benchmarks/bench_bitmask.py              # n = 14..16, medians of 3
    PYTHONPATH=. python benchmarks/bench_bitmask.py --with-17    # and n = 17 (minutes)
    PYTHONPATH=. python benchmarks/bench_bitmask.py --sizes 16 --with-17 --with-18
    PYTHONPATH=. python benchmarks/bench_bitmask.py --sizes 12-15 --repeat 5 --markdown

The reference (benchmarks/reference_count.c: single-threaded bitmask search with
mirror symmetry) is compiled here with ``gcc -O3`` into a temporary directory. For
each n it runs next to ``count(n, backend="bitmask")`` with one worker and with
every core, interleaved so that other load on the machine hits all three alike;
the median of ``--repeat`` runs is printed (n = 17 too; one run at n = 18), with
the ratio to the reference and the solutions counted per second and per core.
Every count is checked against OEIS A000170. First it prints how many cores' worth
of work this session gets (every core's reference runs at once against one alone):
with other sessions busy, the scheduler may give the whole session one core's
slice, and the ratios on every core cannot show what the cores would give.
Beside the ratios of wall time (the goals), the summary gives the ratios of
processor time (user and system, children included), which other load changes far
less: on a busy machine they tell a slower kernel from a busier machine.

Goals, checked at the end for n = 16 and 17 when they were run with at least 3
runs each: one worker at most 0.29x the reference, every core (2 on the test
machine) at most 0.17x. 0.29x this C program stands in for 0.7x NQueensFAF's
single-thread time, since Java's NQueensFAF is not available here. Compiling the
kernels into an empty numba cache at most 10 s, loading them from the cache at
most 1 s: both compile times are measured first, apart, in fresh processes, for
the kernels a count uses and for every kernel (listing too).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cpqueens
from cpqueens.parallel.pool import default_workers
from cpqueens.reporting.page.machine import cpu_model

HERE = Path(__file__).resolve().parent
#: OEIS A000170, n = 1..18: every count printed is checked against it.
A000170 = {
    1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724, 11: 2680,
    12: 14200, 13: 73712, 14: 365596, 15: 2279184, 16: 14772512, 17: 95815104,
    18: 666090624,
}  # fmt: skip
#: Largest ratio to the reference that meets the goal, with one worker and with all.
GOAL_ONE, GOAL_ALL = 0.29, 0.17
#: Fewer runs than this give no median to judge a goal by.
GOAL_RUNS = 3
GOAL_SIZES = (16, 17)
GOAL_COLD, GOAL_WARM = 10.0, 1.0
WARM_UPS = {
    # numba alone: its import and start-up, which every kernel load pays first
    "numba alone": "import numba_floor; numba_floor.identity(1)",
    "count kernels": "from cpqueens.solvers.bitmask import tasks; tasks.warm_up()",
    "every kernel": (
        "from cpqueens.solvers.bitmask import kernels, tasks; tasks.warm_up(); kernels.warm_up()"
    ),
}


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


def cpu_seconds() -> float:
    """User and system seconds of this process and of its children waited for."""
    try:
        import resource
    except ImportError:  # not on Windows: no processor time, the ratios say so
        return math.nan
    usages = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    return sum(usage.ru_utime + usage.ru_stime for usage in usages)


def run_reference(binary: Path, n: int) -> tuple[float, int]:
    output = subprocess.run([str(binary), str(n)], capture_output=True, text=True, check=True)
    _, count, seconds = output.stdout.split()
    return float(seconds), int(count)


def usable_cores(binary: Path, cores: int, n: int = 14, rounds: int = 3) -> float:
    """How many cores' worth of work this session gets: ``cores`` reference runs at
    once against one alone, medians of ``rounds``.

    With other sessions busy, the scheduler (autogroup) may share one session's
    processes out of its own slice: two processes then run no faster together than
    one, and a count on every core cannot beat one worker by much.
    """
    alone, together = [], []
    for _ in range(rounds):
        alone.append(run_reference(binary, n)[0])
        start = time.perf_counter()
        runs = [
            subprocess.Popen([str(binary), str(n)], stdout=subprocess.DEVNULL) for _ in range(cores)
        ]
        for run in runs:
            run.wait()
        together.append(time.perf_counter() - start)
    return cores * statistics.median(alone) / statistics.median(together)


def run_bitmask(n: int, workers: int) -> tuple[float, int]:
    start = time.perf_counter()
    count = cpqueens.count(n, backend="bitmask", workers=workers)
    return time.perf_counter() - start, count


def compile_times(folder: Path, warm_up: str) -> tuple[float, float]:
    """Seconds to compile kernels into an empty cache, then to load them from it.

    Each is a fresh process, timed from before numba is imported: what the first
    count of a new process pays.
    """
    code = f"import time; t = time.perf_counter(); {warm_up}; print(time.perf_counter() - t)"
    cache = tempfile.mkdtemp(dir=folder)
    (folder / "numba_floor.py").write_text(
        "from numba import njit\n\n@njit(cache=True)\ndef identity(x):\n    return x\n"
    )
    path = os.pathsep.join(filter(None, [os.environ.get("PYTHONPATH"), str(folder)]))
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=path)
    times = []
    for _ in range(2):  # the first run fills the empty cache, the second loads it
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        times.append(float(out.stdout))
    return times[0], times[1]


def machine() -> str:
    """One line naming the processor, the cores and the software the figures depend on."""
    import numba

    model = cpu_model()
    gcc = subprocess.run(["gcc", "-dumpfullversion"], capture_output=True, text=True).stdout
    load = " ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return (
        f"{model}, {default_workers()} cores usable, {platform.system()}, "
        f"Python {platform.python_version()}, numba {numba.__version__}, gcc {gcc.strip()}; "
        f"load average at start {load}"
    )


def rate(count: int, seconds: float, cores: int) -> str:
    """Solutions counted per second and per core, in millions."""
    return f"{count / seconds / cores / 1e6:.1f}M"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="14-16", help="board sizes: 14-16 or 12,14 (14-16)")
    parser.add_argument("--with-17", action="store_true", help="also n=17 (minutes)")
    parser.add_argument(
        "--with-18", action="store_true", help="also n=18, one run (the reference: ~10 min)"
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs per size up to n=17, medians taken (3)"
    )
    parser.add_argument(
        "--markdown", action="store_true", help="print the table as Markdown, for docs/bitmask.md"
    )
    args = parser.parse_args()
    sizes = parse_sizes(args.sizes)
    sizes += [n for n, wanted in ((17, args.with_17), (18, args.with_18)) if wanted]
    sizes = sorted(set(sizes))
    cores = default_workers()
    verdicts = []
    ratios = []
    wrong = 0
    print(f"machine: {machine()}")
    if hasattr(os, "getloadavg") and os.getloadavg()[0] > 0.5:
        print(
            "note: other work is running (load average above 0.5); the times on every core "
            "suffer most, so read their ratios with care"
        )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        binary = build_reference(folder)
        if cores > 1:
            got = usable_cores(binary, cores)
            print(
                f"cores this session gets: {got:.1f} of {cores} ({cores} reference runs at "
                "once against one alone); the ratios on every core are bounded by that"
            )
        for label, code in WARM_UPS.items():
            cold, warm = compile_times(folder, code)
            print(f"{label}: compile {cold:.2f} s into an empty cache, {warm:.2f} s from the cache")
            if label == "numba alone":
                continue
            verdicts.append(verdict(f"{label}, compile", cold, GOAL_COLD, " s"))
            verdicts.append(verdict(f"{label}, load from the cache", warm, GOAL_WARM, " s"))
        cpqueens.count(8, backend="bitmask", workers=1)  # load the kernels here, untimed
        table = Table(cores, args.markdown)
        for n in sizes:
            repeat = args.repeat if n <= 17 else 1
            runs = {"ref": [], "one": [], "all": []}
            cpu = {"ref": [], "one": [], "all": []}
            counts = set()
            for _ in range(repeat):  # interleaved, so that load on the machine hits all
                for key, run, arg in (
                    ("ref", run_reference, binary),
                    ("one", run_bitmask, 1),
                    ("all", run_bitmask, cores),
                ):
                    before = cpu_seconds()
                    seconds, count = run(arg, n) if key == "ref" else run(n, arg)
                    cpu[key].append(cpu_seconds() - before)
                    runs[key].append(seconds)
                    counts.add(count)
            ref, one, full = (statistics.median(runs[k]) for k in ("ref", "one", "all"))
            if len(counts) != 1:
                sys.exit(f"n={n}: the runs disagree: {sorted(counts)}")
            (count,) = counts
            wrong += n in A000170 and count != A000170[n]
            table.row(n, repeat, ref, one, full, count)
            ref_cpu, one_cpu, all_cpu = (statistics.median(cpu[k]) for k in ("ref", "one", "all"))
            ratios.append(
                (n, repeat, ref, one / ref, full / ref, one_cpu / ref_cpu, all_cpu / ref_cpu)
            )
    print(f"ratios to the reference (medians), goals {GOAL_ONE:.2f}x and {GOAL_ALL:.2f}x:")
    for n, repeat, ref, ratio_one, ratio_all, cpu_one, cpu_all in ratios:
        print(
            f"  n={n}: reference {ref:.3f} s, 1 worker {ratio_one:.3f}x, "
            f"{cores} workers {ratio_all:.3f}x ({repeat} runs); processor time, "
            f"which other load changes far less: 1 worker {cpu_one:.3f}x, "
            f"{cores} workers {cpu_all:.3f}x in all"
        )
        if n not in GOAL_SIZES:
            continue
        if repeat < GOAL_RUNS:
            print(f"  n={n}: not judged, fewer than {GOAL_RUNS} runs (--repeat)")
            continue
        verdicts.append(verdict(f"n={n}, 1 worker", ratio_one, GOAL_ONE, "x"))
        verdicts.append(verdict(f"n={n}, {cores} workers", ratio_all, GOAL_ALL, "x"))
    print("goals:")
    for line in verdicts:
        print(f"  {line}")
    return 1 if wrong else 0


def verdict(label: str, value: float, goal: float, unit: str) -> str:
    """``label: value <= goal: met`` (or ``NOT met``)."""
    outcome = "met" if value <= goal else "NOT met"
    return f"{label}: {value:.3f}{unit} (goal <= {goal:.2f}{unit}) {outcome}"


class Table:
    """The rows of the comparison, as aligned text or as Markdown."""

    COLUMNS = (
        "n", "runs", "reference s", "ref sol/s", "1 worker s", "x ref", "sol/s/core",
        "{cores} workers s", "x ref", "sol/s/core", "count",
    )  # fmt: skip
    WIDTHS = (3, 5, 12, 10, 11, 6, 11, 14, 6, 11, 16)

    def __init__(self, cores: int, markdown: bool):
        self.cores, self.markdown = cores, markdown
        header = [c.format(cores=cores) for c in self.COLUMNS]
        if markdown:
            print("| " + " | ".join(header) + " |")
            print("|" + "---:|" * len(header))
        else:
            print("".join(f"{c:>{w}}" for c, w in zip(header, self.WIDTHS, strict=True)))

    def row(self, n, repeat, ref, one, full, count):
        check = "" if n not in A000170 else (" ok" if count == A000170[n] else " WRONG")
        cells = [
            str(n), str(repeat), f"{ref:.3f}", rate(count, ref, 1),
            f"{one:.3f}", f"{one / ref:.2f}", rate(count, one, 1),
            f"{full:.3f}", f"{full / ref:.2f}", rate(count, full, self.cores),
            f"{count:,}{check}",
        ]  # fmt: skip
        if self.markdown:
            print("| " + " | ".join(cells) + " |")
        else:
            print("".join(f"{c:>{w}}" for c, w in zip(cells, self.WIDTHS, strict=True)))
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
