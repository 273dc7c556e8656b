"""Constraint propagation over row domains kept as bit masks: the engine of a search.

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
was pruned.

Blocked squares (blocked n-queens) are never in a domain: :meth:`Propagator.start`
leaves them out before anything is propagated, so they are neither tried nor
counted as pruned, and a row whose every square is blocked is an empty domain at
the root, a wipe-out there under forward checking and arc consistency.

The ``propagate`` backend (:mod:`cpqueens.solvers.propagate`) searches with it and
:mod:`cpqueens.trees.explicit.propagated` draws the same search as a tree; this module
knows neither.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence

from ..errors import InvalidInputError

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
propagation='none' does not keep; use propagation='forward' or propagation='arc', or order='row'
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
            "use propagation='forward' or propagation='arc', or order='row'"
        )
    return propagation, order  # type: ignore[return-value]


def columns_of(mask: int) -> Iterator[int]:
    """The columns of a domain mask, in increasing order."""
    while mask:
        bit = mask & -mask
        mask ^= bit
        yield bit.bit_length() - 1


class Propagator:
    """The propagation of one board size, on every row's domain packed into one integer.

    Row ``r``'s domain is the field of ``n`` bits at ``r * (n + 1)``; the bit above
    each field stays 0, so one addition tells which fields are empty and one AND
    applies a queen's attacks to every row at once. A placed row keeps its one
    column. Attack masks and keep vectors are made on first use.
    """

    def __init__(self, n: int, propagation: str):
        self.n = n
        self.width = n + 1
        self.full = (1 << n) - 1
        self.arc_consistency = propagation == "arc"
        # Adding ``ones`` carries into a field's guard bit exactly when the field is not empty.
        self.ones = self.pack([self.full] * n)
        self.guards = self.pack([1 << n] * n)
        #: Forward masks by ``row * n + column``, None until :meth:`forward_mask` makes
        #: them; a search reads the table first, the method only on a miss.
        self.forward_table: list[int | None] = [None] * (n * n)
        self._keep: dict[tuple[int, int], int | None] = {}

    def pack(self, domains: Sequence[int]) -> int:
        """One integer holding the per-row masks ``domains``.

        Joined in pairs, then pairs of pairs: each level touches every bit once, where
        or-ing the rows one by one into a growing integer costs n times more (seconds
        at n = 4,800, before the search could look at the clock).
        """
        parts = list(domains)
        shift = self.width
        while len(parts) > 1:
            if len(parts) % 2:
                parts.append(0)
            parts = [
                low | (high << shift) for low, high in zip(parts[::2], parts[1::2], strict=True)
            ]
            shift *= 2
        return parts[0] if parts else 0

    def domain(self, packed: int, row: int) -> int:
        """Row ``row``'s domain mask."""
        return (packed >> (row * self.width)) & self.full

    def wiped(self, packed: int) -> int:
        """The lowest row with an empty domain, or -1."""
        missing = self.guards & ~((packed + self.ones) & self.guards)
        return -1 if not missing else ((missing & -missing).bit_length() - 1) // self.width

    def forward_mask(self, row: int, column: int) -> int:
        """The squares that a queen on (row, column) leaves: its own row keeps only ``column``."""
        mask = self.forward_table[row * self.n + column]
        if mask is None:
            full, bit = self.full, 1 << column
            mask = self.pack(
                [
                    bit
                    if other == row
                    else full & ~(bit | (bit << abs(other - row)) | (bit >> abs(other - row)))
                    for other in range(self.n)
                ]
            )
            self.forward_table[row * self.n + column] = mask
        return mask

    def keep_vector(self, row: int, domain: int) -> int | None:
        """The squares that keep a support in ``row`` with this small ``domain``.

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
        result = self.pack(vector) if kills else None
        self._keep[key] = result
        return result

    def small_changes(self, before: int, after: int, unplaced: Sequence[int]) -> list[int]:
        """The unplaced rows whose domain changed and is down to at most three squares."""
        changed, width, full = before ^ after, self.width, self.full
        return [
            row
            for row in unplaced
            if (changed >> (row * width)) & full
            and ((after >> (row * width)) & full).bit_count() <= SMALL
        ]

    def arc(self, packed: int, unplaced: Sequence[int], changed: list[int]) -> tuple[int, int]:
        """Revise the domains in rounds, from the rows in ``changed``.

        ``changed`` lists the unplaced rows whose domain shrank to at most three
        squares since the last fixpoint: the only ones that can remove anything.
        Returns the new domains and the lowest row emptied in the first round that
        empties one, or -1 at the fixpoint.
        """
        keep, domain = self.keep_vector, self.domain
        while changed:
            vectors = [keep(row, domain(packed, row)) for row in changed]
            before = packed
            for vector in vectors:
                if vector is not None:
                    packed &= vector
            wiped = self.wiped(packed)
            if wiped >= 0:
                return packed, wiped
            changed = self.small_changes(before, packed, unplaced)
        return packed, -1

    def start(self, fixed: Sequence[int | None], blocked: Sequence[int] | None = None) -> int:
        """The domains before anything is propagated: each row's squares, blocked ones out.

        A fixed row holds its one column, any other row every column not set in its
        ``blocked`` mask (per row, bit ``c`` for column ``c``; None blocks nothing).

        >>> engine = Propagator(3, "forward")
        >>> packed = engine.start((None, 1, None), [0b001, 0, 0b111])
        >>> [bin(engine.domain(packed, row)) for row in range(3)]
        ['0b110', '0b10', '0b0']
        """
        full = self.full
        if blocked is None:
            blocked = [0] * self.n
        return self.pack(
            [
                full & ~mask if column is None else 1 << column
                for column, mask in zip(fixed, blocked, strict=True)
            ]
        )

    def root(
        self, fixed: Sequence[int | None], blocked: Sequence[int] | None = None
    ) -> tuple[int, int]:
        """The domains before the first placement, and the row wiped out (or -1).

        Rows start as :meth:`start` makes them (fixed rows with their one column,
        blocked squares out); the squares the fixed queens attack leave the other
        rows, and under arc consistency the rounds run from there. A row left
        empty by its blocked squares alone is wiped out here.

        >>> Propagator(4, "forward").root((None,) * 4, [0, 0, 0b1111, 0])[1]
        2
        """
        packed = self.start(fixed, blocked)
        for row, column in enumerate(fixed):
            if column is not None:
                packed &= self.forward_mask(row, column)
        wiped = self.wiped(packed)
        if wiped < 0 and self.arc_consistency:
            rows = range(self.n)
            small = [row for row in rows if self.domain(packed, row).bit_count() <= SMALL]
            return self.arc(packed, rows, small)
        return packed, wiped

    def place(self, packed: int, unplaced: Sequence[int], row: int, column: int) -> tuple[int, int]:
        """Place a queen on (row, column); return the new domains and the row wiped out or -1.

        ``unplaced`` lists the rows still to place, ``row`` excluded.
        """
        new = packed & self.forward_mask(row, column)
        wiped = self.wiped(new)
        if wiped < 0 and self.arc_consistency:
            changed = self.small_changes(packed, new, unplaced)
            if changed:
                return self.arc(new, unplaced, changed)
        return new, wiped

    def next_row(self, packed: int, unplaced: Sequence[int], first_fail: bool) -> int:
        """The row to place next: the lowest unplaced, or the one with fewest squares left."""
        if not first_fail:
            return unplaced[0]
        sizes = [self.domain(packed, row).bit_count() for row in unplaced]
        return unplaced[sizes.index(min(sizes))]


@functools.lru_cache(maxsize=16)
def propagator(n: int, propagation: str) -> Propagator:
    """The :class:`Propagator` of a board size, shared between searches: its masks and
    keep vectors, made on first use, then serve every later search of that size."""
    return Propagator(n, propagation)
