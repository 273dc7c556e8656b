"""The explicit decision tree: its size against the backtrackers, its files, its pictures."""

import json
import re
import time
import xml.etree.ElementTree as ET

import pytest
import search_reference
from backend_sets import case, missing
from reference import brute_force

import cpqueens
from cpqueens.board import attacking_pairs
from cpqueens.solvers import REGISTRY
from cpqueens.trees.explicit.size import estimate_tree_size
from cpqueens.trees.explicit.summary import TreeSummary, tree_summary
from cpqueens.trees.files.readwrite import FORMATS
from cpqueens.trees.pictures.layout import tidy_layout


def _reports_effort(name):
    return {"nodes", "attempts"} <= set(cpqueens.solve(4, name).stats)


# Backends that report search effort (nodes, attempts) in the shared definitions
# of cpqueens.solvers.base and search in a fixed order. One that cannot run here is a
# skip of its own, saying what it needs (whether it reports them cannot be told then).
EFFORT = [
    case(name)
    for name, b in REGISTRY.items()
    if b.enumerates and not b.randomized and (missing(name) or _reports_effort(name))
]


# Options under which a backend counts attempts as the tree does (one test per square
# of the next line per expanded node): stack's default follows the non-recursive
# article's code, which tests a line's unsafe squares again on backtracking.
SAME_ATTEMPTS = {"stack": {"tried": "tested"}}


def solution_leaves(G):
    return [v for v, s in G.nodes(data="solution") if s]


def test_article_figures_for_n8():
    G = cpqueens.decision_tree(8)
    assert G.number_of_nodes() - 1 == 2056
    assert len(solution_leaves(G)) == 92
    R = cpqueens.decision_tree(8, include_rejected=True)
    rejected = sum(1 for _, r in R.nodes(data="rejected") if r)
    assert R.number_of_nodes() - 1 - rejected == 2056
    assert R.number_of_nodes() - 1 == 15720


@pytest.mark.parametrize("name", EFFORT)
@pytest.mark.parametrize("n", range(1, 10))
def test_tree_size_is_the_backends_effort(name, n):
    stats = cpqueens.solve(n, backend=name, **SAME_ATTEMPTS.get(name, {})).stats
    assert cpqueens.decision_tree(n).number_of_nodes() - 1 == stats["nodes"]
    with_rejected = cpqueens.decision_tree(n, include_rejected=True)
    assert with_rejected.number_of_nodes() - 1 == stats["attempts"]


@pytest.mark.parametrize("fixed", [{0: 1}, {2: 3, 5: 0}, {0: 0, 1: 1}])
def test_fixed_queens_tree_matches_the_tree_backend(fixed):
    stats = cpqueens.solve(7, backend="tree", fixed=fixed).stats
    G = cpqueens.decision_tree(7, fixed, include_rejected=True)
    assert G.number_of_nodes() - 1 == stats["attempts"]
    assert sum(1 for _, r in G.nodes(data="rejected") if not r) - 1 == stats["nodes"]
    assert cpqueens.tree_solutions(G) == brute_force(7, fixed)
    assert G.graph["fixed"] == fixed


@pytest.mark.parametrize("n", range(1, 9))
def test_tree_solutions_are_every_solution(n):
    assert cpqueens.tree_solutions(cpqueens.decision_tree(n)) == brute_force(n)


@pytest.mark.parametrize(
    ("propagation", "order", "placed", "dead_ends"),
    [("none", "row", 2056, 644), ("forward", "row", 1724, 560), ("arc", "first-fail", 738, 164)],
)
def test_summary_figures_for_n8(propagation, order, placed, dead_ends):
    # The counts of the articles and of docs/decision-tree.md, written out, not computed.
    G = cpqueens.decision_tree(8, propagation=propagation, order=order)
    assert tree_summary(G) == TreeSummary(
        graph_nodes=placed + 1,
        edges=placed,
        queens_placed=placed,
        rejected=0,
        solutions=92,
        dead_ends=dead_ends,
        wiped_out=-1,
    )


def test_summary_counts_rejected_leaves_apart():
    summary = tree_summary(cpqueens.decision_tree(8, include_rejected=True))
    # 15,720 attempts: 2,056 queens placed and 13,664 squares refused.
    assert (summary.graph_nodes, summary.edges) == (15721, 15720)
    assert (summary.queens_placed, summary.rejected) == (2056, 13664)
    assert (summary.solutions, summary.dead_ends) == (92, 644)


@pytest.mark.parametrize(
    ("propagation", "order"),
    [("none", "row"), ("forward", "row"), ("forward", "first-fail"), ("arc", "row")],
)
@pytest.mark.parametrize(
    ("n", "fixed"), [(1, {}), (4, {}), (6, {}), (7, {2: 3}), (5, {0: 0, 2: 2}), (6, {1: 3, 5: 2})]
)
def test_summary_agrees_with_the_independent_search(n, fixed, propagation, order):
    root, visits = search_reference.search(n, fixed, propagation, order)
    G = cpqueens.decision_tree(n, fixed, propagation=propagation, order=order)
    assert tree_summary(G) == TreeSummary(
        graph_nodes=1 + len(visits),
        edges=len(visits),
        queens_placed=len(visits),
        rejected=0,
        solutions=len(brute_force(n, fixed)),
        dead_ends=sum(v.dead_end for v in visits),
        wiped_out=root.wiped_out,
    )


def test_summary_of_a_tree_read_back(tmp_path):
    G = cpqueens.decision_tree(6, {0: 1}, propagation="arc", include_rejected=True)
    H = cpqueens.read_tree(cpqueens.export_tree(G, tmp_path / "t.graphml"))
    assert tree_summary(H) == tree_summary(G)
    # The fixed queens wipe out row 0 at the root: nothing grows below it.
    wiped = tree_summary(cpqueens.decision_tree(5, {0: 0, 2: 2}, propagation="arc"))
    assert (wiped.graph_nodes, wiped.queens_placed, wiped.wiped_out) == (1, 0, 0)


def test_structure_and_attributes():
    G = cpqueens.decision_tree(6, include_rejected=True)
    assert G.nodes[0] == {
        "row": -1,
        "column": -1,
        "depth": 0,
        "placement": (),
        "solution": False,
        "dead_end": False,
        "rejected": False,
        "truncated": False,
    }
    assert all(G.in_degree(v) == 1 for v in G if v != 0)
    for u, v in G.edges:
        a, b = G.nodes[u], G.nodes[v]
        assert b["depth"] == a["depth"] + 1 == b["row"] + 1
        assert b["placement"] == (*a["placement"], b["column"])
        assert u < v  # ids follow the search order
    for v, data in G.nodes(data=True):
        children = list(G.successors(v))
        if data["rejected"] or data["solution"]:
            assert not children
        if data["dead_end"]:
            assert children and all(G.nodes[c]["rejected"] for c in children)
        # A rejected attempt is attacked by a queen above it; a node is safe.
        assert bool(attacking_pairs(data["placement"])) == data["rejected"]
    # Children of a node come in column order, and ids are a preorder numbering.
    assert [G.nodes[c]["column"] for c in G.successors(0)] == list(range(6))


def test_max_depth_cuts_and_marks_truncated_nodes():
    G = cpqueens.decision_tree(8, max_depth=2)
    assert max(d for _, d in G.nodes(data="depth")) == 2
    assert G.number_of_nodes() - 1 == 8 + 42
    frontier = [d for _, d in G.nodes(data=True) if d["depth"] == 2]
    assert all(d["truncated"] and not d["dead_end"] for d in frontier)
    assert cpqueens.decision_tree(5, max_depth=0).number_of_nodes() == 1
    assert not any(t for _, t in cpqueens.decision_tree(8).nodes(data="truncated"))


def test_estimate_is_exact_when_small_and_close_when_large():
    for n in range(1, 9):
        size = estimate_tree_size(n, (None,) * n)
        stats = cpqueens.solve(n, backend="tree").stats
        assert size.exact and (size.nodes, size.attempts) == (stats["nodes"], stats["attempts"])
    stats = cpqueens.solve(10, backend="tree").stats
    size = estimate_tree_size(10, (None,) * 10)
    assert abs(size.nodes - stats["nodes"]) < 0.05 * stats["nodes"]


def test_size_guard_refuses_n14_quickly():
    start = time.perf_counter()
    with pytest.raises(cpqueens.TreeTooLargeError) as caught:
        cpqueens.decision_tree(14)
    assert time.perf_counter() - start < 5
    message = str(caught.value)
    assert "max_depth" in message and "fixed" in message and "n=14" in message
    assert caught.value.estimate > 20_000_000
    assert isinstance(caught.value, cpqueens.InvalidInputError)
    # A partial tree of the same board is fine.
    assert cpqueens.decision_tree(14, max_depth=2).number_of_nodes() == 1 + 14 + 156


def test_size_guard_respects_max_nodes_and_rejected_attempts():
    with pytest.raises(cpqueens.TreeTooLargeError, match="10,000"):
        cpqueens.decision_tree(8, include_rejected=True, max_nodes=10_000)
    assert cpqueens.decision_tree(8, max_nodes=2057).number_of_nodes() == 2057
    with pytest.raises(cpqueens.TreeTooLargeError):
        cpqueens.decision_tree(8, max_nodes=2056)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"n": 0}, ValueError, "n must be a positive integer"),
        ({"n": 4, "max_depth": -1}, ValueError, "max_depth must be an integer >= 0, got -1"),
        ({"n": 4, "max_nodes": 0}, ValueError, "max_nodes must be"),
        ({"n": 4, "max_depth": 1.5}, TypeError, "max_depth must be an integer"),
        ({"n": 4, "fixed": {0: 9}}, ValueError, "off the board"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        cpqueens.decision_tree(**kwargs)


@pytest.mark.parametrize("suffix", FORMATS)
@pytest.mark.parametrize(
    "build",
    [
        lambda: cpqueens.decision_tree(6, include_rejected=True),
        lambda: cpqueens.decision_tree(8, {0: 2, 7: 4}, max_depth=5),
        lambda: cpqueens.decision_tree(1),
        lambda: cpqueens.decision_tree(
            6, propagation="arc", order="first-fail", include_rejected=True
        ),
        lambda: cpqueens.decision_tree(8, {0: 2, 7: 4}, propagation="forward", max_depth=5),
        lambda: cpqueens.decision_tree(5, {0: 0, 2: 2}, propagation="arc"),
    ],
    ids=["n6-rejected", "n8-fixed-cut", "n1", "n6-arc-ff-rejected", "n8-fwd-fixed-cut", "n5-wiped"],
)
def test_round_trip(tmp_path, suffix, build):
    G = build()
    path = cpqueens.export_tree(G, tmp_path / f"tree{suffix}")
    assert path.exists() and [p.name for p in tmp_path.iterdir()] == [path.name]
    H = cpqueens.read_tree(path)
    assert H.is_directed() and not H.is_multigraph()
    assert dict(H.nodes(data=True)) == dict(G.nodes(data=True))
    assert list(H.edges(data=True)) == list(G.edges(data=True))
    assert H.graph == G.graph
    assert cpqueens.tree_solutions(H) == cpqueens.tree_solutions(G)
    if G.graph["propagation"] != "none":
        assert any(data["pruned"] for _, data in H.nodes(data=True))
        assert all(isinstance(data["pruned"], tuple) for _, data in H.nodes(data=True))


def test_old_files_read_as_the_plain_tree(tmp_path):
    # A GraphML file from before trees had propagation and order.
    path = cpqueens.export_tree(cpqueens.decision_tree(4), tmp_path / "t.graphml")
    text = path.read_text()
    for key in ("propagation", "order"):
        text = re.sub(rf'<key id="[^"]+" for="graph" attr.name="{key}"[^>]*/>', "", text)
        text = re.sub(
            rf'<data key="[^"]+">{"none" if key == "propagation" else "row"}</data>', "", text
        )
    assert "propagation" not in text
    path.write_text(text)
    H = cpqueens.read_tree(path)
    assert (H.graph["propagation"], H.graph["order"]) == ("none", "row")


def test_json_is_node_link_with_edges_key(tmp_path):
    path = cpqueens.export_tree(cpqueens.decision_tree(4), tmp_path / "t.json")
    data = json.loads(path.read_text())
    assert "edges" in data and "links" not in data
    assert data["nodes"][1]["placement"] == [0]


def test_unknown_extension_lists_the_allowed_ones(tmp_path):
    G = cpqueens.decision_tree(4)
    for call in (
        lambda: cpqueens.export_tree(G, tmp_path / "t.xml"),
        lambda: cpqueens.read_tree(tmp_path / "t.xml"),
        lambda: cpqueens.draw_tree(G, tmp_path / "t.jpg"),
    ):
        with pytest.raises(cpqueens.InvalidInputError, match=r"allowed extensions: \.") as caught:
            call()
        assert "'.xml'" in str(caught.value) or "'.jpg'" in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_interrupted_write_leaves_nothing(tmp_path, monkeypatch):
    import networkx as nx

    def broken(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(nx, "write_graphml", broken)
    with pytest.raises(KeyboardInterrupt):
        cpqueens.export_tree(cpqueens.decision_tree(4), tmp_path / "t.graphml")
    assert list(tmp_path.iterdir()) == []


def test_export_refuses_a_graph_that_is_not_a_tree(tmp_path):
    import networkx as nx

    with pytest.raises(cpqueens.InvalidInputError, match="decision_tree"):
        cpqueens.export_tree(nx.path_graph(3, create_using=nx.DiGraph), tmp_path / "t.dot")


def test_layout_has_no_crossings():
    G = cpqueens.decision_tree(6, include_rejected=True)
    pos = tidy_layout(G)
    by_level = {}
    for u, v in G.edges:
        by_level.setdefault(pos[u][1], []).append((pos[u][0], pos[v][0]))
    for edges in by_level.values():
        edges.sort()
        children = [child for _, child in edges]
        assert children == sorted(children)  # parents left to right have children left to right
    xs = {}
    for x, y in pos.values():
        xs.setdefault(y, []).append(x)
    assert all(len(set(row)) == len(row) for row in xs.values())  # no two nodes overlap


@pytest.mark.slow
def test_draw_png_and_svg(tmp_path):
    from matplotlib.image import imread

    G = cpqueens.decision_tree(6)
    png = cpqueens.draw_tree(G, tmp_path / "t.png")
    image = imread(png)
    assert image.shape[0] > 100 and image.shape[1] > 300
    svg = cpqueens.draw_tree(cpqueens.decision_tree(8), tmp_path / "t.svg", solutions_only=True)
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.png", "t.svg"]


def test_draw_refuses_huge_trees(tmp_path):
    with pytest.raises(cpqueens.InvalidInputError, match="solutions_only"):
        cpqueens.draw_tree(cpqueens.decision_tree(9), tmp_path / "t.png")
    assert list(tmp_path.iterdir()) == []


def test_solutions_only_keeps_exactly_the_paths():
    from cpqueens.trees.pictures.layout import solution_paths

    G = cpqueens.decision_tree(8)
    P = solution_paths(G)
    assert len(solution_leaves(P)) == 92
    assert all(P.out_degree(v) > 0 for v in P if not P.nodes[v]["solution"])
    assert P.number_of_nodes() == len({s[:k] for s in cpqueens.tree_solutions(G) for k in range(9)})


def test_module_names_do_not_shadow_functions():
    import cpqueens.checking.compare
    import cpqueens.trees.explicit.build

    assert cpqueens.trees.explicit.build.decision_tree is cpqueens.decision_tree
    assert cpqueens.checking.compare.crosscheck is cpqueens.crosscheck


def test_default_limit_admits_n12_and_refuses_n13():
    # n=12 (856,190 graph nodes) is built by benchmarks/bench_tree.py; here only the
    # guard's decision is checked, without allocating the tree.
    from cpqueens.trees.explicit.build import DEFAULT_MAX_NODES

    n12 = estimate_tree_size(12, (None,) * 12)
    assert abs(n12.graph_nodes - 856_190) < 0.05 * 856_190 < DEFAULT_MAX_NODES - n12.graph_nodes
    assert estimate_tree_size(13, (None,) * 13).graph_nodes > 2 * DEFAULT_MAX_NODES
    with pytest.raises(cpqueens.TreeTooLargeError):
        cpqueens.decision_tree(12, include_rejected=True)
