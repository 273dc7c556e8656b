"""The command line: for now a cross-check of every backend over small boards."""

from __future__ import annotations

import sys
import time

from .api import backends, solve


def main(argv: list[str] | None = None) -> int:
    """Solve n=1..8 with every available backend and report whether they all agree."""
    sizes = range(1, 9)
    agree = True
    print(f"{'backend':<12}" + "".join(f"{n:>6}" for n in sizes) + "   agree   seconds")
    reference = {n: set(solve(n, backend="stack").solutions) for n in sizes}
    for info in backends():
        if not info.available or not info.enumerates:
            continue
        start = time.perf_counter()
        results = [solve(n, backend=info.name) for n in sizes]
        same = all(set(r.solutions) == reference[r.n] for r in results)
        agree &= same
        row = "".join(f"{r.count:>6}" for r in results)
        print(
            f"{info.name:<12}{row}   {'yes' if same else 'NO':<6}{time.perf_counter() - start:>9.3f}"
        )
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
