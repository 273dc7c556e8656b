"""The search tree under forward checking or arc consistency.

:func:`cpqueens.decision_tree` comes here when ``propagation`` is ``"forward"`` or
``"arc"``. The propagation itself is the one of the ``propagate`` backend
(:mod:`cpqueens.engines.propagation`), so the tree's size is that backend's
``stats``; the plain tree (:mod:`cpqueens.trees.explicit.plain`) never comes here and shares
no code with any backend.

Each node places the chosen row's queen on one square of its domain, in increasing
column order. Besides the attributes of the plain tree, a node records
``pruned``, the (row, column) squares its propagation removed from the other rows'
domains, and ``wiped_out``, the row left with no square when the node is a dead
end (-1 otherwise). With ``include_rejected`` the squares of the chosen row that
were pruned away earlier appear as ``rejected`` leaves, in column order among the
real children, as the failed attempts of the plain tree do.

Blocked squares never enter a domain (the engine leaves them out at the root):
they are neither nodes nor rejected leaves nor pruned squares, and a row whose
every square is blocked wipes the root out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from ...engines.propagation import propagator
from .nodes import Batch, GrowingSearch, candidates, columns_to_try, node_attributes, walk

Placement = tuple[int, ...]

#: A node about to place a queen: its domains, the row chosen, the rows left after it.
Domains = tuple[int, int, list[int]]


def _placed(placement: Placement, row: int, column: int) -> Placement:
    """The placement with a queen added: columns from row 0 down, -1 where no queen is yet.

    >>> _placed((0, -1), 3, 2)
    (0, -1, -1, 2)
    """
    if row < len(placement):
        return (*placement[:row], column, *placement[row + 1 :])
    return (*placement, *(-1,) * (row - len(placement)), column)


def _pruned_squares(width: int) -> Callable[[int], tuple[tuple[int, int], ...]]:
    """A function from packed domains to their (row, column) squares, lowest bit first.

    The squares come out as shared tuples, made the first time each is seen: a large
    tree does not store the same pair a million times, and a tree that touches few
    squares of a large board does not make all n * n of them. The bits are read off
    the number's binary digits, one ``find`` a square, in place of a loop of
    big-number operations a square (which made this most of a node's cost at n = 100).

    >>> pruned = _pruned_squares(5)  # a board of 4: fields of 5 bits
    >>> pruned(0b10001_00010)
    ((0, 1), (1, 0), (1, 4))
    >>> pruned(0)
    ()
    """
    squares: dict[int, tuple[int, int]] = {}

    def pruned(gone: int) -> tuple[tuple[int, int], ...]:
        found = []
        bits = format(gone, "b")[::-1]  # bit i is character i
        position = bits.find("1")
        while position >= 0:
            square = squares.get(position)
            if square is None:
                square = squares[position] = divmod(position, width)
            found.append(square)
            position = bits.find("1", position + 1)
        return tuple(found)

    return pruned


class PropagatedSearch(GrowingSearch):
    """The propagating search of one board: domains, the row chosen next, one placement.

    It grows the tree (:meth:`nodes`, into a graph :meth:`grow`) and answers the
    questions of the size estimate (:mod:`cpqueens.trees.explicit.size`): ``root`` (None
    when the fixed queens or the blocked squares wipe a domain out), ``branch`` and
    ``child``. ``blocked`` holds each row's blocked columns as a bit mask (None:
    none blocked).

    >>> search = PropagatedSearch(4, (None,) * 4, "forward", "row")
    >>> search.branch(search.root)
    (4, 15)
    >>> search.branch(search.child(search.root, 0))
    (4, 12)
    >>> PropagatedSearch(4, (None,) * 4, "forward", "row", blocked=[0, 0b1111, 0, 0]).root is None
    True
    """

    def __init__(
        self,
        n: int,
        fixed: tuple[int | None, ...],
        propagation: str,
        order: str,
        blocked: Sequence[int] | None = None,
    ):
        self.n = n
        self.engine = engine = propagator(n, propagation)
        self.first_fail = order == "first-fail"
        blocked = blocked or [0] * n
        self.offered = [candidates(fixed, row, n, blocked[row]) for row in range(n)]
        self.widths = [offered.bit_count() for offered in self.offered]
        #: The domains after the fixed queens, and the row they (or the blocked
        #: squares) wipe out or -1.
        self.domains, self.wiped = engine.root(fixed, blocked)
        self.root: Domains | None = None
        if self.wiped < 0:
            self.root = (self.domains, *self.choose(self.domains, list(range(n))))

    def choose(self, domains: int, unplaced: list[int]) -> tuple[int, list[int]]:
        """The row to place next, and the unplaced rows without it."""
        row = self.engine.next_row(domains, unplaced, self.first_fail)
        return row, [other for other in unplaced if other != row]

    def branch(self, node: Domains) -> tuple[int, int]:
        """The squares the chosen row offers (attempts), and those left in its domain (children)."""
        domains, row, _ = node
        return self.widths[row], self.engine.domain(domains, row)

    def child(self, node: Domains, column: int) -> Domains | None:
        """The node below a queen on ``column`` of the chosen row, or None for a leaf."""
        domains, row, rest = node
        new, wiped = self.engine.place(domains, rest, row, column)
        return None if wiped >= 0 or not rest else (new, *self.choose(new, rest))

    def nodes(
        self,
        *,
        include_rejected: bool,
        depth_limit: int,
        max_nodes: int,
        too_large: Callable[[int], Exception],
    ) -> Iterator[Batch]:
        """The nodes of the propagating tree, in batches (see
        :func:`cpqueens.trees.explicit.nodes.walk`).

        >>> import networkx as nx
        >>> G = nx.DiGraph()
        >>> PropagatedSearch(4, (None,) * 4, "arc", "row").grow(
        ...     G, include_rejected=False, depth_limit=4, max_nodes=100, too_large=ValueError
        ... )
        >>> G.number_of_nodes() - 1, G.nodes[1]["wiped_out"], G.nodes[1]["pruned"][:3]
        (10, 2, ((1, 0), (1, 1), (1, 2)))
        """
        n, engine = self.n, self.engine
        pruned = _pruned_squares(engine.width)

        def attributes(row, column, depth, placement, wiped, gone, rejected=False) -> dict:
            # The plain tree's attributes, where a node is a dead end when nothing is
            # "free" below it: here, when a domain was wiped out.
            free = int(wiped < 0)
            plain = node_attributes(row, column, depth, placement, n, free, depth_limit, rejected)
            return {**plain, "pruned": gone, "wiped_out": wiped}

        def children(node: tuple[Domains, int, Placement]) -> Iterator[tuple[dict, tuple | None]]:
            (domains, row, rest), depth, placement = node
            domain = engine.domain(domains, row)
            for column in columns_to_try(self.offered[row], domain, include_rejected):
                child = _placed(placement, row, column)
                if not domain >> column & 1:
                    yield attributes(row, column, depth + 1, child, -1, (), True), None
                    continue
                new, wiped = engine.place(domains, rest, row, column)
                # What left the other rows: the placed row's own other squares are not pruned.
                others = domains & ~(engine.full << (row * engine.width))
                below = None
                if wiped < 0 and rest and depth + 1 < depth_limit:
                    below = ((new, *self.choose(new, rest)), depth + 1, child)
                yield attributes(row, column, depth + 1, child, wiped, pruned(others & ~new)), below

        # At the root, what the fixed queens removed (blocked squares were never offered).
        root_pruned = pruned(engine.pack(self.offered) & ~self.domains)
        root = attributes(-1, -1, 0, (), self.wiped, root_pruned)
        start = None if self.root is None or depth_limit <= 0 else (self.root, 0, ())
        return walk(root, start, children, max_nodes=max_nodes, too_large=too_large)
