"""Blocked squares in the decision trees and the ``propagate`` backend.

Everything is checked against references written here from the rules alone (sets
of columns, no bit masks, nothing from cpqueens' searches): every permutation for
the solutions, and a set-based replay of each search, node by node, for the trees.
"""

import json
import random
import re

import pytest
from reference import brute_force
from search_reference import arc_rounds, attacked, lowest_empty, removed

import cpqueens
from cpqueens.trees.explicit.bounds import size_bounds
from cpqueens.trees.explicit.nodes import blocked_rows
from cpqueens.trees.explicit.size import estimate_tree_size
from cpqueens.trees.explicit.summary import tree_summary
from cpqueens.trees.pictures.drawing import _title

COMBINATIONS = [
    ("none", "row"),
    ("forward", "row"),
    ("forward", "first-fail"),
    ("arc", "row"),
    ("arc", "first-fail"),
]
COMBINATION_IDS = [f"{p}-{o}" for p, o in COMBINATIONS]
FORMATS = (".graphml", ".gexf", ".json", ".dot")


# The references.


def offered(n, fixed, blocked):
    """The squares each row offers: its fixed one, or every one not blocked."""
    return {
        row: {fixed[row]} if row in fixed else {c for c in range(n) if (row, c) not in blocked}
        for row in range(n)
    }


def node(row, column, depth, *, solution=False, dead_end=False, rejected=False, **more):
    return {
        "row": row,
        "column": column,
        "depth": depth,
        "solution": solution,
        "dead_end": dead_end,
        "rejected": rejected,
        **more,
    }


def plain_reference(n, fixed, blocked, include_rejected=False):
    """The nodes of blind backtracking below the root, in search order."""
    start = offered(n, fixed, blocked)

    def safe(board, row):
        return [
            c
            for c in sorted(start[row])
            if not any(c in attacked(r, q, row) for r, q in board.items())
        ]

    def walk(board):
        row = len(board)
        good = safe(board, row)
        for column in sorted(start[row]) if include_rejected else good:
            if column not in good:
                yield node(row, column, row + 1, rejected=True)
                continue
            below = {**board, row: column}
            last = row + 1 == n
            dead = not last and not safe(below, row + 1)
            yield node(row, column, row + 1, solution=last, dead_end=dead)
            if not last and (include_rejected or not dead):
                yield from walk(below)

    return list(walk({}))


def propagated_reference(n, fixed, blocked, propagation, order, include_rejected=False):
    """The root and the nodes below it of the search with propagation, in search order."""
    start = offered(n, fixed, blocked)
    domains = {row: set(columns) for row, columns in start.items()}
    for row, column in fixed.items():
        for other in range(n):
            if other != row:
                domains[other] -= attacked(row, column, other)
    wiped = lowest_empty(domains, range(n))
    if wiped < 0 and propagation == "arc":
        wiped = arc_rounds(domains, list(range(n)))
    root = node(-1, -1, 0, dead_end=wiped >= 0, wiped_out=wiped)
    root["pruned"] = removed(start, domains, range(n))

    def walk(domains, unplaced, depth):
        key = (lambda r: (len(domains[r]), r)) if order == "first-fail" else (lambda r: r)
        row = min(unplaced, key=key)
        rest = [r for r in unplaced if r != row]
        for column in sorted(start[row] if include_rejected else domains[row]):
            if column not in domains[row]:
                yield node(row, column, depth + 1, rejected=True, wiped_out=-1, pruned=set())
                continue
            new = {r: set(columns) for r, columns in domains.items()}
            new[row] = {column}
            for other in rest:
                new[other] -= attacked(row, column, other)
            wiped = lowest_empty(new, rest)
            if wiped < 0 and propagation == "arc" and rest:
                wiped = arc_rounds(new, rest)
            yield node(
                row,
                column,
                depth + 1,
                solution=not rest,
                dead_end=wiped >= 0,
                wiped_out=wiped,
                pruned=removed(domains, new, rest),
            )
            if rest and wiped < 0:
                yield from walk(new, rest, depth + 1)

    return root, [] if wiped >= 0 else list(walk(domains, list(range(n)), 0))


def random_instances(count, seed, largest=8):
    """Small boards with 0..n*n/3 blocked squares and 0..2 fixed queens off them."""
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        n = rng.randint(1, largest)
        squares = [(r, c) for r in range(n) for c in range(n)]
        blocked = set(rng.sample(squares, rng.randint(0, n * n // 3)))
        fixed = {}
        free = [s for s in squares if s not in blocked]
        for row, column in rng.sample(free, min(len(free), rng.randint(0, 2))):
            fixed.setdefault(row, column)
        cases.append((n, fixed, frozenset(blocked)))
    return cases


def case_id(case):
    n, fixed, blocked = case
    return f"n{n}-f{len(fixed)}-b{len(blocked)}"


CASES = random_instances(30, seed=2017)
# Chosen by hand: a row blocked whole, a row left one square, queens on a diagonal.
CASES += [
    (6, {}, frozenset((2, c) for c in range(6))),
    (7, {0: 3}, frozenset((4, c) for c in range(7) if c != 5)),
    (5, {0: 0, 2: 2}, frozenset({(1, 4), (3, 1)})),
    (8, {}, frozenset((r, c) for r in range(8) for c in range(8) if (r + c) % 5 == 0)),
    (1, {}, frozenset({(0, 0)})),
]


def placed(G):
    """The nodes below the root, in search order (node ids number the search)."""
    return [G.nodes[v] for v in sorted(G) if v]


def trimmed(data, keys):
    return {key: (set(data[key]) if key == "pruned" else data[key]) for key in keys}


def test_the_random_instances_cover_what_they_should():
    assert any(not blocked for _, _, blocked in CASES)
    assert any(len(blocked) >= n * n // 4 for n, _, blocked in CASES if n >= 5)
    assert {len(fixed) for _, fixed, _ in CASES} >= {0, 1, 2}
    assert (
        all(len(blocked) <= n * n // 3 or n <= 1 for n, _, blocked in CASES[:30])
        and max(n for n, _, _ in CASES) == 8
    )


# Solutions and nodes.


@pytest.mark.slow
@pytest.mark.parametrize(("propagation", "order"), COMBINATIONS, ids=COMBINATION_IDS)
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_tree_and_backend_solutions_are_the_brute_forces(case, propagation, order):
    n, fixed, blocked = case
    expected = brute_force(n, fixed, blocked)
    G = cpqueens.decision_tree(n, fixed, blocked=blocked, propagation=propagation, order=order)
    assert cpqueens.tree_solutions(G) == expected
    assert G.graph["blocked"] == tuple(sorted(blocked))
    result = cpqueens.solve(
        n, "propagate", fixed=fixed, blocked=blocked, propagation=propagation, order=order
    )
    assert set(result.solutions) == expected and len(result.solutions) == len(expected)
    assert result.count == len(expected)
    # The backend walks the very tree: the same nodes.
    queens = [d for d in placed(G) if not d["rejected"]]
    assert result.stats["nodes"] == len(queens)
    assert result.stats["dead_ends"] == sum(d["dead_end"] for d in queens)
    if propagation != "none":
        pruned = len(G.nodes[0]["pruned"]) + sum(len(d["pruned"]) for d in queens)
        assert result.stats["pruned"] == pruned


@pytest.mark.parametrize("include_rejected", [False, True], ids=["placed", "rejected"])
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_plain_tree_is_the_independent_walk_node_by_node(case, include_rejected):
    n, fixed, blocked = case
    G = cpqueens.decision_tree(n, fixed, blocked=blocked, include_rejected=include_rejected)
    expected = plain_reference(n, fixed, blocked, include_rejected)
    keys = ("row", "column", "depth", "solution", "dead_end", "rejected")
    assert [trimmed(d, keys) for d in placed(G)] == expected
    assert G.number_of_nodes() - 1 == len(expected)
    # No blocked square is ever tried: not a node, not a rejected leaf.
    assert not any((d["row"], d["column"]) in blocked for d in placed(G))


@pytest.mark.slow
@pytest.mark.parametrize("include_rejected", [False, True], ids=["placed", "rejected"])
@pytest.mark.parametrize(("propagation", "order"), COMBINATIONS[1:], ids=COMBINATION_IDS[1:])
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_propagated_tree_is_the_independent_search_node_by_node(
    case, propagation, order, include_rejected
):
    n, fixed, blocked = case
    G = cpqueens.decision_tree(
        n,
        fixed,
        blocked=blocked,
        propagation=propagation,
        order=order,
        include_rejected=include_rejected,
    )
    root, expected = propagated_reference(n, fixed, blocked, propagation, order, include_rejected)
    keys = ("row", "column", "depth", "solution", "dead_end", "rejected", "wiped_out", "pruned")
    assert trimmed(G.nodes[0], keys) == root
    assert [trimmed(d, keys) for d in placed(G)] == expected
    # Blocked squares are no options: never tried, never pruned.
    assert not any((d["row"], d["column"]) in blocked for d in placed(G))
    assert not any(set(d["pruned"]) & blocked for _, d in G.nodes(data=True))


def test_a_row_blocked_whole_wipes_out_the_root_with_propagation():
    blocked = [(3, c) for c in range(6)] + [(1, c) for c in range(6)]
    for propagation in ("forward", "arc"):
        G = cpqueens.decision_tree(6, blocked=blocked, propagation=propagation)
        assert G.number_of_nodes() == 1
        # The lowest row wiped out is the one named.
        assert (G.nodes[0]["wiped_out"], G.nodes[0]["dead_end"]) == (1, True)
        assert tree_summary(G).wiped_out == 1
        result = cpqueens.solve(6, "propagate", blocked=blocked, propagation=propagation)
        assert (result.count, result.stats["nodes"], result.stats["pruned"]) == (0, 0, 0)
    # Blind search finds out at the row itself.
    G = cpqueens.decision_tree(6, blocked=blocked)
    assert {d["depth"] for d in placed(G)} == {1}
    assert all(d["dead_end"] for d in placed(G))
    assert cpqueens.solve(6, "propagate", blocked=blocked, propagation="none").count == 0


def test_rejected_leaves_are_the_offered_squares_only():
    blocked = {(0, 0), (0, 5), (2, 1), (2, 2), (2, 3)}
    R = cpqueens.decision_tree(6, blocked=blocked, include_rejected=True)
    children = [R.nodes[c]["column"] for c in R.successors(0)]
    assert children == [1, 2, 3, 4]
    for v in R:
        below = [R.nodes[c] for c in R.successors(v)]
        if below and below[0]["row"] == 2:
            assert [c["column"] for c in below] == [0, 4, 5]


def test_summary_and_solutions_read_a_blocked_tree():
    G = cpqueens.decision_tree(6, blocked=[(0, 1), (0, 4)], include_rejected=True)
    summary = tree_summary(G)
    reference = plain_reference(6, {}, {(0, 1), (0, 4)}, include_rejected=True)
    assert summary.solutions == 2 == len(cpqueens.tree_solutions(G))
    assert summary.rejected == sum(d["rejected"] for d in reference)
    assert summary.queens_placed == sum(not d["rejected"] for d in reference)
    assert summary.dead_ends == sum(d["dead_end"] for d in reference)


def test_an_instance_stands_for_n_fixed_and_blocked():
    instance = cpqueens.Instance(7, fixed={0: 3}, blocked=[(1, 0), (4, 4)])
    G = cpqueens.decision_tree(instance, propagation="arc")
    H = cpqueens.decision_tree(7, {0: 3}, blocked=[(4, 4), (1, 0)], propagation="arc")
    assert placed(G) == placed(H) and G.graph == H.graph
    assert cpqueens.tree_solutions(G) == brute_force(7, {0: 3}, {(1, 0), (4, 4)})
    with pytest.raises(cpqueens.InvalidInputError, match="not both"):
        cpqueens.decision_tree(instance, blocked=[(2, 2)])


@pytest.mark.parametrize(
    ("blocked", "fixed", "error", "words"),
    [
        ([(0, 6)], None, cpqueens.InvalidInputError, "off the board"),
        ([(1, 1)], {1: 1}, cpqueens.InvalidInputError, "blocked square"),
        ("a1", None, cpqueens.InvalidTypeError, "iterable of (row, column) pairs"),
        ([(1, 2, 3)], None, cpqueens.InvalidTypeError, "pair"),
    ],
    ids=["off-board", "fixed-on-blocked", "string", "triple"],
)
def test_bad_blocked_squares_are_refused(blocked, fixed, error, words):
    with pytest.raises(error) as caught:
        cpqueens.decision_tree(6, fixed, blocked=blocked)
    assert words in str(caught.value)


# The size guard.


def per_row(n, fixed):
    return tuple(fixed.get(row) for row in range(n))


@pytest.mark.parametrize(("propagation", "order"), COMBINATIONS, ids=COMBINATION_IDS)
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_bounds_hold_and_the_estimate_is_exact_on_small_boards(case, propagation, order):
    n, fixed, blocked = case
    masks = blocked_rows(blocked, n)
    for include_rejected in (False, True):
        for depth_limit in sorted({n, n // 2, 1}):
            G = cpqueens.decision_tree(
                n,
                fixed,
                blocked=blocked,
                propagation=propagation,
                order=order,
                include_rejected=include_rejected,
                max_depth=depth_limit,
            )
            real = G.number_of_nodes()
            bounds = size_bounds(
                n,
                per_row(n, fixed),
                include_rejected=include_rejected,
                depth_limit=depth_limit,
                propagation=propagation,
                blocked=masks,
            )
            assert bounds.lower <= real <= bounds.upper, (include_rejected, depth_limit)
            size = estimate_tree_size(
                n,
                per_row(n, fixed),
                include_rejected=include_rejected,
                max_depth=depth_limit,
                propagation=propagation,
                order=order,
                blocked=masks,
                max_nodes=None,
            )
            assert size.exact and size.graph_nodes == real


def test_blocked_squares_bring_the_lower_bound_down():
    # Rows 0 to 2 keep one square each: 8 nodes at most below the root, where the
    # bound of the open board says 128.
    blocked = {(r, c) for r in range(3) for c in range(8) if c != 2 * r + 1}
    G = cpqueens.decision_tree(8, blocked=blocked)
    open_board = size_bounds(8, (None,) * 8, include_rejected=False, depth_limit=8)
    assert open_board.lower > G.number_of_nodes()
    masks = blocked_rows(blocked, 8)
    for propagation in ("none", "forward", "arc"):
        for include_rejected in (False, True):
            H = cpqueens.decision_tree(
                8,
                blocked=blocked,
                propagation=propagation,
                include_rejected=include_rejected,
                order="first-fail" if propagation != "none" else "row",
            )
            bounds = size_bounds(
                8,
                (None,) * 8,
                include_rejected=include_rejected,
                depth_limit=8,
                propagation=propagation,
                blocked=masks,
            )
            assert bounds.lower <= H.number_of_nodes() <= bounds.upper


@pytest.mark.parametrize("seed", range(40))
def test_bounds_hold_on_more_random_boards(seed):
    rng = random.Random(seed)
    n = rng.randint(4, 9)
    squares = [(r, c) for r in range(n) for c in range(n)]
    # From a few blocked squares to half the board, and rows nearly blocked whole.
    blocked = set(rng.sample(squares, rng.randint(0, n * n // 2)))
    if seed % 3 == 0:
        row = rng.randrange(n)
        blocked |= {(row, c) for c in rng.sample(range(n), n - 1)}
    propagation, order = COMBINATIONS[seed % len(COMBINATIONS)]
    include_rejected = bool(seed % 2)
    real = cpqueens.decision_tree(
        n,
        blocked=blocked,
        propagation=propagation,
        order=order,
        include_rejected=include_rejected,
    ).number_of_nodes()
    bounds = size_bounds(
        n,
        (None,) * n,
        include_rejected=include_rejected,
        depth_limit=n,
        propagation=propagation,
        blocked=blocked_rows(blocked, n),
    )
    assert bounds.lower <= real <= bounds.upper


def test_the_estimate_of_a_large_blocked_tree_is_near_its_size():
    rng = random.Random(5)
    blocked = {(r, c) for r in range(11) for c in range(11) if rng.random() < 0.2}
    G = cpqueens.decision_tree(11, blocked=blocked)
    size = estimate_tree_size(11, (None,) * 11, blocked=blocked_rows(blocked, 11))
    assert not size.exact
    assert abs(size.graph_nodes - G.number_of_nodes()) < 0.1 * G.number_of_nodes()


@pytest.mark.slow
def test_a_tree_too_large_open_fits_once_squares_are_blocked():
    with pytest.raises(cpqueens.TreeTooLargeError):
        cpqueens.decision_tree(13, max_nodes=200_000)
    # Row 0 keeps two squares, row 1 three: the tree shrinks under the limit.
    blocked = [(0, c) for c in range(2, 13)] + [(1, c) for c in range(13) if c not in (4, 8, 11)]
    G = cpqueens.decision_tree(13, blocked=blocked, max_nodes=200_000)
    assert 1 < G.number_of_nodes() <= 200_000
    assert G.nodes[1]["column"] == 0 and not any(
        (d["row"], d["column"]) in set(blocked) for d in placed(G)
    )


# Files.

BLOCKED_TREES = {
    "plain": lambda: cpqueens.decision_tree(6, blocked=[(0, 1), (0, 4), (3, 3)]),
    "plain-fixed-rejected-cut": lambda: cpqueens.decision_tree(
        7, {2: 3}, blocked=[(0, 0), (5, 6)], include_rejected=True, max_depth=5
    ),
    "arc-ff-rejected": lambda: cpqueens.decision_tree(
        6,
        blocked=[(1, 1), (2, 4), (4, 0)],
        propagation="arc",
        order="first-fail",
        include_rejected=True,
    ),
    "forward-wiped": lambda: cpqueens.decision_tree(
        5, blocked=[(2, c) for c in range(5)], propagation="forward"
    ),
}


@pytest.mark.parametrize("tree", sorted(BLOCKED_TREES))
@pytest.mark.parametrize("suffix", FORMATS)
def test_blocked_trees_round_trip(tmp_path, suffix, tree):
    G = BLOCKED_TREES[tree]()
    H = cpqueens.read_tree(cpqueens.export_tree(G, tmp_path / f"tree{suffix}"))
    assert H.graph == G.graph and H.graph["blocked"]
    assert type(H.graph["blocked"]) is tuple
    assert all(type(pair) is tuple for pair in H.graph["blocked"])
    assert dict(H.nodes(data=True)) == dict(G.nodes(data=True))
    assert list(H.edges) == list(G.edges)
    assert cpqueens.tree_solutions(H) == cpqueens.tree_solutions(G)


def _rewrite_blocked(path, suffix, new):
    """Put ``new`` (a list of pairs, or None to drop it) in place of the file's blocked squares."""
    if suffix == ".json":
        data = json.loads(path.read_text())
        if new is None:
            del data["graph"]["blocked"]
        else:
            data["graph"]["blocked"] = [list(pair) for pair in new]
        path.write_text(json.dumps(data))
        return
    text = path.read_text()
    pairs = "" if new is None else ",".join(f"{r}:{c}" for r, c in new)
    if suffix == ".graphml":
        key = re.search(r'<key id="([^"]+)" for="graph" attr.name="blocked"', text)[1]
        value = rf'<data key="{key}"\s*(?:/>|>[^<]*</data>)'
        if new is None:
            changed = re.sub(value, "", re.sub(rf'<key id="{key}"[^>]*/>', "", text))
        else:
            changed = re.sub(value, f'<data key="{key}">{pairs}</data>', text)
    elif suffix == ".gexf":
        old, replacement = (
            (r"blocked=[^;]*;", "") if new is None else (r"blocked=[^;]*", f"blocked={pairs}")
        )
        changed = re.sub(old, replacement, text)
    else:
        old, replacement = (
            (r', blocked="[^"]*"', "")
            if new is None
            else (r'blocked="[^"]*"', f'blocked="{pairs}"')
        )
        changed = re.sub(old, replacement, text)
    assert changed != text
    path.write_text(changed)


@pytest.mark.parametrize("suffix", FORMATS)
@pytest.mark.parametrize(
    "new",
    [[(0, 1)], [(0, 1), (0, 4), (3, 3), (1, 3)], [(0, 2), (0, 4), (3, 3)], None],
    ids=["one-dropped", "one-added", "one-moved", "attribute-gone"],
)
def test_a_file_whose_blocked_squares_were_altered_is_refused(tmp_path, suffix, new):
    G = BLOCKED_TREES["plain"]()
    path = cpqueens.export_tree(G, tmp_path / f"tree{suffix}")
    _rewrite_blocked(path, suffix, new)
    with pytest.raises(cpqueens.InvalidInputError) as caught:
        cpqueens.read_tree(path)
    assert str(path) in str(caught.value)


@pytest.mark.parametrize("suffix", FORMATS)
@pytest.mark.parametrize(
    ("new", "words"),
    [
        ([(0, 9)], "off the board"),
        ([(0, 1), (0, 1)], "names a square twice"),
        ([(2, 3)], "stands on a blocked square"),
    ],
    ids=["off-board", "twice", "under-a-fixed-queen"],
)
def test_impossible_blocked_squares_in_a_file_are_refused(tmp_path, suffix, new, words):
    G = cpqueens.decision_tree(7, {2: 3}, blocked=[(0, 0)])
    path = cpqueens.export_tree(G, tmp_path / f"tree{suffix}")
    _rewrite_blocked(path, suffix, new)
    with pytest.raises(cpqueens.InvalidInputError, match=re.escape(words)):
        cpqueens.read_tree(path)


@pytest.mark.parametrize("suffix", FORMATS)
def test_a_file_without_the_attribute_reads_as_no_square_blocked(tmp_path, suffix):
    # As written before trees had blocked squares.
    G = cpqueens.decision_tree(6, {1: 3}, propagation="forward")
    path = cpqueens.export_tree(G, tmp_path / f"tree{suffix}")
    assert "blocked" in path.read_text()
    _rewrite_blocked(path, suffix, None)
    assert "blocked" not in path.read_text()
    H = cpqueens.read_tree(path)
    assert H.graph["blocked"] == () and H.graph == G.graph
    assert dict(H.nodes(data=True)) == dict(G.nodes(data=True))


@pytest.mark.parametrize("suffix", FORMATS)
def test_blocked_squares_set_by_hand_are_written_once_each(tmp_path, suffix):
    G = BLOCKED_TREES["plain"]()
    G.graph["blocked"] = [[3, 3], (0, 4), [0, 1], (0, 4)]
    H = cpqueens.read_tree(cpqueens.export_tree(G, tmp_path / f"tree{suffix}"))
    assert H.graph["blocked"] == ((0, 1), (0, 4), (3, 3))
    assert dict(H.nodes(data=True)) == dict(G.nodes(data=True))


def test_export_refuses_a_graph_whose_blocked_squares_do_not_match_its_nodes(tmp_path):
    G = BLOCKED_TREES["plain"]()
    G.graph["blocked"] = ((0, 1),)
    with pytest.raises(cpqueens.InvalidInputError, match="export_tree saves whole trees"):
        cpqueens.export_tree(G, tmp_path / "t.json")
    assert list(tmp_path.iterdir()) == []


def test_the_title_of_a_drawing_counts_the_blocked_squares():
    G = cpqueens.decision_tree(5, blocked=[(0, 0), (1, 1)])
    assert _title(G, G, False).endswith(", 2 blocked squares")
    assert "blocked" not in _title(cpqueens.decision_tree(5), G, False)
