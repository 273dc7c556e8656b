"""Two trees of one board compared: the figures against sets of decision paths taken
straight from the networkx trees, the merged tree, the first node where trees part,
unaligned searches compared by depth, and the report of two trees that should agree."""

import base64

import networkx as nx
import numpy as np
import pytest

import cpqueens
from cpqueens.errors import InvalidInputError
from cpqueens.trees.agreement import tree_disagreement
from cpqueens.trees.compact.tree import CompactTree
from cpqueens.trees.compare import BOTH, ONLY_A, ONLY_B, compare_trees
from cpqueens.trees.pictures.explorer import tree_payload, write_explorer


def paths(G):
    """Each node's path of (row, column) decisions from the root, by node, and back."""
    path = {0: ()}
    for node in sorted(G)[1:]:  # ids are in preorder: a parent comes first
        (parent,) = G.predecessors(node)
        path[node] = (*path[parent], (G.nodes[node]["row"], G.nodes[node]["column"]))
    return path, {p: node for node, p in path.items()}


def status(G, node):
    data = G.nodes[node]
    flags = ("solution", "dead_end", "rejected", "truncated")
    return next((flag for flag in flags if data[flag]), "branch")


def brute_force(G, H):
    """The figures of compare_trees, from the path sets of two networkx trees."""
    path_g, node_g = paths(G)
    path_h, node_h = paths(H)
    both, only_a, only_b = (
        node_g.keys() & node_h.keys(),
        node_g.keys() - node_h,
        node_h - node_g.keys(),
    )

    def below(T, node):
        return len(nx.descendants(T, node))

    pruned = {}  # (side explored, at a leaf of the other, path): nodes left out
    for p in both:
        g, h = node_g[p], node_h[p]
        if G.out_degree(g) and not H.out_degree(h):
            pruned["a", True, p] = below(G, g)
        if H.out_degree(h) and not G.out_degree(g):
            pruned["b", True, p] = below(H, h)
    for side, only, T, node_of, other, other_node in (
        ("a", only_a, G, node_g, H, node_h),
        ("b", only_b, H, node_h, G, node_g),
    ):
        for p in only:
            if p[:-1] in both and other.out_degree(other_node[p[:-1]]):
                pruned[side, False, p] = 1 + below(T, node_of[p])
    # The first node in a's preorder that both have, with other statuses or children.
    first = None
    for node in sorted(G):
        p = path_g[node]
        if p not in node_h:
            continue
        h = node_h[p]
        kids_g = {path_g[c] for c in G.successors(node)}
        kids_h = {path_h[c] for c in H.successors(h)}
        if status(G, node) != status(H, h) or kids_g != kids_h:
            first = (p, node, h)
            break
    solutions = cpqueens.tree_solutions(G), cpqueens.tree_solutions(H)
    figures = {
        "both": len(both) - 1,  # below the root
        "only_a": len(only_a),
        "only_b": len(only_b),
        "solutions": (
            len(solutions[0] & solutions[1]),
            len(solutions[0] - solutions[1]),
            len(solutions[1] - solutions[0]),
        ),
    }
    return figures, pruned, first


def pruned_records(comparison):
    merged, records = comparison.merged, {}
    for node, side, nodes, at_leaf in zip(*comparison.pruned, strict=True):
        steps = merged.path(int(node))[1:]
        path = tuple((int(merged.row[k]), int(merged.column[k])) for k in steps)
        records["a" if side == ONLY_A else "b", bool(at_leaf), path] = int(nodes)
    return records


PAIRS = {
    "forward-arc-8": (dict(n=8, propagation="forward"), dict(n=8, propagation="arc")),
    "none-forward-7-fixed": (
        dict(n=7, fixed={1: 3}, blocked=[(4, 4)]),
        dict(n=7, fixed={1: 3}, blocked=[(4, 4)], propagation="forward"),
    ),
    "rejected-cut-6": (dict(n=6, include_rejected=True), dict(n=6, max_depth=3)),
    # First-fail in both, branching on the same rows wherever both go.
    "arc-forward-ff-6": (
        dict(n=6, propagation="arc", order="first-fail", max_depth=4),
        dict(n=6, propagation="forward", order="first-fail", max_depth=4),
    ),
}


@pytest.mark.parametrize("pair", PAIRS)
def test_figures_match_the_path_sets(pair):
    G, H = (cpqueens.decision_tree(s.pop("n"), **s) for s in map(dict, PAIRS[pair]))
    comparison = compare_trees(G, H)
    figures, pruned, first = brute_force(G, H)
    assert comparison.aligned
    assert {k: getattr(comparison, k) for k in figures} == figures
    assert pruned_records(comparison) == pruned and pruned
    difference = comparison.first_difference()
    assert (difference.path, difference.node_a, difference.node_b) == first
    table = comparison.table()
    assert f"{figures['only_a']:,}" in table and "the trees part at" in table


def test_forward_against_arc_at_n8():
    c = compare_trees(
        cpqueens.compact_tree(8, propagation="forward"), cpqueens.compact_tree(8, propagation="arc")
    )
    assert (len(c.a) - 1, len(c.b) - 1) == (1724, 768)
    assert (c.both, c.only_a, c.only_b, c.solutions) == (768, 956, 0, (92, 0, 0))
    # Arc consistency only prunes: every node it explores, forward checking explores too.
    assert not (c.side == ONLY_B).any() and (c.pruned.side == ONLY_A).all()
    assert c.pruned.nodes.sum() == c.only_a


def test_the_merged_tree_holds_both_trees_in_their_order(tmp_path):
    a = cpqueens.compact_tree(7, propagation="forward", include_rejected=True, max_depth=4)
    b = cpqueens.compact_tree(7, propagation="arc")
    c = compare_trees(a, b)
    merged, side = c.merged, c.side
    assert isinstance(merged, CompactTree) and side.dtype == np.uint8
    assert len(merged) == len(a) + len(b) - (c.both + 1)
    assert (merged.parent[1:] < np.arange(1, len(merged))).all()
    for tree, keep in ((a, side != ONLY_B), (b, side != ONLY_A)):
        kept = np.flatnonzero(keep)
        assert merged.row[kept].tolist() == tree.row.tolist()
        assert merged.column[kept].tolist() == tree.column.tolist()
        assert merged.depth[kept].tolist() == tree.depth.tolist()
    assert side[0] == BOTH and set(np.unique(side)) == {BOTH, ONLY_A, ONLY_B}
    # A node only one tree has hangs below a node of that tree.
    assert (side[merged.parent[side == ONLY_A]] != ONLY_B).all()
    has_children = np.bincount(merged.parent[1:], minlength=len(merged)) > 0
    assert (merged.status[has_children] == 2).all()
    # The explorer colours it by side.
    assert write_explorer(merged, tmp_path / "merged.html", side=side).exists()
    assert base64.b64decode(tree_payload(merged, side=side)["side"]) == side.tobytes()


def test_identical_trees_are_all_both():
    tree = cpqueens.compact_tree(8, {0: 3}, propagation="arc", order="first-fail")
    c = compare_trees(tree, tree.to_networkx())
    assert c.aligned and c.first_difference() is None
    assert (c.both, c.only_a, c.only_b) == (len(tree) - 1, 0, 0)
    assert (c.side == BOTH).all() and len(c.pruned.node) == 0
    assert "the trees are the same" in c.table()


def test_first_difference_at_a_known_node():
    a = cpqueens.compact_tree(6)
    # b: the same search with one node turned into a failure, its subtree gone.
    known = 23 + 1  # q[0] = 1, then its first child q[1] = 3
    assert (a.row[known], a.column[known]) == (1, 3)
    size = int(a.subtree_sizes()[known])
    keep = np.r_[0 : known + 1, known + size : len(a)]
    new_id = np.full(len(a), -1)
    new_id[keep] = np.arange(len(keep))
    b = CompactTree(
        parent=np.where(a.parent[keep] >= 0, new_id[a.parent[keep]], -1).astype(np.int32),
        depth=a.depth[keep],
        row=a.row[keep],
        column=a.column[keep],
        status=np.where(keep == known, 1, a.status[keep]).astype(np.uint8),
        n=6,
    )
    difference = compare_trees(a, b).first_difference()
    assert difference.path == ((0, 1), (1, 3)) and difference.node_a == known == difference.node_b
    assert difference.b == "dead end" and difference.a.startswith("branch: ")
    assert str(difference).startswith("the trees part at q[0] = 1, q[1] = 3: in a, branch")
    message = tree_disagreement(a, b, names=("built", "read"))
    assert (
        f"part at node {known} of built (node {known} of read), path q[0] = 1, q[1] = 3" in message
    )


def test_row_order_against_first_fail_is_compared_by_depth():
    a = cpqueens.compact_tree(8, propagation="forward")
    b = cpqueens.compact_tree(8, propagation="forward", order="first-fail")
    c = compare_trees(a, b)
    assert not c.aligned and c.merged is None and c.side is None and c.both is None
    assert c.solutions == (92, 0, 0)
    for row, (tree, status) in enumerate([(a, None), (b, None), (a, 1), (b, 1), (a, 0), (b, 0)]):
        depths = tree.depth if status is None else tree.depth[tree.status == status]
        assert c.profile[row].tolist() == np.bincount(depths, minlength=9).tolist()
    table = c.table()
    assert "cannot be matched" in table and "depth" in table and "first-fail order" in table
    # They part where they first branch on different rows.
    difference = c.first_difference()
    rows_a = {int(a.row[k]) for k in a.children(difference.node_a)}
    rows_b = {int(b.row[k]) for k in b.children(difference.node_b)}
    assert rows_a != rows_b


def test_trees_of_different_boards_are_refused():
    for other, word in [
        (cpqueens.compact_tree(7), "board size n"),
        (cpqueens.compact_tree(6, {0: 1}), "fixed queens"),
        (cpqueens.compact_tree(6, blocked=[(2, 2)]), "blocked squares"),
    ]:
        with pytest.raises(InvalidInputError, match=word):
            compare_trees(cpqueens.compact_tree(6), other)
    generic = CompactTree(
        parent=np.array([-1], np.int32),
        depth=np.zeros(1, np.uint16),
        row=np.full(1, -1, np.int16),
        column=np.full(1, -1, np.int16),
        status=np.zeros(1, np.uint8),
        labels=[""],
    )
    with pytest.raises(InvalidInputError, match="generic tree"):
        compare_trees(generic, cpqueens.compact_tree(6))
    with pytest.raises(InvalidInputError, match="expected a decision tree"):
        compare_trees(cpqueens.compact_tree(6), "tree.sqlite")


@pytest.mark.parametrize(
    "settings",
    [
        dict(n=7),
        dict(n=7, include_rejected=True, max_depth=4),
        dict(n=8, fixed={0: 2}, propagation="forward"),
        dict(n=7, blocked=[(1, 1)], propagation="arc", order="first-fail"),
    ],
)
def test_the_two_builders_agree(settings):
    settings = dict(settings)
    n = settings.pop("n")
    compact, graph = cpqueens.compact_tree(n, **settings), cpqueens.decision_tree(n, **settings)
    assert tree_disagreement(compact, graph, names=("compact_tree", "decision_tree")) is None


def test_a_disagreement_in_domains_or_settings_is_named():
    a = cpqueens.compact_tree(6, propagation="arc")
    b = CompactTree(**{**vars(a), "domains": a.domains.copy()})
    b.domains[5, 3] ^= 1
    message = tree_disagreement(a, b)
    assert "domains first at node 5" in message and "row 3" in message
    c = CompactTree(**{**vars(a), "order": "first-fail"})
    assert "settings differ: order 'row' against 'first-fail'" in tree_disagreement(a, c)
    other = tree_disagreement(a, cpqueens.compact_tree(7, propagation="arc"))
    assert "different boards" in other and "n 6 against 7" in other
