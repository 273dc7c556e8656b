"""The ``propagate`` backend: backtracking on the propagation engine's bit-mask domains.

The engine (:mod:`cpqueens.engines.propagation`) keeps the domains and propagates;
this module walks the search it defines and counts its effort.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ..board import Solution
from ..engines.propagation import ORDERS, PROPAGATIONS, check_search, propagator
from .base import Backend
from .problem import Problem
from .run import SearchRun, check_interval


class PropagationBackend(Backend):
    """Backtracking with forward checking or arc consistency and a choice of next row.

    Options: ``propagation`` ``"forward"`` (default), ``"arc"`` or ``"none"``;
    ``order`` ``"row"`` (default: solutions in lexicographic order) or
    ``"first-fail"`` (the row with the fewest squares left; needs propagation).
    Stats: ``nodes`` (queens placed), ``dead_ends`` (placements after which a
    row had no square left; with ``"none"``, nodes with no safe square below),
    ``pruned`` (squares removed from domains, fixed queens' included) and
    ``nodes_per_depth`` (index 0, the root, is 0).

    Blocked squares (``blocked=``) are left out of the domains from the start:
    never placed, never counted as pruned. Under forward checking or arc
    consistency a row whose squares are all blocked is a wipe-out at the root (no
    node at all); blind search finds it when it reaches that row.

    >>> import cpqueens
    >>> r = cpqueens.solve(8, backend="propagate")
    >>> r.count, r.stats["nodes"], r.stats["dead_ends"]
    (92, 1724, 560)
    >>> cpqueens.solve(8, backend="propagate", propagation="arc", order="first-fail").stats["nodes"]
    738
    >>> r = cpqueens.solve(6, backend="propagate", blocked=[(0, 1), (0, 4)])
    >>> r.count, r.solutions[0]
    (2, (2, 5, 1, 4, 0, 3))

    See Also
    --------
    RecursiveBackend : the same search without propagation.
    cpqueens.decision_tree : the tree of this search, with ``propagation=`` and ``order=``.
    """

    name = "propagate"
    summary = "backtracking with forward checking or arc consistency on bit-mask domains"
    source = "constraint programming textbook search (forward checking, MAC, first-fail)"
    recurses = True
    options = ("propagation", "order")
    neutral_options = (("propagation", PROPAGATIONS), ("order", ORDERS))
    supports_blocked = True

    def check_options(self, options: dict[str, Any]) -> None:
        check_search(options.get("propagation", "forward"), options.get("order", "row"))

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        n = problem.n
        # Read the clock more often as a node's work grows with the board.
        interval = check_interval(n * n // 8)
        propagation, order = check_search(
            problem.options.get("propagation", "forward"), problem.options.get("order", "row")
        )
        engine = propagator(n, propagation)
        table, make_mask, arc = engine.forward_table, engine.forward_mask, engine.arc
        ones, guards, width, full = engine.ones, engine.guards, engine.width, engine.full
        small_changes, next_row = engine.small_changes, engine.next_row
        first_fail = order == "first-fail"
        plain, consistent = propagation == "none", propagation == "arc"
        per_depth = [0] * (n + 1)
        nodes = dead_ends = pruned = 0

        def expand(domains: int, unplaced: Sequence[int], total: int, depth: int):
            nonlocal nodes, dead_ends, pruned
            row = next_row(domains, unplaced, first_fail)
            rest = [r for r in unplaced if r != row] if first_fail else range(row + 1, n)
            left = (domains >> (row * width)) & full
            # The chosen row's own squares are placed, not pruned.
            kept = total - left.bit_count() + 1
            below, offset = depth + 1, row * n
            following = rest[0] * width if rest else 0
            while left:
                bit = left & -left
                left ^= bit
                column = bit.bit_length() - 1
                nodes += 1
                per_depth[below] += 1
                if not nodes % interval:
                    run.check_time()
                new = domains & (table[offset + column] or make_mask(row, column))
                if not rest:
                    yield tuple(((new >> (r * width)) & full).bit_length() - 1 for r in range(n))
                    continue
                if plain:
                    # Blind search: the node is a dead end when the next row has no safe square.
                    if (new >> following) & full:
                        yield from expand(new, rest, 0, below)
                    else:
                        dead_ends += 1
                    continue
                after = new.bit_count()
                pruned += kept - after
                if (new + ones) & guards != guards:
                    dead_ends += 1
                    continue
                if consistent:
                    changed = small_changes(domains, new, rest)
                    if changed:
                        new, wiped = arc(new, rest, changed)
                        revised = new.bit_count()
                        pruned += after - revised
                        after = revised
                        if wiped >= 0:
                            dead_ends += 1
                            continue
                yield from expand(new, rest, after, below)

        # Blocked squares never enter a domain: they are not options, so not pruned either.
        blocked = problem.blocked_masks() if problem.has_blocked else None
        try:
            if plain:
                domains, wiped = engine.start(problem.fixed, blocked), -1
            else:
                domains, wiped = engine.root(problem.fixed, blocked)
                pruned = engine.start(problem.fixed, blocked).bit_count() - domains.bit_count()
            if wiped < 0:
                yield from expand(domains, range(n), domains.bit_count(), 0)
        finally:
            run.stats.update(
                nodes=nodes,
                dead_ends=dead_ends,
                pruned=pruned,
                nodes_per_depth=tuple(per_depth),
            )
