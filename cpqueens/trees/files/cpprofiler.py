"""CP-Profiler's execution database: a search tree saved for CP-Profiler, and read back.

CP-Profiler (Monash University) saves a search tree as an SQLite file of four
tables, made here exactly as it makes them (:data:`TABLES`):

* ``Nodes(NodeID, ParentID, Alternative, NKids, Status, Label)``: a row a node, in
  preorder, ids 0, 1, 2, ...; the root's ParentID and Alternative -1, a child's
  Alternative its index among its parent's children, NKids its children, Status
  CP-Profiler's code, the same as :data:`~cpqueens.trees.compact.tree.STATUS_NAMES` (0
  solved, 1 failed, 2 branch, 3 skipped: rejected, 4 undetermined: cut by
  ``max_depth``, 5 merged), Label the decision, ``q[3] = 5`` for the queen of row 3
  in column 5 (counted from 0 as everywhere in cpqueens; the root's empty);
* ``Bookmarks`` and ``Nogoods``, empty;
* ``Info``, a row at the root: JSON ``{"cpqueens": {...}}``, the tree's search (n,
  fixed, blocked, propagation, order, include_rejected, max_depth).

Reading the file replays that search (:func:`cpqueens.compact_tree`): that gives
back a propagated tree's domains, and a file cut short or altered is refused at the
first node that is not the search's. A tree that is no search's own (the merge of
two, with a ``note``) is read back from its labels, without domains. A file of
another solver (no cpqueens ``Info``) is a generic tree: labels and statuses kept
(5 merged too), no board, rows and columns -1, a ``note`` saying what cannot be
shown. Any other file is refused with an :class:`~cpqueens.errors.InvalidInputError`
naming it and what is wrong.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import stat
from contextlib import closing
from pathlib import Path
from typing import Any

import numpy as np

from ...disk.sqlite_files import SQLITE_MAGIC, connect_read_only, sqlite_head
from ...disk.transactions import immediate
from ...disk.writing import atomic_path, check_path, check_target
from ...errors import InvalidInputError, TreeTooLargeError
from ..compact.tree import STATUS_NAMES, CompactTree, as_compact
from ..preorder import depths, preorder_positions, sibling_index_by
from .attributes import MAX_TREE_FILE
from .costs import WRITE_BYTES, check_price

#: The tables, as CP-Profiler's ``db_handler.cpp`` creates them.
TABLES = {
    "Nodes": "NodeID INTEGER PRIMARY KEY, ParentID int NOT NULL, Alternative int NOT NULL, "
    "NKids int NOT NULL, Status int, Label varchar(256)",
    "Bookmarks": "NodeID INTEGER PRIMARY KEY, Bookmark varchar(8)",
    "Nogoods": "NodeID INTEGER PRIMARY KEY, Nogood varchar(8)",
    "Info": "NodeID INTEGER PRIMARY KEY, Info TEXT",
}
#: Version of the cpqueens ``Info`` this module writes.
FORMAT = 1
#: Rows written or read at a time.
CHUNK = 50_000
_NODE_COLUMNS = ("NodeID", "ParentID", "Alternative", "NKids", "Status", "Label")
_GENERIC_NOTE = (
    "a tree from another solver's CP-Profiler database: no board size, so no boards "
    "and no domains; nodes show their labels"
)


def decision_label(row: int, column: int) -> str:
    """The Label of the node placing a queen on ``row`` and ``column``.

    >>> decision_label(3, 5)
    'q[3] = 5'
    """
    return f"q[{row}] = {column}"


# Writing.


def write_cpprofiler(
    tree: Any, path: str | os.PathLike, *, max_bytes: int | None = WRITE_BYTES
) -> Path:
    """Save a tree as CP-Profiler's execution database (SQLite), whole or not at all.

    ``tree`` is a :class:`~cpqueens.trees.compact.tree.CompactTree` or a tree of
    :func:`cpqueens.decision_tree`. The file opens in CP-Profiler ("open database")
    and reads back with :func:`read_cpprofiler` as the same tree (a generic tree,
    read from another solver's file, with its own labels).

    The write is priced first (about 27 bytes a node on disk and 80 in memory, a
    microsecond or two a node: :mod:`~cpqueens.trees.files.costs`) and refused with a
    :class:`~cpqueens.errors.TreeTooLargeError` past ``max_bytes`` (1 GiB unless
    raised; None when the caller has priced it already), before anything is written.

    >>> import cpqueens, tempfile, pathlib
    >>> tree = cpqueens.compact_tree(6, propagation="forward")
    >>> path = write_cpprofiler(tree, pathlib.Path(tempfile.mkdtemp()) / "six.sqlite")
    >>> back = read_cpprofiler(path)
    >>> back == tree, back.number_of_nodes(), back.label(1)
    (True, 131, 'q0=0')
    """
    check_target(path)
    if max_bytes is not None:
        check_price(tree, ".sqlite", path, max_bytes, "write_cpprofiler")
    tree = as_compact(tree)
    with atomic_path(path) as temporary:
        db = sqlite3.connect(temporary, isolation_level=None)
        try:
            # A new file renamed into place once whole: no journal is needed.
            for pragma in ("journal_mode=OFF", "synchronous=OFF"):
                db.execute(f"PRAGMA {pragma}")
            with immediate(db):
                for name, columns in TABLES.items():
                    db.execute(f"CREATE TABLE {name}({columns})")
                db.executemany("INSERT INTO Nodes VALUES (?,?,?,?,?,?)", _node_rows(tree))
                if tree.n is not None:  # a generic tree goes back as it came: no Info
                    db.execute("INSERT INTO Info VALUES (0, ?)", (json.dumps(_info(tree)),))
        finally:
            db.close()
        with open(temporary, "rb") as file:  # on disk before it is renamed into place
            os.fsync(file.fileno())
    return Path(path)


def _node_rows(tree: CompactTree):
    """The rows of Nodes, a chunk of nodes at a time from the arrays."""
    count = tree.number_of_nodes()
    parent = np.asarray(tree.parent, dtype=np.int64)
    kids = np.bincount(parent[1:], minlength=count)
    alternative = sibling_index_by(parent, np.arange(count))
    if tree.n is None:  # a generic tree: its own labels, if it has any
        names = np.array(tree.labels or [""] * count, dtype=object)
    else:
        names = decision_labels(tree)
    for start in range(0, count, CHUNK):
        part = slice(start, min(start + CHUNK, count))
        yield from zip(
            range(part.start, part.stop),
            parent[part].tolist(),
            alternative[part].tolist(),
            kids[part].tolist(),
            tree.status[part].tolist(),
            names[part].tolist(),
            strict=True,
        )


def decision_labels(tree: CompactTree) -> np.ndarray:
    """The Label of every node of a cpqueens tree, an array of str objects.

    >>> import cpqueens
    >>> decision_labels(cpqueens.compact_tree(4))[:3].tolist()
    ['', 'q[0] = 0', 'q[1] = 2']
    """
    n = int(tree.n)
    code = np.where(tree.parent >= 0, tree.row.astype(np.int64) * n + tree.column, -1)
    unique, inverse = np.unique(code, return_inverse=True)  # each label made once
    names = [decision_label(*divmod(int(c), n)) if c >= 0 else "" for c in unique]
    return np.array(names, dtype=object)[inverse]


def _info(tree: CompactTree) -> dict:
    return {
        "cpqueens": {
            "format": FORMAT,
            "n": int(tree.n),
            "fixed": sorted([int(r), int(c)] for r, c in tree.fixed.items()),
            "blocked": sorted([int(r), int(c)] for r, c in tree.blocked),
            "propagation": tree.propagation,
            "order": tree.order,
            "include_rejected": bool(tree.include_rejected),
            "max_depth": tree.max_depth,
            "note": tree.note,  # a tree that is no search's own (two merged): not replayed
        }
    }


# Reading.


def read_cpprofiler(path: str | os.PathLike) -> CompactTree:
    """Read CP-Profiler's execution database as a :class:`~cpqueens.trees.compact.tree.CompactTree`.

    A file written by :func:`write_cpprofiler` reads back as the same tree; any
    other CP-Profiler database as a generic tree (``n`` None, its labels kept, a
    ``note``). Nodes need not be numbered in preorder: they are put in preorder,
    children by Alternative.

    Raises
    ------
    InvalidInputError
        When the file is not such a database, naming the file and what is wrong.

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "notes.db"
    >>> _ = path.write_text("not a database")
    >>> read_cpprofiler(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: cannot read the CP-Profiler database '...notes.db': \
it is not an SQLite file
    """
    source = check_path(path, "tree file")
    try:
        with closing(_connect(source)) as db:
            return _read(db)
    except (_Refused, sqlite3.DatabaseError) as error:
        what = error if isinstance(error, _Refused) else f"SQLite says {error}"
        raise InvalidInputError(
            f"cannot read the CP-Profiler database {str(path)!r}: {what}"
        ) from None


class _Refused(Exception):
    """What is wrong with the file; the caller names it."""


def _connect(path: Path) -> sqlite3.Connection:
    """A read-only connection to the SQLite file ``path``, nothing written beside it."""
    try:
        info = os.stat(path)
    except OSError as error:
        raise _Refused((error.strerror or str(error)).lower()) from None
    if not stat.S_ISREG(info.st_mode):
        raise _Refused("it is not a regular file")
    if info.st_size > MAX_TREE_FILE:
        raise _Refused(f"it holds {info.st_size:,} bytes, more than a tree file may")
    if sqlite_head(path) != SQLITE_MAGIC:
        raise _Refused("it is not an SQLite file")
    return connect_read_only(path)


def _read(db: sqlite3.Connection) -> CompactTree:
    names = {row[1].lower() for row in db.execute("PRAGMA table_info(Nodes)")}
    if not names:
        raise _Refused("it has no Nodes table")
    missing = [c for c in _NODE_COLUMNS if c.lower() not in names]
    if missing:
        raise _Refused(f"its Nodes table has no column {', '.join(missing)}")
    ids, parents, alternatives, kids, status, labels = _node_arrays(db)
    if len(ids) == 0:
        raise _Refused("its Nodes table is empty")
    parent, order = _structure(ids, parents, alternatives, kids)
    status = status[order].astype(np.uint8)
    if (order != np.arange(len(order))).any():
        labels = [labels[i] for i in order.tolist()]
    info = _cpqueens_info(db, int(ids[order[0]]))
    if info is None:
        return _generic(parent, status, labels)
    return _cpqueens_tree(info, parent, status, labels, ids[order])


def _check_types(db: sqlite3.Connection) -> None:
    """Refuse the first node whose values are not CP-Profiler's integers and text."""
    kinds = ", ".join(f"typeof({c})" for c in _NODE_COLUMNS)
    wrong = " OR ".join(f"typeof({c}) != 'integer'" for c in _NODE_COLUMNS[:5])
    bad = db.execute(
        f"SELECT NodeID, {kinds} FROM Nodes WHERE {wrong} OR Status NOT BETWEEN 0 AND 5"
        " OR typeof(Label) NOT IN ('text', 'null') LIMIT 1"
    ).fetchone()
    if bad is None:
        return
    node, *types = bad
    for column, kind in zip(_NODE_COLUMNS, types, strict=True):
        allowed = ("text", "null") if column == "Label" else ("integer",)
        if kind not in allowed:
            raise _Refused(f"node {node!r}: its {column} is {kind}, not {' or '.join(allowed)}")
    raise _Refused(f"node {node!r}: its Status is not a CP-Profiler status (0 to 5)")


#: The most distinct labels read as one object each.
_SHARED_LABELS = 1 << 16


def _node_arrays(db: sqlite3.Connection) -> tuple[Any, ...]:
    """The columns of Nodes as arrays (Label as a list), read a chunk at a time; a value
    of another type comes as NULL, and then the node is named (:func:`_check_types`)."""
    numbers, labels = [np.empty((0, 5), np.int64)], []
    checked = [f"CASE WHEN typeof({c}) = 'integer' THEN {c} END" for c in _NODE_COLUMNS[:5]]
    cursor = db.execute(f"SELECT {', '.join(checked)} FROM Nodes ORDER BY NodeID")
    while rows := cursor.fetchmany(CHUNK):
        try:
            numbers.append(np.array(rows, dtype=np.int64))
        except TypeError:
            _check_types(db)
    cursor = db.execute(
        "SELECT CASE WHEN typeof(Label) = 'text' THEN Label WHEN Label IS NULL THEN '' END"
        " FROM Nodes ORDER BY NodeID"
    )
    # A label seen before is kept once (a cpqueens tree has at most n * n of them); a
    # file of labels all different stops the sharing early.
    shared: dict[str, str] = {}
    while rows := cursor.fetchmany(CHUNK):
        if len(shared) < _SHARED_LABELS:
            labels.extend([shared.setdefault(label, label) for (label,) in rows])
        else:
            labels.extend([label for (label,) in rows])
    ids, parents, alternatives, kids, status = np.concatenate(numbers).T
    if None in labels or ((status < 0) | (status > 5)).any():
        _check_types(db)
    return ids, parents, alternatives, kids, status, labels


def _structure(ids, parents, alternatives, kids) -> tuple[np.ndarray, np.ndarray]:
    """The tree's parent array in preorder and the rows in that order, or the reason
    the rows make no tree."""
    if (repeated := np.flatnonzero(ids[1:] == ids[:-1])).size:
        raise _Refused(f"node {ids[repeated[0]]} is given twice")
    roots = np.flatnonzero(parents == -1)
    if len(roots) != 1:
        found = f"nodes {ids[roots[0]]} and {ids[roots[1]]} have" if len(roots) else "no node has"
        raise _Refused(f"{found} ParentID -1: a tree has one root")
    index = np.searchsorted(ids, parents)
    index[roots] = 0
    absent = (ids[np.minimum(index, len(ids) - 1)] != parents) & (parents != -1)
    if (absent := np.flatnonzero(absent)).size:
        i = absent[0]
        raise _Refused(f"node {ids[i]} names ParentID {parents[i]}, which is not a node")
    if (later := np.flatnonzero((parents >= ids) & (parents != -1))).size:
        i = later[0]
        why = "itself" if parents[i] == ids[i] else f"node {parents[i]}, which comes later"
        raise _Refused(
            f"node {ids[i]} names as its parent {why} (a parent comes before its children; "
            "this makes a cycle or a tree out of order)"
        )
    parent = np.where(parents == -1, -1, index)
    counts = np.bincount(parent[parent >= 0], minlength=len(ids))
    if (wrong := np.flatnonzero(counts != kids)).size:
        i = wrong[0]
        raise _Refused(f"node {ids[i]} has NKids {kids[i]} but {counts[i]} children")
    rank = sibling_index_by(parent, alternatives)
    if (wrong := np.flatnonzero((rank != alternatives) & (parent >= 0))).size:
        i = wrong[0]
        raise _Refused(
            f"the children of node {ids[parent[i]]} do not have the Alternatives 0, 1, ... "
            f"(node {ids[i]} has {alternatives[i]})"
        )
    position = preorder_positions(parent, alternatives)
    order = np.argsort(position)
    new_parent = np.where(parent[order] >= 0, position[parent[order]], -1)
    return new_parent, order


def _cpqueens_info(db: sqlite3.Connection, root: int) -> dict | None:
    """The cpqueens search the file's Info holds at the root, or None (another solver's)."""
    try:  # no Info table, one of another shape, or no JSON there: another solver's
        row = db.execute("SELECT Info FROM Info WHERE NodeID = ?", (root,)).fetchone()
        info = json.loads(row[0]) if row and isinstance(row[0], str) else None
    except (sqlite3.DatabaseError, ValueError, RecursionError):
        return None
    found = info.get("cpqueens") if isinstance(info, dict) else None
    return found if isinstance(found, dict) else None


def _generic(parent: np.ndarray, status: np.ndarray, labels: list[str]) -> CompactTree:
    minus = np.full(len(parent), -1)
    rejected = bool((status == 3).any())
    return _tree(
        parent, minus, minus, status, include_rejected=rejected, labels=labels, note=_GENERIC_NOTE
    )


def _tree(parent, row, column, status, **settings: Any) -> CompactTree:
    """A CompactTree of these arrays in preorder, in its types."""
    depth = depths(parent)
    if depth.max() > np.iinfo(np.uint16).max:
        raise _Refused(f"it is {depth.max():,} levels deep, more than a tree may be")
    return CompactTree(
        parent=parent.astype(np.int32 if len(parent) < 2**31 else np.int64),
        depth=depth.astype(np.uint16),
        row=row.astype(np.int16),
        column=column.astype(np.int16),
        status=status,
        **settings,
    )


def _cpqueens_tree(info: dict, parent, status, labels: list[str], ids) -> CompactTree:
    """The tree the cpqueens Info names, replayed (domains and all), once the file's
    nodes are found to be exactly its nodes."""
    if info.get("note") is not None:
        return _unreplayed(info, parent, status, labels, ids)
    search = _replayed(info, len(parent))
    if len(parent) != len(search):
        raise _Refused(
            f"it holds {len(parent):,} nodes; the search its Info names makes {len(search):,}"
        )
    found = {"ParentID": parent, "Label": np.array(labels, dtype=object), "Status": status}
    made = {"ParentID": search.parent, "Label": decision_labels(search), "Status": search.status}
    shown = {
        "ParentID": lambda value: str(ids[value]) if value >= 0 else "-1",
        "Label": lambda value: repr(value[:60]),
        "Status": lambda value: f"{value} ({STATUS_NAMES[value]})",
    }
    for column, values in found.items():
        if (wrong := np.flatnonzero(values != made[column])).size:
            i = wrong[0]
            raise _Refused(
                f"node {ids[i]} is not the node the search its Info names makes there: its "
                f"{column} is {shown[column](values[i])}, the search's "
                f"{shown[column](made[column][i])}"
            )
    return search


def _replayed(info: dict, count: int) -> CompactTree:
    """The tree of the search a cpqueens Info names, built again."""
    from ..compact.build import WORD_ROWS, compact_tree, node_bytes
    from ..explicit.build import decision_tree

    n, fixed, search = _search_of(info)
    try:
        # Room for the nodes the file holds, and no more: a lie about n costs nothing.
        if n > WORD_ROWS:  # past the compiled search's rows, through networkx
            graph = decision_tree(n, fixed, max_nodes=2 * count + 1024, **search)
            return CompactTree.from_networkx(graph)
        per_node = node_bytes(n, search["propagation"])
        return compact_tree(n, fixed, max_bytes=2 * count * per_node, **search)
    except TreeTooLargeError:
        raise _Refused(
            f"its cpqueens Info names a search of far more than the {count:,} nodes it holds"
        ) from None
    except InvalidInputError as error:
        raise _Refused(f"its cpqueens Info names a search cpqueens refuses ({error})") from None


def _search_of(info: dict) -> tuple[int, dict, dict]:
    """The board size, fixed queens and the rest of the search a cpqueens Info names."""
    if info.get("format") != FORMAT:
        raise _Refused(f"its cpqueens Info is of format {info.get('format')!r}, not {FORMAT}")
    try:
        n, rejected = info["n"], info["include_rejected"]
        if not isinstance(rejected, bool) or not isinstance(n, int) or not 1 <= n <= 10_000:
            raise TypeError
        search = dict(
            blocked=tuple(sorted((int(r), int(c)) for r, c in info["blocked"])),
            propagation=info["propagation"],
            order=info["order"],
            include_rejected=rejected,
            max_depth=info["max_depth"],
        )
        return n, {int(r): int(c) for r, c in info["fixed"]}, search
    except (KeyError, TypeError, ValueError):
        shown = json.dumps(info)[:120]
        raise _Refused(f"its cpqueens Info is not one cpqueens writes: {shown}") from None


def _unreplayed(info: dict, parent, status, labels: list[str], ids) -> CompactTree:
    """A cpqueens tree that is no search's own (two trees merged): its settings as
    written, rows and columns read off its labels, no domains."""
    n, fixed, search = _search_of(info)
    unique, inverse = np.unique(np.array(labels[1:], dtype=str), return_inverse=True)
    found = [re.fullmatch(r"q\[(\d{1,5})\] = (\d{1,5})", text) for text in unique]
    pairs = np.array([[int(m[1]), int(m[2])] if m else [n, n] for m in found], np.int64)
    bad = np.flatnonzero((pairs.reshape(-1, 2) >= n).any(axis=1)[inverse]) + 1
    if labels[0] or bad.size:
        i = 0 if labels[0] else bad[0]
        raise _Refused(f"node {ids[i]}: its Label {labels[i][:60]!r} is not a decision")
    row, column = np.vstack([[-1, -1], pairs.reshape(-1, 2)[inverse]]).T
    return _tree(parent, row, column, status, n=n, fixed=fixed, note=str(info["note"]), **search)
