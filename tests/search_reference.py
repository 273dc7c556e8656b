"""A second, independent search with propagation: sets of columns, written from the definitions.

It shares nothing with cpqueens (no bit masks, no tables), so that the counts of
``decision_tree(..., propagation=..., order=...)`` and of the ``propagate`` backend
are checked against something that could not carry the same mistake.
"""

from dataclasses import dataclass, field


@dataclass
class Visit:
    """One node: the queen it places, and what propagation did there."""

    row: int
    column: int
    depth: int
    solution: bool = False
    dead_end: bool = False
    wiped_out: int = -1
    pruned: set = field(default_factory=set)


def attacked(row, column, other_row):
    """The columns of ``other_row`` that a queen on (row, column) attacks."""
    distance = abs(other_row - row)
    return {column, column - distance, column + distance}


def lowest_empty(domains, rows):
    empty = [row for row in rows if not domains[row]]
    return min(empty) if empty else -1


def arc_rounds(domains, unplaced):
    """Arc consistency in rounds; each round looks at the domains as they were at its start.

    Column c leaves row r when another unplaced row has nothing left outside the
    squares (r, c) attacks. Stops at the end of the first round that empties a
    domain, returning the lowest row emptied, or at the fixpoint, returning -1.
    """
    while True:
        leaving = {
            row: {
                column
                for column in domains[row]
                if any(
                    not domains[other] - attacked(row, column, other)
                    for other in unplaced
                    if other != row
                )
            }
            for row in unplaced
        }
        if not any(leaving.values()):
            return -1
        for row, columns in leaving.items():
            domains[row] -= columns
        wiped = lowest_empty(domains, unplaced)
        if wiped >= 0:
            return wiped


def removed(before, after, rows):
    return {(row, column) for row in rows for column in before[row] - after[row]}


def search(n, fixed=None, propagation="none", order="row"):
    """Walk the search; return the root's Visit and the nodes' Visits in search order."""
    fixed = fixed or {}
    start = {row: {fixed[row]} if row in fixed else set(range(n)) for row in range(n)}
    if propagation == "none":
        return Visit(-1, -1, 0), list(_blind(n, start, {}))
    domains = {row: set(columns) for row, columns in start.items()}
    for row, column in fixed.items():
        for other in range(n):
            if other != row:
                domains[other] -= attacked(row, column, other)
    root = Visit(-1, -1, 0, wiped_out=lowest_empty(domains, range(n)))
    if root.wiped_out < 0 and propagation == "arc":
        root.wiped_out = arc_rounds(domains, list(range(n)))
    root.dead_end = root.wiped_out >= 0
    root.pruned = removed(start, domains, range(n))
    if root.dead_end:
        return root, []
    return root, list(_propagating(n, domains, list(range(n)), 0, propagation, order))


def _blind(n, start, placed):
    """Plain backtracking: every candidate not attacked by a placed queen is a node."""
    row = len(placed)
    for column in sorted(start[row]):
        if any(column in attacked(r, c, row) for r, c in placed.items()):
            continue
        board = {**placed, row: column}
        visit = Visit(row, column, row + 1, solution=row + 1 == n)
        if row + 1 < n:
            visit.dead_end = all(
                any(c2 in attacked(r, c, row + 1) for r, c in board.items())
                for c2 in start[row + 1]
            )
        yield visit
        if row + 1 < n and not visit.dead_end:
            yield from _blind(n, start, board)


def _propagating(n, domains, unplaced, depth, propagation, order):
    # First-fail: the fewest squares left, ties to the lowest row.
    row = min(unplaced, key=lambda r: (len(domains[r]), r) if order == "first-fail" else r)
    rest = [r for r in unplaced if r != row]
    for column in sorted(domains[row]):
        new = {r: set(columns) for r, columns in domains.items()}
        new[row] = {column}
        for other in rest:
            new[other] -= attacked(row, column, other)
        visit = Visit(row, column, depth + 1, solution=not rest)
        visit.wiped_out = lowest_empty(new, rest)
        if visit.wiped_out < 0 and propagation == "arc" and rest:
            visit.wiped_out = arc_rounds(new, rest)
        visit.dead_end = visit.wiped_out >= 0
        visit.pruned = removed(domains, new, rest)
        yield visit
        if rest and not visit.dead_end:
            yield from _propagating(n, new, rest, depth + 1, propagation, order)
