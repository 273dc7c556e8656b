"""What isolation costs a campaign per run, against an in-process solve.

Run from the repository root:

    PYTHONPATH=. python benchmarks/bench_campaign.py                      # 30 pairs
    PYTHONPATH=. python benchmarks/bench_campaign.py --repeat 20 --backends stack,sat
    PYTHONPATH=. python benchmarks/bench_campaign.py --campaign-runs 100

On a trivial instance (plain n = 6, question ``decide``), for each backend of
``--backends`` (unavailable ones skipped), in one interleaved loop of ``--repeat``
pairs (so that other load on the machine hits both sides alike):

* in-process: ``cpqueens.solve(6, backend=B, limit=1, time_limit=10)``;
* isolated: everything a campaign pays per run: ``Sandbox.run(task)`` (the fork of
  the warm process, the watch of the child's time and memory through /proc, the
  answer sent back), then ``record(task, outcome)`` (the checks of the answer) and
  ``Store.add_run`` into an SQLite file in a temporary folder (one row per run);

the overhead of a pair is isolated minus in-process. One sandbox per backend is
started before any clock and given one warm-up run; each backend is solved once
in-process first too. Also printed: the one-off cost of starting a Sandbox (the
warm process's imports and warm-up solve; median of 3), the load average at the
start and end, and an end-to-end figure: ``run_campaign`` with ``workers=1`` on
``--campaign-runs`` repeats of n = 6 with the first backend, its total wall time divided by
the runs, minus the median in-process solve (sandbox start and the final checks
are spread over the runs).

Goal, checked at the end for each backend: median overhead under 50 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cpqueens
from cpqueens.campaigns.isolation import Sandbox
from cpqueens.campaigns.runner import record, run_campaign
from cpqueens.campaigns.store import Store

N = 6
TIME_LIMIT = 10
MEMORY_LIMIT_MB = 2000
GOAL_MS = 50.0
CAMPAIGN = "bench-campaign"


def solver_dict(backend: str) -> dict:
    return {"label": backend, "backend": backend, "options": {}, "command": None,
            "format": "json", "parse": "auto", "folder": None}  # fmt: skip


def task_for(backend: str) -> dict:
    return {"question": "decide", "time_limit": TIME_LIMIT, "memory_limit_mb": MEMORY_LIMIT_MB,
            "instance": cpqueens.Instance(N), "solver": solver_dict(backend)}  # fmt: skip


def in_process(backend: str) -> float:
    started = time.perf_counter()
    cpqueens.solve(N, backend=backend, limit=1, time_limit=TIME_LIMIT)
    return time.perf_counter() - started


def isolated(box: Sandbox, task: dict, store: Store, key: dict) -> float:
    """One run the way a campaign does it: sandboxed run, checks, row written."""
    started = time.perf_counter()
    outcome = box.run(task)
    fields = record(task, outcome)
    store.add_run(key, fields)
    seconds = time.perf_counter() - started
    if fields["status"] != "sat":  # a failed run would not be a fair price
        raise SystemExit(f"{task['solver']['label']}: isolated run {fields['status']}: {fields}")
    return seconds


def run_key(store: Store, backend: str, repeat: int) -> dict:
    """The store key of one run; a distinct repeat so that every run inserts a row."""
    board = task_for(backend)["instance"]
    instance = store.instance_id(f"plain-{N}", f"plain-n{N}", board, {"generator": "plain", "n": N})
    solver = store.solver_id(f"bench-{backend}", backend, solver_dict(backend))
    return {"campaign": CAMPAIGN, "instance_id": instance, "solver_id": solver,
            "question": "decide", "time_limit": TIME_LIMIT,
            "memory_limit_mb": MEMORY_LIMIT_MB, "repeat": repeat}  # fmt: skip


def sandbox_start_cost(backend: str, times: int = 3) -> float:
    """Median seconds from Sandbox(...) to ready (interpreter, imports, warm-up solve)."""
    costs = []
    for _ in range(times):
        started = time.perf_counter()
        box = Sandbox([solver_dict(backend)])
        costs.append(time.perf_counter() - started)
        box.close()
    return statistics.median(costs)


def measure(backends: list[str], repeat: int, store: Store) -> dict[str, dict[str, list[float]]]:
    """Interleaved pairs (in-process, isolated) per backend; seconds by side."""
    boxes = {b: Sandbox([solver_dict(b)]) for b in backends}
    try:
        for b in backends:  # warm-ups: numba caches, lazy imports, first fork
            in_process(b)
            isolated(boxes[b], task_for(b), store, run_key(store, b, -1))
        times = {b: {"in": [], "iso": []} for b in backends}
        for i in range(repeat):
            for b in backends:
                # Alternate which side goes first, so neither always follows the other.
                first_in = i % 2 == 0
                if first_in:
                    times[b]["in"].append(in_process(b))
                times[b]["iso"].append(isolated(boxes[b], task_for(b), store, run_key(store, b, i)))
                if not first_in:
                    times[b]["in"].append(in_process(b))
    finally:
        for box in boxes.values():
            box.close()
    return times


def campaign_per_run(backend: str, runs: int, folder: Path) -> float:
    """Seconds per run of a whole run_campaign (one worker) of trivial runs."""
    spec = {
        "campaign": {"name": CAMPAIGN, "question": "decide", "time_limit": TIME_LIMIT,
                     "memory_limit_mb": MEMORY_LIMIT_MB, "repeats": runs},
        "instances": [{"generator": "plain", "n": [N]}],
        "solvers": [{"backend": backend}],
    }  # fmt: skip
    started = time.perf_counter()
    report = run_campaign(spec, folder / "campaign.sqlite", workers=1)
    seconds = time.perf_counter() - started
    if not report.ok or report.ran != runs:
        raise SystemExit(f"run_campaign: {report.headline()}")
    return seconds / runs


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10, method="inclusive")[-1]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", default="stack,exactcover,cpsat,sat")
    parser.add_argument("--repeat", type=int, default=30, help="pairs per backend (default 30)")
    parser.add_argument("--campaign-runs", type=int, default=40, help="runs of run_campaign")
    args = parser.parse_args()

    available = {info.name for info in cpqueens.backends() if info.available}
    wanted = [b.strip() for b in args.backends.split(",") if b.strip()]
    backends = [b for b in wanted if b in available]
    for b in set(wanted) - set(backends):
        print(f"skipped: {b} (not available)")
    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} at the start; "
          f"python {sys.version.split()[0]}")  # fmt: skip

    start_cost = sandbox_start_cost(backends[0])
    with tempfile.TemporaryDirectory() as folder:
        with Store(Path(folder) / "bench.sqlite") as store:
            times = measure(backends, args.repeat, store)
        per_run = campaign_per_run(backends[0], args.campaign_runs, Path(folder))

    print(f"\nn = {N}, decide, {args.repeat} interleaved pairs per backend (ms)\n")
    print("| backend | in-process | isolated | overhead | p90 overhead |")
    print("|:--|--:|--:|--:|--:|")
    overheads = {}
    for b in backends:
        pairs = [iso - inp for inp, iso in zip(times[b]["in"], times[b]["iso"], strict=True)]
        overheads[b] = statistics.median(pairs)
        print(
            f"| {b} | {ms(statistics.median(times[b]['in']))} | "
            f"{ms(statistics.median(times[b]['iso']))} | {ms(overheads[b])} | {ms(p90(pairs))} |"
        )
    solve_alone = statistics.median(times[backends[0]]["in"])
    print(f"\none-off Sandbox start ({backends[0]}, median of 3): {ms(start_cost)} ms")
    print(
        f"per-run cost through run_campaign ({args.campaign_runs} {backends[0]} runs, "
        f"workers=1): {ms(per_run - solve_alone)} ms "
        f"({ms(per_run)} ms per run minus the in-process solve)"
    )
    print(f"load {os.getloadavg()[0]:.2f} at the end\n")
    print("goals:")
    for b, overhead in overheads.items():
        met = "met" if overhead * 1000 < GOAL_MS else "NOT met"
        print(f"  {b}: goal: median overhead < {GOAL_MS:.0f} ms: {met} ({ms(overhead)} ms)")


if __name__ == "__main__":
    main()
