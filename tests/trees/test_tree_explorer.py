"""The HTML explorer of a search tree as a file: self-contained (nothing fetched from
anywhere), the tree's arrays embedded compactly and decoding back to themselves,
labels and titles escaped, trees past a million nodes refused before anything is
written, d3's licence shipped with the package. tests/trees/test_tree_explorer_browser.py
opens the pages in Chromium."""

from __future__ import annotations

import base64
import hashlib
import html.parser
import json
import re
import tomllib
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

import cpqueens
from cpqueens.errors import InvalidInputError, TreeTooLargeError
from cpqueens.trees.compact.tree import BRANCH, FAILURE, SOLUTION, CompactTree
from cpqueens.trees.pictures.explorer import MAX_EXPLORER_NODES, write_explorer

#: Labels of another solver's tree, each a way to run script if written as markup.
HOSTILE = (
    '<img src=x onerror="window.__xss=1">',
    "<img src=x onerror=alert(1)>",
    "</script><script>window.__xss=2</script>",
    "a & b <!-- c",
)


def generic_tree(labels=HOSTILE, note="no boards: <b>a tree of another solver</b>"):
    """A tree read from elsewhere: no board, its own labels and note. The root has two
    children; the second has two leaves below it, a failure and a solution."""
    labels = ["root", *labels][:5]
    parent = np.array([-1, 0, 0, 2, 2], np.int32)
    return CompactTree(
        parent=parent,
        depth=np.array([0, 1, 1, 2, 2], np.uint16),
        row=np.full(5, -1, np.int16),
        column=np.full(5, -1, np.int16),
        status=np.array([BRANCH, FAILURE, BRANCH, FAILURE, SOLUTION], np.uint8),
        labels=labels + [f"node {i}" for i in range(len(labels), 5)],
        note=note,
    )


def star_tree(leaves: int) -> CompactTree:
    """A root and ``leaves`` leaves below it, every 97th a solution."""
    count = leaves + 1
    parent = np.zeros(count, np.int32)
    parent[0] = -1
    depth = np.ones(count, np.uint16)
    depth[0] = 0
    status = np.full(count, FAILURE, np.uint8)
    status[0], status[1::97] = BRANCH, SOLUTION
    minus = np.full(count, -1, np.int16)
    return CompactTree(parent, depth, minus, minus.copy(), status, note="synthetic")


def payload(page: Path) -> dict:
    """The tree's data as the page's script reads it."""
    text = page.read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="tree-data">(.*?)</script>', text, re.S)
    assert found is not None
    return json.loads(found.group(1))


def column(data: dict, name: str, dtype: str) -> np.ndarray:
    return np.frombuffer(base64.b64decode(data[name]), dtype=dtype)


class Links(html.parser.HTMLParser):
    """Every tag and every attribute that could fetch something."""

    def __init__(self):
        super().__init__()
        self.tags: list[str] = []
        self.fetching: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for name, value in attrs:
            if name in ("src", "href", "xlink:href", "srcset", "action", "data", "poster"):
                self.fetching.append((tag, name, value or ""))


def test_the_page_needs_no_network_and_no_file_beside_it(tmp_path):
    page = write_explorer(cpqueens.compact_tree(6), tmp_path / "tree.html")
    assert page == tmp_path / "tree.html" and sorted(tmp_path.iterdir()) == [page]
    text = page.read_text(encoding="utf-8")
    links = Links()
    links.feed(text)
    assert links.fetching == [], links.fetching
    assert "link" not in links.tags and "iframe" not in links.tags
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", text, re.I)
    assert not re.search(r"@import|url\(\s*['\"]?(https?:)?//", text, re.I)
    # The policy forbids any fetch and any script but the page's own, by their hashes.
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', text).group(1)
    assert policy.startswith("default-src 'none'; script-src 'sha256-")
    scripts = re.findall(r"<script>(.*?)</script>", text, re.S)
    assert len(scripts) == 4 and scripts[0].startswith("// https://d3js.org v7.")
    for script in scripts:
        digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in policy


def test_the_embedded_arrays_decode_back_to_the_tree(tmp_path):
    tree = cpqueens.compact_tree(7, blocked=[(0, 3), (4, 4)])
    data = payload(write_explorer(tree, tmp_path / "tree.html"))
    assert data["nodes"] == tree.number_of_nodes() and data["n"] == 7
    assert np.array_equal(column(data, "parent", "<i4"), tree.parent)
    assert np.array_equal(column(data, "row", "<i2"), tree.row)
    assert np.array_equal(column(data, "column", "<i2"), tree.column)
    assert np.array_equal(column(data, "status", "u1"), tree.status)
    assert data["blocked"] == [[0, 3], [4, 4]] and data["domains"] is None
    # Compact: the columns, not an object per node.
    size = (tmp_path / "tree.html").stat().st_size
    assert size < 320_000 + 20 * tree.number_of_nodes()


@pytest.mark.parametrize("n", [6, 12])
def test_the_domains_of_a_propagated_tree_decode_back(tmp_path, n):
    tree = cpqueens.compact_tree(n, propagation="forward", max_depth=3)
    data = payload(write_explorer(tree, tmp_path / "tree.html"))
    width = data["domain_bytes"]
    assert width == (n + 7) // 8
    raw = column(data, "domains", "u1").reshape(tree.number_of_nodes(), n, width)
    masks = sum(raw[..., b].astype(np.uint64) << np.uint64(8 * b) for b in range(width))
    assert np.array_equal(masks, tree.domains.astype(np.uint64))
    assert data["propagation"] == "forward"


def test_a_networkx_tree_is_taken_as_its_compact_form(tmp_path):
    G = cpqueens.decision_tree(5, propagation="arc", order="first-fail")
    from_graph = payload(write_explorer(G, tmp_path / "graph.html"))
    tree = cpqueens.compact_tree(5, propagation="arc", order="first-fail")
    assert from_graph == payload(write_explorer(tree, tmp_path / "compact.html"))
    assert from_graph["title"] == "Search tree, n = 5, arc propagation, first-fail order"


def test_a_tree_past_a_million_nodes_is_refused_before_anything_is_written(tmp_path):
    target = tmp_path / "big.html"
    with pytest.raises(
        TreeTooLargeError, match=r"has 1,000,001: build it with max_depth="
    ) as raised:
        write_explorer(star_tree(MAX_EXPLORER_NODES), target)
    assert raised.value.estimate == MAX_EXPLORER_NODES + 1
    assert raised.value.max_nodes == MAX_EXPLORER_NODES
    assert list(tmp_path.iterdir()) == []
    # A million exactly is written.
    data = payload(write_explorer(star_tree(MAX_EXPLORER_NODES - 1), target))
    assert data["nodes"] == MAX_EXPLORER_NODES


def test_labels_note_and_title_are_escaped_in_the_file(tmp_path):
    tree = generic_tree()
    page = write_explorer(tree, tmp_path / "tree.html", title="<b>mine</b> & </title>")
    text = page.read_text(encoding="utf-8")
    for label in HOSTILE:
        assert label not in text
    assert "<img" not in text and "<b>" not in text and "window.__xss" in text
    # Only the page's own scripts close: four of them and the data.
    assert text.count("</script>") == 5 and "<!--" not in text
    assert "<title>&lt;b&gt;mine&lt;/b&gt; &amp; &lt;/title&gt;</title>" in text
    data = payload(page)
    assert data["labels"] == tree.labels and data["note"] == tree.note and data["n"] is None
    assert data["title"] == "<b>mine</b> & </title>"


def test_side_colours_a_merged_tree_and_must_fit_it(tmp_path):
    tree = cpqueens.compact_tree(5)
    side = np.arange(tree.number_of_nodes()) % 3
    data = payload(write_explorer(tree, tmp_path / "merged.html", side=side))
    assert np.array_equal(column(data, "side", "u1"), side)
    assert data["class_names"] == ["in both", "only in a", "only in b"]
    with pytest.raises(InvalidInputError, match="one integer per node of the tree"):
        write_explorer(tree, tmp_path / "short.html", side=side[:-1])
    with pytest.raises(InvalidInputError, match="got values from 0 to 3"):
        write_explorer(tree, tmp_path / "three.html", side=side + (side == 2))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["merged.html"]


def test_a_place_that_cannot_be_written_is_refused_first(tmp_path):
    with pytest.raises(InvalidInputError, match="does not exist"):
        write_explorer(star_tree(MAX_EXPLORER_NODES), tmp_path / "no" / "tree.html")


def test_d3_and_its_licence_ship_with_the_package():
    static = resources.files("cpqueens.trees.pictures").joinpath("static")
    licence = static.joinpath("d3.LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("Copyright 2010-") and "Mike Bostock" in licence
    assert "Permission to use, copy, modify, and/or distribute this software" in licence
    assert (
        static.joinpath("d3.min.js")
        .read_text(encoding="utf-8")
        .startswith("// https://d3js.org v7.")
    )
    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert "trees/pictures/static/*" in pyproject["tool"]["setuptools"]["package-data"]["cpqueens"]
