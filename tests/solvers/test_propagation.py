"""Trees and the backend with propagation and first-fail, against an independent search."""

import pytest
import search_reference
from reference import brute_force

import cpqueens
from cpqueens.trees.explicit.build import NODE_ATTRIBUTES
from cpqueens.trees.explicit.size import estimate_tree_size

COMBINATIONS = [
    ("none", "row"),
    ("forward", "row"),
    ("forward", "first-fail"),
    ("arc", "row"),
    ("arc", "first-fail"),
]
IDS = [f"{p}-{o}" for p, o in COMBINATIONS]


def fixed_cases(n):
    """No queen given; one in the middle; two on a diagonal (wiped out at the root); two apart."""
    cases = [{}, {n // 2: n // 3}]
    if n >= 2:
        cases.append({0: 0, n - 1: n - 1})
    if n >= 5:
        cases.append({1: 3, n - 1: 2})
    return cases


CASES = [
    pytest.param(n, fixed, id=f"n{n}-{'-'.join(f'{r}:{c}' for r, c in fixed.items())}")
    for n in range(1, 10)
    for fixed in fixed_cases(n)
]


def tree_visits(G):
    """The placed nodes of a tree in search order, as the reference's records."""
    return [data for node, data in sorted(G.nodes(data=True)) if node and not data["rejected"]]


@pytest.mark.slow
@pytest.mark.parametrize(("propagation", "order"), COMBINATIONS, ids=IDS)
@pytest.mark.parametrize(("n", "fixed"), CASES)
def test_tree_and_backend_match_the_independent_search(n, fixed, propagation, order):
    root, visits = search_reference.search(n, fixed, propagation, order)
    G = cpqueens.decision_tree(n, fixed, propagation=propagation, order=order)
    nodes = tree_visits(G)
    # Node by node, in search order: the same queen, the same verdict.
    assert [(d["row"], d["column"], d["depth"]) for d in nodes] == [
        (v.row, v.column, v.depth) for v in visits
    ]
    assert [(d["solution"], d["dead_end"]) for d in nodes] == [
        (v.solution, v.dead_end) for v in visits
    ]
    solutions = {tuple(d["placement"]) for d in nodes if d["solution"]}
    assert solutions == cpqueens.tree_solutions(G) == brute_force(n, fixed)
    assert solutions == cpqueens.tree_solutions(cpqueens.decision_tree(n, fixed))
    assert G.graph["propagation"] == propagation and G.graph["order"] == order

    dead_ends = sum(v.dead_end for v in visits)
    pruned = len(root.pruned) + sum(len(v.pruned) for v in visits)
    if propagation != "none":
        assert [(d["wiped_out"], set(d["pruned"])) for d in nodes] == [
            (v.wiped_out, v.pruned) for v in visits
        ]
        assert (G.nodes[0]["dead_end"], G.nodes[0]["wiped_out"]) == (root.dead_end, root.wiped_out)
        assert set(G.nodes[0]["pruned"]) == root.pruned

    result = cpqueens.solve(n, "propagate", fixed=fixed, propagation=propagation, order=order)
    assert result.stats["nodes"] == len(visits) == G.number_of_nodes() - 1
    assert result.stats["dead_ends"] == dead_ends
    assert result.stats["pruned"] == (pruned if propagation != "none" else 0)
    assert set(result.solutions) == solutions and len(result.solutions) == len(solutions)
    per_depth = [0] * (n + 1)
    for v in visits:
        per_depth[v.depth] += 1
    assert list(result.stats["nodes_per_depth"]) == per_depth


def test_plain_tree_is_todays_tree():
    G = cpqueens.decision_tree(8, propagation="none", order="row")
    assert G.number_of_nodes() - 1 == 2056
    assert tuple(G.nodes[5]) == NODE_ATTRIBUTES
    assert (G.graph["propagation"], G.graph["order"]) == ("none", "row")


def test_counts_at_n8():
    # The figures docs/decision-tree.md gives (nodes, dead ends), as computed by the code.
    expected = {
        ("none", "row"): (2056, 644),
        ("forward", "row"): (1724, 560),
        ("forward", "first-fail"): (1360, 292),
        ("arc", "row"): (768, 186),
        ("arc", "first-fail"): (738, 164),
    }
    for (propagation, order), counts in expected.items():
        stats = cpqueens.solve(8, "propagate", propagation=propagation, order=order).stats
        assert (stats["nodes"], stats["dead_ends"]) == counts


@pytest.mark.parametrize(("propagation", "order"), COMBINATIONS[1:], ids=IDS[1:])
def test_rejected_leaves_are_the_pruned_squares_of_the_chosen_row(propagation, order):
    G = cpqueens.decision_tree(7, {2: 3}, **_kw(propagation, order))
    R = cpqueens.decision_tree(7, {2: 3}, **_kw(propagation, order), include_rejected=True)
    placed = [v for v, d in R.nodes(data=True) if not d["rejected"]]
    assert len(placed) == G.number_of_nodes()
    for v in placed:
        children = [R.nodes[c] for c in R.successors(v)]
        if not children:
            continue
        rows = {c["row"] for c in children}
        assert len(rows) == 1  # every child places the chosen row
        row = rows.pop()
        # The chosen row shows every square it started with: all n, or its fixed column.
        expected = [3] if row == 2 else list(range(7))
        assert [c["column"] for c in children] == expected
        assert all(not c["pruned"] and c["wiped_out"] == -1 for c in children if c["rejected"])
    size = estimate_tree_size(7, (None, None, 3, None, None, None, None), **_kw(propagation, order))
    assert size.exact
    assert size.graph_nodes == G.number_of_nodes()
    assert 1 + size.attempts == R.number_of_nodes()


def _kw(propagation, order):
    return {"propagation": propagation, "order": order}


def test_wipe_outs_are_the_dead_ends_and_leaves():
    G = cpqueens.decision_tree(8, propagation="arc", order="first-fail")
    for v, data in G.nodes(data=True):
        assert data["dead_end"] == (data["wiped_out"] >= 0)
        if data["dead_end"] or data["solution"]:
            assert G.out_degree(v) == 0
        else:
            assert G.out_degree(v) > 0
        # What was pruned is gone from the board below: no child uses a pruned square.
        pruned = set(data["pruned"])
        for child in G.successors(v):
            below = G.nodes[child]
            assert (below["row"], below["column"]) not in pruned


def test_first_fail_placement_marks_empty_rows():
    G = cpqueens.decision_tree(6, propagation="forward", order="first-fail")
    for _, data in G.nodes(data=True):
        placement = data["placement"]
        if data["depth"]:
            assert placement[data["row"]] == data["column"]
            assert sum(c >= 0 for c in placement) == data["depth"]
            assert placement[-1] >= 0  # cut after the lowest queen


def test_conflicting_fixed_queens_wipe_out_the_root():
    for propagation in ("forward", "arc"):
        G = cpqueens.decision_tree(6, {0: 0, 3: 3}, propagation=propagation)
        assert G.number_of_nodes() == 1
        assert G.nodes[0]["dead_end"] and G.nodes[0]["wiped_out"] == 0
    # Arc consistency proves n=2 and n=3 have no solution before the first placement.
    G = cpqueens.decision_tree(3, propagation="arc")
    assert G.number_of_nodes() == 1 and G.nodes[0]["wiped_out"] == 0


def test_max_depth_and_size_guard():
    G = cpqueens.decision_tree(8, propagation="arc", max_depth=2)
    assert max(d for _, d in G.nodes(data="depth")) == 2
    frontier = [d for _, d in G.nodes(data=True) if d["depth"] == 2 and not d["dead_end"]]
    assert frontier and all(d["truncated"] for d in frontier)
    with pytest.raises(cpqueens.TreeTooLargeError, match="n=14"):
        cpqueens.decision_tree(14, propagation="forward")
    with pytest.raises(cpqueens.TreeTooLargeError):
        cpqueens.decision_tree(8, propagation="arc", max_nodes=700)
    assert cpqueens.decision_tree(8, propagation="arc", max_nodes=769).number_of_nodes() == 769


@pytest.mark.slow
@pytest.mark.parametrize(("propagation", "order"), COMBINATIONS[1:], ids=IDS[1:])
def test_estimate_is_close_for_larger_trees(propagation, order):
    stats = cpqueens.solve(11, "propagate", propagation=propagation, order=order).stats
    size = estimate_tree_size(11, (None,) * 11, **_kw(propagation, order))
    assert not size.exact
    assert abs(size.nodes - stats["nodes"]) < 0.1 * stats["nodes"]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"propagation": "ac3"}, r"unknown propagation 'ac3'; valid ones are: none, forward, arc"),
        ({"order": "random"}, r"unknown order 'random'; valid ones are: row, first-fail"),
        ({"order": "first-fail"}, r"order='first-fail' needs domains"),
        ({"propagation": None}, "unknown propagation None"),
    ],
)
def test_bad_names_are_refused(kwargs, match):
    with pytest.raises(cpqueens.InvalidInputError, match=match):
        cpqueens.decision_tree(5, **kwargs)
    with pytest.raises(cpqueens.InvalidInputError, match=match):
        cpqueens.solve(5, "propagate", **{"propagation": "none", **kwargs})


def test_backend_first_fail_finds_large_boards_and_stops_in_time():
    result = cpqueens.solve(60, "propagate", order="first-fail", limit=1)
    assert cpqueens.is_valid(result.solution, 60)
    result = cpqueens.solve(30, "propagate", propagation="arc", time_limit=0.05)
    assert result.stats["timed_out"] and not result.complete
