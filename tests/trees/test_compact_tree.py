"""The compact tree: node for node the networkx tree, and the tree of a search written here
from the rules alone (sets of squares, not bit masks), for every kind of tree."""

import itertools

import numpy as np
import pytest

import cpqueens
from cpqueens.errors import InvalidInputError, TreeTooLargeError
from cpqueens.trees.compact.shape import tree_shape
from cpqueens.trees.compact.tree import BRANCH, CUT, FAILURE, REJECTED, SOLUTION, CompactTree

KINDS = {
    "plain": {},
    "rejected": {"include_rejected": True},
    "forward": {"propagation": "forward"},
    "arc": {"propagation": "arc"},
    "forward-first-fail": {"propagation": "forward", "order": "first-fail"},
    "arc-first-fail": {"propagation": "arc", "order": "first-fail"},
    "arc-rejected": {"propagation": "arc", "include_rejected": True},
}


# --- the reference: a search over sets of squares ------------------------------------------


def attacks(a, b):
    (r1, c1), (r2, c2) = a, b
    return r1 == r2 or c1 == c2 or abs(r1 - r2) == abs(c1 - c2)


def propagate(domains, placed, arc):
    """Forward checking from the placed queens, then (arc) revise every pair to the fixpoint."""
    domains = {r: set(d) for r, d in domains.items()}
    for row, column in placed.items():
        domains[row] = {column}
        for other in domains:
            if other != row:
                domains[other] = {
                    c for c in domains[other] if not attacks((row, column), (other, c))
                }
    changed = arc
    while changed:
        changed = False
        for r1, r2 in itertools.permutations(range(len(domains)), 2):
            keep = {
                c for c in domains[r1] if any(not attacks((r1, c), (r2, d)) for d in domains[r2])
            }
            if keep != domains[r1]:
                domains[r1], changed = keep, True
    return domains


def reference_tree(n, fixed=(), blocked=(), propagation="none", order="row",
                   include_rejected=False, max_depth=None):  # fmt: skip
    """The nodes in preorder: (parent, depth, row, column, status, domains or None)."""
    fixed, blocked = dict(fixed), set(blocked)
    limit = n if max_depth is None else max_depth
    offered = {
        r: ({fixed[r]} if r in fixed else {c for c in range(n) if (r, c) not in blocked})
        for r in range(n)
    }
    nodes = []

    if propagation == "none":

        def safe(placed, row):
            return {
                c for c in offered[row] if all(not attacks((row, c), q) for q in placed.items())
            }

        def visit(node, placed):
            depth = len(placed)
            if depth == n or depth >= limit:
                return
            free = safe(placed, depth)
            for c in sorted(offered[depth] if include_rejected else free):
                child = len(nodes)
                if c not in free:
                    nodes.append((node, depth + 1, depth, c, REJECTED, None))
                    continue
                below = {**placed, depth: c}
                status = _status(
                    depth + 1, n, bool(depth + 1 == n or safe(below, depth + 1)), limit
                )
                nodes.append((node, depth + 1, depth, c, status, None))
                if status == BRANCH or (
                    status == FAILURE and include_rejected and depth + 1 < limit
                ):
                    visit(child, below)

        root_free = safe({}, 0)
        nodes.append((-1, 0, -1, -1, _status(0, n, bool(root_free), limit), None))
        if limit > 0 and (root_free or include_rejected):
            visit(0, {})
        return nodes

    arc = propagation == "arc"
    root = propagate(offered, fixed, arc)
    wiped = not all(root.values())
    nodes.append((-1, 0, -1, -1, FAILURE if wiped else _status(0, n, True, limit),
                  None if wiped else root))  # fmt: skip

    def visit(node, domains, unplaced, depth):
        row = min(unplaced) if order == "row" else min(unplaced, key=lambda r: (len(domains[r]), r))
        rest = unplaced - {row}
        for c in sorted(offered[row] if include_rejected else domains[row]):
            child = len(nodes)
            if c not in domains[row]:
                nodes.append((node, depth + 1, row, c, REJECTED, None))
                continue
            below = propagate(domains, {row: c}, arc)
            ok = all(below.values())
            status = FAILURE if not ok else _status(depth + 1, n, True, limit)
            nodes.append((node, depth + 1, row, c, status, below if ok else None))
            if status == BRANCH:
                visit(child, below, rest, depth + 1)

    if not wiped and limit > 0:
        visit(0, root, set(range(n)), 0)
    return nodes


def _status(depth, n, goes_on, limit):
    if depth == n:
        return SOLUTION
    if not goes_on:
        return FAILURE
    return CUT if depth >= limit else BRANCH


def assert_matches_reference(tree, **options):
    expected = reference_tree(tree.n, **options)
    assert tree.number_of_nodes() == len(expected)
    got = list(zip(tree.parent.tolist(), tree.depth.tolist(), tree.row.tolist(),
                   tree.column.tolist(), tree.status.tolist(), strict=True))  # fmt: skip
    assert got == [node[:5] for node in expected]
    if tree.domains is not None:
        for node, (*_, domains) in enumerate(expected):
            if (
                domains is not None
            ):  # a dead end's domains are those of the round that emptied a row
                masks = [sum(1 << c for c in domains[r]) for r in range(tree.n)]
                assert tree.domains[node].tolist() == masks, node


# --- the tests -------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", range(1, 8))
def test_every_kind_of_tree_is_the_reference_search_node_for_node(kind, n):
    options = KINDS[kind]
    assert_matches_reference(cpqueens.compact_tree(n, **options), **options)


INSTANCES = [
    {"fixed": {1: 2}, "blocked": [(0, 0), (3, 3)]},
    {"blocked": [(0, 1), (0, 4), (2, 2), (5, 0)]},
    {"fixed": {0: 1, 3: 0}},
    {"blocked": [(2, c) for c in range(6)]},  # a whole row blocked: the root is a dead end
    {"max_depth": 3},
    {"max_depth": 0},
]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("instance", range(len(INSTANCES)))
def test_instances_and_depth_limits_follow_the_reference(kind, instance):
    options = {**KINDS[kind], **INSTANCES[instance]}
    assert_matches_reference(cpqueens.compact_tree(6, **options), **options)


def graphs_equal(G, H):
    return (
        G.graph == H.graph
        and dict(G.nodes(data=True)) == dict(H.nodes(data=True))
        and list(G.edges) == list(H.edges)
    )


@pytest.mark.parametrize("kind", [*KINDS, "max-depth"])
@pytest.mark.parametrize("n", [1, 4, 6, 8])
def test_to_networkx_is_decision_tree_and_back(kind, n):
    options = KINDS.get(kind, {"max_depth": 4, "propagation": "arc"})
    G = cpqueens.decision_tree(n, **options)
    tree = cpqueens.compact_tree(n, **options)
    assert graphs_equal(tree.to_networkx(), G)
    assert CompactTree.from_networkx(G) == tree


def test_a_blocked_instance_goes_to_networkx_and_back():
    instance = cpqueens.random_blocked(9, 12, seed=3)
    for options in ({}, {"propagation": "arc", "order": "first-fail"}):
        G = cpqueens.decision_tree(instance, **options)
        tree = cpqueens.compact_tree(instance, **options)
        assert graphs_equal(tree.to_networkx(), G)
        assert CompactTree.from_networkx(G) == tree


@pytest.mark.slow
@pytest.mark.parametrize(
    "kind", ["plain", "forward", "arc", "forward-first-fail", "arc-first-fail"]
)
@pytest.mark.parametrize("n", [9, 10, 11])
def test_node_counts_equal_the_networkx_trees(kind, n):
    options = KINDS[kind]
    G = cpqueens.decision_tree(n, **options)
    tree = cpqueens.compact_tree(n, **options)
    assert tree.number_of_nodes() == G.number_of_nodes()
    assert int((tree.status == FAILURE).sum()) == sum(d for _, d in G.nodes(data="dead_end"))


@pytest.mark.slow
@pytest.mark.parametrize(
    "kind", ["plain", "forward", "arc", "forward-first-fail", "arc-first-fail"]
)
def test_node_counts_at_twelve_equal_the_networkx_trees(kind):
    options = KINDS[kind]
    G = cpqueens.decision_tree(12, **options)
    assert cpqueens.compact_tree(12, **options).number_of_nodes() == G.number_of_nodes()


def level_by_level(n):
    """Nodes, dead ends and solutions at each depth of the plain tree, breadth first over
    arrays of taken columns and diagonals (one boolean a column, not masks)."""
    cols = np.zeros((1, n), bool)
    up = np.zeros((1, 2 * n), bool)
    down = np.zeros((1, 2 * n), bool)
    nodes, dead = [1], [0]
    for row in range(n):
        children = []
        for c in range(n):
            ok = ~cols[:, c] & ~up[:, row + c] & ~down[:, row - c + n]
            if ok.any():
                a, b, d = cols[ok].copy(), up[ok].copy(), down[ok].copy()
                a[:, c], b[:, row + c], d[:, row - c + n] = True, True, True
                children.append((a, b, d))
        has_child = np.zeros(len(cols), bool)
        for c in range(n):
            has_child |= ~cols[:, c] & ~up[:, row + c] & ~down[:, row - c + n]
        dead[-1] += 0 if row == 0 else int((~has_child).sum())
        cols = np.concatenate([a for a, _, _ in children]) if children else cols[:0]
        up = np.concatenate([b for _, b, _ in children]) if children else up[:0]
        down = np.concatenate([d for _, _, d in children]) if children else down[:0]
        nodes.append(len(cols))
        dead.append(0)
    return nodes, dead


@pytest.mark.slow
def test_thirteen_counts_as_an_independent_search_does():
    tree = cpqueens.compact_tree(13)
    shape = tree_shape(tree)
    nodes, dead = level_by_level(13)
    assert tree.number_of_nodes() == 4_674_890 == sum(nodes)
    assert list(shape.nodes_per_depth) == nodes
    assert list(shape.failures_per_depth) == dead
    assert shape.solutions == 73_712


def test_subtree_figures_add_up():
    tree = cpqueens.compact_tree(9, propagation="forward")
    sizes, solutions = tree.subtree_sizes(), tree.solutions_below()
    assert sizes[0] == tree.number_of_nodes() and solutions[0] == 352
    for node in (0, 1, 5, 40):
        kids = tree.children(node)
        assert sizes[node] == 1 + sizes[kids].sum()
        assert (tree.parent[node + 1 : node + sizes[node]] >= node).all()
        assert solutions[node] == int((tree.status[node : node + sizes[node]] == SOLUTION).sum())


def test_the_price_is_in_bytes_and_refusals_come_before_building():
    with pytest.raises(TreeTooLargeError, match="max_bytes"):
        cpqueens.compact_tree(12, max_bytes=1_000_000)
    with pytest.raises(TreeTooLargeError, match=r"n=30 would have at least"):
        cpqueens.compact_tree(30)
    tree = cpqueens.compact_tree(12, max_bytes=12_000_000)  # 856,189 nodes, 11 bytes each
    assert tree.nbytes == 11 * 856_189 <= 12_000_000
    with pytest.raises(InvalidInputError, match="max_bytes"):
        cpqueens.compact_tree(8, max_bytes=0)
    with pytest.raises(InvalidInputError, match="unknown propagation"):
        cpqueens.compact_tree(8, propagation="full")


def test_past_64_rows_the_tree_comes_through_networkx_under_its_guards():
    tree = cpqueens.compact_tree(70, max_depth=1)
    assert tree.number_of_nodes() == 71 and (tree.status == CUT).sum() == 70
    with pytest.raises(TreeTooLargeError):
        cpqueens.compact_tree(100, max_depth=3, propagation="arc", order="first-fail")


def test_a_generic_tree_has_no_networkx_boards():
    tree = CompactTree(
        parent=np.array([-1, 0], np.int32), depth=np.array([0, 1], np.uint16),
        row=np.array([-1, -1], np.int16), column=np.array([-1, -1], np.int16),
        status=np.array([BRANCH, FAILURE], np.uint8), labels=["", "x = 1"],
    )  # fmt: skip
    assert tree.label(1) == "x = 1" and tree.placement(1) == ()
    with pytest.raises(InvalidInputError, match="generic tree"):
        tree.to_networkx()
