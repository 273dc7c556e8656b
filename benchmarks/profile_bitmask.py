"""Where the ``bitmask`` counter spends its time, constellation class by class.

    PYTHONPATH=. python benchmarks/profile_bitmask.py            # n = 15
    PYTHONPATH=. python benchmarks/profile_bitmask.py --n 16

Every start constellation of the board is counted on its own, in the rotation the
counter searches (the border queen nearest a corner in the last row), and timed.
The constellations are grouped by the shape that decides how the search runs: how
far the last row's queen stands from a corner, and whether the queens of columns
0 and n-1 sit in adjacent rows (one jump of three rows) or in separate ones. For
each class: how many constellations, the seconds and share of the total, the nodes
(queens placed) and the nanoseconds per node. The last lines compare the nodes of
the searched rotation with those of the smallest image of each constellation.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict

from cpqueens.solvers.bitmask import counting
from cpqueens.solvers.bitmask.constellations import start_constellations


def shape(n: int, a: int, b: int, c: int, d: int) -> tuple[str, str]:
    """Where the last row's queen stands, and whether the column queens' rows touch."""
    corner = min(b, n - 1 - b)
    where = ("in a corner", "next to a corner", "2 from a corner")
    return where[corner] if corner < 3 else "farther", "adjacent" if abs(c - d) == 1 else "apart"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=15, help="board size (15)")
    n = parser.parse_args().n
    table = start_constellations(n)
    counting.warm_up()
    counting.count_constellation(n, *(int(x) for x in table.signatures[0]))  # compile
    classes: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0, 0])
    smallest_nodes = searched_nodes = 0
    for signature in table.signatures:
        smallest = tuple(int(x) for x in signature)
        searched = counting.searched_rotation(n, *smallest)
        start = time.perf_counter()
        _, nodes = counting.count_constellation(n, *searched)
        entry = classes[shape(n, *searched)]
        entry[0] += 1
        entry[1] += time.perf_counter() - start
        entry[2] += nodes
        searched_nodes += nodes
        smallest_nodes += counting.count_constellation(n, *smallest)[1]
    total = sum(entry[1] for entry in classes.values())
    print(f"n={n}: {len(table)} constellations, {total:.2f} s")
    print(
        f"{'last-row queen':<18}{'column queens':<15}{'count':>6}{'s':>8}{'share':>7}"
        f"{'nodes':>14}{'ns/node':>9}"
    )
    for (where, rows), (count, seconds, nodes) in sorted(classes.items(), key=lambda kv: -kv[1][1]):
        print(
            f"{where:<18}{rows:<15}{count:>6}{seconds:>8.3f}{seconds / total:>7.1%}"
            f"{nodes:>14,}{1e9 * seconds / max(nodes, 1):>9.2f}"
        )
    print(f"nodes, searched rotation: {searched_nodes:,}")
    print(
        f"nodes, smallest image:    {smallest_nodes:,} "
        f"({smallest_nodes / searched_nodes:.2f}x the searched rotation)"
    )


if __name__ == "__main__":
    main()
