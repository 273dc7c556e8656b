"""Constraint propagation over row domains kept as bit masks, and the backend that searches with it.

A row's *domain* is the set of columns still allowed for it, held as an integer
whose bit ``c`` is set when column ``c`` is allowed. Three levels of propagation:

* ``"none"``: plain backtracking; a candidate square of the next row becomes a
  node when no placed queen attacks it (the tree of the other hand-written
  backtrackers).
* ``"forward"`` (forward checking): placing a queen on ``(r, c)`` removes the
  squares it attacks from every unplaced row; a row left with no square makes the
  new node a dead end.
* ``"arc"`` (maintaining arc consistency): after the forward step, column ``c``
  leaves row ``r`` when some other unplaced row has no square left that ``(r, c)``
  does not attack, repeated to the fixpoint.

A queen attacks at most three squares of another row (straight down and the two
diagonals), so only a row with at most three squares left can take all support
away from a square elsewhere: arc consistency looks only at such small rows, with
a precomputed "keep" vector per (row, small domain).

Arc consistency runs in rounds: each round revises every unplaced row against the
domains at the start of the round. The fixpoint does not depend on the order, but
the moment a dead end is noticed does, so the rounds fix it: propagation stops at
the end of the first round that empties a domain; the lowest row emptied in that
round is the one reported as wiped out, and what was removed up to then is what
was pruned. :mod:`cpqueens.trees.build` draws the same search as a tree.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from operator import and_
from typing import Any

from ..board import Solution
from ..errors import InvalidInputError
from .base import TIME_CHECK_INTERVAL, Backend, Problem, SearchRun, ensure_recursion_depth

PROPAGATIONS = ("none", "forward", "arc")
ORDERS = ("row", "first-fail")

#: Domains this small can take all support away from a square of another row.
SMALL = 3


def check_search(propagation: object, order: object) -> tuple[str, str]:
    """Return ``(propagation, order)`` when they name a search, else raise a clear error.

    >>> check_search("arc", "first-fail")
    ('arc', 'first-fail')
    >>> check_search("none", "first-fail")
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: order='first-fail' needs domains, which \
propagation='none' does not keep; use propagation='forward' or 'arc', or order='row'
    """
    if propagation not in PROPAGATIONS:
        raise InvalidInputError(
            f"unknown propagation {propagation!r}; valid ones are: {', '.join(PROPAGATIONS)}"
        )
    if order not in ORDERS:
        raise InvalidInputError(f"unknown order {order!r}; valid ones are: {', '.join(ORDERS)}")
    if propagation == "none" and order != "row":
        raise InvalidInputError(
            f"order={order!r} needs domains, which propagation='none' does not keep; "
            "use propagation='forward' or 'arc', or order='row'"
        )
    return propagation, order  # type: ignore[return-value]


def columns_of(mask: int) -> Iterator[int]:
    """The columns of a domain mask, in increasing order."""
    while mask:
        bit = mask & -mask
        mask ^= bit
        yield bit.bit_length() - 1


class Propagator:
    """The propagation of one board size: attack masks, made on first use, and the rounds.

    Domains are lists of ``n`` masks, one per row; a placed row keeps its one column.
    """

    def __init__(self, n: int, propagation: str):
        self.n = n
        self.full = (1 << n) - 1
        self.arc_consistency = propagation == "arc"
        self._forward: list[tuple[int, ...] | None] = [None] * (n * n)
        self._keep: dict[tuple[int, int], tuple[int, ...] | None] = {}

    def forward_masks(self, row: int, column: int) -> tuple[int, ...]:
        """Per row, the squares that a queen on (row, column) leaves: its own row keeps column."""
        masks = self._forward[row * self.n + column]
        if masks is None:
            full, bit = self.full, 1 << column
            masks = tuple(
                bit
                if other == row
                else full & ~(bit | (bit << abs(other - row)) | (bit >> abs(other - row)))
                for other in range(self.n)
            )
            self._forward[row * self.n + column] = masks
        return masks

    def keep_vector(self, row: int, domain: int) -> tuple[int, ...] | None:
        """Per row, the squares that keep a support in ``row`` with this small ``domain``.

        Column c of another row loses its support when (that row, c) attacks every
        square of ``domain``, at most three. None when no square loses support.
        """
        key = (row, domain)
        if key in self._keep:
            return self._keep[key]
        full, vector, kills = self.full, [], False
        for other in range(self.n):
            distance, kill = abs(other - row), full
            if distance == 0:
                vector.append(full)
                continue
            for x in columns_of(domain):
                bit = 1 << x
                kill &= bit | (bit << distance) | (bit >> distance)
            kills = kills or bool(kill & full)
            vector.append(full & ~kill)
        result = tuple(vector) if kills else None
        self._keep[key] = result
        return result

    def arc(self, domains: list[int], unplaced: Sequence[int], changed: list[int]) -> int:
        """Revise ``domains`` in place, in rounds, from the rows in ``changed``.

        ``changed`` lists the unplaced rows whose domain shrank to at most three
        squares since the last fixpoint: the only ones that can remove anything.
        Returns the lowest row emptied in the first round that empties one, or -1
        at the fixpoint.
        """
        while changed:
            vectors = [self.keep_vector(row, domains[row]) for row in changed]
            before = domains[:]
            for vector in vectors:
                if vector is not None:
                    domains[:] = map(and_, domains, vector)
            if 0 in domains:
                return domains.index(0)
            changed = [
                row
                for row in unplaced
                if domains[row] != before[row] and domains[row].bit_count() <= SMALL
            ]
        return -1

    def root(self, fixed: Sequence[int | None]) -> tuple[list[int], int]:
        """The domains before the first placement, and the row wiped out (or -1).

        Fixed rows start with their one column; the squares their queens attack
        leave the other rows, and under arc consistency the rounds run from there.
        """
        domains = [self.full if column is None else 1 << column for column in fixed]
        for row, column in enumerate(fixed):
            if column is not None:
                domains = list(map(and_, domains, self.forward_masks(row, column)))
        if 0 in domains:
            return domains, domains.index(0)
        if self.arc_consistency:
            small = [row for row in range(self.n) if domains[row].bit_count() <= SMALL]
            return domains, self.arc(domains, range(self.n), small)
        return domains, -1

    def place(
        self, domains: list[int], unplaced: Sequence[int], row: int, column: int
    ) -> tuple[list[int], int]:
        """Place a queen on (row, column); return the new domains and the row wiped out or -1.

        ``unplaced`` lists the rows still to place, ``row`` excluded.
        """
        new = list(map(and_, domains, self.forward_masks(row, column)))
        if 0 in new:
            return new, new.index(0)
        if self.arc_consistency:
            changed = [r for r in unplaced if new[r] != domains[r] and new[r].bit_count() <= SMALL]
            if changed:
                return new, self.arc(new, unplaced, changed)
        return new, -1


def next_row(domains: Sequence[int], unplaced: Sequence[int], first_fail: bool) -> int:
    """The row to place next: the lowest unplaced, or the one with fewest squares (ties: lowest)."""
    if not first_fail:
        return unplaced[0]
    sizes = [domains[row].bit_count() for row in unplaced]
    return unplaced[sizes.index(min(sizes))]


class PropagationBackend(Backend):
    """Backtracking with forward checking or arc consistency and a choice of next row.

    Options: ``propagation`` ``"forward"`` (default), ``"arc"`` or ``"none"``;
    ``order`` ``"row"`` (default: solutions in lexicographic order) or
    ``"first-fail"`` (the row with the fewest squares left; needs propagation).
    Stats: ``nodes`` (queens placed), ``dead_ends`` (placements after which a
    row had no square left; with ``"none"``, nodes with no safe square below),
    ``pruned`` (squares removed from domains, fixed queens' included) and
    ``nodes_per_depth``.

    >>> import cpqueens
    >>> r = cpqueens.solve(8, backend="propagate")
    >>> r.count, r.stats["nodes"], r.stats["dead_ends"]
    (92, 1724, 560)
    >>> cpqueens.solve(8, backend="propagate", propagation="arc", order="first-fail").stats["nodes"]
    738

    See Also
    --------
    RecursiveBackend : the same search without propagation.
    cpqueens.decision_tree : the tree of this search, with ``propagation=`` and ``order=``.
    """

    name = "propagate"
    summary = "backtracking with forward checking or arc consistency on bit-mask domains"
    source = "constraint programming textbook search (forward checking, MAC, first-fail)"
    options = ("propagation", "order")

    def check_options(self, options: dict[str, Any]) -> None:
        check_search(options.get("propagation", "forward"), options.get("order", "row"))

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        n = problem.n
        propagation, order = check_search(
            problem.options.get("propagation", "forward"), problem.options.get("order", "row")
        )
        ensure_recursion_depth(n, self.name)
        engine = Propagator(n, propagation)
        masks, table, arc = engine.forward_masks, engine._forward, engine.arc
        first_fail = order == "first-fail"
        plain, consistent = propagation == "none", propagation == "arc"
        per_depth = [0] * (n + 1)
        nodes = dead_ends = pruned = 0
        count = int.bit_count

        def expand(domains: list[int], unplaced: Sequence[int], total: int, depth: int):
            nonlocal nodes, dead_ends, pruned
            row = next_row(domains, unplaced, first_fail)
            rest = [r for r in unplaced if r != row] if first_fail else range(row + 1, n)
            left = domains[row]
            # The chosen row's own squares are placed, not pruned.
            kept = total - count(left) + 1
            below, offset = depth + 1, row * n
            while left:
                bit = left & -left
                left ^= bit
                column = bit.bit_length() - 1
                nodes += 1
                per_depth[below] += 1
                if not nodes % TIME_CHECK_INTERVAL:
                    run.check_time()
                new = list(map(and_, domains, table[offset + column] or masks(row, column)))
                if not rest:
                    yield tuple(mask.bit_length() - 1 for mask in new)
                    continue
                if plain:
                    # Blind search: the node is a dead end when the next row has no safe square.
                    if new[rest[0]]:
                        yield from expand(new, rest, 0, below)
                    else:
                        dead_ends += 1
                    continue
                after = sum(map(count, new))
                pruned += kept - after
                if 0 in new:
                    dead_ends += 1
                    continue
                if consistent:
                    changed = [r for r in rest if new[r] != domains[r] and count(new[r]) <= SMALL]
                    if changed:
                        wiped = arc(new, rest, changed)
                        revised = sum(map(count, new))
                        pruned += after - revised
                        after = revised
                        if wiped >= 0:
                            dead_ends += 1
                            continue
                yield from expand(new, rest, after, below)

        try:
            if plain:
                domains, wiped = [engine.full if c is None else 1 << c for c in problem.fixed], -1
            else:
                domains, wiped = engine.root(problem.fixed)
                start = sum(1 if c is not None else n for c in problem.fixed)
                pruned = start - sum(map(int.bit_count, domains))
            if wiped < 0:
                yield from expand(domains, range(n), sum(map(int.bit_count, domains)), 0)
        finally:
            run.stats.update(
                nodes=nodes,
                dead_ends=dead_ends,
                pruned=pruned,
                nodes_per_depth=tuple(per_depth),
            )
