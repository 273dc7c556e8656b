"""Saving decision trees to GraphML, GEXF, node-link JSON, Graphviz DOT, CP-Profiler's
database and an HTML explorer, and reading them back.

:func:`export_tree` picks the format from the extension and :func:`read_tree`
reads any of them back to the same tree: the graph formats to the same graph (same
nodes, edges and attributes), CP-Profiler's database (``.sqlite``, ``.db``) to the
same :class:`~cpqueens.trees.compact.tree.CompactTree`. Each format has its module:
:mod:`~cpqueens.trees.files.graphml` (GraphML, GEXF), :mod:`~cpqueens.trees.files.nodelink`
(JSON), :mod:`~cpqueens.trees.files.dot`, :mod:`~cpqueens.trees.files.cpprofiler` and
:mod:`~cpqueens.trees.pictures.explorer` (``.html``, written only); the values the graph
files hold as text are turned back in :mod:`~cpqueens.trees.files.attributes`.

A tree is checked whole, on the way out and on the way in
(:func:`cpqueens.trees.files.replay.check_tree`): only a whole tree of
:func:`cpqueens.decision_tree` is saved, and a file cut short, or corrupted, is
refused with an :class:`~cpqueens.errors.InvalidInputError` that names the file,
the problem and where it is (a line, a node), never read as a partial tree.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...disk.writing import atomic_path, check_target, suffix_of
from ...errors import InvalidInputError, InvalidTypeError, TreeTooLargeError
from ..explicit.size import DEFAULT_MAX_NODES
from .attributes import flat_graph
from .costs import WRITE_BYTES, check_price
from .cpprofiler import read_cpprofiler, write_cpprofiler
from .dot import read_dot, write_dot
from .graphml import read_gexf, read_graphml, write_gexf, write_graphml
from .nodelink import read_json, write_json
from .replay import TreeProblem, Where
from .replay import check_tree as _check_tree  # under this name the tests replace it

if TYPE_CHECKING:
    import networkx as nx

    from ..compact.tree import CompactTree

#: How a format writes a tree: the graph, its flat graph attributes, the path.
Writer = Callable[[Any, dict, Path], None]
#: How it reads one back: from the path, the graph and how to name a node in messages.
Reader = Callable[[Path], tuple[Any, Where]]

#: Each format by its extension.
_FORMATS: dict[str, tuple[Writer, Reader]] = {
    ".graphml": (write_graphml, read_graphml),
    ".gexf": (write_gexf, read_gexf),
    ".json": (write_json, read_json),
    ".dot": (write_dot, read_dot),
}
#: CP-Profiler's execution database: a CompactTree, written and read.
DATABASE_FORMATS = (".sqlite", ".db")
#: The graph formats, read back as networkx graphs.
FORMATS = tuple(_FORMATS)
#: What read_tree reads, and what export_tree writes (the HTML explorer too).
READ_FORMATS = (*FORMATS, *DATABASE_FORMATS)
EXPORT_FORMATS = (*READ_FORMATS, ".html")
#: The largest CompactTree turned into a networkx graph for a graph format (about a
#: kilobyte a node), as :func:`cpqueens.decision_tree` builds at most.
MAX_GRAPH_NODES = DEFAULT_MAX_NODES


def _check_graph(G: Any, caller: str) -> None:
    import networkx as nx

    if not isinstance(G, nx.DiGraph) or G.is_multigraph():
        raise InvalidTypeError(
            f"{caller} takes the networkx.DiGraph of cpqueens.decision_tree or "
            f"cpqueens.read_tree, or a CompactTree, got {type(G).__name__}"
        )


def export_tree(
    G: nx.DiGraph | CompactTree, path: str | os.PathLike, *, max_bytes: int = WRITE_BYTES
) -> Path:
    """Save a decision tree, in the format named by the extension of ``path``.

    ``.graphml``, ``.gexf``, ``.json`` (networkx node-link data, edges under
    ``"edges"``) or ``.dot`` (Graphviz); ``.sqlite`` or ``.db``, CP-Profiler's
    execution database (:func:`~cpqueens.trees.files.cpprofiler.write_cpprofiler`); ``.html``,
    a page to explore the tree in a browser
    (:func:`~cpqueens.trees.pictures.explorer.write_explorer`). ``G`` is a tree of
    :func:`cpqueens.decision_tree` or a :class:`~cpqueens.trees.compact.tree.CompactTree`
    (of :func:`cpqueens.compact_tree`; for a graph format turned into the networkx
    tree, up to :data:`MAX_GRAPH_NODES` nodes). The path is checked first, then a
    networkx tree (:func:`~cpqueens.trees.files.replay.check_tree`: only a whole tree of
    :func:`cpqueens.decision_tree` is saved, so that every file written reads back).
    The file is written whole or not at all.

    The write is priced first, from the tree's node count
    (:func:`~cpqueens.trees.files.costs.write_price`): the file's bytes, the seconds,
    and the memory beside the tree (a graph format writes networkx's graph, a
    kilobyte and more a node). A write that would take more than ``max_bytes`` on
    disk or in memory is refused before anything is converted or written.

    Parameters
    ----------
    G : networkx.DiGraph or CompactTree
        The tree.
    path : str or os.PathLike
        Where to write it; the extension names the format.
    max_bytes : int
        The most bytes the file, and the memory the write needs beside the tree, may
        take (:data:`~cpqueens.trees.files.costs.WRITE_BYTES`, 1 GiB, the largest file
        :func:`read_tree` reads, unless raised). The plain tree of n=13 (4.7 million
        nodes) goes to CP-Profiler's database within it (123 MB, a few seconds); that
        of n=14 needs ``max_bytes=2_500_000_000`` (755 MB on disk, about 2 GB of
        memory beside the tree, half a minute or more).

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    InvalidTypeError
        When ``G`` is not a ``networkx.DiGraph`` or a CompactTree, or ``path`` not a path.
    TreeTooLargeError
        For a write priced at more than ``max_bytes``, and for a CompactTree of more
        than :data:`MAX_GRAPH_NODES` nodes in a graph format; before anything is written.
    InvalidInputError
        For an unknown extension, a place that cannot be written, or a graph that
        is not a whole decision tree (the message says which node and why).

    Examples
    --------
    >>> import cpqueens, tempfile, pathlib
    >>> G = cpqueens.decision_tree(5)
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> path = cpqueens.export_tree(G, folder / "tree-5.graphml")
    >>> H = cpqueens.read_tree(path)
    >>> H.nodes[3] == G.nodes[3], sorted(H.edges) == sorted(G.edges)
    (True, True)
    >>> G.remove_node(53)
    >>> cpqueens.export_tree(G, folder / "cut.graphml")
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: export_tree saves whole trees of \
cpqueens.decision_tree; in this graph, node 53 (a queen on row 4, column 1, below node \
52) is missing: the tree is incomplete (53 nodes are there)
    >>> cpqueens.export_tree(cpqueens.compact_tree(10), folder / "t.gexf", max_bytes=10**8)
    Traceback (most recent call last):
    ...
    cpqueens.errors.TreeTooLargeError: export_tree would take about 18 MB on disk, 259 MB \
of memory beside the tree and 2 s to write '...t.gexf' (35,538 nodes below the root), more than \
max_bytes=100,000,000 (100 MB) allows; pass max_bytes=290_000_000 to write it anyway, ...
    """
    from ..compact.tree import CompactTree

    suffix = suffix_of(path, EXPORT_FORMATS, "tree file")
    check_target(path)
    if isinstance(G, CompactTree) or _is_graph(G):
        # Priced before the networkx conversion, the check or the write: a refusal
        # costs microseconds, whatever the tree's size.
        check_price(G, suffix, path, max_bytes)
    if isinstance(G, CompactTree):
        if suffix in DATABASE_FORMATS or suffix == ".html":
            return _write_compact(G, suffix, path)
        G = _graph_of(G, path)
    _check_graph(G, "export_tree")
    try:
        _check_tree(G)
    except TreeProblem as problem:
        raise InvalidInputError(
            f"export_tree saves whole trees of cpqueens.decision_tree; in this graph, {problem}"
        ) from None
    if suffix in DATABASE_FORMATS or suffix == ".html":
        return _write_compact(G, suffix, path)
    write, _ = _FORMATS[suffix]
    with atomic_path(path) as temporary:
        write(G, flat_graph(G.graph), temporary)
    return Path(path)


def _is_graph(G: Any) -> bool:
    """Whether ``G`` is a networkx tree the price can be read off (else _check_graph says why)."""
    return hasattr(G, "number_of_nodes") and isinstance(getattr(G, "graph", None), dict)


def _write_compact(tree: Any, suffix: str, path: str | os.PathLike) -> Path:
    """Write a tree to CP-Profiler's database or the HTML explorer (already priced)."""
    if suffix == ".html":
        from ..pictures.explorer import write_explorer

        return write_explorer(tree, path)
    return write_cpprofiler(tree, path, max_bytes=None)


def _graph_of(tree: CompactTree, path: str | os.PathLike) -> nx.DiGraph:
    """The networkx tree of a CompactTree, for a graph format, within the size guard."""
    count = tree.number_of_nodes()
    if count > MAX_GRAPH_NODES:
        raise TreeTooLargeError(
            f"export_tree writes {str(path)!r} through the networkx tree, of at most "
            f"{MAX_GRAPH_NODES:,} nodes (about a kilobyte each); this tree has {count:,}: "
            "save it as CP-Profiler's database (.sqlite), or cut it with max_depth",
            count,
            MAX_GRAPH_NODES,
        )
    return tree.to_networkx()


def read_tree(path: str | os.PathLike) -> nx.DiGraph | CompactTree:
    """Read a decision tree saved by :func:`export_tree`, in any of its formats but HTML.

    CP-Profiler's database (``.sqlite``, ``.db``) reads back as a
    :class:`~cpqueens.trees.compact.tree.CompactTree`
    (:func:`~cpqueens.trees.files.cpprofiler.read_cpprofiler`; one written by another
    solver as a generic tree); the graph formats as a networkx graph:

    The graph comes back with integer node ids and the attributes of
    :func:`cpqueens.decision_tree`, in their Python types (``placement`` a tuple,
    ``fixed`` a dict, ``blocked`` a sorted tuple of (row, column) pairs, empty in a
    file written before trees had blocked squares, ``max_depth`` None when the tree
    is whole).

    The file must hold a whole tree (see :func:`~cpqueens.trees.files.replay.check_tree`):
    a file that does not parse, that was cut short, or whose tree is not the one its
    graph attributes describe raises :class:`~cpqueens.errors.InvalidInputError`
    naming the file, the problem and where (the line, or the node); a file that
    cannot be opened raises the usual ``OSError``.

    Examples
    --------
    >>> import cpqueens, tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "tree-4.dot"
    >>> H = cpqueens.read_tree(cpqueens.export_tree(cpqueens.decision_tree(4), path))
    >>> H.number_of_nodes(), sorted(cpqueens.tree_solutions(H))
    (17, [(1, 3, 0, 2), (2, 0, 3, 1)])
    >>> text = path.read_text()
    >>> _ = path.write_text(text[: len(text) // 2])  # a file cut short
    >>> cpqueens.read_tree(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: cannot read the decision tree in '...tree-4.dot': \
line 12 is not one export_tree writes (cut short?): '  8 [label="2", row=3, ...
    """
    suffix = suffix_of(path, READ_FORMATS, "tree file")
    if suffix in DATABASE_FORMATS:
        return read_cpprofiler(path)
    _, read = _FORMATS[suffix]
    try:
        G, where = read(Path(path))
        _check_tree(G, where)
    except TreeProblem as problem:
        raise InvalidInputError(
            f"cannot read the decision tree in {str(path)!r}: {problem}"
        ) from None
    return G
