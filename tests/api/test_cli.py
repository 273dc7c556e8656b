"""The command line, run for real through click's runner and, twice, as a subprocess."""

from __future__ import annotations

import base64
import csv
import dataclasses
import html.parser
import io
import json
import os
import re
import subprocess
import sys

import pytest
from backend_sets import ENUMERATING, EXHAUSTIVE, present, skip_if_any_missing
from click.testing import CliRunner
from known_counts import A000170 as TOTAL

import cpqueens
from cpqueens.cli import cli
from cpqueens.reporting.bench import runs as bench
from cpqueens.reporting.effort import EFFORT_KEYS
from cpqueens.solvers import REGISTRY


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_help_on_every_command():
    assert run("--help").exit_code == 0
    for name in cli.commands:
        result = run(name, "--help")
        assert result.exit_code == 0, name
        assert result.stdout.startswith(f"Usage: cli {name}") or "Usage:" in result.stdout


def test_backends_lists_the_registry():
    result = run("backends")
    assert result.exit_code == 0
    for name in REGISTRY:
        assert name in result.stdout
    listed = json.loads(run("backends", "--json").stdout)
    assert [entry["name"] for entry in listed] == list(REGISTRY)
    assert {"enumerates", "fixed", "workers", "available"} <= set(listed[0])


def test_solve_prints_the_first_board_by_default():
    result = run("solve", "8")
    assert result.exit_code == 0
    assert result.stdout == cpqueens.render((0, 4, 7, 5, 2, 6, 1, 3)) + "\n"
    assert "first solution" in result.stderr and "incomplete" not in result.stderr


@pytest.mark.parametrize("style", ["grid", "zero-plus", "x-dash", "letters"])
def test_solve_board_styles(style):
    result = run("solve", "6", "--all", "--format", style, "--quiet")
    assert result.exit_code == 0
    expected = [cpqueens.render(s, style=style) for s in cpqueens.solve(6).solutions]
    separator = "\n" if style == "letters" else "\n\n"
    assert result.stdout == separator.join(expected) + "\n"
    assert result.stderr == ""


def test_solve_all_json_has_every_solution(enumerating_backend):
    result = run("solve", "6", "--all", "--json", "--backend", enumerating_backend)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["found"] == data["total"] == TOTAL[6] and data["complete"] is True
    assert sorted(map(tuple, data["solutions"])) == sorted(cpqueens.solve(6).solutions)


def test_solve_csv_reads_back():
    result = run("solve", "5", "--limit", "3", "--format", "csv")
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0] == ["solution", "row0", "row1", "row2", "row3", "row4"]
    assert [tuple(map(int, row[1:])) for row in rows[1:]] == list(cpqueens.solve(5, limit=3))


def test_solve_options_reach_the_library():
    unique = json.loads(run("solve", "8", "--all", "--unique", "--json").stdout)
    assert unique["total"] == 12
    fixed = json.loads(run("solve", "8", "--all", "--fixed", "0:2,7:4", "--json").stdout)
    assert all(s[0] == 2 and s[7] == 4 for s in fixed["solutions"])
    assert fixed["total"] == cpqueens.count(8, fixed={0: 2, 7: 4})
    seeded = [run("solve", "20", "-b", "random", "--seed", "7", "-q").stdout for _ in range(2)]
    assert seeded[0] == seeded[1]


def test_backend_options_reach_the_backend():
    result = run("solve", "8", "-b", "stack", "--all", "-O", "tried=tested", "--json")
    assert json.loads(result.stdout)["stats"]["attempts"] == 15720
    result = run("solve", "8", "-b", "stack", "--all", "--json")
    assert json.loads(result.stdout)["stats"]["attempts"] == 21920


def test_count():
    assert run("count", "8", "-b", "stack").stdout == "92\n"
    data = json.loads(run("count", "8", "--unique", "--json", "-b", "stack").stdout)
    assert data == {**data, "n": 8, "count": 12, "unique": True, "backend": "stack"}


@pytest.mark.parametrize(
    "args, words",
    [
        (["solve", "0"], "n must be a positive integer, got 0"),
        (["solve", "8", "-b", "nope"], "unknown backend 'nope'"),
        (["solve", "8", "--fixed", "0-3"], "malformed fixed queen '0-3'"),
        (["solve", "8", "--fixed", "0:9"], "fixed column 9 is off the board"),
        (["solve", "8", "--fixed", "1:1,1:2"], "fixed row 1 is given twice"),
        (["solve", "8", "--seed", "1"], "does not support seed"),
        (["solve", "30", "-f", "letters"], "letters format goes up to n=26"),
        (["solve", "8", "--all", "--limit", "2"], "either --limit or --all"),
        (["solve", "8", "--limit", "0"], "limit must be a positive integer, got 0"),
        (["solve", "8", "--limit", "-2"], "limit must be a positive integer, got -2"),
        (["solve", "8", "--time-limit", "0"], "--time-limit must be a positive number"),
        (["solve", "8", "-b", "stack", "-O", "tried=x"], "tried must be one of"),
        (["solve", "8", "-b", "stack", "-O", "tried"], "write KEY=VALUE"),
        (["solve", "8", "-b", "stack", "-O", "frob=1"], "frob"),
        (["count", "8", "--workers", "0"], "workers must be a positive integer, got 0"),
        (["crosscheck", "1-4", "--time-limit", "0"], "--time-limit must be a positive number"),
        (["count", "0"], "n must be a positive integer, got 0"),
        (["crosscheck", "1-x"], "malformed board sizes '1-x'"),
        (["crosscheck", "5-2"], "runs backwards"),
        (["crosscheck", "0-3"], "must be positive"),
        (["crosscheck", "1-4", "--backends", "stack,nope"], "unknown backend 'nope'"),
        (["bench", "4-5", "-o", "/no/such/folder/b.png"], "does not exist"),
        (["bench", "4-5", "-o", "bench.gif"], "extension '.gif'; allowed extensions"),
        (["report", "4-5", "-o", "report.pdf"], "extension '.pdf'; allowed extensions"),
        (["tree", "4", "-o", "tree.txt"], "extension '.txt'; allowed extensions"),
        (["tree", "4", "-o", "tree.graphml", "--solutions-only"], "applies to pictures"),
        (["tree", "18"], "draw part of it with --max-depth D"),
        (["crosscheck", "4-13"], "e.g. --reference stack"),
        (["report", "13", "-o", "r.html"], "e.g. --reference stack"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, words):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert words in result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: ")
    assert result.stdout == ""


def test_click_usage_errors_exit_2():
    result = run("solve", "8", "--format", "sideways")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert run("solve", "eight").exit_code == 2
    assert run("frobnicate").exit_code == 2


def test_unwritable_output_path(tmp_path):
    # A "folder" in the path that is a regular file: no one may write there, root neither.
    (tmp_path / "notes.txt").write_text("a file, not a folder\n")
    result = run("bench", "4", "-o", str(tmp_path / "notes.txt" / "b.csv"))
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"Error: cannot write {str(tmp_path / 'notes.txt' / 'b.csv')!r}: "
        f"folder {str(tmp_path / 'notes.txt')!r} does not exist\n"
    )
    assert (tmp_path / "notes.txt").read_text() == "a file, not a folder\n"


def test_output_path_in_a_folder_without_write_permission(tmp_path, monkeypatch):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    # Root may write anywhere: to it, the folder is shown as the others see it.
    real_access = os.access
    monkeypatch.setattr(
        os,
        "access",
        lambda path, mode, **kw: (
            not mode & os.W_OK and real_access(path, mode, **kw)
            if os.fspath(path) == str(folder)
            else real_access(path, mode, **kw)
        ),
    )
    try:
        result = run("bench", "4", "-o", str(folder / "b.csv"))
        assert result.exit_code == 2, result.output
        assert "permission denied" in result.stderr and "Traceback" not in result.output
        assert not (folder / "b.csv").exists()
    finally:
        folder.chmod(0o700)


def test_output_path_that_is_a_folder(tmp_path):
    (tmp_path / "plot.png").mkdir()
    result = run("bench", "4", "-o", str(tmp_path / "plot.png"))
    assert result.exit_code == 2 and "is a directory" in result.stderr


def test_bench_table_and_files(tmp_path):
    result = run(
        "bench", "4-6", "--backends", "stack,tree", "-r", "2", "-o", str(tmp_path / "b.csv")
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].split()[:3] == ["backend", "n", "median"]
    assert len(result.stdout.splitlines()) == 1 + 3 * 2
    rows = list(csv.DictReader((tmp_path / "b.csv").open()))
    assert [(r["backend"], int(r["n"])) for r in rows][:2] == [("stack", 4), ("tree", 4)]
    assert all(len(r["runs_seconds"].split()) == 2 for r in rows)
    assert {int(r["count"]) for r in rows if r["n"] == "6"} == {TOTAL[6]}

    assert run("bench", "4-5", "--backends", "stack", "-o", str(tmp_path / "b.json")).exit_code == 0
    records = json.loads((tmp_path / "b.json").read_text())
    assert [(r["n"], r["count"], r["nodes"]) for r in records] == [(4, 2, 16), (5, 10, 53)]
    data = json.loads(run("bench", "4", "--backends", "stack", "--json", "-r", "3").stdout)
    assert len(data[0]["seconds"]) == 3 and data[0]["median_seconds"] > 0


@pytest.mark.slow
def test_bench_plot_decodes(tmp_path):
    import matplotlib.image

    target = tmp_path / "bench.png"
    result = run(
        "bench", "4-6", "--backends", "recursive,stack", "-r", "2", "-q", "-o", str(target)
    )
    assert result.exit_code == 0 and result.stdout == ""
    pixels = matplotlib.image.imread(target)
    assert pixels.shape[0] > 200 and pixels.shape[1] > 400
    svg = tmp_path / "bench.svg"
    assert run("bench", "4-5", "--backends", "stack", "-o", str(svg)).exit_code == 0
    assert svg.read_text().lstrip().startswith("<?xml")


def test_ctrl_c_says_what_finished_and_writes_nothing(tmp_path, monkeypatch):
    real = bench.time_one

    def interrupted(backend, n, repeat, **limits):
        if n == 6:
            raise KeyboardInterrupt
        return real(backend, n, repeat, **limits)

    monkeypatch.setattr(bench, "time_one", interrupted)
    target = tmp_path / "bench.png"
    result = run("bench", "4-8", "--backends", "stack", "-o", str(target))
    assert result.exit_code == 130
    assert "interrupted; finished: n=4..5 for every backend\n" in result.stderr
    assert "was not written" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_python_dash_m_runs_the_command_line():
    done = subprocess.run(
        [sys.executable, "-m", "cpqueens", "count", "6", "-b", "stack"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, "4\n")
    bad = subprocess.run(
        [sys.executable, "-m", "cpqueens", "solve", "8", "--backend", "nope"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr and bad.stderr.startswith("Error: unknown backend")


def test_crosscheck_agrees_and_prints_a_table():
    result = run("crosscheck", "1-6", "--backends", "stack,recursive")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["n", "1", "2", "3", "4", "5", "6", "compared", "agrees"]
    assert lines[1].split()[2:] == [str(TOTAL[n]) for n in range(1, 7)]
    assert [line.split()[0] for line in lines[2:]] == ["stack", "recursive"]
    assert all(line.endswith("yes") for line in lines[2:])
    data = json.loads(run("crosscheck", "4,6", "--backends", "stack", "--json").stdout)
    assert data["ok"] is True
    assert [(r["n"], r["backend"], r["count"]) for r in data["rows"]] == [
        (4, "stack", 2),
        (6, "stack", 4),
    ]


@pytest.mark.slow
def test_crosscheck_defaults_to_every_enumerating_backend():
    data = json.loads(run("crosscheck", "5", "--json").stdout)
    assert [row["backend"] for row in data["rows"]] == present(ENUMERATING)
    skip_if_any_missing(ENUMERATING, "the cross-check's default backends")


def test_crosscheck_exits_1_on_disagreement(monkeypatch):
    # A reference that forgets one solution makes every honest backend disagree.
    real = cpqueens.solve

    def short(n, backend="recursive", **options):
        result = real(n, backend=backend, **options)
        if backend == "recursive" and result.count:
            return dataclasses.replace(result, solutions=result.solutions[:-1])
        return result

    monkeypatch.setattr("cpqueens.checking.compare.solve", short)
    result = run("crosscheck", "5-6", "--backends", "recursive,stack")
    assert result.exit_code == 1
    assert "9!" in result.stdout and "! recursive n=5: 9 boards for 10 solutions" in result.stdout
    assert "DISAGREE" in result.stderr


@pytest.mark.parametrize("suffix", [".graphml", ".gexf", ".json", ".dot"])
def test_tree_export_reads_back(tmp_path, suffix):
    target = tmp_path / f"tree{suffix}"
    result = run("tree", "5", "-o", str(target))
    assert result.exit_code == 0, result.output
    graph = cpqueens.read_tree(target)
    assert graph.number_of_nodes() == 54
    assert len(cpqueens.tree_solutions(graph)) == TOTAL[5]


def test_tree_graphml_opens_with_networkx(tmp_path):
    import networkx as nx

    target = tmp_path / "tree.graphml"
    assert run("tree", "6", "--rejected", "-o", str(target), "-q").exit_code == 0
    graph = nx.read_graphml(target)
    assert graph.number_of_nodes() == cpqueens.decision_tree(6, include_rejected=True).order()


def test_tree_pictures_and_summary(tmp_path):
    import matplotlib.image

    target = tmp_path / "tree.png"
    result = run("tree", "6", "--solutions-only", "-o", str(target))
    assert result.exit_code == 0 and "wrote" in result.stderr
    assert matplotlib.image.imread(target).ndim == 3
    assert run("tree", "4", "-o", str(tmp_path / "t.svg")).exit_code == 0
    assert "<svg" in (tmp_path / "t.svg").read_text()
    summary = json.loads(run("tree", "8", "--max-depth", "2", "--json").stdout)
    assert summary["solutions"] == 0 and summary["output"] is None
    assert run("tree", "8").stdout == (
        "n=8: decision tree of 2,056 nodes below the root, 92 solutions\n"
    )


def test_tree_too_large_is_a_clear_refusal():
    result = run("tree", "10", "--max-nodes", "1000")
    assert result.exit_code == 2 and "more than --max-nodes 1,000" in result.stderr


class _Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.sources, self.tags = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for name, value in attrs:
            if name in ("src", "href") or (name == "xlink:href"):
                self.sources.append(value)


@pytest.mark.slow
def test_report_html_is_one_self_contained_file(tmp_path):
    target = tmp_path / "report.html"
    result = run(
        "report", "4-6", "--backends", "stack,tree", "-r", "1", "--tree-n", "4", "-o", str(target)
    )
    assert result.exit_code == 0, result.output
    assert list(tmp_path.iterdir()) == [target]
    page = _Page()
    page.feed(target.read_text())
    page.close()
    assert page.sources and all(s.startswith("data:image/") for s in page.sources)
    # Plots of time and nodes, and of the search profile; a decision tree. Tables: the
    # cross-check, the median times and the node counts (backend x n), the profile.
    assert page.tags.count("img") == 3 and page.tags.count("table") == 4
    assert "Search profile, n = 6" in target.read_text()
    assert page.tags.count("svg") == 3  # one sample board per n
    for source in page.sources:
        if source.startswith("data:image/png;base64,"):
            import matplotlib.image

            png = base64.b64decode(source.split(",", 1)[1])
            assert matplotlib.image.imread(io.BytesIO(png), format="png").shape[0] > 100


@pytest.mark.slow
def test_report_markdown_writes_its_pictures_beside_it(tmp_path):
    target = tmp_path / "report.md"
    result = run(
        "report", "5", "--backends", "stack", "-r", "1", "--tree-n", "4", "-o", str(target)
    )
    assert result.exit_code == 0, result.output
    text = target.read_text()
    assert "| stack | 10 | all | yes |" in text
    links = re.findall(r"!\[[^\]]*\]\(([^)]*)\)", text)
    # Files beside the page, linked relatively: data URIs do not show on common hosting.
    assert len(links) >= 4 and all(link.startswith("report_files/") for link in links)
    assert all((tmp_path / link).stat().st_size > 0 for link in links)
    assert "## Search profile, n = 5" in text
    assert "| depth | none/row | forward/row | forward/first-fail | arc/row |" in text


@pytest.mark.parametrize(
    "args", [["count", "9", "-w", "1"], ["crosscheck", "4-6", "--backends", "stack"]]
)
def test_progress_bars_leave_stdout_alone(monkeypatch, args):
    # Pretend stderr is a terminal: the bars are drawn there, the results still on stdout.
    from cpqueens.cli import checking, solving

    monkeypatch.setattr(solving, "wants_bar", lambda quiet: True)
    monkeypatch.setattr(checking, "wants_bar", lambda quiet: True)
    result = run(*args)
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.stdout
    first = result.stdout.splitlines()[0].split()
    assert first in (["352"], ["n", "4", "5", "6", "compared", "agrees"])


@pytest.mark.slow
def test_bench_names_the_effort_each_backend_counts():
    # Registry-driven: whatever a backend reports (nodes, branches or nothing) is labelled.
    data = json.loads(run("bench", "6", "-r", "1", "--json").stdout)
    assert [r["backend"] for r in data] == present(EXHAUSTIVE)
    for record in data:
        stats = cpqueens.solve(6, backend=record["backend"]).stats
        expected = next((k for k in EFFORT_KEYS if stats.get(k) is not None), None)
        assert record["effort"] == expected
        assert (record["nodes"] is None) == (expected is None)
        assert record["count"] == TOTAL[6]
    skip_if_any_missing(EXHAUSTIVE, "bench's default backends")


@pytest.mark.slow
def test_count_stopped_by_the_time_limit_is_a_lower_bound_and_exits_3():
    result = run("count", "30", "-b", "stack", "--time-limit", "0.5")
    assert result.exit_code == 3, result.output
    assert result.stdout.startswith("at least ")
    assert "solutions (stopped by the time limit of 0.5 s)" in result.stdout
    assert "Error" not in result.stderr
    data = json.loads(run("count", "30", "-b", "stack", "--time-limit", "0.5", "--json").stdout)
    assert data["timed_out"] is True and data["count"] >= 0


def test_count_json_says_when_it_was_not_timed_out():
    data = json.loads(run("count", "8", "-b", "stack", "--json").stdout)
    assert data["timed_out"] is False and data["count"] == 92


@pytest.mark.slow
def test_solve_stopped_by_the_time_limit_says_so_and_exits_3():
    result = run("solve", "30", "-b", "stack", "--all", "--time-limit", "0.5")
    assert result.exit_code == 3, result.output
    assert "found before the time limit of 0.5 s" in result.stderr
    assert "incomplete" not in result.stderr
    stopped = run("solve", "30", "-b", "stack", "--all", "--time-limit", "0.5", "--json")
    assert stopped.exit_code == 3
    data = json.loads(stopped.stdout)
    assert data["timed_out"] is True and data["stats"]["timed_out"] is True
    assert data["complete"] is False


def test_solve_json_says_when_it_was_not_timed_out():
    result = run("solve", "6", "--all", "--json", "--time-limit", "60")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["timed_out"] is False


# The tree reference stops at n=12; propagate lists n=12 in well under a second while
# stack and recursive need seconds, so 0.2 s stops them with room to spare.
TIMED_CROSSCHECK = ("crosscheck", "12", "--backends", "stack,recursive")
TIMED_CROSSCHECK += ("--reference", "propagate", "--time-limit", "0.2")


@pytest.mark.slow
def test_crosscheck_time_outs_are_their_own_outcome():
    result = run(*TIMED_CROSSCHECK)
    assert result.exit_code == 3, result.output
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines[2:4]] == ["stack", "recursive"]
    assert all(line.endswith("timed out") and "T " in line for line in lines[2:4])
    assert "T stack n=12: timed out after" in result.stdout
    assert "DISAGREE" not in result.stderr and "timed out" in result.stderr
    data = json.loads(run(*TIMED_CROSSCHECK, "--json").stdout)
    assert data["ok"] is True and data["timed_out"] is True
    assert {row["status"] for row in data["rows"]} == {"timed out"}
    assert all(row["timed_out"] and row["missing_count"] == 0 for row in data["rows"])


@pytest.mark.slow
def test_crosscheck_timeouts_fail_exits_1():
    result = run(*TIMED_CROSSCHECK, "--timeouts-fail")
    assert result.exit_code == 1, result.output
    assert "--timeouts-fail" in result.stderr
    assert json.loads(run(*TIMED_CROSSCHECK, "--timeouts-fail", "--json").stdout)["ok"] is False


def test_crosscheck_disagreement_outweighs_a_time_out(monkeypatch):
    # Both backends stop early; recursive also hands back a board that is no solution.
    real = cpqueens.solve

    def cut_short(n, backend="recursive", **options):
        result = real(n, backend=backend)
        wrong = (tuple(range(n)),) if backend == "recursive" else ()
        stats = {**result.stats, "timed_out": True}
        boards = result.solutions[:1] + wrong
        return dataclasses.replace(result, solutions=boards, complete=False, stats=stats)

    monkeypatch.setattr("cpqueens.checking.compare.solve", cut_short)
    assert run("crosscheck", "5", "--backends", "stack").exit_code == 3
    result = run("crosscheck", "5", "--backends", "recursive,stack")
    assert result.exit_code == 1, result.output
    assert "! recursive n=5: timed out after 2 boards, 1 invalid" in result.stdout
    assert "T stack n=5: timed out after 1 board," in result.stdout
    assert "DISAGREE" in result.stderr
