"""Other ways to run the exactcover search, for ``bench_exactcover.py``: dancing links
(``--dlx``), the kernels of an earlier commit (``--baseline``, :func:`kernels_of`) and
the C search choosing among rows only (``--rows-only``).

The other way to run Algorithm X: Knuth's doubly linked lists (Algorithm D of TAOCP
7.2.2.1, as in his DLX1), compiled with numba like the backend's bitsets, and
searching the same tree: the primary items (rows and columns) are listed in the
backend's tie order, so the first item of fewest options in the list is the item
the backend chooses; each item's options are in increasing order of the other
coordinate. So the node counts must be equal, which checks both, and the times
compare the two data structures alone.
"""

from __future__ import annotations

import importlib
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from numba import njit

from cpqueens.solvers.exactcover.backend import allowed_masks, node_budget
from cpqueens.solvers.exactcover.kernels import Search, middle_out
from cpqueens.solvers.problem import Problem


def build(n: int, allowed: list[int]) -> tuple[np.ndarray, ...]:
    """The links of the exact cover of an n x n board with the free squares ``allowed``.

    Returns ``(top, up, down, left, right, length)``: Knuth's TOP, ULINK, DLINK
    (nodes), LLINK, RLINK (items; the primary ones circular from 0, the secondary
    ones on a list of their own) and LEN. Spacers between options have TOP <= 0,
    ULINK the first node of the option before, DLINK the last node of the one after.
    """
    names = []
    for index in middle_out(n):
        names += [("row", index), ("column", index)]
    primary = len(names)
    names += [("sum", k) for k in range(2 * n - 1)] + [("difference", k) for k in range(2 * n - 1)]
    number = {name: k + 1 for k, name in enumerate(names)}
    items = len(names)
    options = [(r, c) for r in range(n) for c in range(n) if allowed[r] >> c & 1]
    size = items + 2 + 5 * len(options)
    top, up, down = (np.zeros(size, np.int64) for _ in range(3))
    left, right = np.zeros(items + 2, np.int64), np.zeros(items + 2, np.int64)
    length = np.zeros(items + 1, np.int64)
    for k in range(1, items + 1):
        up[k] = down[k] = k
    cycles = (list(range(primary + 1)), [*range(primary + 1, items + 1), items + 1])
    for cycle in cycles:
        for a, b in zip(cycle, cycle[1:] + cycle[:1], strict=True):
            right[a], left[b] = b, a
    spacer = p = items + 1
    for r, c in options:
        first = p + 1
        for name in (("row", r), ("column", c), ("sum", r + c), ("difference", r - c + n - 1)):
            p += 1
            item = number[name]
            top[p] = item
            length[item] += 1
            up[p], down[up[item]] = up[item], p
            down[p], up[item] = item, p
        p += 1
        top[p], up[p], down[spacer] = -spacer, first, p - 1
        spacer = p
    return top[: p + 1], up[: p + 1], down[: p + 1], left, right, length


@njit(cache=True)
def _hide(p, top, up, down, length):
    q = p + 1
    while q != p:
        x, u, d = top[q], up[q], down[q]
        if x <= 0:
            q = u
        else:
            down[u], up[d] = d, u
            length[x] -= 1
            q += 1


@njit(cache=True)
def _unhide(p, top, up, down, length):
    q = p - 1
    while q != p:
        x, u, d = top[q], up[q], down[q]
        if x <= 0:
            q = d
        else:
            down[u], up[d] = q, q
            length[x] += 1
            q -= 1


@njit(cache=True)
def _cover(i, top, up, down, left, right, length):
    p = down[i]
    while p != i:
        _hide(p, top, up, down, length)
        p = down[p]
    right[left[i]], left[right[i]] = right[i], left[i]


@njit(cache=True)
def _uncover(i, top, up, down, left, right, length):
    right[left[i]], left[right[i]] = i, i
    p = up[i]
    while p != i:
        _unhide(p, top, up, down, length)
        p = up[p]


@njit(cache=True)
def decide(n, top, up, down, left, right, length):
    """Algorithm X with dancing links to the first solution: returns (found, nodes)."""
    chosen = np.zeros(n + 1, np.int64)  # the option tried at each level
    items = np.zeros(n + 1, np.int64)  # the item chosen at each level
    level = 0
    nodes = 0
    entering = True
    while True:
        if entering:
            if right[0] == 0:
                return 1, nodes
            best = n + 1  # more options than any item has
            i = right[0]
            p = i
            while p != 0 and best > 0:  # the first item of fewest options
                if length[p] < best:
                    best, i = length[p], p
                p = right[p]
            _cover(i, top, up, down, left, right, length)
            items[level] = i
            chosen[level] = down[i]
        else:
            p = chosen[level] - 1  # take back the option tried at this level
            while p != chosen[level]:
                j = top[p]
                if j <= 0:
                    p = down[p]
                else:
                    _uncover(j, top, up, down, left, right, length)
                    p -= 1
            chosen[level] = down[chosen[level]]
        i = items[level]
        if chosen[level] == i:  # no option left: back to the level above
            _uncover(i, top, up, down, left, right, length)
            if level == 0:
                return 0, nodes
            level -= 1
            entering = False
            continue
        nodes += 1
        p = chosen[level] + 1
        while p != chosen[level]:
            j = top[p]
            if j <= 0:
                p = up[p]
            else:
                _cover(j, top, up, down, left, right, length)
                p += 1
        level += 1
        entering = True


def compare(cases: list) -> int:
    """Decide each instance with the bitsets and with dancing links; print both times."""

    def bitsets(n, allowed):
        search = Search(n, allowed)
        start = time.perf_counter()
        found = search.next_solutions(1, 1 << 62)
        return len(found), search.nodes, time.perf_counter() - start

    def links(n, allowed):
        arrays = build(n, allowed)
        start = time.perf_counter()
        found, nodes = decide(n, *arrays)
        return found, nodes, time.perf_counter() - start

    bitsets(4, [15] * 4)
    links(4, [15] * 4)  # compile or load both first
    print(f"{'n':>3} {'m':>5} {'sat?':>5} {'nodes':>11} {'bitsets s':>10} {'links s':>9} {'x':>6}")
    ratios = []
    for instance in cases:
        problem = Problem(instance.n, (None,) * instance.n, blocked=frozenset(instance.blocked))
        allowed = allowed_masks(problem)
        found, nodes, fast = bitsets(instance.n, allowed)
        other = links(instance.n, allowed)
        same = "" if other[:2] == (found, nodes) else "  DIFFERENT TREES"
        ratios.append(other[2] / fast)
        print(
            f"{instance.n:>3} {len(instance.blocked):>5} {'yes' if found else 'no':>5} {nodes:>11,}"
            f" {fast:>10.4f} {other[2]:>9.4f} {other[2] / fast:>6.2f}{same}",
            flush=True,
        )
    print(f"dancing links / bitsets: median {statistics.median(ratios):.2f}x")
    return 0


def kernels_of(commit: str):
    """The module ``cpqueens/solvers/exactcover/kernels.py`` as it was at ``commit`` (read
    with git, imported from a temporary folder: the search of that day, beside today's)."""
    folder = Path(tempfile.mkdtemp(prefix="exactcover_baseline_"))
    package = folder / "exactcover_baseline"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name in ("kernels.py", "bits.py"):
        show = ["git", "show", f"{commit}:cpqueens/solvers/exactcover/{name}"]
        text = subprocess.run(show, capture_output=True, text=True, check=True).stdout
        (package / name).write_text(text)
    sys.path.insert(0, str(folder))
    module = importlib.import_module("exactcover_baseline.kernels")
    module.warm_up()
    return module


def first_solution_seconds(kernels, instance) -> tuple[float, int]:
    """(search seconds, nodes) of a decision (limit=1) by ``kernels`` driven as the backend
    drives its kernel: calls of :func:`node_budget` nodes until a solution or the end."""
    problem = Problem(instance.n, instance.fixed_per_row(), blocked=instance.blocked_set)
    search = kernels.Search(instance.n, allowed_masks(problem))
    budget, spent = node_budget(instance.n), 0.0
    while not search.finished:
        started = time.perf_counter()
        found = search.next_solutions(1, budget)
        spent += time.perf_counter() - started
        if len(found):
            break
    return spent, search.nodes


def against_commit(commit: str, cases: list, repeats: int, decide, recorded: dict) -> tuple:
    """Decide each (seed, instance) with the kernels of ``commit`` and with the backend
    (``decide``), in turn, ``repeats`` times; print the median search seconds of both
    beside ``recorded`` ones (n -> by seed). Returns the ratios to both, per instance."""
    old = kernels_of(commit)
    print(f"search seconds, medians of {repeats}; today's = the kernel of {commit}")
    print(f"{'n':>3} {'seed':>4} {'nodes':>10} {'recorded':>9} {'today':>8} {'now':>8} {'x':>7}")
    ratios, to_recorded = [], []
    for seed, instance in cases:
        before, now = [], []
        for _ in range(repeats):
            seconds, nodes = first_solution_seconds(old, instance)
            before.append(seconds)
            run = decide("exactcover", instance)
            now.append(run.stats["search_seconds"])
            assert run.stats["nodes"] == nodes, "the searches differ"
        then, new = statistics.median(before), statistics.median(now)
        ratios.append(new / then)
        kept = recorded.get(instance.n, ())[seed - 1 : seed]
        to_recorded += [new / max(kept[0], 1e-4)] if kept else []
        then_recorded = f"{kept[0]:>9.4f}" if kept else f"{'-':>9}"
        line = f"{instance.n:>3} {seed:>4} {nodes:>10,} {then_recorded}"
        print(f"{line} {then:>8.4f} {new:>8.4f} {new / then:>7.3f}", flush=True)
    return ratios, to_recorded


def rows_only(cases: list, reference, node_limit: int) -> int:
    """Nodes of the C search (``reference(instance, *flags)``) choosing among rows and
    columns, and among rows only (cut at ``node_limit``)."""
    print(f"rows only: cut at {node_limit:,} nodes (marked >)")
    print(f"{'n':>3} {'m':>5} {'sat?':>5} {'rows+columns':>13} {'rows only':>14} {'x':>9}")
    ratios = []
    for instance in cases:
        found, both, _ = reference(instance)
        more, rows, _ = reference(instance, "--rows-only", "--node-limit", str(node_limit))
        mark = ">" if more < 0 else " "
        ratios.append(rows / both)
        print(
            f"{instance.n:>3} {len(instance.blocked):>5} {'yes' if found else 'no':>5} {both:>13,}"
            f" {mark}{rows:>13,} {mark}{rows / both:>8.0f}",
            flush=True,
        )
    print(
        f"rows only / rows and columns: median {statistics.median(ratios):.0f}x, "
        f"from {min(ratios):.1f}x to {max(ratios):.0f}x"
    )
    return 0
