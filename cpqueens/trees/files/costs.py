"""What writing a tree to a file costs, priced from its node count before anything is written.

A file of a large tree is large and slow to write: the plain tree of n=14 (27 million
nodes) is 755 MB as CP-Profiler's database and needs about 2 GB of memory beside
the tree to write it; a graph format first turns the tree into networkx's graph, a
kilobyte and more a node. :func:`write_price` says what a write will take, from the
number of nodes and the figures below, measured for each format (``python
benchmarks/bench_tree.py --writers`` measures them again and prints them beside the
estimate), and :func:`check_price` refuses a write that would take more than the
caller's ``max_bytes`` on disk or in memory, before anything is written, with an error
that names the estimate, the bound and how to raise it.

Bytes a node in the file, microseconds a node, and bytes a node of memory beside the
tree, from a :class:`~cpqueens.trees.compact.tree.CompactTree` (the conversion to
networkx included) and from a networkx tree (its check included), for the plain tree
and with propagation (each node's pruned squares, about ``6 n`` bytes more in a graph
file); measured on n = 8 to 13 (a 2-core Linux machine, Python 3.11; the times are
the least certain figure, within a factor of two or so of another machine's):

=========  ==============  =================  ==================  ===================
format     file B/node     µs/node: compact   µs/node: networkx   memory B/node:
                                                                  compact / networkx
=========  ==============  =================  ==================  ===================
.sqlite    27              1 (2 propagated)   5 (14)              80 / 130 (110/230)
.html      12 + domains    0.1 (0.5)          4 (13)              5 x the file
.json      175 (+6 n)      20 (45)            13 (30)             1,550 / 140
.graphml   310 (+6 n)      44 (60)            33 (45)             2,000 / 600
.gexf      510 (+6 n)      68 (95)            64 (80)             7,300 / 5,900
.dot       170 (+6 n)      14 (35)            7 (18)              1,450 / 50
=========  ==============  =================  ==================  ===================

The explorer page (``.html``) holds the tree as base64 columns, 12 bytes a node and
``4/3 n ceil(n/8)`` more for a propagated tree's domains, after its scripts (about
320 kB, d3 among them); its own bound of nodes,
:data:`~cpqueens.trees.pictures.explorer.MAX_EXPLORER_NODES`, holds as well.

The default bound, :data:`WRITE_BYTES`, is the largest file :func:`cpqueens.read_tree`
reads back (1 GiB): a write within it reads back, and one past it says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ...arguments import check_int
from ...display.numbers import bound_over
from ...errors import TreeTooLargeError
from ..explicit.cost import format_bytes, format_seconds
from .attributes import MAX_TREE_FILE

#: The bytes a write may take, on disk and in memory beside the tree, unless raised.
WRITE_BYTES = MAX_TREE_FILE

#: The formats whose writer works from a networkx graph (a CompactTree is converted).
GRAPH_SUFFIXES = (".graphml", ".gexf", ".json", ".dot")


@dataclass(frozen=True)
class FormatCost:
    """A format's measured figures a node (see the module's table): ``(plain,
    propagated)`` pairs, bytes in the file, seconds and bytes of memory from a
    CompactTree and from a networkx tree, and the bytes of a file of no node."""

    disk: tuple[float, float]
    seconds: tuple[float, float]
    graph_seconds: tuple[float, float]
    memory: tuple[float, float]
    graph_memory: tuple[float, float]
    fixed: float = 0.0


#: The measured figures of each format; ``.html``'s file is priced from its columns.
FORMAT_COSTS: dict[str, FormatCost] = {
    ".sqlite": FormatCost((27, 27), (1e-6, 2e-6), (5e-6, 14e-6), (80, 110), (130, 230), 20_480),
    ".html": FormatCost((12, 12), (0.1e-6, 0.5e-6), (4e-6, 13e-6), (0, 0), (150, 300), 320_000),
    ".json": FormatCost((175, 175), (20e-6, 45e-6), (13e-6, 30e-6), (1550, 2300), (140, 420)),
    ".graphml": FormatCost(
        (310, 310), (44e-6, 60e-6), (33e-6, 45e-6), (2000, 2600), (600, 800), 2_000
    ),
    ".gexf": FormatCost((510, 510), (68e-6, 95e-6), (64e-6, 80e-6), (7300, 8700), (5900, 7000)),
    ".dot": FormatCost((170, 170), (14e-6, 35e-6), (7e-6, 18e-6), (1450, 1950), (50, 150)),
}
FORMAT_COSTS[".db"] = FORMAT_COSTS[".sqlite"]

#: The bytes a node's pruned squares add to a graph file, per row of the board.
PRUNED_BYTES_PER_ROW = 6

#: The memory of the explorer page while it is made, per byte of the page: the
#: base64 columns, their JSON, and the page's text.
HTML_MEMORY = 5


@dataclass(frozen=True)
class WritePrice:
    """What writing a tree in one format will take, about: bytes on disk, seconds, and
    bytes of memory beside the tree (the networkx graph a graph format is written from).

    >>> price = WritePrice(".sqlite", 27_358_554, 711_000_000, 27.4, 2_190_000_000)
    >>> price.words()
    'about 711 MB on disk, 2.2 GB of memory beside the tree and 27 s'
    >>> price.largest
    2190000000
    """

    suffix: str
    nodes: int
    disk: int
    seconds: float
    memory: int

    @property
    def largest(self) -> int:
        """The larger of the two byte counts: what ``max_bytes`` is held against."""
        return max(self.disk, self.memory)

    def bound(self) -> int:
        """A ``max_bytes`` to suggest for this write: its larger byte count and a tenth
        more, rounded up to two significant digits.

        >>> WritePrice(".sqlite", 27_358_554, 711_000_000, 27.4, 2_190_000_000).bound()
        2500000000
        """
        return bound_over(self.largest)

    def words(self) -> str:
        """The price as a message says it."""
        return (
            f"about {format_bytes(self.disk)} on disk, {format_bytes(self.memory)} of memory "
            f"beside the tree and {format_seconds(self.seconds)}"
        )


def write_price(tree: Any, suffix: str) -> WritePrice:
    """What writing ``tree`` (a CompactTree or a networkx decision tree) as ``suffix`` takes.

    Read off the node count, the board size and the search in a few microseconds,
    whatever the tree's size: nothing is converted or written.

    >>> import cpqueens
    >>> price = write_price(cpqueens.compact_tree(13), ".sqlite")
    >>> price.nodes, price.disk // 1_000_000, price.memory // 1_000_000
    (4674890, 126, 373)
    >>> write_price(cpqueens.compact_tree(12), ".gexf").words()
    'about 437 MB on disk, 6.3 GB of memory beside the tree and 58 s'
    """
    from ..compact.tree import CompactTree, as_compact

    if not isinstance(tree, CompactTree) and not isinstance(getattr(tree, "graph", None), dict):
        as_compact(tree)  # not a tree: its error says what is expected
    suffix = suffix.lower()
    cost = FORMAT_COSTS[suffix]
    compact = isinstance(tree, CompactTree)
    if compact:
        nodes, n, propagation = tree.number_of_nodes(), tree.n, tree.propagation
        domains = tree.domains is not None
    else:
        nodes = tree.number_of_nodes()
        n, propagation = tree.graph.get("n"), tree.graph.get("propagation", "none")
        domains = propagation != "none"
    kind = int(propagation not in (None, "none"))
    rows = int(n or 0)
    if suffix == ".html":
        per_node = cost.disk[0] + (4 / 3 * rows * math.ceil(rows / 8) if domains else 0)
        labels = getattr(tree, "labels", None) if compact else None
        label_bytes = sum(len(label) + 4 for label in labels) if labels else 0
        disk = cost.fixed + per_node * nodes + label_bytes
        memory = HTML_MEMORY * disk
        memory += nodes * (0 if compact else cost.graph_memory[kind])
    else:
        per_node = cost.disk[kind] + (PRUNED_BYTES_PER_ROW * rows if kind and suffix
                                      in GRAPH_SUFFIXES else 0)  # fmt: skip
        disk = cost.fixed + per_node * nodes
        memory = nodes * (cost.memory if compact else cost.graph_memory)[kind]
    seconds = nodes * (cost.seconds if compact else cost.graph_seconds)[kind]
    return WritePrice(suffix, nodes, int(disk), seconds, int(memory))


def check_price(
    tree: Any, suffix: str, path: Any, max_bytes: int, caller: str = "export_tree"
) -> WritePrice:
    """The price of writing ``tree`` to ``path``, once it is found within ``max_bytes``.

    Raises
    ------
    TreeTooLargeError
        When the file or the memory the write needs would pass ``max_bytes``, before
        anything is converted or written: the message names the estimate, the bound
        and how to raise it; ``memory`` and ``seconds`` hold the estimate, ``cost``
        says it in words.

    >>> import cpqueens
    >>> check_price(cpqueens.compact_tree(11), ".gexf", "t.gexf", 100_000_000)
    Traceback (most recent call last):
    ...
    cpqueens.errors.TreeTooLargeError: export_tree would take about 85 MB on disk, 1.2 GB \
of memory beside the tree and 11 s to write 't.gexf' (166,925 nodes below the root), more than \
max_bytes=100,000,000 (100 MB) allows; pass max_bytes=1_400_000_000 to write it anyway, \
or write a smaller tree: cut it with max_depth=..., or choose another format \
(CP-Profiler's database, .sqlite, takes 27 bytes a node and no networkx graph)
    """
    max_bytes = check_int(max_bytes, "max_bytes", 1)
    price = write_price(tree, suffix)
    if price.largest <= max_bytes:
        return price
    raised = price.bound()
    unread = (
        f"; read_tree reads back files of up to {format_bytes(MAX_TREE_FILE)}, so this one "
        "would only open in CP-Profiler"
        if price.disk > MAX_TREE_FILE and suffix in (".sqlite", ".db")
        else ""
    )
    smaller = (
        " (CP-Profiler's database, .sqlite, takes 27 bytes a node and no networkx graph)"
        if suffix in GRAPH_SUFFIXES
        else ""
    )
    per_node = price.largest // max(price.nodes, 1)
    raise TreeTooLargeError(
        f"{caller} would take {price.words()} to write {str(path)!r} ({price.nodes - 1:,} "
        f"nodes below the root), more than max_bytes={max_bytes:,} ({format_bytes(max_bytes)}) "
        f"allows; pass max_bytes={raised:_} to write it anyway{unread}, or write a smaller "
        f"tree: cut it with max_depth=..., or choose another format{smaller}",
        price.nodes,
        max(1, max_bytes // max(per_node, 1)),
        memory=price.memory,
        seconds=price.seconds,
        cost=price.words(),
    )
