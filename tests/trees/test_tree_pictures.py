"""Pictures of search trees: the icicle's bars and the pixel tree's columns against
counts made node by node, the failed subtrees hidden, the files, and text from
elsewhere shown as text."""

import itertools
import xml.etree.ElementTree as ET

import networkx as nx
import numpy as np
import pytest
from reference import brute_force

import cpqueens
from cpqueens.board import attacking_pairs
from cpqueens.trees.compact.tree import BRANCH, CUT, FAILURE, SOLUTION, CompactTree
from cpqueens.trees.pictures import drawing
from cpqueens.trees.pictures.arrays import (
    EDGE_PIXELS,
    SIDE_CLASSES,
    STATUS_CLASSES,
    icicle_spans,
    icicle_weights,
    node_classes,
    picture_image,
    pixel_counts,
    pixel_step,
)
from cpqueens.trees.pictures.layout import collapse_failed

MAGIC = {".png": b"\x89PNG\r\n\x1a\n", ".pdf": b"%PDF-"}

TREES = {
    "plain 6": lambda: cpqueens.compact_tree(6),
    "rejected 5": lambda: cpqueens.compact_tree(5, include_rejected=True),
    "arc first-fail 7": lambda: cpqueens.compact_tree(7, propagation="arc", order="first-fail"),
    "cut 7 at 3": lambda: cpqueens.compact_tree(7, max_depth=3),
    "forward 6 fixed": lambda: cpqueens.compact_tree(6, {0: 1}, propagation="forward"),
    "root only": lambda: cpqueens.compact_tree(5, {0: 0, 2: 2}, propagation="arc"),
}


def _walk(tree):
    """Each node's children and leaves below, by a plain walk over the parents."""
    children = [[] for _ in range(len(tree))]
    for node in range(1, len(tree)):
        children[int(tree.parent[node])].append(node)
    leaves = [0] * len(tree)
    for node in reversed(range(len(tree))):
        leaves[node] = sum(leaves[c] for c in children[node]) if children[node] else 1
    return children, leaves


@pytest.mark.parametrize("name", TREES)
def test_icicle_bars_nest_and_each_depth_adds_up(name):
    tree = TREES[name]()
    left, width = icicle_spans(tree)
    children, leaves = _walk(tree)
    assert width.tolist() == leaves
    for node, kids in enumerate(children):
        if kids:  # the children fill their parent's bar, left to right, without a gap
            assert left[kids[0]] == left[node]
            assert [left[k] for k in kids[1:]] == [left[k] + width[k] for k in kids[:-1]]
            assert sum(width[k] for k in kids) == width[node]
    depth = tree.depth.astype(int)
    is_leaf = [not kids for kids in children]
    for d in range(depth.max() + 1):
        # The bars of a depth cover the leaves at that depth or deeper, once each.
        assert width[depth == d].sum() == sum(
            1 for i, leaf in enumerate(is_leaf) if leaf and depth[i] >= d
        )


@pytest.mark.parametrize("name", TREES)
@pytest.mark.parametrize("pixels", [1, 7, 64, 1600])
def test_icicle_pixels_hold_each_class_share(name, pixels):
    tree = TREES[name]()
    classes, names = node_classes(tree)
    weights, edges = icicle_weights(tree, pixels, classes, len(names))
    left, width = icicle_spans(tree)
    leaves = width[0]
    assert weights.shape == (tree.depth.max() + 1, pixels, len(names))
    assert weights.min() >= -1e-9 and weights.sum(axis=2).max() <= 1 + 1e-9
    for d in range(weights.shape[0]):
        for k in range(len(names)):
            at = (tree.depth == d) & (classes == k)
            assert weights[d, :, k].sum() * leaves / pixels == pytest.approx(width[at].sum())
    # A bar's first pixel is marked when the bar is wide enough to show it.
    wide = width * pixels / leaves >= EDGE_PIXELS
    assert edges.sum() == len(
        {(tree.depth[i], left[i] * pixels // leaves) for i in np.flatnonzero(wide)}
    )


def test_one_pixel_a_leaf_is_the_tree_itself():
    tree = cpqueens.compact_tree(6)
    classes, names = node_classes(tree)
    left, width = icicle_spans(tree)
    weights, _ = icicle_weights(tree, int(width[0]), classes, len(names))
    expected = np.zeros_like(weights)
    for node in range(len(tree)):
        expected[tree.depth[node], left[node] : left[node] + width[node], classes[node]] = 1
    assert np.allclose(weights, expected)


@pytest.mark.parametrize("name", TREES)
@pytest.mark.parametrize("step", [1, 2, 3, 10, 10_000])
def test_pixel_columns_count_their_nodes(name, step):
    tree = TREES[name]()
    classes, names = node_classes(tree)
    counts = pixel_counts(tree, step, classes, len(names))
    expected = np.zeros((tree.depth.max() + 1, -(-len(tree) // step), len(names)), dtype=int)
    for node in range(len(tree)):
        expected[tree.depth[node], node // step, classes[node]] += 1
    assert np.array_equal(counts, expected)


def test_pixel_step_fits_the_width():
    for nodes, width in [(1, 1600), (1600, 1600), (1601, 1600), (10**7, 1600), (17, 3)]:
        step = pixel_step(nodes, width)
        assert -(-nodes // step) <= width and (step == 1 or -(-nodes // (step - 1)) > width)


def test_classes_by_status_and_barren_branches():
    tree = cpqueens.compact_tree(6)
    classes, names = node_classes(tree)
    assert names == STATUS_CLASSES
    below = tree.solutions_below()
    branch = tree.status == BRANCH
    assert np.array_equal(classes == names.index("branch"), branch & (below > 0))
    assert np.array_equal(
        classes == names.index("branch, no solution below"), branch & (below == 0)
    )
    assert np.array_equal(classes == SOLUTION, tree.status == SOLUTION)
    assert np.array_equal(classes == FAILURE, tree.status == FAILURE)


def test_highlight_colours_by_side_and_is_checked():
    tree = cpqueens.compact_tree(6)
    side = (np.arange(len(tree)) % 3).astype(np.uint8)
    classes, names = node_classes(tree, side)
    assert names == SIDE_CLASSES
    assert np.array_equal(classes, side)
    picture = picture_image(tree, "pixel", len(tree), side, band=4)
    # The legend's counts are the nodes below the root, by side.
    assert picture.counts.tolist() == np.bincount(side[1:], minlength=3).tolist()
    orange = np.array([0xE6, 0x55, 0x0D])
    # One node a column: its cell is stacked to its share, in the palette's own colour.
    lone = next(i for i in range(len(tree)) if side[i] == 1)
    cell = picture.image[tree.depth[lone] * 4 : (tree.depth[lone] + 1) * 4, lone]
    assert (cell == orange).all(axis=1).any()
    assert all((pixel == orange).all() or (pixel == 255).all() for pixel in cell)
    for bad in (side[:-1], side + 3):
        with pytest.raises(cpqueens.InvalidInputError, match="highlight holds one code a node"):
            node_classes(tree, bad)


def test_the_ticks_mark_exactly_the_columns_holding_a_solution():
    tree = cpqueens.compact_tree(8)
    _, leaves = _walk(tree)
    solutions = np.flatnonzero(tree.status == SOLUTION)
    for width in (20, 64, 1600):
        picture = picture_image(tree, "pixel", width)
        assert set(np.flatnonzero(picture.ticks)) == {int(i) // picture.step for i in solutions}
        icicle = picture_image(tree, "icicle", width)
        # A leaf's place: the leaves before it in search order.
        before = np.cumsum([0] + [1 if leaves[i] == 1 and not _has_child(tree, i) else 0
                                  for i in range(len(tree))])  # fmt: skip
        expected = {int(before[i]) * width // leaves[0] for i in solutions}
        assert set(np.flatnonzero(icicle.ticks)) == expected


def _has_child(tree, node):
    return node + 1 < len(tree) and tree.parent[node + 1] == node


def test_compact_and_networkx_trees_draw_the_same_image():
    G = cpqueens.decision_tree(7, propagation="forward", include_rejected=True)
    for style in ("icicle", "pixel"):
        a = picture_image(CompactTree.from_networkx(G), style, 300, band=5)
        b = picture_image(
            cpqueens.compact_tree(7, propagation="forward", include_rejected=True), style, 300,
            band=5,
        )  # fmt: skip
        assert np.array_equal(a.image, b.image) and np.array_equal(a.counts, b.counts)


# Files. ----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
@pytest.mark.parametrize("style", ["traditional", "icicle", "pixel"])
def test_each_style_writes_each_format(tmp_path, style, suffix):
    target = tmp_path / f"tree{suffix}"
    tree = cpqueens.compact_tree(6) if style != "traditional" else cpqueens.decision_tree(6)
    assert cpqueens.draw_tree(tree, target, style=style) == target
    data = target.read_bytes()
    if suffix == ".svg":
        assert ET.fromstring(data).tag.endswith("svg")
    else:
        assert data.startswith(MAGIC[suffix])
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


def test_the_png_is_as_wide_as_asked(tmp_path):
    from matplotlib.image import imread

    for width in (300, 1600):
        png = cpqueens.draw_tree(
            cpqueens.compact_tree(7), tmp_path / "t.png", style="pixel", width=width
        )
        image = imread(png)
        # The image's columns, the margins for the depths and a little air.
        assert width < image.shape[1] < width + 150


def test_traditional_draws_a_compact_tree_as_its_networkx_tree(tmp_path, monkeypatch):
    drawn = []
    real = drawing._figure
    monkeypatch.setattr(drawing, "_figure", lambda *a, **k: drawn.append(a) or real(*a, **k))
    cpqueens.draw_tree(cpqueens.compact_tree(6, propagation="arc"), tmp_path / "a.svg")
    G = cpqueens.decision_tree(6, propagation="arc")
    assert dict(drawn[0][0].nodes(data=True)) == dict(G.nodes(data=True))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (
            {"style": "sunburst"},
            "unknown style 'sunburst'; the styles are: 'traditional', 'icicle', 'pixel'",
        ),
        ({"style": "icicle", "hide_failed": True}, "apply to style='traditional'"),
        ({"style": "pixel", "solutions_only": True}, "apply to style='traditional'"),
        ({"highlight": np.zeros(153, np.uint8)}, "applies to the styles 'icicle' and 'pixel'"),
        ({"width": 300}, "applies to the styles 'icicle' and 'pixel'"),
        ({"style": "icicle", "width": 3}, "width is a number of pixels from 16"),
        ({"hide_failed": True, "solutions_only": True}, "not both"),
    ],
)
def test_options_of_another_style_are_refused(tmp_path, kwargs, match):
    with pytest.raises(cpqueens.InvalidInputError, match=match):
        cpqueens.draw_tree(cpqueens.compact_tree(6), tmp_path / "t.png", **kwargs)
    assert list(tmp_path.iterdir()) == []


# Failed subtrees hidden. ------------------------------------------------------------


def _hidden_by_hand(n):
    """Nodes drawn with failed subtrees hidden, from the solutions alone: the prefixes of
    the solutions (root included), and each safe next square of one that is no prefix."""
    prefixes = {s[:k] for s in brute_force(n) for k in range(n + 1)}
    drawn = set(prefixes)
    for prefix in prefixes:
        if len(prefix) < n:
            for column in range(n):
                board = (*prefix, column)
                if not attacking_pairs(board):
                    drawn.add(board)
    return len(drawn)


@pytest.mark.parametrize(("n", "drawn", "triangles"), [(4, 11, 2), (5, 50, 4), (6, 43, 16)])
def test_hide_failed_draws_the_subtrees_with_solutions(tmp_path, monkeypatch, n, drawn, triangles):
    assert _hidden_by_hand(n) == drawn
    G = cpqueens.decision_tree(n)
    shown, collapsed = collapse_failed(G)
    assert shown.number_of_nodes() == drawn and len(collapsed) == triangles
    for node, size in collapsed.items():
        below = nx.descendants(G, node)
        assert size == 1 + len(below) > 1
        assert not any(G.nodes[v]["solution"] for v in below)
    # draw_tree draws exactly those, whether given the networkx or the compact tree.
    calls = []
    monkeypatch.setattr(drawing, "_figure", lambda *a: _fake(calls, a))
    for tree in (G, cpqueens.compact_tree(n)):
        cpqueens.draw_tree(tree, tmp_path / "t.png", hide_failed=True)
    assert [(c[1].number_of_nodes(), c[4]) for c in calls] == [(drawn, collapsed)] * 2


def _fake(calls, args):
    from matplotlib.figure import Figure

    calls.append(args)
    return Figure()


@pytest.mark.slow
def test_hide_failed_makes_n8_to_n10_drawable(tmp_path):
    import time

    with pytest.raises(cpqueens.InvalidInputError, match="hide_failed=True"):
        cpqueens.draw_tree(cpqueens.decision_tree(9), tmp_path / "t.png")
    for n in (8, 9, 10):
        start = time.perf_counter()
        target = cpqueens.draw_tree(
            cpqueens.compact_tree(n), tmp_path / f"t{n}.png", hide_failed=True
        )
        assert time.perf_counter() - start < 15 and target.read_bytes().startswith(MAGIC[".png"])
    # Counted before any conversion: n=11 shows 31,338 nodes even with them hidden.
    with pytest.raises(cpqueens.InvalidInputError, match="31,338 nodes are too many to draw"):
        cpqueens.draw_tree(cpqueens.compact_tree(11), tmp_path / "t.png", hide_failed=True)


def test_hidden_subtrees_are_counted_in_the_title(tmp_path):
    G = cpqueens.decision_tree(6)
    shown, collapsed = collapse_failed(G)
    figure = drawing._figure(G, shown, False, None, collapsed)
    title = figure.axes[0].get_title(loc="left").replace("\n", " ")
    assert f"{len(collapsed)} triangles for {sum(collapsed.values())} nodes" in title


# Text from elsewhere. ---------------------------------------------------------------

#: Two dollar signs: read as mathematics, the text between them would be typeset.
HOSTILE = "<img src=x onerror=alert(1)> costs $5 & $x^2"


def _texts(svg):
    root = ET.parse(svg).getroot()
    assert not [e for e in root.iter() if e.tag.rsplit("}", 1)[-1] in ("img", "script")]
    return " ".join("".join(e.itertext()) for e in root.iter() if e.tag.endswith("text"))


@pytest.mark.parametrize("style", ["icicle", "pixel"])
def test_titles_are_shown_as_written_and_escaped(tmp_path, style):
    svg = cpqueens.draw_tree(
        cpqueens.compact_tree(6), tmp_path / "t.svg", style=style, title=HOSTILE
    )
    assert HOSTILE in _texts(svg)
    assert "&lt;img src=x" in svg.read_text()


def test_a_generic_trees_note_is_escaped(tmp_path):
    tree = cpqueens.compact_tree(5)
    generic = CompactTree(parent=tree.parent, depth=tree.depth, row=tree.row * 0 - 1,
                          column=tree.column * 0 - 1, status=tree.status, n=None,
                          labels=[HOSTILE] * len(tree), note=HOSTILE)  # fmt: skip
    svg = cpqueens.draw_tree(generic, tmp_path / "g.svg", style="icicle")
    assert HOSTILE in _texts(svg) and "search tree: 53 nodes" in _texts(svg)


def test_traditional_titles_are_not_read_as_mathematics(tmp_path):
    G = cpqueens.decision_tree(5)
    figure = drawing._figure(G, G, False, HOSTILE)
    ax = figure.axes[0]
    assert ax.get_title(loc="left") == HOSTILE
    assert not [t for t in [*ax.texts, ax._left_title] if t.get_parse_math()]
    figure.canvas.draw()
    svg = cpqueens.draw_tree(G, tmp_path / "t.svg", title=HOSTILE)
    _texts(svg)


def test_draw_merged_colours_a_comparison(tmp_path):
    class Comparison:
        merged = cpqueens.compact_tree(6)
        side = np.where(np.arange(len(merged)) % 2, 1, 2).astype(np.uint8)

    target = cpqueens.trees.pictures.drawing.draw_merged(Comparison(), tmp_path / "m.svg")
    assert "only in a (" in _texts(target) and "only in b (" in _texts(target)
    with pytest.raises(cpqueens.InvalidTypeError, match="draws the result of compare_trees"):
        drawing.draw_merged(object(), tmp_path / "x.png")
    with pytest.raises(cpqueens.InvalidInputError, match="style='icicle' or 'pixel'"):
        drawing.draw_merged(Comparison(), tmp_path / "x.png", style="traditional")


def test_compare_trees_result_draws(tmp_path):
    compare = pytest.importorskip("cpqueens.trees.compare")
    result = compare.compare_trees(cpqueens.compact_tree(7, propagation="forward"),
                                   cpqueens.compact_tree(7, propagation="arc"))  # fmt: skip
    classes, _ = node_classes(result.merged, result.side)
    assert (classes == 1).sum() == result.only_a
    png = drawing.draw_merged(result, tmp_path / "m.png", style="pixel")
    assert png.read_bytes().startswith(MAGIC[".png"])


def test_every_depth_a_band_and_none_lost():
    # A sanity check on the whole image: a deep, narrow tree keeps every depth.
    tree = cpqueens.compact_tree(9, {0: 0, 1: 2, 2: 4})
    picture = picture_image(tree, "icicle", 50, band=3)
    assert picture.image.shape == (3 * (tree.depth.max() + 1), 50, 3)
    assert picture.counts.sum() == len(tree) - 1 and picture.step == 1
    assert list(itertools.islice(picture.names, 2)) == ["solution", "dead end"]


def test_a_branch_above_a_cut_is_not_called_barren():
    tree = cpqueens.compact_tree(8, max_depth=5)
    classes, names = node_classes(tree)
    children, _ = _walk(tree)

    def below(node):
        yield node
        for child in children[node]:
            yield from below(child)

    for node in np.flatnonzero(tree.status == BRANCH):
        statuses = {int(tree.status[v]) for v in below(node)}
        barren = SOLUTION not in statuses and CUT not in statuses
        assert (classes[node] == names.index("branch, no solution below")) == barren
    assert (classes == names.index("branch, no solution below")).any()


def test_a_generic_tree_is_drawn_as_an_image_only(tmp_path):
    tree = cpqueens.compact_tree(4)
    generic = CompactTree(parent=tree.parent, depth=tree.depth, row=tree.row * 0 - 1,
                          column=tree.column * 0 - 1, status=tree.status, n=None)  # fmt: skip
    with pytest.raises(cpqueens.InvalidInputError, match="style='icicle' or style='pixel'"):
        cpqueens.draw_tree(generic, tmp_path / "t.png")
    assert cpqueens.draw_tree(generic, tmp_path / "t.png", style="pixel").exists()


@pytest.mark.parametrize("style", ["icicle", "pixel"])
def test_a_picture_prices_itself_and_refuses_past_max_bytes(tmp_path, style):
    import tracemalloc

    tree = cpqueens.compact_tree(12)
    target = tmp_path / "t.png"
    with pytest.raises(cpqueens.TreeTooLargeError, match="pass max_bytes=") as refused:
        cpqueens.draw_tree(tree, target, style=style, max_bytes=50_000_000)
    assert list(tmp_path.iterdir()) == []  # refused before anything was drawn
    price = refused.value.memory
    assert "856,188 nodes below the root" in str(refused.value)
    tracemalloc.start()
    try:
        cpqueens.draw_tree(tree, target, style=style, max_bytes=int(price) + 1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert target.exists() and price / 2 <= peak <= price
