"""What a model of the user's own costs over the shipped one: the same text, n=8 counted.

    python benchmarks/bench_minizinc_model.py               # n = 8, 20 rounds
    python benchmarks/bench_minizinc_model.py --n 10 --repeat 5

The shipped ``queens.mzn`` is copied to a temporary folder and run as ``model=``, so
both runs compile and solve the same model: the difference is what a user's model
adds, the checks of the file and the reading of its interface (``minizinc
--model-interface-only``), which a process does once per version of the file and
solver ("cached") and which "read anew" repeats on every call.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import cpqueens
from cpqueens.solvers.minizinc import backend as minizinc
from cpqueens.solvers.minizinc import models as minizinc_models


def timed(n: int, expected: int, **options: object) -> float:
    started = time.perf_counter()
    found = cpqueens.count(n, backend="minizinc", **options)
    elapsed = time.perf_counter() - started
    assert found == expected, (found, expected, options)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    expected = cpqueens.count(args.n, backend="stack")
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "copy.mzn"
        shutil.copy(Path(str(minizinc.model_path())), copy)
        timed(4, 2)  # MiniZinc's list of solvers is read once a process
        first = timed(args.n, expected, model=str(copy))
        rows: dict[str, list[float]] = {"shipped model": [], "own model": [], "read anew": []}
        for _ in range(args.repeat):
            rows["shipped model"].append(timed(args.n, expected))
            rows["own model"].append(timed(args.n, expected, model=str(copy)))
            minizinc_models._interface.cache_clear()
            rows["read anew"].append(timed(args.n, expected, model=str(copy)))
    print(f"n={args.n}, counted {expected}, {args.repeat} rounds (median, min)")
    for label, times in rows.items():
        median, least = statistics.median(times) * 1000, min(times) * 1000
        print(f"  {label:<14} {median:6.0f} ms {least:6.0f} ms")
    print(f"  own model, the first call of the process: {first * 1000:.0f} ms")


if __name__ == "__main__":
    main()
