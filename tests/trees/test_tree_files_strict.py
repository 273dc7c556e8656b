"""Tree files: an error that names the file, the problem and where, never a partial tree;
an export checks its target before the work and leaves nothing behind on any way out."""

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

import networkx as nx
import pytest

import cpqueens
from cpqueens.disk import writing as _files
from cpqueens.disk.writing import atomic_path, write_atomic
from cpqueens.errors import InvalidInputError, InvalidTypeError
from cpqueens.trees.files import readwrite
from cpqueens.trees.pictures import drawing

FORMATS = (".graphml", ".gexf", ".json", ".dot")
TREES = {
    "n6": lambda: cpqueens.decision_tree(6),
    "n6-arc-ff-rejected": lambda: cpqueens.decision_tree(
        6, propagation="arc", order="first-fail", include_rejected=True
    ),
    "n8-fixed-cut": lambda: cpqueens.decision_tree(8, {0: 2, 7: 4}, max_depth=5),
}


def refused(path, *words):
    """Read ``path``, expecting a cpqueens error naming the file and saying ``words``."""
    with pytest.raises(InvalidInputError) as caught:
        cpqueens.read_tree(path)
    message = str(caught.value)
    assert str(path) in message, message
    for word in words:
        assert word in message, message
    return message


def export(tmp_path, suffix, tree="n6"):
    return cpqueens.export_tree(TREES[tree](), tmp_path / f"tree{suffix}")


# Reading: files cut short.


@pytest.mark.parametrize("tree", sorted(TREES))
@pytest.mark.parametrize("suffix", FORMATS)
@pytest.mark.parametrize("kept", [0.0, 0.25, 0.5, 0.75, 0.99])
def test_a_file_cut_short_is_refused(tmp_path, suffix, tree, kept):
    path = export(tmp_path, suffix, tree)
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * kept)])
    refused(path)


def test_the_n6_dot_cut_in_half_is_refused_not_read_as_83_nodes(tmp_path):
    path = export(tmp_path, ".dot")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    refused(path, "line ", "cut short")


@pytest.mark.parametrize("suffix", [".graphml", ".gexf", ".json"])
def test_cut_xml_and_json_name_the_place_not_a_raw_parse_error(tmp_path, suffix):
    path = export(tmp_path, suffix)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    message = refused(path, "line ")
    assert re.search(r"line \d+, column \d+", message), message


@pytest.mark.parametrize("tree", sorted(TREES))
@pytest.mark.parametrize("keep", [0.3, 0.6, 0.9])
def test_a_dot_file_cut_at_a_line_and_closed_again_is_refused(tmp_path, tree, keep):
    # What remains parses: whole lines and the closing brace. The tree is not whole.
    path = export(tmp_path, ".dot", tree)
    lines = path.read_text().splitlines()
    path.write_text("\n".join([*lines[: int(len(lines) * keep)], "}"]) + "\n")
    refused(path)


@pytest.mark.parametrize("suffix", FORMATS)
def test_a_lost_subtree_is_refused_even_when_the_rest_is_consistent(tmp_path, suffix):
    # The last subtree of the root goes, with its edges: every node left has its
    # parent and its attributes, but the search goes on where the file stops.
    G = cpqueens.decision_tree(6)
    last = max(G.successors(0))
    H = G.copy()
    H.remove_nodes_from([last, *nx.descendants(G, last)])
    path = tmp_path / f"cut{suffix}"
    # Written the way export_tree writes, bypassing its own check of the tree.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(readwrite, "_check_tree", lambda G, where=None: None)
        cpqueens.export_tree(H, path)
    message = refused(path, f"node {last} ", "is missing", "below node 0")
    assert f"{H.number_of_nodes()} nodes are there" in message


def test_a_missing_closing_brace_is_a_cut(tmp_path):
    path = export(tmp_path, ".dot")
    path.write_text(path.read_text().rstrip().removesuffix("}"))
    refused(path, "without the closing '}'", "cut short")


@pytest.mark.parametrize("suffix", FORMATS)
def test_an_empty_file_is_refused(tmp_path, suffix):
    path = tmp_path / f"empty{suffix}"
    path.write_bytes(b"")
    refused(path)


# Reading: corrupted files.


def test_graphml_with_a_negative_board_size(tmp_path):
    path = export(tmp_path, ".graphml")
    text = path.read_text()
    key = re.search(r'<key id="([^"]+)" for="graph" attr.name="n"', text)[1]
    path.write_text(text.replace(f'<data key="{key}">6</data>', f'<data key="{key}">-3</data>'))
    refused(path, "the board size n is -3", "positive integer")


def test_graphml_recording_another_board_size(tmp_path):
    path = export(tmp_path, ".graphml")
    text = path.read_text()
    key = re.search(r'<key id="([^"]+)" for="graph" attr.name="n"', text)[1]
    path.write_text(text.replace(f'<data key="{key}">6</data>', f'<data key="{key}">7</data>'))
    refused(path, "node ")


@pytest.mark.parametrize("suffix", FORMATS)
def test_bytes_that_are_not_utf8(tmp_path, suffix):
    path = export(tmp_path, suffix)
    data = path.read_bytes()
    middle = len(data) // 2
    path.write_bytes(data[:middle] + b"\xff\xfe" + data[middle + 2 :])
    refused(path)


def test_a_bad_byte_in_dot_names_its_line(tmp_path):
    path = export(tmp_path, ".dot")
    lines = path.read_bytes().split(b"\n")
    lines[9] = lines[9].replace(b"row", b"r\xffw")
    path.write_bytes(b"\n".join(lines))
    refused(path, "line 10", "not UTF-8")


def _mutated_json(tmp_path, mutate, tree="n6"):
    path = export(tmp_path, ".json", tree)
    data = json.loads(path.read_text())
    mutate(data)
    path.write_text(json.dumps(data))
    return path


def _set(item, **values):
    item.update(values)


@pytest.mark.parametrize(
    ("mutate", "words"),
    [
        (lambda d: d.pop("graph"), ["node-link JSON", "'graph'"]),
        (lambda d: d["nodes"][3].pop("depth"), ["node 3 has no attribute 'depth'"]),
        (lambda d: _set(d["nodes"][3], depth="x"), ["node 3: depth is 'x', not an integer"]),
        (lambda d: _set(d["nodes"][3], row=True), ["node 3: row is True, not an integer"]),
        (lambda d: _set(d["nodes"][3], row=1.0), ["node 3: row is 1.0, not an integer"]),
        (lambda d: _set(d["nodes"][3], solution="maybe"), ["not true or false"]),
        (lambda d: _set(d["nodes"][3], placement="0,x"), ["node 3: placement"]),
        (lambda d: d["nodes"].append(dict(d["nodes"][3])), ["node 3 is given twice"]),
        (lambda d: d["nodes"][5].pop("id"), ["entry 5 of 'nodes'"]),
        (lambda d: d["edges"].append({"source": 1, "target": 999}), ["names node 999"]),
        (lambda d: d["edges"].append(dict(d["edges"][0])), ["is given twice"]),
        (lambda d: d["edges"].pop(), ["has no parent"]),
        (lambda d: _set(d["nodes"][40], solution=True), ["node 40 has solution=True"]),
        (lambda d: _set(d["nodes"][7], column=5), ["node 7 has column=5"]),
        (lambda d: _set(d["nodes"][7], depth=9), ["node 7 has depth=9"]),
        (lambda d: _set(d["nodes"][0], row=0), ["node 0 has row=0"]),
        (lambda d: _set(d["graph"], propagation="magic"), ["unknown propagation 'magic'"]),
        (lambda d: _set(d["graph"], order="first-fail"), ["needs domains"]),
        (lambda d: _set(d["graph"], fixed=[[0, 9]]), ["fixed column 9 is off the board"]),
        (lambda d: _set(d["graph"], fixed=[[0, 1], [0, 2]]), ["names a row twice"]),
        (lambda d: _set(d["graph"], n=10**12), ["trees are checked up to n=10,000"]),
        (lambda d: _set(d["graph"], n="six"), ["the board size n is 'six'"]),
        (lambda d: _set(d["graph"], max_depth=-5), ["max_depth is -5"]),
        (lambda d: _set(d["graph"], max_depth=3), ["node "]),
        (lambda d: _set(d["graph"], include_rejected=True), ["node "]),
    ],
)
def test_corrupted_json(tmp_path, mutate, words):
    refused(_mutated_json(tmp_path, mutate), *words)


def test_a_node_moved_below_another_parent(tmp_path):
    def move(data):
        edge = next(e for e in data["edges"] if e["target"] == 9)
        edge["source"] = 1 if edge["source"] != 1 else 2

    refused(_mutated_json(tmp_path, move), "node 9 hangs below node")


def test_a_node_with_two_parents(tmp_path):
    refused(
        _mutated_json(tmp_path, lambda d: d["edges"].append({"source": 1, "target": 9})),
        "node 9 has 2 parents",
    )


def test_a_node_too_many(tmp_path):
    def add(data):
        data["nodes"].append({**data["nodes"][-1], "id": 500})
        data["edges"].append({"source": 0, "target": 500})

    refused(_mutated_json(tmp_path, add), "node 500 is not part of the tree")


def test_a_pruned_square_changed(tmp_path):
    def change(data):
        node = next(item for item in data["nodes"] if item["pruned"])
        node["pruned"] = node["pruned"][1:]

    refused(_mutated_json(tmp_path, change, "n6-arc-ff-rejected"), "has pruned=")


def test_a_solution_leaf_that_is_no_solution(tmp_path):
    def spoil(data):
        node = next(item for item in data["nodes"] if item["solution"])
        node["placement"] = [0, 1, 2, 3, 4, 5]

    refused(_mutated_json(tmp_path, spoil), "placement=")


def test_not_node_link_json(tmp_path):
    path = tmp_path / "t.json"
    path.write_text("[1, 2]")
    refused(path, "node-link JSON")


def test_gexf_with_a_board_size_that_is_not_a_number(tmp_path):
    path = export(tmp_path, ".gexf")
    path.write_text(path.read_text().replace("n=6;", "n=abc;"))
    refused(path, "the board size n is 'abc', not an integer")
    path.write_text(path.read_text().replace("n=abc;", ""))
    refused(path, "no board size n")


def test_graphml_with_a_node_id_that_is_not_a_number(tmp_path):
    path = export(tmp_path, ".graphml")
    path.write_text(path.read_text().replace('<node id="5">', '<node id="x">'))
    refused(path, "not a readable GraphML file")


def test_graphml_with_a_missing_edge(tmp_path):
    path = export(tmp_path, ".graphml")
    text, count = re.subn(r'<edge source="3" target="4"\s*/>', "", path.read_text())
    assert count == 1
    path.write_text(text)
    refused(path, "node 4 has no parent; it belongs below node 3")


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda text: text + "junk\n", ["follows the closing '}'", "'junk'"]),
        (lambda text: text.replace("depth=2", "depth=3", 1), ["(line 6) has depth=3"]),
        (
            lambda text: text.replace("  0 -> 1;\n", "  0 -> 1;\n  what is this;\n"),
            ["is not one export_tree writes"],
        ),
        (lambda text: text.replace("digraph", "graph", 1), ["does not open a DOT digraph"]),
        (lambda text: re.sub(r"  graph \[.*\];\n", "", text), ["no 'graph [n=...]' line"]),
    ],
)
def test_corrupted_dot(tmp_path, change, words):
    path = export(tmp_path, ".dot")
    path.write_text(change(path.read_text()))
    refused(path, *words)


def test_a_node_given_twice_in_dot_names_both_lines(tmp_path):
    path = export(tmp_path, ".dot")
    lines = path.read_text().splitlines()
    lines.insert(10, lines[5])
    path.write_text("\n".join(lines) + "\n")
    refused(path, "node 2 is given twice, on lines 6 and 11")


def test_what_cannot_be_opened_is_named(tmp_path):
    with pytest.raises(InvalidInputError, match=r"cannot read '.*absent\.dot': no such file"):
        cpqueens.read_tree(tmp_path / "absent.dot")


@pytest.mark.parametrize("path", [42, None, b"t.dot", ["t.dot"]])
def test_read_path_of_the_wrong_type(path):
    with pytest.raises(InvalidTypeError, match=r"path must be a str or an os\.PathLike"):
        cpqueens.read_tree(path)


@pytest.mark.parametrize("tree", sorted(TREES))
@pytest.mark.parametrize("suffix", FORMATS)
def test_whole_files_still_read_back(tmp_path, suffix, tree):
    G = TREES[tree]()
    H = cpqueens.read_tree(cpqueens.export_tree(G, tmp_path / f"t{suffix}"))
    assert dict(H.nodes(data=True)) == dict(G.nodes(data=True))
    assert sorted(H.edges) == sorted(G.edges) and H.graph == G.graph


# Exporting and drawing: what is not a tree, and targets that cannot be written.


def _no_work(monkeypatch):
    """Make any work past the checks of the arguments fail the test."""

    def work(*args, **kwargs):
        raise AssertionError("the work started before the target was checked")

    monkeypatch.setattr(readwrite, "_check_tree", work)
    monkeypatch.setattr(drawing, "_figure", work)


@pytest.mark.parametrize("G", [None, [1, 2], {"n": 4}, nx.Graph(), nx.MultiDiGraph()])
def test_export_and_draw_refuse_what_is_not_a_digraph(tmp_path, G):
    with pytest.raises(InvalidTypeError, match=r"export_tree takes the networkx\.DiGraph"):
        cpqueens.export_tree(G, tmp_path / "t.dot")
    with pytest.raises(InvalidTypeError, match=r"draw_tree draws the networkx\.DiGraph"):
        cpqueens.draw_tree(G, tmp_path / "t.svg")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("path", [42, None, 3.5, b"t.dot"])
def test_export_and_draw_refuse_a_path_of_the_wrong_type(path):
    G = cpqueens.decision_tree(4)
    with pytest.raises(InvalidTypeError, match=r"tree file path must be a str or an os\.PathLike"):
        cpqueens.export_tree(G, path)
    with pytest.raises(InvalidTypeError, match=r"picture path must be a str or an os\.PathLike"):
        cpqueens.draw_tree(G, path)


def test_arguments_swapped(tmp_path):
    with pytest.raises(InvalidTypeError, match="got DiGraph"):
        cpqueens.export_tree(tmp_path / "t.dot", cpqueens.decision_tree(4))


def test_a_folder_as_the_target_is_refused_before_the_work(tmp_path, monkeypatch):
    (tmp_path / "t.graphml").mkdir()
    (tmp_path / "t.svg").mkdir()
    G = cpqueens.decision_tree(5)
    _no_work(monkeypatch)
    for call, name in ((cpqueens.export_tree, "t.graphml"), (cpqueens.draw_tree, "t.svg")):
        with pytest.raises(InvalidInputError) as caught:
            call(G, tmp_path / name)
        assert str(caught.value) == f"cannot write {str(tmp_path / name)!r}: it is a folder"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.graphml", "t.svg"]


def test_a_missing_folder_is_refused_before_the_work(tmp_path, monkeypatch):
    _no_work(monkeypatch)
    target = tmp_path / "no" / "t.dot"
    with pytest.raises(InvalidInputError, match=r"folder .* does not exist"):
        cpqueens.export_tree(cpqueens.decision_tree(4), target)


def test_a_read_only_folder_is_refused_before_the_work(tmp_path, monkeypatch):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        if os.access(folder, os.W_OK):  # root may write anywhere: say the folder is locked
            real = os.access
            monkeypatch.setattr(
                _files.os, "access", lambda p, mode: mode != os.W_OK and real(p, mode)
            )
        _no_work(monkeypatch)
        for call, name in ((cpqueens.export_tree, "t.json"), (cpqueens.draw_tree, "t.png")):
            with pytest.raises(InvalidInputError) as caught:
                call(cpqueens.decision_tree(4), folder / name)
            assert str(caught.value) == f"cannot write {str(folder / name)!r}: permission denied"
    finally:
        folder.chmod(0o700)
    assert list(folder.iterdir()) == []


def test_a_part_file_that_cannot_be_made_names_the_users_path(tmp_path, monkeypatch):
    # A place the checks let through (root on a read-only mount, say) fails when the
    # .part file is created.
    def denied(target):
        raise PermissionError(13, "Permission denied", f".{target.name}.x.part")

    monkeypatch.setattr(_files, "_create_part", denied)
    target = tmp_path / "t.dot"
    with pytest.raises(InvalidInputError) as caught:
        cpqueens.export_tree(cpqueens.decision_tree(4), target)
    assert str(caught.value) == f"cannot write {str(target)!r}: permission denied"
    assert ".part" not in str(caught.value)


def test_an_os_error_while_writing_names_the_users_path(tmp_path, monkeypatch):
    def full(G, path, **kwargs):
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(nx, "write_graphml", full)
    target = tmp_path / "t.graphml"
    with pytest.raises(OSError) as caught:
        cpqueens.export_tree(cpqueens.decision_tree(4), target)
    assert caught.value.filename == str(target) and ".part" not in str(caught.value)
    assert "No space left on device" in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def _tree_without(node):
    G = cpqueens.decision_tree(5)
    G.remove_node(node)
    return G


def _tree_with(node, **values):
    G = cpqueens.decision_tree(5)
    G.nodes[node].update(values)
    return G


@pytest.mark.parametrize(
    ("build", "words"),
    [
        (lambda: nx.path_graph(3, create_using=nx.DiGraph), "no board size"),
        (lambda: nx.DiGraph(n=4), "there are no nodes"),
        (lambda: _tree_without(53), "node 53 (a queen on row 4, column 1, below node 52)"),
        (lambda: _tree_without(0), "the root, node 0, is missing"),
        (lambda: _tree_with(3, placement=[0, 2]), "node 3 has placement=[0, 2]"),
        (lambda: _tree_with(3, row=True), "node 3 has row=True"),
        (lambda: _tree_with(3, depth=5), "node 3 has depth=5"),
        (lambda: _tree_with(3, solution=1), "node 3 has solution=1"),
    ],
)
def test_export_refuses_what_is_not_a_whole_tree(tmp_path, build, words):
    with pytest.raises(InvalidInputError, match="export_tree saves whole trees") as caught:
        cpqueens.export_tree(build(), tmp_path / "t.json")
    assert words in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_export_refuses_a_cycle_and_a_second_parent(tmp_path):
    G = cpqueens.decision_tree(4)
    G.add_edge(5, 1)
    with pytest.raises(InvalidInputError, match="node 1 has 2 parents"):
        cpqueens.export_tree(G, tmp_path / "t.dot")


@pytest.mark.parametrize(
    ("build", "words"),
    [
        (lambda: nx.DiGraph(), "the graph has no nodes"),
        (lambda: nx.DiGraph([(0, 1)]), "node 0 has no integer 'row'"),
        (lambda: _drawable([(0, 1), (0, 2), (1, 3), (2, 3)]), "node 3 has 2: 1, 2"),
        (lambda: _drawable([(0, 1), (2, 3), (3, 2)]), "nodes 2, 3 are not"),
        (lambda: _drawable([(0, 1), (2, 3)]), "this graph has 2"),
    ],
)
def test_draw_refuses_what_is_not_a_tree(tmp_path, monkeypatch, build, words):
    _no_work(monkeypatch)
    with pytest.raises(InvalidInputError) as caught:
        cpqueens.draw_tree(build(), tmp_path / "t.png")
    assert words in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def _drawable(edges):
    G = nx.DiGraph(edges)
    for node in G:
        G.nodes[node].update(row=0, column=0, depth=1)
    return G


def test_draw_still_takes_part_of_a_tree(tmp_path):
    # Drawing, unlike saving, takes any tree of decision-tree nodes: a subtree too.
    G = cpqueens.decision_tree(6)
    part = drawing.solution_paths(G)
    assert cpqueens.draw_tree(part, tmp_path / "part.svg").stat().st_size > 1000
    assert cpqueens.draw_tree(G, tmp_path / "sols.svg", solutions_only=True).exists()


# Signals: a process ended while it writes leaves no .part file behind.

EXPORT = "import sys, cpqueens; cpqueens.export_tree(cpqueens.decision_tree(10), sys.argv[1])"


def test_sigterm_during_a_large_export_leaves_nothing(tmp_path):
    target = tmp_path / "tree.graphml"
    child = subprocess.Popen([sys.executable, "-c", EXPORT, str(target)])
    try:
        deadline = time.monotonic() + 120
        while not list(tmp_path.glob(".*.part")):
            assert child.poll() is None, "the export ended before it could be interrupted"
            assert time.monotonic() < deadline, "no .part file appeared"
            time.sleep(0.005)
        child.send_signal(signal.SIGTERM)
        status = child.wait(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert status == -signal.SIGTERM  # ended by the signal, as it would have been anyway
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def sigterm_handler():
    """Put SIGTERM's handler back as it was after the test."""
    before = signal.getsignal(signal.SIGTERM)
    yield
    signal.signal(signal.SIGTERM, before)


def test_a_program_handler_still_runs_and_the_part_goes(tmp_path, sigterm_handler):
    seen = []

    def stop(signum, frame):
        seen.append(signum)
        raise SystemExit(143)

    signal.signal(signal.SIGTERM, stop)
    target = tmp_path / "t.txt"
    with pytest.raises(SystemExit), atomic_path(target) as temporary:
        temporary.write_text("half")
        assert signal.getsignal(signal.SIGTERM) is not stop
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(1)  # the handler runs before this ends
    assert seen == [signal.SIGTERM]
    assert signal.getsignal(signal.SIGTERM) is stop
    assert list(tmp_path.iterdir()) == []


def test_handlers_are_put_back_and_ignored_signals_stay_ignored(tmp_path, sigterm_handler):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    with atomic_path(tmp_path / "a.txt") as temporary:
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_IGN
        temporary.write_text("a")
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    with atomic_path(tmp_path / "b.txt") as temporary:
        assert signal.getsignal(signal.SIGTERM) is _files._on_termination
        temporary.write_text("b")
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]


def test_writing_from_another_thread_touches_no_handler(tmp_path):
    before = signal.getsignal(signal.SIGTERM)
    errors = []

    def write():
        try:
            write_atomic(tmp_path / "t.txt", "from a thread\n")
        except Exception as error:  # a signal handler set off the main thread raises
            errors.append(error)

    worker = threading.Thread(target=write)
    worker.start()
    worker.join()
    assert errors == [] and (tmp_path / "t.txt").read_text() == "from a thread\n"
    assert signal.getsignal(signal.SIGTERM) is before


def test_atomic_path_checks_the_target_first():
    folder = tempfile.mkdtemp()
    with pytest.raises(InvalidInputError, match="it is a folder"), atomic_path(folder):
        pass
    assert os.listdir(folder) == []
