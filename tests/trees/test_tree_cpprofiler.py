"""CP-Profiler's execution database: CP-Profiler's own tables, trees there and back
unchanged, another solver's file read as a generic tree, and any other file refused
with a message that names it."""

import json
import os
import sqlite3
from contextlib import closing

import numpy as np
import pytest

import cpqueens
from cpqueens.errors import InvalidInputError, TreeTooLargeError
from cpqueens.trees.compact.tree import MERGED, CompactTree
from cpqueens.trees.files import cpprofiler, readwrite
from cpqueens.trees.files.cpprofiler import read_cpprofiler, write_cpprofiler

# The tables as CP-Profiler's db_handler.cpp makes them, column by column as
# PRAGMA table_info gives them: (name, declared type, NOT NULL, primary key).
CP_PROFILER_TABLES = {
    "Nodes": [
        ("NodeID", "INTEGER", 0, 1),
        ("ParentID", "int", 1, 0),
        ("Alternative", "int", 1, 0),
        ("NKids", "int", 1, 0),
        ("Status", "int", 0, 0),
        ("Label", "varchar(256)", 0, 0),
    ],
    "Bookmarks": [("NodeID", "INTEGER", 0, 1), ("Bookmark", "varchar(8)", 0, 0)],
    "Nogoods": [("NodeID", "INTEGER", 0, 1), ("Nogood", "varchar(8)", 0, 0)],
    "Info": [("NodeID", "INTEGER", 0, 1), ("Info", "TEXT", 0, 0)],
}

SEARCHES = {
    "plain": dict(n=7),
    "fixed-blocked": dict(n=7, fixed={0: 2}, blocked=[(3, 3), (4, 1)]),
    "forward": dict(n=7, propagation="forward"),
    "arc": dict(n=7, propagation="arc"),
    "arc-first-fail": dict(n=7, propagation="arc", order="first-fail"),
    "forward-first-fail-fixed": dict(n=8, fixed={7: 4}, propagation="forward", order="first-fail"),
    "rejected": dict(n=6, include_rejected=True),
    "arc-rejected": dict(n=6, propagation="arc", include_rejected=True),
    "max-depth": dict(n=8, max_depth=4),
    "forward-max-depth-fixed": dict(n=8, fixed={0: 2}, propagation="forward", max_depth=3),
    "n100-cut": dict(n=100, fixed={0: 5}, max_depth=2),  # past the compiled search's 64 rows
    "n1": dict(n=1),
    "n3-no-solution": dict(n=3),
}


def tree_of(name):
    settings = dict(SEARCHES[name])
    return cpqueens.compact_tree(settings.pop("n"), **settings)


def rows(path, query):
    with closing(sqlite3.connect(path)) as db:
        return db.execute(query).fetchall()


@pytest.mark.parametrize("name", SEARCHES)
def test_round_trip_gives_the_same_tree(tmp_path, name):
    tree = tree_of(name)
    back = read_cpprofiler(write_cpprofiler(tree, tmp_path / "tree.sqlite"))
    assert back == tree  # parent, depth, row, column, status, domains, settings
    assert back.settings() == tree.settings() and back.labels is None and back.note is None
    if tree.propagation != "none":
        assert back.domains.dtype == tree.domains.dtype
        assert np.array_equal(back.domains, tree.domains)
    assert [p.name for p in tmp_path.iterdir()] == ["tree.sqlite"]


def test_the_tables_are_cp_profilers(tmp_path):
    path = write_cpprofiler(tree_of("forward"), tmp_path / "tree.db")
    with closing(sqlite3.connect(path)) as db:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
        assert tables == set(CP_PROFILER_TABLES)
        for table, columns in CP_PROFILER_TABLES.items():
            info = db.execute(f"PRAGMA table_info({table})").fetchall()
            found = [(c[1], c[2].upper(), c[3], c[5]) for c in info]
            assert found == [(c[0], c[1].upper(), *c[2:]) for c in columns], table
        assert db.execute("SELECT count(*) FROM Bookmarks").fetchone() == (0,)
        assert db.execute("SELECT count(*) FROM Nogoods").fetchone() == (0,)


def test_the_nodes_are_written_as_cp_profiler_reads_them(tmp_path):
    G = cpqueens.decision_tree(6, include_rejected=True, max_depth=4)
    path = write_cpprofiler(G, tmp_path / "tree.sqlite")
    table = rows(path, "SELECT * FROM Nodes ORDER BY NodeID")
    assert [r[0] for r in table] == list(range(G.number_of_nodes()))  # preorder ids
    assert table[0] == (0, -1, -1, G.out_degree(0), 2, "")
    for node, parent, alternative, kids, status, label in table[1:]:
        data = G.nodes[node]
        assert parent == next(iter(G.predecessors(node)))
        assert alternative == sorted(G.successors(parent)).index(node)
        assert kids == G.out_degree(node)
        assert label == f"q[{data['row']}] = {data['column']}"
        expected = (
            3
            if data["rejected"]
            else 4
            if data["truncated"]
            else 0
            if data["solution"]
            else 2
            if kids
            else 1
        )
        assert status == expected, node
    ((root, text),) = rows(path, "SELECT * FROM Info")
    info = json.loads(text)["cpqueens"]
    assert (
        root == 0 and info["n"] == 6 and info["max_depth"] == 4 and info["include_rejected"] is True
    )


def test_export_and_read_tree_by_extension(tmp_path):
    tree = tree_of("arc-rejected")
    for suffix in (".sqlite", ".db", ".SQLITE"):
        back = cpqueens.read_tree(cpqueens.export_tree(tree, tmp_path / f"t{suffix}"))
        assert isinstance(back, CompactTree) and back == tree
    # A networkx tree goes to the database too, checked whole first.
    G = cpqueens.decision_tree(6, propagation="arc", include_rejected=True)
    assert cpqueens.read_tree(cpqueens.export_tree(G, tmp_path / "g.sqlite")) == tree
    G.remove_node(max(G))
    with pytest.raises(InvalidInputError, match="saves whole trees"):
        cpqueens.export_tree(G, tmp_path / "cut.sqlite")
    assert not (tmp_path / "cut.sqlite").exists()


def test_a_compact_tree_goes_to_every_graph_format(tmp_path):
    tree = tree_of("forward-max-depth-fixed")
    G = cpqueens.decision_tree(8, {0: 2}, propagation="forward", max_depth=3)
    for suffix in readwrite.FORMATS:
        H = cpqueens.read_tree(cpqueens.export_tree(tree, tmp_path / f"t{suffix}"))
        assert dict(H.nodes(data=True)) == dict(G.nodes(data=True)) and H.graph == G.graph
    page = cpqueens.export_tree(tree, tmp_path / "t.html")
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    with pytest.raises(InvalidInputError, match="allowed extensions"):
        cpqueens.read_tree(page)


def test_a_compact_tree_too_large_for_a_graph_format_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(readwrite, "MAX_GRAPH_NODES", 100)
    with pytest.raises(TreeTooLargeError, match=r"this tree has 153: save it as CP-Profiler"):
        cpqueens.export_tree(cpqueens.compact_tree(6), tmp_path / "t.graphml")
    assert list(tmp_path.iterdir()) == []
    cpqueens.export_tree(cpqueens.compact_tree(6), tmp_path / "t.sqlite")  # no limit there


def test_a_write_cut_short_leaves_nothing(tmp_path, monkeypatch):
    path = tmp_path / "tree.sqlite"
    write_cpprofiler(tree_of("plain"), path)
    before = path.read_bytes()

    def failing(tree):
        yield (0, -1, -1, 1, 2, "")
        raise KeyboardInterrupt

    monkeypatch.setattr(cpprofiler, "_node_rows", failing)
    with pytest.raises(KeyboardInterrupt):
        write_cpprofiler(tree_of("arc"), path)
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == [path.name]


# Another solver's database: a generic tree.


def make_database(path, nodes, info=(), tables=CP_PROFILER_TABLES):
    """A database of CP-Profiler's tables holding ``nodes`` (rows of Nodes as given)."""
    with closing(sqlite3.connect(path)) as db:
        for table, columns in tables.items():
            spec = ", ".join(
                f"{name} {kind}{' NOT NULL' if notnull else ''}{' PRIMARY KEY' if pk else ''}"
                for name, kind, notnull, pk in columns
            )
            db.execute(f"CREATE TABLE {table}({spec})")
        db.executemany(f"INSERT INTO Nodes VALUES ({','.join('?' * len(nodes[0]))})", nodes)
        if info:
            db.executemany("INSERT INTO Info VALUES (?, ?)", info)
        db.commit()
    return path


HOSTILE = "<img src=x onerror=alert(1)>"
# A tree of another solver, numbered as CP-Profiler numbers nodes (as they were made,
# not in preorder): 0 -> (3, 1); 3 -> (5, 4); 1 -> (2); statuses of all kinds.
FOREIGN = [
    (0, -1, -1, 2, 2, None),
    (1, 0, 1, 1, 2, "x[1] = 3"),
    (2, 1, 0, 0, 5, HOSTILE),
    (3, 0, 0, 2, 2, "x[1] = 2"),
    (4, 3, 1, 0, 0, "y != 7"),
    (5, 3, 0, 0, 1, "y = 7"),
]


def test_another_solvers_database_is_a_generic_tree(tmp_path):
    path = make_database(tmp_path / "golomb.db", FOREIGN, info=[(4, '{"domain": "y in 1..3"}')])
    tree = cpqueens.read_tree(path)
    # Preorder, children by Alternative: 0, 3, 5, 4, 1, 2.
    assert tree.labels == ["", "x[1] = 2", "y = 7", "y != 7", "x[1] = 3", HOSTILE]
    assert tree.parent.tolist() == [-1, 0, 1, 1, 0, 4]
    assert tree.depth.tolist() == [0, 1, 2, 2, 1, 2]
    assert tree.status.tolist() == [2, 2, 1, 0, 2, MERGED]
    assert tree.n is None and tree.domains is None and tree.labels[5] == HOSTILE
    assert (tree.row == -1).all() and (tree.column == -1).all()
    assert "no boards" in tree.note and "no domains" in tree.note
    assert tree.label(5) == HOSTILE
    again = read_cpprofiler(write_cpprofiler(tree, tmp_path / "again.sqlite"))
    assert again == tree and again.labels[5] == HOSTILE and again.note == tree.note


def test_a_cpqueens_label_in_another_solvers_file_stays_a_label(tmp_path):
    nodes = [(0, -1, -1, 1, 2, ""), (1, 0, 0, 0, 0, "q[0] = 0")]
    tree = read_cpprofiler(make_database(tmp_path / "t.sqlite", nodes))
    assert tree.n is None and tree.labels == ["", "q[0] = 0"]


# Files that are no such database.


def refused(path, *words):
    with pytest.raises(InvalidInputError) as caught:
        read_cpprofiler(path)
    message = str(caught.value)
    assert str(path) in message and "Traceback" not in message, message
    for word in words:
        assert word in message, message
    return message


def foreign(tmp_path, changes=(), drop=(), add=()):
    nodes = [list(row) for row in FOREIGN if row[0] not in drop] + [list(r) for r in add]
    for node, column, value in changes:
        next(row for row in nodes if row[0] == node)[column] = value
    return make_database(tmp_path / "bad.sqlite", [tuple(r) for r in nodes])


def test_files_that_are_no_database_are_refused(tmp_path):
    text = tmp_path / "notes.sqlite"
    text.write_text("SQLite? no.")
    refused(text, "not an SQLite file")
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    refused(empty, "not an SQLite file")
    refused(tmp_path / "missing.db", "no such file")
    os.mkdir(tmp_path / "folder.db")
    refused(tmp_path / "folder.db", "not a regular file")
    damaged = tmp_path / "damaged.sqlite"
    damaged.write_bytes(b"SQLite format 3\x00" + b"\xff" * 300)
    refused(damaged, "SQLite says")
    other = tmp_path / "other.sqlite"
    with closing(sqlite3.connect(other)) as db:
        db.execute("CREATE TABLE runs(x)")
    refused(other, "no Nodes table")
    narrow = make_database(
        tmp_path / "narrow.sqlite", [(0, -1)], tables={"Nodes": CP_PROFILER_TABLES["Nodes"][:2]}
    )
    refused(narrow, "no column Alternative, NKids, Status, Label")


@pytest.mark.parametrize(
    ("changes", "drop", "add", "words"),
    [
        ([(3, 1, "zero")], (), (), ["node 3", "ParentID is text, not integer"]),
        ([(3, 2, 0.5)], (), (), ["node 3", "Alternative is real, not integer"]),
        ([(4, 5, b"\x00")], (), (), ["node 4", "Label is blob"]),
        ([(4, 4, 9)], (), (), ["node 4", "not a CP-Profiler status"]),
        ([(4, 4, None)], (), (), ["node 4", "Status is null"]),
        ([(4, 1, 9)], (), (), ["node 4 names ParentID 9, which is not a node"]),
        ([(1, 1, 3)], (), (), ["node 1 names as its parent node 3, which comes later"]),
        ([(1, 1, 2), (2, 1, 1)], (), (), ["node 1", "comes later", "cycle"]),
        ([(3, 1, 3)], (), (), ["node 3 names as its parent itself"]),
        ([(3, 1, -1)], (), (), ["nodes 0 and 3 have ParentID -1"]),
        ([(0, 1, 7)], (), (), ["no node has ParentID -1"]),
        ([(4, 2, 0)], (), (), ["children of node 3", "Alternatives 0, 1"]),
        ([(1, 3, 2)], (), (), ["node 1 has NKids 2 but 1 children"]),
        ([], (2,), (), ["node 1 has NKids 1 but 0 children"]),
    ],
)
def test_broken_trees_are_refused_naming_the_node(tmp_path, changes, drop, add, words):
    refused(foreign(tmp_path, changes, drop, add), *words)


def test_a_node_given_twice_is_refused(tmp_path):
    columns = [("NodeID", "int", 0, 0), *CP_PROFILER_TABLES["Nodes"][1:]]  # no primary key
    nodes = [*FOREIGN, (5, 3, 0, 0, 1, "again")]
    path = make_database(tmp_path / "twice.sqlite", nodes, tables={"Nodes": columns})
    refused(path, "node 5 is given twice")


def test_an_empty_tree_is_refused(tmp_path):
    path = make_database(tmp_path / "empty.sqlite", [(0, -1, -1, 0, 2, "")])
    with closing(sqlite3.connect(path)) as db:
        db.execute("DELETE FROM Nodes")
        db.commit()
    refused(path, "Nodes table is empty")


def alter(path, statement, *values):
    with closing(sqlite3.connect(path)) as db:
        db.execute(statement, values)
        db.commit()
    return path


def test_a_cpqueens_file_altered_is_refused(tmp_path):
    def written():
        return write_cpprofiler(tree_of("forward"), tmp_path / "tree.sqlite")

    refused(alter(written(), "UPDATE Nodes SET Status = 0 WHERE NodeID = 9"), "node 9", "Status")
    refused(alter(written(), "UPDATE Nodes SET Label = 'q[1] = 9' WHERE NodeID = 2"), "node 2")
    refused(alter(written(), "UPDATE Nodes SET Label = 'q[1] = 6' WHERE NodeID = 2"), "node 2")
    last = rows(written(), "SELECT NodeID, ParentID FROM Nodes ORDER BY NodeID DESC LIMIT 1")[0]
    path = alter(written(), "DELETE FROM Nodes WHERE NodeID = ?", last[0])
    alter(path, "UPDATE Nodes SET NKids = NKids - 1 WHERE NodeID = ?", last[1])
    refused(path, "the search its Info names makes")
    info = json.loads(rows(written(), "SELECT Info FROM Info")[0][0])
    for key, value, words in [
        ("n", 20, ["far more than"]),
        ("n", 1000, ["far more than"]),  # refused on its size, never built
        ("n", "eight", ["not one cpqueens writes"]),
        ("propagation", "magic", ["cpqueens refuses"]),
        ("fixed", [[0, 99]], ["cpqueens refuses"]),
        ("include_rejected", "yes", ["not one cpqueens writes"]),
        ("format", 2, ["format 2"]),
    ]:
        changed = {**info["cpqueens"], key: value}
        path = alter(written(), "UPDATE Info SET Info = ?", json.dumps({"cpqueens": changed}))
        refused(path, *words)


def test_a_merged_tree_goes_there_and_back_from_its_labels(tmp_path):
    from cpqueens.trees.compare import compare_trees

    a = cpqueens.compact_tree(7, {2: 4}, propagation="forward", include_rejected=True)
    merged = compare_trees(a, cpqueens.compact_tree(7, {2: 4}, propagation="arc")).merged
    back = cpqueens.read_tree(cpqueens.export_tree(merged, tmp_path / "merged.sqlite"))
    assert back == merged and back.note == merged.note and back.domains is None
    path = alter(tmp_path / "merged.sqlite", "UPDATE Nodes SET Label = 'q[9] = 1' WHERE NodeID = 3")
    refused(path, "node 3: its Label 'q[9] = 1' is not a decision")
