"""Does ``time_limit`` hold? Every backend, at board sizes across what it takes.

Run from the repository root:

    PYTHONPATH=. python benchmarks/bench_limits.py                  # T = 1 s, medians of 3
    PYTHONPATH=. python benchmarks/bench_limits.py --time-limit 1 --time-limit 5
    PYTHONPATH=. python benchmarks/bench_limits.py --backend cpsat --backend sat --repeat 5
    PYTHONPATH=. python benchmarks/bench_limits.py --sizes 30,1000 --question one --markdown

The promise (docs/limits.md): a call with ``time_limit=T`` returns within
``T + max(1 s, 10 % of T)`` (``TIME_LIMIT_SLACK``, ``TIME_LIMIT_SLACK_SHARE``) on every
backend at every n it takes, model building included, with ``complete=False`` and
``stats["timed_out"]`` when the limit stopped it.

The backends are those of the registry (``--backend`` picks some). Each is probed at
the ``--sizes`` it takes and at the largest board it takes, all capped at ``--max-n``,
with two questions: ``all`` asks for every solution, a count no backend finishes at
these sizes, so the limit must stop it; ``one`` asks for one solution (``limit=1``),
which shows what building the model costs before the first solution.

Every probe is one call in its own fresh Python process, so that no backend's state
(a loaded solver, a warmed cache, a native crash) reaches another. The call is timed
inside the child (``perf_counter`` around ``solve``: what the promise is about; the
solver's own lazy imports are part of it), and the whole child outside (interpreter
start and ``import cpqueens`` included). A child still running at the hard cap
(``--hard-cap``, default ``10 T + 60 s``) is killed with its process group and counts
as a broken promise, as does one that crashes or raises.

Each probe runs ``--repeat`` times, every probe once in turn within each repeat so
that the load of the machine falls on all alike. The table gives the median call
time, its ratio to T, the slowest call, the promised bound and whether it held; a
promise holds only if every run of the probe returned within the bound. The exit
status is 1 when one did not.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from cpqueens.solvers import REGISTRY
from cpqueens.solvers.run import TIME_LIMIT_SLACK, TIME_LIMIT_SLACK_SHARE

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = ("all", "one")
DEFAULT_SIZES = "30,100,300,1000,2000,5000"

#: Run in the child: import first, then time one call; one line of JSON on stdout.
CHILD = """
import json, sys, time
import cpqueens
backend, n, limit, time_limit = json.loads(sys.argv[1])
start = time.perf_counter()
try:
    result = cpqueens.solve(n, backend=backend, limit=limit, time_limit=time_limit)
except Exception as error:
    call = time.perf_counter() - start
    print(json.dumps({"call": call, "error": f"{type(error).__name__}: {error}"[:200]}))
else:
    call = time.perf_counter() - start
    print(json.dumps({
        "call": call,
        "count": result.count,
        "complete": result.complete,
        "timed_out": bool(result.stats.get("timed_out")),
    }))
"""


def promised(time_limit: float) -> float:
    """The bound a call with ``time_limit`` must return within."""
    return time_limit + max(TIME_LIMIT_SLACK, TIME_LIMIT_SLACK_SHARE * time_limit)


@dataclass(frozen=True)
class Probe:
    backend: str
    n: int
    question: str
    time_limit: float
    hard_cap: float

    @property
    def limit(self) -> int | None:
        return 1 if self.question == "one" else None


@dataclass
class Run:
    """One probe's child process: its call time, whole wall time and outcome."""

    process: float
    call: float | None = None
    status: str = ""
    broken: bool = False


@dataclass
class Row:
    probe: Probe
    runs: list[Run] = field(default_factory=list)

    @property
    def bound(self) -> float:
        return promised(self.probe.time_limit)

    @property
    def calls(self) -> list[float]:
        return [run.call for run in self.runs if run.call is not None]

    @property
    def holds(self) -> bool:
        return not any(run.broken for run in self.runs)

    def status(self) -> str:
        """The runs' outcome, or each outcome with how many runs had it."""
        seen: dict[str, int] = {}
        for run in self.runs:
            seen[run.status] = seen.get(run.status, 0) + 1
        if len(seen) == 1:
            return next(iter(seen))
        return ", ".join(f"{status} {k}/{len(self.runs)}" for status, k in seen.items())


def run_probe(probe: Probe) -> Run:
    """Run one probe in a fresh child process and judge it against the promise."""
    arguments = json.dumps([probe.backend, probe.n, probe.limit, probe.time_limit])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # its own process group: a solver's helpers die with it
    )
    try:
        out, err = child.communicate(timeout=probe.hard_cap)
    except subprocess.TimeoutExpired:
        with_group(child, signal.SIGKILL)
        child.communicate()
        return Run(
            time.perf_counter() - start, status=f"killed at {probe.hard_cap:.0f} s", broken=True
        )
    process = time.perf_counter() - start
    lines = out.strip().splitlines()
    try:
        report = json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        last = (err.strip().splitlines() or ["no output"])[-1][:120]
        return Run(process, status=f"crashed ({child.returncode}): {last}", broken=True)
    call = report["call"]
    if "error" in report:
        return Run(process, call, status=f"error: {report['error']}", broken=True)
    if report["timed_out"]:
        status = "timed out" if not report["complete"] else "timed out, complete?"
    elif report["complete"]:
        status = "complete"
    else:
        status = f"{report['count']:,} found"
    broken = call > promised(probe.time_limit) or (report["timed_out"] and report["complete"])
    return Run(process, call, status=status, broken=broken)


def with_group(child: subprocess.Popen, signum: int) -> None:
    """Send ``signum`` to the child's own process group, if it is still there."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(child.pid, signum)


def sizes_for(backend: str, sizes: list[int], max_n: int) -> list[int]:
    """The ``sizes`` this backend takes, and the largest board it takes, up to ``max_n``."""
    largest = REGISTRY[backend].largest_n()
    cap = max_n if largest is None else min(largest, max_n)
    return sorted({n for n in sizes if n <= cap} | {cap})


def seconds(text: str) -> float:
    """A time limit for argparse: positive, finite, below "no limit"."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not (0 < value < 1e9) or math.isnan(value):
        raise argparse.ArgumentTypeError(
            f"a time limit must be positive and finite (below 1e9 s), got {text}"
        )
    return value


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def size_list(text: str) -> list[int]:
    try:
        sizes = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"sizes are comma-separated integers: {text!r}") from None
    if not sizes or min(sizes) < 4:
        raise argparse.ArgumentTypeError(f"sizes must be integers of at least 4, got {text!r}")
    return sizes


HEADER = (
    "backend",
    "n",
    "question",
    "T s",
    "median call s",
    "x T",
    "max call s",
    "bound s",
    "holds",
    "median process s",
    "outcome",
)


def cells(row: Row) -> list[str]:
    calls = row.calls
    median = statistics.median(calls) if calls else None
    t = row.probe.time_limit
    return [
        row.probe.backend,
        f"{row.probe.n:,}",
        row.probe.question,
        f"{t:g}",
        "-" if median is None else f"{median:.2f}",
        "-" if median is None else f"{median / t:.2f}",
        "-" if not calls else f"{max(calls):.2f}",
        f"{row.bound:.2f}",
        "yes" if row.holds else "NO",
        f"{statistics.median(run.process for run in row.runs):.2f}",
        row.status(),
    ]


def print_text(rows: list[Row]) -> None:
    table = [list(HEADER)] + [cells(row) for row in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(HEADER))]
    for line in table:
        print(
            "  ".join(
                cell.ljust(width) if i in (0, 2, 8, 10) else cell.rjust(width)
                for i, (cell, width) in enumerate(zip(line, widths, strict=True))
            ).rstrip()
        )


def print_markdown(rows: list[Row]) -> None:
    print("| " + " | ".join(HEADER) + " |")
    right = {1, 3, 4, 5, 6, 7, 9}
    print("|" + "|".join("---:" if i in right else "---" for i in range(len(HEADER))) + "|")
    for row in rows:
        line = cells(row)
        if not row.holds:
            line[8] = "**NO**"
        print("| " + " | ".join(line) + " |")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="The promise, the probes and the table are described at the top of the script.",
    )
    parser.add_argument(
        "--backend",
        action="append",
        choices=list(REGISTRY),
        metavar="NAME",
        help=f"a backend to probe, repeatable (default: all of {', '.join(REGISTRY)})",
    )
    parser.add_argument(
        "--time-limit",
        action="append",
        type=seconds,
        metavar="T",
        help="seconds given to each call, repeatable (default: 1)",
    )
    parser.add_argument(
        "--question",
        action="append",
        choices=QUESTIONS,
        help="all: every solution; one: limit=1; repeatable (default: both)",
    )
    parser.add_argument(
        "--sizes",
        type=size_list,
        default=size_list(DEFAULT_SIZES),
        help=f"board sizes, each probed where a backend takes it (default: {DEFAULT_SIZES})",
    )
    parser.add_argument(
        "--max-n",
        type=positive,
        default=5000,
        help="largest board probed, the largest board taken included (default: 5000)",
    )
    parser.add_argument("--repeat", type=positive, default=3, help="runs per probe (default: 3)")
    parser.add_argument(
        "--hard-cap",
        type=seconds,
        help="seconds after which a child is killed (default: 10 T + 60)",
    )
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args()
    if args.max_n < 4:
        parser.error(f"--max-n must be at least 4, got {args.max_n}")
    names = list(dict.fromkeys(args.backend or REGISTRY))
    limits = list(dict.fromkeys(args.time_limit or [1.0]))
    questions = [q for q in QUESTIONS if q in (args.question or QUESTIONS)]

    rows: list[Row] = []
    for name in names:
        if not REGISTRY[name].is_available():
            print(f"{name}: not installed here, left out", file=sys.stderr)
            continue
        for t in limits:
            cap = args.hard_cap or 10 * t + 60
            for n in sizes_for(name, args.sizes, args.max_n):
                rows.extend(Row(Probe(name, n, q, t, cap)) for q in questions)
    if not rows:
        parser.error("nothing to probe: none of the chosen backends is installed")

    started = time.perf_counter()
    for repeat in range(args.repeat):
        for i, row in enumerate(rows, 1):
            run = run_probe(row.probe)
            row.runs.append(run)
            p = row.probe
            call = "-" if run.call is None else f"{run.call:.2f} s"
            clock = time.perf_counter() - started
            print(
                f"[{repeat + 1}/{args.repeat} {i}/{len(rows)} {clock:.0f} s]"
                f" {p.backend} n={p.n} {p.question} T={p.time_limit:g}: call {call},"
                f" process {run.process:.2f} s, {run.status}" + (" BROKEN" if run.broken else ""),
                file=sys.stderr,
                flush=True,
            )

    if args.markdown:
        print_markdown(rows)
    else:
        print_text(rows)
    broken = [row for row in rows if not row.holds]
    for row in broken:
        p = row.probe
        calls = ", ".join(f"{c:.2f}" for c in row.calls) or "none returned"
        print(
            f"BROKEN: {p.backend} n={p.n} {p.question} T={p.time_limit:g}: calls {calls} s"
            f" against {row.bound:.2f} s ({row.status()})",
            file=sys.stderr,
        )
    print(
        f"{len(rows)} probes x {args.repeat}, {len(broken)} broken promise(s),"
        f" {time.perf_counter() - started:.0f} s in all",
        file=sys.stderr,
    )
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
