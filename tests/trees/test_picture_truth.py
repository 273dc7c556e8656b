"""Pictures read back as a reader sees them, against figures counted from the tree.

Each test reads the produced picture (the PNG's pixels, the SVG's elements, the
explorer's canvas in headless Chromium) and compares its colours, shares and counts
with figures counted here from the tree's parent and status arrays by a plain walk,
never with the drawing code's own numbers: the icicle's band for depth ``d`` shows
each class in the share of the leaves that lie below that class's nodes at ``d``;
the pixel tree's areas are proportional to the nodes; the legends and titles print
the node counts below the root; the traditional drawing keeps its nodes apart and
its labels readable."""

from __future__ import annotations

import base64
import io
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import cpqueens
from cpqueens.trees.compact.tree import BRANCH, CUT, SOLUTION

#: The colours a reader is told about: by status, by side, and the solution ticks.
STATUS_COLOURS = {
    "solution": "#2ca02c",
    "dead end": "#d62728",
    "branch": "#3182bd",
    "rejected": "#bdbdbd",
    "cut": "#636363",
    "merged": "#9467bd",
    "branch, no solution below": "#9ecae1",
}
SIDE_COLOURS = {"in both": "#969696", "only in a": "#e6550d", "only in b": "#3182bd"}
TICK = "#1a6e1a"


def rgb(hex_colour: str) -> tuple[int, int, int]:
    value = int(hex_colour[1:], 16)
    return (value >> 16) & 255, (value >> 8) & 255, value & 255


# The tree, counted by a plain walk. ---------------------------------------------


class Counted:
    """Depths, classes and leaves of each node, by a walk over the parent array."""

    def __init__(self, tree, side=None):
        parent, status = tree.parent.tolist(), tree.status.tolist()
        count = len(parent)
        self.depth = [0] * count
        kids = [0] * count
        for node in range(1, count):
            self.depth[node] = self.depth[parent[node]] + 1
            kids[parent[node]] += 1
        leaves, solutions, cuts = [0] * count, [0] * count, [0] * count
        for node in reversed(range(count)):
            leaves[node] += kids[node] == 0
            solutions[node] += status[node] == SOLUTION
            cuts[node] += status[node] == CUT
            if node:
                for figure in (leaves, solutions, cuts):
                    figure[parent[node]] += figure[node]
        if side is not None:
            names = list(SIDE_COLOURS)
            self.names = [names[int(s)] for s in side]
        else:
            status_names = list(STATUS_COLOURS)
            self.names = [
                "branch, no solution below"
                if status[i] == BRANCH and solutions[i] == 0 and cuts[i] == 0
                else status_names[status[i]]
                for i in range(count)
            ]
        self.leaves, self.levels = leaves, max(self.depth) + 1

    def leaf_shares(self) -> dict[tuple[int, str], float]:
        """(depth, class) -> the share of all leaves below that class's nodes there."""
        shares: dict[tuple[int, str], float] = {}
        for node, name in enumerate(self.names):
            key = (self.depth[node], name)
            shares[key] = shares.get(key, 0) + self.leaves[node] / self.leaves[0]
        return shares

    def node_shares(self) -> dict[tuple[int, str], float]:
        """(depth, class) -> the share of all nodes (the root included)."""
        shares: dict[tuple[int, str], float] = {}
        for node, name in enumerate(self.names):
            key = (self.depth[node], name)
            shares[key] = shares.get(key, 0) + 1 / len(self.names)
        return shares

    def below_root(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for name in self.names[1:]:
            counts[name] = counts.get(name, 0) + 1
        return counts


# The picture, read back. ----------------------------------------------------------


def read_png(path) -> np.ndarray:
    from matplotlib.image import imread

    return np.round(imread(path)[..., :3] * 255).astype(np.int16)


def framed(image: np.ndarray) -> np.ndarray:
    """The picture inside the one-pixel black frame drawn around it."""
    dark = (image < 40).all(axis=2)
    rows = np.flatnonzero(dark.sum(axis=1) > 0.6 * image.shape[1])
    columns = np.flatnonzero(dark.sum(axis=0) > 0.3 * (rows.max() - rows.min()))
    return image[rows.min() + 1 : rows.max(), columns.min() + 1 : columns.max()]


def band_areas(inside: np.ndarray, levels: int, colours: dict[str, str]) -> dict:
    """(depth, class) -> the share of its band's area each colour covers.

    An icicle's band may start with a gutter of a few rows that holds no share (only
    ticks where bars start): the rows that hold no class colour in any band.
    """
    height = inside.shape[0]
    band = height // levels
    assert band * levels == height, "the picture is not a whole number of bands"
    bands = inside.reshape(levels, band, inside.shape[1], 3)
    hits = {
        name: (np.abs(bands - rgb(colour)).max(axis=3) <= 2) for name, colour in colours.items()
    }
    coloured = np.any([hit.any(axis=(0, 2)) for hit in hits.values()], axis=0)
    rows = int(coloured.sum())  # the rows of a band that hold shares
    assert rows >= band - max(2, band // 12) and coloured[band - rows :].all()
    areas = {}
    for name, hit in hits.items():
        for depth, count in enumerate(hit.sum(axis=(1, 2)).tolist()):
            if count:
                areas[depth, name] = count / (rows * inside.shape[1])
    return areas


def close(measured: dict, expected: dict, within: float) -> list:
    """The (depth, class) whose measured and expected shares differ by more."""
    keys = set(measured) | set(expected)
    return sorted(
        (key, round(measured.get(key, 0), 4), round(expected.get(key, 0), 4))
        for key in keys
        if abs(measured.get(key, 0) - expected.get(key, 0)) > within
    )


def total_shares(areas: dict) -> dict:
    """Each (depth, class)'s share of all the coloured area."""
    whole = sum(areas.values())
    return {key: value / whole for key, value in areas.items()}


TREES = {
    "plain 10": lambda: cpqueens.compact_tree(10),
    "forward 9": lambda: cpqueens.compact_tree(9, propagation="forward"),
    "rejected 7": lambda: cpqueens.compact_tree(7, include_rejected=True),
    "cut 10 at 6": lambda: cpqueens.compact_tree(10, max_depth=6),
}


@pytest.mark.parametrize("name", TREES)
def test_the_icicle_draws_each_class_in_its_share_of_the_leaves(tmp_path, name):
    tree = TREES[name]()
    counted = Counted(tree)
    png = cpqueens.draw_tree(tree, tmp_path / "icicle.png", style="icicle")
    areas = band_areas(framed(read_png(png)), counted.levels, STATUS_COLOURS)
    # Shares rounded to whole pixels, dithered: within 0.3 points of the truth.
    assert close(areas, counted.leaf_shares(), 0.003) == []


@pytest.mark.parametrize("name", TREES)
def test_the_pixel_tree_draws_areas_proportional_to_the_nodes(tmp_path, name):
    tree = TREES[name]()
    counted = Counted(tree)
    png = cpqueens.draw_tree(tree, tmp_path / "pixel.png", style="pixel")
    areas = band_areas(framed(read_png(png)), counted.levels, STATUS_COLOURS)
    assert close(total_shares(areas), counted.node_shares(), 0.003) == []


def test_solutions_are_not_drawn_wider_than_they_are(tmp_path):
    # n=12: 14,200 solutions of 314,730 leaves. The deepest band is 4.5 % green, not
    # solid green; the ticks under it mark the columns holding one.
    tree = cpqueens.compact_tree(12)
    counted = Counted(tree)
    png = cpqueens.draw_tree(tree, tmp_path / "icicle.png", style="icicle")
    areas = band_areas(framed(read_png(png)), counted.levels, STATUS_COLOURS)
    expected = counted.leaf_shares()[12, "solution"]
    assert expected == pytest.approx(14_200 / 314_730)
    assert areas[12, "solution"] == pytest.approx(expected, abs=0.002)
    assert close(areas, counted.leaf_shares(), 0.003) == []


def svg_parts(path):
    """The legend's texts and patch colours, the title, and the embedded image."""
    root = ET.parse(path).getroot()
    texts = [
        "".join(element.itertext()).strip()
        for element in root.iter()
        if element.tag.endswith("text") and "".join(element.itertext()).strip()
    ]
    image = next(e for e in root.iter() if e.tag.endswith("image"))
    href = image.get("{http://www.w3.org/1999/xlink}href") or image.get("href")
    from matplotlib.image import imread

    data = imread(io.BytesIO(base64.b64decode(href.split(",", 1)[1])), format="png")
    fills = set(re.findall(r"fill:\s*(#[0-9a-f]{6})", ET.tostring(root, encoding="unicode")))
    pixels = np.round(data[..., :3] * 255).astype(np.int16)
    # The picture sits in a black frame of one pixel, part of the image.
    border = np.concatenate([pixels[0], pixels[-1], pixels[:, 0], pixels[:, -1]])
    assert (border == 0).all()
    return texts, fills, pixels[1:-1, 1:-1]


@pytest.mark.parametrize("style", ["icicle", "pixel"])
def test_the_legend_shows_the_colours_drawn_and_counts_below_the_root(tmp_path, style):
    tree = cpqueens.compact_tree(8, propagation="forward", include_rejected=True)
    counted = Counted(tree)
    svg = cpqueens.draw_tree(tree, tmp_path / "t.svg", style=style)
    texts, fills, image = svg_parts(svg)
    below = counted.below_root()
    for name, count in below.items():
        assert f"{name} ({count:,})" in texts
        assert STATUS_COLOURS[name] in fills  # its legend patch
    # Every colour of the picture is a legend's colour (or white), drawn unmixed; the
    # icicle's black ticks that mark where bars begin are in the legend too.
    seen = {tuple(pixel) for pixel in image.reshape(-1, 3).tolist()}
    allowed = {rgb(STATUS_COLOURS[name]) for name in below} | {(255, 255, 255)}
    if style == "icicle":
        assert "black tick atop a band: where a bar begins" in texts
        allowed.add((0, 0, 0))
    assert seen <= allowed
    title = next(t for t in texts if "search tree" in t)
    assert f"{len(tree) - 1:,} nodes below the root" in title
    assert sum(below.values()) == len(tree) - 1


def test_a_merged_tree_names_one_figure_in_title_legend_table_and_comparison(tmp_path):
    from cpqueens.trees.compare import compare_trees
    from cpqueens.trees.pictures.drawing import draw_merged

    a = cpqueens.compact_tree(8, propagation="forward")
    b = cpqueens.compact_tree(8, propagation="arc")
    comparison = compare_trees(a, b)
    # Counted here: nodes matched by their path of decisions, the root left out.
    paths_a, paths_b = decision_paths(a), decision_paths(b)
    both, only_a = len(paths_a & paths_b), len(paths_a - paths_b)
    assert (comparison.both, comparison.only_a, comparison.only_b) == (both, only_a, 0)
    svg = draw_merged(comparison, tmp_path / "m.svg", style="icicle")
    texts, _, image = svg_parts(svg)
    assert f"in both ({both:,})" in texts and f"only in a ({only_a:,})" in texts
    table = comparison.table()
    assert re.search(rf"nodes\s+{len(a) - 1:,}\s+{len(b) - 1:,}\s+{both:,}\s+{only_a:,}\s+0", table)
    counted = Counted(comparison.merged, comparison.side)
    seen = {tuple(p) for p in image.reshape(-1, 3).tolist()}
    assert seen <= {rgb(c) for c in SIDE_COLOURS.values()} | {(255, 255, 255), (0, 0, 0)}
    assert counted.below_root() == {"in both": both, "only in a": only_a}


def decision_paths(tree) -> set:
    """Each node below the root as its path of (row, column) decisions."""
    paths = set()
    for node in range(1, len(tree)):
        path = tree.path(node)[1:]
        paths.add(tuple(zip(tree.row[path].tolist(), tree.column[path].tolist(), strict=True)))
    return paths


def test_the_cli_title_of_a_comparison_says_the_same_figures(tmp_path):
    from click.testing import CliRunner

    from cpqueens.cli import cli

    target = tmp_path / "cmp.svg"
    run = CliRunner().invoke(cli, ["tree", "8", "--compare", "forward", "arc", "-o", str(target)])
    assert run.exit_code == 0, run.output
    texts, _, _ = svg_parts(target)
    title = next(t for t in texts if "merged" in t)
    pattern = r"(in both|only in a|only in b) \(([\d,]+)\)"
    legend = {m[1]: int(m[2].replace(",", "")) for t in texts if (m := re.fullmatch(pattern, t))}
    assert f"{legend['in both']:,} nodes in both" in title
    assert f"{legend['only in a']:,} only in a" in title
    assert re.search(rf"nodes\s+[\d,]+\s+[\d,]+\s+{legend['in both']:,}\s", run.output)


# The explorer's canvas. --------------------------------------------------------------

#: Counts, on the canvas of a view, the pixels of each colour in each band, below the
#: band's gutter (the rows atop an icicle band that hold labels and bar marks).
CANVAS_AREAS = """
const canvas = document.getElementById(arguments[0]), colours = arguments[1];
const band = +canvas.dataset.band, levels = +canvas.dataset.levels, W = canvas.width;
const gutter = +canvas.dataset.gutter;
const data = canvas.getContext('2d').getImageData(0, 0, W, band * levels).data;
const counts = colours.map(() => new Array(levels).fill(0));
for (let y = 0; y < band * levels; y++) {
  if (y % band < gutter) continue;
  for (let x = 0; x < W; x++) {
    const at = (y * W + x) * 4;
    for (let k = 0; k < colours.length; k++) {
      const c = colours[k];
      if (data[at] === c[0] && data[at + 1] === c[1] && data[at + 2] === c[2]) {
        counts[k][Math.floor(y / band)] += 1;
        break;
      }
    }
  }
}
return {counts: counts, rows: band - gutter, width: W};
"""


def canvas_areas(driver, view: str) -> dict:
    from test_tree_explorer_browser import by_id

    by_id(driver, f"view-{view}").click()
    names = list(STATUS_COLOURS)
    read = driver.execute_script(
        CANVAS_AREAS, f"{view}-view", [rgb(STATUS_COLOURS[n]) for n in names]
    )
    areas = {}
    for k, per_band in enumerate(read["counts"]):
        for depth, count in enumerate(per_band):
            if count:
                areas[depth, names[k]] = count / (read["rows"] * read["width"])
    return areas


@pytest.mark.parametrize("name", ["plain 10", "forward 9"])
def test_the_explorer_and_the_pictures_show_the_same_shares(browser, tmp_path, name):
    from test_tree_explorer_browser import no_console_errors, opened

    tree = TREES[name]()
    counted = Counted(tree)
    opened(browser, tree, tmp_path / "tree.html")
    icicle = canvas_areas(browser, "icicle")
    pixel = total_shares(canvas_areas(browser, "pixel"))
    assert close(icicle, counted.leaf_shares(), 0.003) == []
    assert close(pixel, counted.node_shares(), 0.003) == []
    # The static pictures of the same tree, read the same way, agree with the views.
    for style, shown in (("icicle", icicle), ("pixel", pixel)):
        png = cpqueens.draw_tree(tree, tmp_path / f"{style}.png", style=style)
        areas = band_areas(framed(read_png(png)), counted.levels, STATUS_COLOURS)
        assert close(areas if style == "icicle" else total_shares(areas), shown, 0.005) == []
    no_console_errors(browser)


def test_the_explorer_fills_its_canvas(browser, tmp_path):
    from test_tree_explorer_browser import by_id, opened

    tree = cpqueens.compact_tree(12)
    opened(browser, tree, tmp_path / "twelve.html")
    # The node-link view opens fitted: its drawing spans most of the view's width.
    span = browser.execute_script(
        "const v = document.getElementById('tree-view').getBoundingClientRect();"
        "const b = document.querySelector('g.zoom-layer').getBoundingClientRect();"
        "return [b.width / v.width, b.height / v.height];"
    )
    assert span[0] > 0.8 and span[1] > 0.3
    for view in ("icicle", "pixel"):
        by_id(browser, f"view-{view}").click()
        canvas = by_id(browser, f"{view}-view")
        band, levels = (
            int(canvas.get_attribute("data-band")),
            int(canvas.get_attribute("data-levels")),
        )
        height = int(canvas.get_attribute("height"))
        # The bands and the ticks' strip under them take the canvas's height.
        assert levels == 13 and band * levels > 0.95 * height - 20
    legend = by_id(browser, "legend").text
    assert "a column holding a solution" in legend
    counts = Counted(tree).below_root()
    for name, count in counts.items():
        assert f"{name} ({count:,})" in legend


def test_the_board_panel_says_what_its_dots_mean(browser, tmp_path):
    from test_tree_explorer_browser import by_id, opened

    opened(browser, cpqueens.compact_tree(6, propagation="forward"), tmp_path / "f.html")
    legend = by_id(browser, "legend").text
    assert "board: a square still in its row's domain" in legend
    dot = browser.execute_script(
        "return getComputedStyle(document.querySelector('#legend .domain-key')).fill"
    )
    assert dot == "rgb(44, 160, 44)"
