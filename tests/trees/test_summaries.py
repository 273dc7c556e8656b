"""What a person reads of a tree, a tree's shape, a comparison and a campaign in a REPL or
a notebook: a repr of a few lines and an HTML table, never the arrays; every figure in
them checked against a count made here from the trees' arrays (or the campaign's runs),
every HTML parsed, and text from a file (labels, notes, solver names) shown escaped."""

import re
from html.parser import HTMLParser

import numpy as np
import pytest

import cpqueens
from cpqueens.campaigns.runner import CampaignReport
from cpqueens.campaigns.summary import summarize
from cpqueens.trees.compact.shape import tree_shape
from cpqueens.trees.compact.tree import FAILURE, SOLUTION, CompactTree

#: Text from elsewhere that would run if it reached a page as markup.
HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'
#: Elements with no end tag.
VOID = {"br", "hr", "img", "input", "meta", "link", "col", "wbr"}

TREES = [
    {"n": 8},
    {"n": 8, "propagation": "forward"},
    {"n": 7, "propagation": "arc", "order": "first-fail"},
    {"n": 6, "include_rejected": True, "max_depth": 4, "fixed": {0: 1}},
    {"n": 12},
]


class Page(HTMLParser):
    """An HTML fragment read: its tags, its text, and whether every element closes."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.tags: list[str] = []
        self.text: list[str] = []
        self.rows: list[list[str]] = []  # the table rows, a cell's text each
        self.problems: list[str] = []
        self.feed(text)
        self.close()
        if self.open:
            self.problems.append(f"never closed: {self.open}")

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.rows[-1].append("")
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        if not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.open[-1:] or 'nothing'}")
        else:
            self.open.pop()

    def handle_data(self, data):
        self.text.append(data)
        if self.open and self.open[-1] in ("td", "th"):
            self.rows[-1][-1] += data

    def cells(self) -> list[str]:
        return [t.strip() for t in self.text if t.strip()]


def well_formed(text: str) -> Page:
    page = Page(text)
    assert not page.problems, page.problems
    assert "table" in page.tags
    assert "script" not in page.tags and "img" not in page.tags
    return page


def number(text: str, pattern: str) -> int:
    """The number the repr gives before or after ``pattern`` (with separators)."""
    found = re.search(pattern, text)
    assert found, f"{pattern!r} not in {text!r}"
    return int(found.group(1).replace(",", ""))


def short(text: str, lines: int) -> None:
    assert "array(" not in text and "dtype" not in text, text
    assert len(text.splitlines()) <= lines and len(text) < 200 * lines, text


@pytest.mark.parametrize("settings", TREES, ids=str)
def test_compact_tree_repr_says_the_tree_in_a_line(settings):
    tree = cpqueens.compact_tree(**settings)
    text = repr(tree)
    short(text, 1)
    below = len(tree.parent) - 1  # the root left out, as everywhere in cpqueens
    assert number(text, r"([\d,]+) nodes below the root") == below
    assert number(text, r"([\d,]+) solutions?\b") == int(np.count_nonzero(tree.status == SOLUTION))
    assert number(text, r"([\d,]+) dead ends?\b") == int(np.count_nonzero(tree.status == FAILURE))
    assert number(text, r"depth (\d+)") == int(tree.depth.max())
    # number_of_nodes() and len() keep counting the root, as networkx does.
    assert tree.number_of_nodes() == len(tree) == below + 1
    assert text.startswith(f"CompactTree(n={settings['n']}, ")


def test_compact_tree_counts_agree_with_the_networkx_tree():
    G = cpqueens.decision_tree(8, propagation="forward")
    text = repr(cpqueens.compact_tree(8, propagation="forward"))
    assert number(text, r"([\d,]+) nodes below the root") == G.number_of_nodes() - 1 == 1724
    solutions = sum(1 for _, data in G.nodes(data=True) if data["solution"])
    assert number(text, r"([\d,]+) solutions") == solutions == 92


@pytest.mark.parametrize("settings", TREES[:4], ids=str)
def test_compact_tree_html_is_a_table_of_the_same_figures(settings):
    tree = cpqueens.compact_tree(**settings)
    page = well_formed(tree._repr_html_())
    cells = page.cells()
    row = cells.index("nodes below the root")
    assert cells[row + 1] == f"{len(tree.parent) - 1:,}"
    row = cells.index("solutions")
    assert cells[row + 1] == f"{np.count_nonzero(tree.status == SOLUTION):,}"


def generic_tree(text: str) -> CompactTree:
    """A tree as read from another solver's database: its own labels and note."""
    base = cpqueens.compact_tree(4)
    minus = np.full(len(base), -1, dtype=np.int16)
    return CompactTree(
        parent=base.parent,
        depth=base.depth,
        row=minus,
        column=minus,
        status=base.status,
        labels=[text] * len(base),
        note=text,
    )


def test_text_from_a_file_is_escaped_in_the_html():
    tree = generic_tree(HOSTILE)
    text = tree._repr_html_()
    assert "<script" not in text and "<img" not in text
    page = well_formed(text)
    assert HOSTILE in page.text  # shown as the text it is
    short(repr(tree), 1)
    assert repr(tree).startswith("CompactTree(generic, 16 nodes below the root")


@pytest.mark.parametrize("settings", TREES, ids=str)
def test_tree_shape_repr_and_html(settings):
    tree = cpqueens.compact_tree(**settings)
    shape = tree_shape(tree)
    text = repr(shape)
    short(text, 1)
    assert number(text, r"([\d,]+) nodes below the root") == len(tree.parent) - 1
    assert number(text, r"([\d,]+) solutions?\b") == int(np.count_nonzero(tree.status == SOLUTION))
    assert number(text, r"([\d,]+) dead ends?\b") == int(np.count_nonzero(tree.status == FAILURE))
    page = well_formed(shape._repr_html_())
    per_depth = np.bincount(tree.depth)
    assert page.rows[0] == ["depth", "nodes", "dead ends", "solutions", "branching"]
    shown = {int(row[0]): int(row[1].replace(",", "")) for row in page.rows[1:]}
    assert shown == dict(enumerate(per_depth.tolist()))
    failed = np.bincount(tree.depth[tree.status == FAILURE], minlength=len(per_depth))
    assert [int(row[2].replace(",", "")) for row in page.rows[1:]] == failed.tolist()
    for line in shape.table().splitlines()[1:]:  # the table the text shows, the same rows
        depth, nodes = line.split()[:2]
        assert shown[int(depth)] == int(nodes.replace(",", ""))


def decision_paths(tree) -> dict:
    """Each node's path of (row, column) decisions, counted here from the parent array."""
    paths = [()]
    for node in range(1, len(tree.parent)):
        paths.append((*paths[tree.parent[node]], (int(tree.row[node]), int(tree.column[node]))))
    return {path: node for node, path in enumerate(paths)}


def boards(tree) -> set:
    return {tree.placement(int(node)) for node in np.flatnonzero(tree.status == SOLUTION)}


PAIRS = [
    ({"propagation": "forward"}, {"propagation": "arc"}),
    ({}, {"propagation": "forward"}),
    ({"include_rejected": True}, {"max_depth": 5}),
]


@pytest.mark.parametrize(("first", "second"), PAIRS, ids=str)
def test_comparison_repr_gives_the_figures_of_the_trees(first, second):
    a, b = cpqueens.compact_tree(8, **first), cpqueens.compact_tree(8, **second)
    comparison = cpqueens.compare_trees(a, b)
    text = repr(comparison)
    short(text, 4)
    paths_a, paths_b = decision_paths(a), decision_paths(b)
    both = len(paths_a.keys() & paths_b.keys()) - 1  # the root is in both
    assert number(text, r"nodes below the root: a ([\d,]+)") == len(paths_a) - 1
    assert number(text, r", b ([\d,]+);") == len(paths_b) - 1
    assert number(text, r"in both ([\d,]+)") == both
    assert number(text, r"only in a ([\d,]+)") == len(paths_a) - 1 - both
    assert number(text, r"only in b ([\d,]+)") == len(paths_b) - 1 - both
    found_a, found_b = boards(a), boards(b)
    assert number(text, r"solutions: a ([\d,]+)") == int(np.count_nonzero(a.status == SOLUTION))
    assert number(text, r"found by both ([\d,]+)") == len(found_a & found_b)
    assert number(text, r"only by a ([\d,]+)") == len(found_a - found_b)
    assert number(text, r"only by b ([\d,]+)") == len(found_b - found_a)


def test_comparison_of_unaligned_searches_says_so():
    a = cpqueens.compact_tree(7)
    b = cpqueens.compact_tree(7, propagation="forward", order="first-fail")
    comparison = cpqueens.compare_trees(a, b)
    text = repr(comparison)
    short(text, 4)
    assert "not matched" in text
    assert number(text, r"nodes below the root: a ([\d,]+)") == len(a.parent) - 1
    assert number(text, r", b ([\d,]+) \(") == len(b.parent) - 1
    well_formed(comparison._repr_html_())


def test_comparison_html_holds_the_table_the_cli_prints():
    comparison = cpqueens.compare_trees(
        cpqueens.compact_tree(8, propagation="forward"), cpqueens.compact_tree(8, propagation="arc")
    )
    page = well_formed(comparison._repr_html_())
    cells = page.cells()
    row = cells.index("nodes")
    assert cells[row + 1 : row + 6] == ["1,724", "768", "768", "956", "0"]
    for line in comparison.table().splitlines():
        if line.startswith(("nodes", "dead ends", "solutions")):
            name, *values = re.split(r"\s{2,}", line)
            row = cells.index(name)
            assert cells[row + 1 : row + 1 + len(values)] == values
    # Each figure the repr says is the table's.
    text = repr(comparison)
    assert "a 1,724, b 768; in both 768, only in a 956, only in b 0" in text


def campaign_rows():
    """The runs of a small campaign: two solvers, one of them named by a hostile file."""
    rows = []
    for index, verdict in enumerate(["sat", "sat", "unknown", "wrong"]):
        for solver, wall in (("stack", 0.5), (HOSTILE, 1.5)):
            rows.append(
                {"solver": solver, "instance_hash": f"i{index}", "instance": f"n={index + 4}",
                 "verdict": verdict if solver == HOSTILE else "sat", "wall": wall,
                 "time_limit": 10.0, "verdict_reason": "a board is wrong"}
            )  # fmt: skip
    return rows


def test_campaign_report_repr_and_html():
    rows = campaign_rows()
    wrong = [
        {"instance": r["instance"], "solver": r["solver"], "repeat": 0, "reason": "a board"}
        for r in rows
        if r["verdict"] == "wrong"
    ]
    report = CampaignReport(
        name="mine", db="results.sqlite", ran=len(rows), skipped=0, summary=summarize(rows),
        wrong=wrong,
    )  # fmt: skip
    text = repr(report)
    short(text, 3)
    solved = {
        solver: sum(1 for r in rows if r["solver"] == solver and r["verdict"] == "sat")
        for solver in ("stack", HOSTILE)
    }
    assert f"stack {solved['stack']}/4" in text and f"{HOSTILE} {solved[HOSTILE]}/4" in text
    assert text.splitlines()[1].startswith("WRONG: 1 wrong answer")
    markup = report._repr_html_()
    assert "<script" not in markup and "<img" not in markup
    page = well_formed(markup)
    cells = page.cells()
    assert cells.count(HOSTILE) == 1  # the table's row, its name shown as text
    row = cells.index(HOSTILE)
    assert cells[row + 1 : row + 3] == ["4", str(solved[HOSTILE])]  # runs, solved
    row = cells.index("stack")
    assert cells[row + 1 : row + 3] == ["4", str(solved["stack"])]
    assert any(HOSTILE in line and line.startswith("wrong:") for line in cells)


def test_a_real_campaign_report_reads_short(tmp_path):
    spec = {
        "campaign": {"time_limit": 10},
        "instances": [{"generator": "plain", "n": [4, 5]}],
        "solvers": [{"backend": "stack"}],
    }
    report = cpqueens.run_campaign(spec, tmp_path / "results.sqlite", workers=1)
    text = repr(report)
    short(text, 3)
    assert "stack 2/2" in text
    well_formed(report._repr_html_())
