"""Every backend's answer and time on a generated set of hard instances.

    PYTHONPATH=. python benchmarks/bench_instances.py                  # the docs' table
    PYTHONPATH=. python benchmarks/bench_instances.py --sizes 12,16 --per-size 3 --time-limit 5
    PYTHONPATH=. python benchmarks/bench_instances.py --backends exactcover,sat,cpsat --sizes 40

The set: for each n of ``--sizes``, ``--per-size`` blocked instances from
:func:`cpqueens.random_blocked` (Gent et al.'s generator) leaving ``--free-per-row``
free squares per row on average (``n * (n - f)`` blocked squares: about 6.75 is the
hardest region at n = 28..56, where half the instances have a solution; see
docs/backends.md, exactcover) and as many completion instances from
:func:`cpqueens.random_completion` (``--given`` queens as a share of n), seeds 1,
2, ... Each backend decides each instance (``solve(instance,
backend=B, limit=1, time_limit=T)``): the table gives its answer (``sat``, ``unsat``
or ``-`` when the limit stopped it before knowing) and its median time over the
instances it answered, and the answers are checked against each other: two
backends that give different answers on one instance are a fault, printed and
counted in the exit status.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import cpqueens
from cpqueens.solvers import REGISTRY

ANSWER = {True: "sat", False: "unsat", None: "-"}


def generated(sizes: list[int], per_size: int, free: float, given: float) -> list:
    instances = []
    for n in sizes:
        for seed in range(1, per_size + 1):
            blocked = cpqueens.random_blocked(n, round(n * (n - free)), seed=seed)
            instances.append(_named(blocked, f"blocked-n{n}-s{seed}"))
            completion = cpqueens.random_completion(n, max(1, round(given * n)), seed=seed)
            instances.append(_named(completion, f"completion-n{n}-s{seed}"))
    return instances


def _named(instance: cpqueens.Instance, name: str) -> cpqueens.Instance:
    return cpqueens.Instance(instance.n, fixed=instance.fixed, blocked=instance.blocked, name=name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="16,20,24", help="comma-separated board sizes")
    parser.add_argument("--per-size", type=int, default=3, help="instances of each kind per n")
    parser.add_argument(
        "--free-per-row", type=float, default=6.75, help="free squares left per row, on average"
    )
    parser.add_argument("--given", type=float, default=0.4, help="given queens as a share of n")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per decision")
    parser.add_argument("--backends", help="comma-separated (default: every available one)")
    args = parser.parse_args()
    sizes = [int(part) for part in args.sizes.split(",")]
    names = (
        args.backends.split(",")
        if args.backends
        else [name for name, b in REGISTRY.items() if b.is_available()]
    )
    instances = generated(sizes, args.per_size, args.free_per_row, args.given)
    answers: dict[str, dict[str, bool | None]] = {}
    times: dict[str, list[float]] = {}
    for name in names:
        answers[name], times[name] = {}, []
        for instance in instances:
            if REGISTRY[name].largest_n() is not None and instance.n > REGISTRY[name].largest_n():
                answers[name][instance.name] = None
                continue
            start = time.perf_counter()
            result = cpqueens.solve(instance, backend=name, limit=1, time_limit=args.time_limit)
            elapsed = time.perf_counter() - start
            answers[name][instance.name] = result.satisfiable
            if result.satisfiable is not None:
                times[name].append(elapsed)
        print(f"{name}: done", file=sys.stderr)
    faults = 0
    print(f"| instance | {' | '.join(names)} |")
    print(f"|---|{'---|' * len(names)}")
    for instance in instances:
        row = [answers[name][instance.name] for name in names]
        known = {answer for answer in row if answer is not None}
        if len(known) > 1:
            faults += 1
        cells = [ANSWER[answer] for answer in row]
        print(
            f"| {instance.name} | {' | '.join(cells)} |" + (" DISAGREE" if len(known) > 1 else "")
        )
    medians = [f"{statistics.median(times[name]):.3f}" if times[name] else "-" for name in names]
    answered = [str(len(times[name])) for name in names]
    print(f"| answered (of {len(instances)}) | {' | '.join(answered)} |")
    print(f"| median s per answer | {' | '.join(medians)} |")
    print(
        f"{len(instances)} instances, time limit {args.time_limit:g} s; "
        f"{faults} instance(s) with disagreeing answers"
    )
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
