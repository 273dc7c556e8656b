"""What a decision tree with propagation costs in memory and time, priced before it is built.

For the plain tree the node count of :mod:`cpqueens.trees.explicit.size` is the whole price:
a node costs about a kilobyte and a few microseconds whatever the board, so
``max_nodes`` bounds both. A node of a tree with propagation costs more, and more
the larger the board (the figures below are measured at n = 100 and 1,000):

* memory: besides the plain node's attributes it keeps ``pruned``, a tuple of the
  squares its queen removed from the other rows, 8 bytes each and about two for
  every free row left (2.5 kB a node in all at n = 100, 17 kB at n = 1,000); and the
  engine keeps a mask of the whole board, n * (n + 1) bits, for every square a queen
  is placed on (125 kB each at n = 1,000).
* time: placing a queen works on the domains of all n rows packed into one number
  of n * (n + 1) bits, arc consistency then looks at each unplaced row, and the
  pruned squares are read out: about 40 microseconds a node at n = 100 under forward
  checking and 70 under arc consistency; 2 and 20 milliseconds at n = 1,000.

:func:`tree_price` turns this into a price per node, a model fitted to measured builds
(within about a third of them from n = 12 to n = 1,000, on an idle machine), with no
search run: it is priced in microseconds, the same for the same question. A tree
fits when its nodes' memory and build time stay within a :class:`Budget`: 2 GB and
30 s (the memory of ``DEFAULT_MAX_NODES`` plain nodes), raised in proportion when
``max_nodes`` is raised above its default. :func:`cpqueens.decision_tree` refuses a
tree whose lower bound of nodes already costs more, bounds the work of its size
estimate by the same price, and stops a growing tree at the most nodes the budget
pays for.
"""

from __future__ import annotations

from dataclasses import dataclass

from .size import DEFAULT_MAX_NODES

#: What a plain node costs, networkx's dicts and the node's attributes: about a kilobyte.
NODE_BYTES = 1_000

#: The memory a tree may take at the default ``max_nodes``: that many plain nodes.
TREE_BYTES = DEFAULT_MAX_NODES * NODE_BYTES

#: The time the build of a tree with propagation may take at the default ``max_nodes``.
TREE_SECONDS = 30.0

#: The time the size estimate of a tree with propagation may take (its steps are
#: priced as the build's nodes are); small boards never reach it.
ESTIMATE_SECONDS = 1.0


@dataclass(frozen=True)
class Budget:
    """The memory (bytes) and build time (seconds) a tree may take.

    >>> Budget.of(2_000_000) == Budget.of(10) == Budget(TREE_BYTES, TREE_SECONDS)
    True
    >>> Budget.of(4_000_000)
    Budget(memory=4000000000.0, seconds=60.0)
    """

    memory: float
    seconds: float

    @classmethod
    def of(cls, max_nodes: int) -> Budget:
        """The budget of ``max_nodes``: the default one, or more when the limit is raised."""
        scale = max(1.0, max_nodes / DEFAULT_MAX_NODES)
        return cls(TREE_BYTES * scale, TREE_SECONDS * scale)


@dataclass(frozen=True)
class TreePrice:
    """The price of a tree with propagation: a node, a board mask, and a step of its estimate.

    ``masks`` is the most board masks the build makes (one for each square a queen is
    placed on); ``pruned`` the squares a node keeps, about.
    """

    node_bytes: float
    node_seconds: float
    mask_bytes: float
    mask_seconds: float
    masks: int
    step_seconds: float
    pruned: int

    def memory(self, nodes: int) -> float:
        """The bytes of a tree of ``nodes`` graph nodes."""
        return nodes * self.node_bytes + min(nodes, self.masks) * self.mask_bytes

    def seconds(self, nodes: int) -> float:
        """The seconds its build takes."""
        return nodes * self.node_seconds + min(nodes, self.masks) * self.mask_seconds

    def most_nodes(self, budget: Budget) -> int:
        """The most graph nodes the budget pays for (at least 1: the root)."""
        return max(
            1,
            min(
                _most(budget.memory, self.node_bytes, self.mask_bytes, self.masks),
                _most(budget.seconds, self.node_seconds, self.mask_seconds, self.masks),
            ),
        )

    def steps(self, seconds: float = ESTIMATE_SECONDS) -> int:
        """The steps (nodes made) a size estimate may take in ``seconds``."""
        return int(seconds / self.step_seconds)


def _most(budget: float, per_node: float, per_mask: float, masks: int) -> int:
    """The most nodes within ``budget`` when each costs ``per_node`` and the first ``masks``
    each make a mask too."""
    if masks * (per_node + per_mask) >= budget:
        return int(budget // (per_node + per_mask))
    return int((budget - masks * per_mask) // per_node)


def tree_price(
    n: int,
    fixed: tuple[int | None, ...],
    propagation: str,
    order: str,
    depth_limit: int,
) -> TreePrice:
    """The price of the tree ``decision_tree(n, fixed, propagation=..., order=...)`` cut at
    ``depth_limit``, from the board's size alone.

    Most nodes of a tree lie on its deepest level, so a node is priced as one there:
    a queen placed at depth ``d`` prunes about two squares of each free row still
    unplaced. ``placement`` runs down to the lowest row with a queen: ``d`` rows in
    row order, and with first-fail (which places fixed rows first) down to the lowest
    fixed row at least.

    >>> price = tree_price(100, (None,) * 100, "arc", "first-fail", 3)
    >>> price.pruned, round(price.node_bytes), round(price.node_seconds * 1e6)
    (194, 2632, 101)
    >>> round(price.memory(921_601) / 1e9, 1), round(price.seconds(921_601))
    (2.4, 93)
    >>> price.most_nodes(Budget.of(2_000_000))
    295862
    """
    depth = min(depth_limit, n)
    fixed_rows = [row for row, column in enumerate(fixed) if column is not None]
    free = n - len(fixed_rows)
    pruned = 2 * max(0, free - depth)
    placement = depth if order == "row" or not fixed_rows else max(depth, fixed_rows[-1] + 1)
    arc = propagation == "arc"
    # Placing a queen: a few operations on the whole packed board (n * n bits), and
    # under arc consistency a look at each unplaced row (n rows of n * n bits).
    place = 1e-6 + 1e-9 * n * n + arc * (2.5e-7 * n + 1.7e-11 * n**3)
    # Choosing the next row: a pass over the unplaced rows, and with first-fail the
    # size of each domain. Only a node that is expanded chooses: about one in the
    # branching of the deepest level, every one when a few free rows are left.
    choose = 1.5e-7 * n + (order == "first-fail") * 1e-11 * n**3
    expanded = 1 / max(1, free - min(depth, free))
    # A node of the graph: its attributes, networkx's dicts, its pruned squares read out.
    node = place + expanded * choose + 3e-6 + arc * 6e-6 + 1.5e-7 * pruned + 1e-9 * n * n
    pruned_tuple = 56 + 8 * pruned if pruned else 0
    return TreePrice(
        node_bytes=NODE_BYTES + 8 * placement + pruned_tuple,
        node_seconds=node,
        mask_bytes=n * (n + 1) / 8 + 32,
        mask_seconds=3e-7 * n + 1e-9 * n * n,
        masks=n * min(n, max(depth, 1)),
        step_seconds=place + choose,
        pruned=pruned,
    )


def format_bytes(count: float) -> str:
    """A memory size for a message.

    >>> format_bytes(2.4e9), format_bytes(125e6), format_bytes(2_500)
    ('2.4 GB', '125 MB', '2.5 kB')
    """
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= size:
            value = count / size
            return f"{value:.1f} {unit}" if value < 10 else f"{value:,.0f} {unit}"
    return f"{count:.0f} bytes"


def format_seconds(seconds: float) -> str:
    """A duration for a message.

    >>> format_seconds(83.4), format_seconds(0.0123), format_seconds(9e-5), format_seconds(7200)
    ('83 s', '12 ms', '90 µs', '2.0 h')
    """
    if seconds >= 3600:
        return f"{seconds / 3600:,.1f} h"
    if seconds >= 1:
        return f"{seconds:,.0f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.0f} ms"
    return f"{seconds * 1e6:.0f} µs"
