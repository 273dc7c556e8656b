"""Words a reader can follow: the source articles named, each table's words explained
under it, rows counted one way everywhere, and every word kept in the glossary."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import cpqueens
from cpqueens.cli import cli
from cpqueens.solvers import REGISTRY

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
#: "article 000" ... "article 004": numbers a reader cannot look up.
ARTICLE_NUMBER = re.compile(r"\barticles? 00\d", re.IGNORECASE)
SHORT_NAMES = ("Queen8", "CodeProject tree", "non-recursive", "Python random", "getAccessRows")


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def headings(page: Path) -> set[str]:
    """A page's headings, as MkDocs makes their anchors (lowercase, punctuation dropped)."""
    found, fenced = set(), False
    for line in page.read_text(encoding="utf-8").splitlines():
        fenced ^= line.startswith("```")
        if not fenced and (match := re.match(r"#{1,6} (.*)", line)):
            words = re.sub(r"[^\w\s-]", "", match.group(1).replace("`", "")).strip().lower()
            found.add(re.sub(r"[-\s]+", "-", words))
    return found


PAGES = ["README.md", *sorted(str(page.relative_to(ROOT)) for page in DOCS.glob("**/*.md"))]


@pytest.mark.parametrize("page", PAGES)
def test_no_page_names_an_article_by_its_number(page):
    lines = (ROOT / page).read_text(encoding="utf-8").splitlines()
    found = [f"{k}: {line}" for k, line in enumerate(lines, 1) if ARTICLE_NUMBER.search(line)]
    assert not found, f"name the source article (docs/backends.md): {found}"


def test_the_backends_page_names_each_article_once_in_its_table():
    text = (DOCS / "backends.md").read_text(encoding="utf-8")
    table = text.split("### The five source articles", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| *")]
    assert [row.split("|")[1].strip().strip("*") for row in rows] == list(SHORT_NAMES)
    for row in rows:  # a title in Chinese, where it was published, the backend
        assert re.search(r"[\u4e00-\u9fff]", row) and row.count("|") == 7


def test_the_command_line_names_articles_not_numbers():
    listed = run("backends", "--json")
    assert listed.exit_code == 0, listed.output
    assert not ARTICLE_NUMBER.search(listed.stdout)
    sources = {name: REGISTRY[name].source for name in ("recursive", "stack", "tree", "random")}
    assert all(any(short in source for short in SHORT_NAMES) for source in sources.values())
    assert not ARTICLE_NUMBER.search(run("--help").stdout)
    for command in cli.commands:
        assert not ARTICLE_NUMBER.search(run(command, "--help").stdout), command


def test_an_attack_names_its_rows_counted_from_0():
    result = run("verify", "5", input="0 1 2 3 4\n")
    assert result.exit_code == 1
    assert "the queens of rows 0 and 1 (counted from 0) attack each other" in result.stdout
    glossary = (DOCS / "glossary.md").read_text(encoding="utf-8")
    assert "rows-and-columns-counted-from-0" in headings(DOCS / "glossary.md")
    assert "the top row is row 0 and the left column is\ncolumn 0" in glossary


def test_bench_says_what_its_columns_and_marks_mean():
    from cpqueens.reporting.bench.runs import Timing
    from cpqueens.reporting.bench.tables import bench_legend

    result = run("bench", "5", "--backends", "stack", "-r", "1")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[-1] == bench_legend([Timing("stack", 5, (1.0,), 10, 53)])
    assert "nodes = search nodes" in result.stderr
    # A mark is explained only where the table shows it.
    marked = [Timing("sat", 5, (1.0,), 10, 22, effort="decisions")]
    assert "d = the SAT solver's decisions, counted in place of nodes" in bench_legend(marked)
    assert "b = " not in bench_legend(marked)


def test_the_campaign_summary_says_what_par2_vbs_and_alone_mean(tmp_path):
    spec = {
        "campaign": {"time_limit": 10},
        "instances": [{"generator": "plain", "n": [4, 5]}],
        "solvers": [{"backend": "stack"}, {"backend": "exactcover"}],
    }
    db = tmp_path / "results.sqlite"
    cpqueens.run_campaign(spec, db, workers=1)
    result = run("campaign", "summary", str(db))
    assert result.exit_code == 0, result.output
    assert "PAR-2" in result.stdout and "alone" in result.stdout and "VBS" in result.stdout
    assert "PAR-2 = mean time a run, one not solved counted at twice the time limit" in (
        result.stderr
    )
    assert "alone = instances no other solver solved" in result.stderr
    assert "VBS = the virtual best solver" in result.stderr
    assert "solved = sat or unsat" in result.stderr


def test_a_crosscheck_says_what_all_count_means():
    from types import SimpleNamespace as Row

    from cpqueens.reporting.tables import crosscheck_legend

    rows = [Row(backend="p", compared="all"), Row(backend="p", compared="count")]
    assert "compared all,count = all on some n, count on the others" in crosscheck_legend(
        rows, "tree"
    )


def test_tree_compare_says_what_its_table_means():
    result = run("tree", "6", "--compare", "forward", "arc")
    assert result.exit_code == 0, result.output
    assert "dead ends" in result.stdout and "failure" not in result.stdout
    assert "dead end = a node without children that is no solution" in result.stderr
    assert "subtrees pruned by b = subtrees of a that b never searched" in result.stderr
    assert "q[r] = c = the queen of row r stands in column c, both counted from 0" in (
        result.stderr
    )


def test_a_tree_calls_a_dead_end_a_dead_end_everywhere_it_prints():
    tree = cpqueens.compact_tree(6, propagation="forward")
    from cpqueens.trees.compact.shape import tree_shape
    from cpqueens.trees.pictures.figure import picture_title

    for text in (repr(tree), repr(tree_shape(tree)), picture_title(tree, "icicle")):
        assert "dead end" in text and "failure" not in text, text


#: What the screens print, each of which the glossary must define under its own heading.
TERMS = (
    "node", "nodes below the root", "attempt", "dead end", "wipe-out", "failure",
    "failed subtree", "rejected", "pruned", "branch", "cut", "solution", "backend", "solver",
    "cross-check", "reference", "compared", "agrees, disagrees", "marks: !, E, T", "PAR-2",
    "VBS", "alone", "solved", "wrong", "sat, unsat, unknown", "certificate", "DRAT",
    "proved", "instance", "blocked square", "completion", "fixed queen", "first-fail",
    "forward checking", "arc consistency", "domain", "icicle", "pixel tree", "tick",
    "q[r] = c", "both, only a, only b", "median, x fastest", "branches (b), decisions (d)",
    "rows and columns (counted from 0)", "source articles",
)  # fmt: skip


def test_the_glossary_has_a_heading_for_every_word_on_the_screens():
    page = DOCS / "glossary.md"
    anchors = headings(page)
    missing = [term for term in TERMS if headings_of(term) not in anchors]
    assert not missing, missing
    # Every link of the glossary leads to a page and a heading that exist.
    for target, anchor in re.findall(r"\]\(([\w./-]+\.md)(?:#([\w-]+))?\)", page.read_text()):
        assert (DOCS / target).exists(), target
        assert not anchor or anchor in headings(DOCS / target), f"{target}#{anchor}"


def headings_of(term: str) -> str:
    words = re.sub(r"[^\w\s-]", "", term).strip().lower()
    return re.sub(r"[-\s]+", "-", words)
