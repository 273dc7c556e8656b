"""Time to a first solution, every backend, n = 8, 16, 32, ... until it takes too long.

Run from the repository root:

    PYTHONPATH=. python benchmarks/bench_first.py                  # T = 2 s, up to 2^23
    PYTHONPATH=. python benchmarks/bench_first.py --time-limit 1 --max-exp 16 -o /tmp/first.png
    PYTHONPATH=. python benchmarks/bench_first.py --backends qs,construct,minconflicts

For every backend of the registry that is available here (the others are named and
skipped), ``cpqueens.solve(n, backend=B, limit=1, time_limit=T)`` is timed end to end
for n = 8, 16, 32, ..., up to the backend's ``max_n`` and to ``2 ** --max-exp`` for
``construct``, ``qs`` and ``minconflicts`` (default 2^23) or ``2 ** --max-exp-others``
for the rest (default 2^16: they stop long before). The median of ``--repeat`` runs
(default 3) is kept; a backend stops going up at the first n where a run finds no
solution within T or takes longer than T in all (the set-up included), and that n is
listed as where it stopped.

Each backend runs in a child process of its own, after one call on n = 8 there, so
its compile caches and imports are warm when the clock starts; a child that does not
return (a backend that overran its time limit badly) is stopped after
``--child-timeout`` seconds and its sizes so far kept. A table is printed and a
log-log plot (time against n, one line per backend) written to ``-o`` (default
docs/first-solution.png).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import cpqueens
from cpqueens.solvers import BackendInfo

ROOT = Path(__file__).resolve().parent.parent
#: The backends built for large boards: they go up to 2 ** --max-exp.
LARGE = ("construct", "qs", "minconflicts")

CHILD = """
import json, statistics, sys, time
import cpqueens
from cpqueens.solvers import BackendInfo
name, top, repeat, limit = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
extra = {"seed": 1} if sys.argv[5] == "1" else {}
cpqueens.solve(8, backend=name, limit=1, **extra)  # imports and compile caches
n = 8
while n <= top:
    times = []
    for i in range(repeat):
        if "seed" in extra:
            extra["seed"] = i + 1
        started = time.perf_counter()
        try:
            r = cpqueens.solve(n, backend=name, limit=1, time_limit=limit, **extra)
            found = r.satisfiable is True and len(r.solutions) == 1
            why = "" if found else ("time limit" if r.stats.get("timed_out") else "no solution")
        except Exception as error:  # reported, and the backend stops going up
            found, why = False, f"{type(error).__name__}: {error}"[:80]
        seconds = time.perf_counter() - started
        if found and seconds > limit:
            found, why = False, f"took {seconds:.2f} s"
        if not found:
            print(json.dumps({"n": n, "failed": why, "seconds": seconds}), flush=True)
            sys.exit(0)
        times.append(seconds)
    print(json.dumps({"n": n, "seconds": statistics.median(times)}), flush=True)
    n *= 2
"""


def run_backend(
    info: BackendInfo, top: int, repeat: int, limit: float, timeout: float
) -> tuple[list[tuple[int, float]], str]:
    """The medians per n, and where and why the backend stopped ("" at the top size)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    seeded = "1" if info.randomized else "0"
    args = [sys.executable, "-c", CHILD, info.name, str(top), str(repeat), str(limit), seeded]
    child = subprocess.Popen(args, stdout=subprocess.PIPE, text=True, env=env)
    try:
        out, _ = child.communicate(timeout=timeout)
        stopped = "" if child.returncode == 0 else f"child exited with {child.returncode}"
    except subprocess.TimeoutExpired:
        child.kill()
        out, _ = child.communicate()
        stopped = f"no answer within {timeout:.0f} s"
    points = []
    for line in out.splitlines():
        row = json.loads(line)
        if "failed" in row:
            stopped = f"n = {row['n']:,}: {row['failed']}"
        else:
            points.append((row["n"], row["seconds"]))
    return points, stopped


def plot(results: dict[str, list[tuple[int, float]]], limit: float, path: Path) -> None:
    """The log-log plot: a line per backend in its colour and marker of every cpqueens
    plot (:func:`cpqueens.reporting.style.backend_style`), the legend right of the axes."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from cpqueens.display.numbers import seconds
    from cpqueens.reporting.style import backend_style, legend_outside

    fig = Figure(figsize=(10.5, 6), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for name, points in results.items():
        if points:
            xs, ys = zip(*points, strict=True)
            ax.plot(
                xs, ys, **backend_style(name), label=name, markersize=4,
                linewidth=2.2 if name in LARGE else 1.2,
            )  # fmt: skip
    label = f"time limit {seconds(limit)}"
    ax.axhline(limit, color="grey", linestyle=":", linewidth=1, label=label)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("n (board size)")
    ax.set_ylabel("seconds to a first solution (median)")
    ax.set_title(f"solve(n, backend=B, limit=1, time_limit={limit:g})")
    ax.grid(True, which="major", alpha=0.3)
    legend_outside(ax, fontsize=8)
    fig.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=2.0, help="T, seconds per run")
    parser.add_argument("--repeat", type=int, default=3, help="runs per size (default 3)")
    parser.add_argument(
        "--max-exp", type=int, default=23, help="largest n = 2^this for " + ", ".join(LARGE)
    )
    parser.add_argument(
        "--max-exp-others", type=int, default=16, help="largest n = 2^this for the rest"
    )
    parser.add_argument("--backends", help="comma-separated names (default: all)")
    parser.add_argument("--child-timeout", type=float, default=120.0, help="seconds per backend")
    parser.add_argument("-o", "--output", type=Path, default=ROOT / "docs" / "first-solution.png")
    args = parser.parse_args()

    names = args.backends.split(",") if args.backends else [b.name for b in cpqueens.backends()]
    infos = {b.name: b for b in cpqueens.backends()}
    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} at the start")
    started = time.perf_counter()
    results: dict[str, list[tuple[int, float]]] = {}
    stops: dict[str, str] = {}
    for name in names:
        info = infos[name]
        if not info.available:
            print(f"{name}: skipped, not available (needs {info.requires})")
            continue
        top = 2 ** (args.max_exp if name in LARGE else args.max_exp_others)
        if info.max_n is not None:
            top = min(top, info.max_n)
        points, stopped = run_backend(info, top, args.repeat, args.time_limit, args.child_timeout)
        if not stopped and info.max_n is not None and top == info.max_n:
            stopped = f"its max_n ({info.max_n:,})"
        results[name], stops[name] = points, stopped
        largest = f"{points[-1][0]:,} in {points[-1][1]:.3f} s" if points else "none"
        print(f"{name}: largest n {largest}; stopped at {stopped or 'the top size'}", flush=True)
    print(
        f"{time.perf_counter() - started:.0f} s in all; load {os.getloadavg()[0]:.2f} at the end\n"
    )

    sizes = sorted({n for points in results.values() for n, _ in points})
    print("| n | " + " | ".join(results) + " |")
    print("|--:|" + "--:|" * len(results))
    for n in sizes:
        cells = []
        for points in results.values():
            seconds = dict(points).get(n)
            cells.append(
                "" if seconds is None else f"{seconds:.4f}" if seconds < 1 else f"{seconds:.2f}"
            )
        print(f"| {n:,} | " + " | ".join(cells) + " |")
    print()
    for name, stopped in stops.items():
        print(f"{name}: stopped at {stopped or 'the top size'}")
    plot(results, args.time_limit, args.output)
    print(f"\nplot written to {args.output}")


if __name__ == "__main__":
    main()
