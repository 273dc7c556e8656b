"""``cpqueens tree``: the styles of its pictures, failed subtrees hidden, the explorer
and database outputs, boards from files, and two searches compared."""

import json
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

import cpqueens
from cpqueens.cli import cli
from cpqueens.cli import trees as tree_command
from cpqueens.trees.explicit.summary import tree_summary

PNG = b"\x89PNG\r\n\x1a\n"


def run(*args: str):
    return CliRunner().invoke(cli, ["tree", *args])


@pytest.mark.parametrize("style", ["icicle", "pixel"])
@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
def test_styles_write_pictures(tmp_path, style, suffix):
    target = tmp_path / f"t{suffix}"
    result = run("9", "--style", style, "-o", str(target), "--width", "400")
    assert result.exit_code == 0, result.output
    assert (
        result.stderr
        == f"n=9: decision tree of 8,393 nodes below the root, 352 solutions; wrote {target}\n"
    )
    data = target.read_bytes()
    if suffix == ".svg":
        assert ET.fromstring(data).tag.endswith("svg")
    else:
        assert data.startswith(PNG if suffix == ".png" else b"%PDF-")


def test_pictures_build_no_networkx_tree_they_cannot_draw(tmp_path, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a networkx tree was built")

    monkeypatch.setattr("cpqueens.trees.explicit.build.decision_tree", refuse)
    for args in (["-o", str(tmp_path / "t.png"), "--style", "pixel"], []):
        result = run("12", *args)
        assert result.exit_code == 0, result.output
    assert (
        run("12").stdout
        == "n=12: decision tree of 856,188 nodes below the root, 14,200 solutions\n"
    )
    # A traditional drawing counts what it would draw on the compact tree, and refuses.
    refused = run("12", "--hide-failed", "-o", str(tmp_path / "t.png"))
    assert refused.exit_code == 2 and "162,895 nodes are too many to draw" in refused.stderr


@pytest.mark.slow
def test_hide_failed_draws_n10_and_plain_n9_is_refused_in_the_command_lines_words(tmp_path):
    result = run("10", "--hide-failed", "-o", str(tmp_path / "t.png"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "t.png").read_bytes().startswith(PNG)
    refused = run("9", "-o", str(tmp_path / "u.png"))
    assert refused.exit_code == 2
    assert (
        "pass --solutions-only or --hide-failed, or draw it with --style icicle" in refused.stderr
    )
    assert not (tmp_path / "u.png").exists()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["6", "--style", "icicle"], "--style applies to pictures"),
        (["6", "--hide-failed", "-o", "t.json"], "--hide-failed applies to pictures"),
        (["6", "--width", "300", "-o", "t.html"], "--width applies to pictures"),
        (
            ["6", "--hide-failed", "--style", "pixel", "-o", "t.png"],
            "applies to --style traditional, not pixel",
        ),
        (["6", "--width", "300", "-o", "t.png"], "--width applies to --style icicle and pixel"),
        (
            ["6", "--style", "sunburst", "-o", "t.png"],
            "'sunburst' is not one of 'traditional', 'icicle', 'pixel'",
        ),
        (
            ["6", "--compare", "none", "first-fail"],
            "two propagations (none, forward, arc) or two orders",
        ),
        (["6", "--compare", "arc", "some"], "'some' is not one of"),
        (
            ["6", "--compare", "none", "arc", "-o", "t.graphml"],
            "as a picture (.png, .svg, .pdf) or .html",
        ),
        (
            ["6", "--compare", "none", "arc", "--style", "traditional", "-o", "t.png"],
            "--style icicle or pixel",
        ),
        (["-o", "t.png"], "give a board size N, or --instance FILE"),
        (["6", "--compare", "none", "arc", "--propagation", "arc"], "drop --propagation"),
        (["6", "--compare", "row", "first-fail", "--order", "first-fail"], "drop --order"),
    ],
)
def test_options_that_do_not_fit_are_refused(tmp_path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    result = run(*args)
    assert result.exit_code == 2 and words in result.stderr, result.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("suffix", [".html", ".sqlite"])
def test_explorer_and_database_go_through_export_tree(tmp_path, monkeypatch, suffix):
    calls = []

    def export(tree, path):
        calls.append((tree, path))
        path.write_text("x")
        return path

    monkeypatch.setattr("cpqueens.trees.files.readwrite.export_tree", export)
    target = tmp_path / f"t{suffix}"
    result = run("7", "--propagation", "forward", "-o", str(target))
    assert result.exit_code == 0, result.output
    [(tree, path)] = calls
    assert path == target and tree == cpqueens.compact_tree(7, propagation="forward")


def test_a_board_from_a_file(tmp_path):
    instance = cpqueens.Instance(7, fixed={0: 1}, blocked=[(3, 3), (4, 0)])
    path = cpqueens.write_instance(instance, tmp_path / "board.json")
    from_file = json.loads(run("--instance", str(path), "--json").stdout)
    given = json.loads(run("7", "--fixed", "0:1", "--blocked", "3:3,4:0", "--json").stdout)
    assert from_file == given
    G = cpqueens.decision_tree(instance)
    assert from_file["nodes"] == G.number_of_nodes() - 1
    picture = tmp_path / "t.png"
    assert run("-i", str(path), "--style", "icicle", "-o", str(picture)).exit_code == 0
    result = run("7", "--instance", str(path))
    assert result.exit_code == 2 and "give it alone" in result.stderr


@pytest.mark.parametrize(
    "kwargs",
    [
        {"n": 8},
        {"n": 7, "include_rejected": True},
        {"n": 8, "propagation": "arc", "order": "first-fail"},
        {"n": 7, "propagation": "forward", "include_rejected": True, "max_depth": 4},
        {"n": 5, "fixed": {0: 0, 2: 2}, "propagation": "arc"},
        {"n": 6, "blocked": [(0, c) for c in range(6)], "propagation": "forward"},
    ],
)
def test_the_compact_summary_is_the_graphs(kwargs):
    compact = tree_command._figures(cpqueens.compact_tree(**kwargs))
    assert compact == tree_summary(cpqueens.decision_tree(**kwargs))


def test_the_summary_line_is_unchanged():
    assert run("8").stdout == "n=8: decision tree of 2,056 nodes below the root, 92 solutions\n"
    line = run("5", "--fixed", "0:0,2:2", "--propagation", "arc").stdout
    assert line.endswith(", 0 solutions; row 0 (counted from 0) is wiped out at the root\n")


def test_compare_prints_the_table_and_draws_the_merged_tree(tmp_path):
    from cpqueens.trees.compare import compare_trees

    expected = compare_trees(
        cpqueens.compact_tree(8, propagation="forward"), cpqueens.compact_tree(8, propagation="arc")
    )
    result = run("8", "--compare", "forward", "arc")
    assert result.exit_code == 0, result.output
    assert result.stdout == expected.table() + "\n"
    picture = tmp_path / "merged.svg"
    drawn = run("8", "--compare", "forward", "arc", "-o", str(picture), "--style", "pixel")
    # The lines under the table say what its words mean, then what was written.
    assert drawn.exit_code == 0
    assert drawn.stderr == "\n".join([*expected.legend(), f"wrote {picture}\n"])
    assert "dead end = " in drawn.stderr and "subtrees pruned by b = " in drawn.stderr
    text = picture.read_text()
    assert "a: forward, b: arc: 768 nodes in both, 956 only in a, 0 only in b" in text
    page = tmp_path / "merged.html"
    assert run("8", "--compare", "forward", "arc", "-o", str(page), "-q").exit_code == 0
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_compare_orders_shares_the_other_options_and_json(tmp_path):
    result = run("7", "--compare", "row", "first-fail", "--propagation", "forward", "--json")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    a = cpqueens.compact_tree(7, propagation="forward")
    b = cpqueens.compact_tree(7, propagation="forward", order="first-fail")
    assert figures["a"] == len(a) - 1 and figures["b"] == len(b) - 1
    assert figures["compare"] == ["row", "first-fail"] and figures["solutions"] == [40, 0, 0]
    # Branching on different rows, the trees cannot be merged: nothing to draw.
    drawn = run(
        "7", "--compare", "row", "first-fail", "--propagation", "arc", "-o", str(tmp_path / "m.png")
    )
    assert drawn.exit_code == 2 and "no merged tree to draw" in drawn.stderr
    assert not (tmp_path / "m.png").exists()


def test_compare_with_a_board_from_a_file(tmp_path):
    path = cpqueens.write_instance(cpqueens.Instance(8, fixed={1: 3}), tmp_path / "b.json")
    result = run("--instance", str(path), "--compare", "none", "forward", "--json")
    figures = json.loads(result.stdout)
    assert figures["n"] == 8
    assert figures["a"] == len(cpqueens.compact_tree(8, {1: 3})) - 1
    assert figures["b"] == len(cpqueens.compact_tree(8, {1: 3}, propagation="forward")) - 1


def test_a_tree_beyond_the_compact_arrays_is_refused_in_words():
    result = run("18")
    assert result.exit_code == 2 and "would have at least" in result.stderr
    assert "--max-depth D or --fixed R:C" in result.stderr
    capped = run("10", "--max-nodes", "1000")
    assert capped.exit_code == 2 and "more than --max-nodes 1,000" in capped.stderr


def test_icicle_pixel_and_html_shortcuts(tmp_path):
    for flag, style in (("--icicle", "icicle"), ("--pixel", "pixel")):
        short, long = tmp_path / f"short-{style}.png", tmp_path / f"long-{style}.png"
        assert run("8", flag, "-o", str(short), "--width", "300").exit_code == 0
        assert run("8", "--style", style, "-o", str(long), "--width", "300").exit_code == 0
        assert short.read_bytes() == long.read_bytes()
    page = tmp_path / "tree.html"
    result = run("7", "--propagation", "forward", "--html", str(page))
    assert result.exit_code == 0, result.output
    assert page.read_text().startswith("<!DOCTYPE html>")
    merged = tmp_path / "merged.html"
    assert run("6", "--compare", "forward", "arc", "--html", str(merged)).exit_code == 0
    assert merged.exists()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--icicle", "--style", "pixel", "-o", "x.png"], "ask for two styles"),
        (["--html", "x.png"], "give a file ending in .html, not 'x.png'"),
        (["--html", "a.html", "-o", "b.html"], "both name the output"),
    ],
)
def test_shortcuts_that_clash_are_refused(tmp_path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    result = run("6", *args)
    assert result.exit_code != 0 and words in result.output
    assert not list(tmp_path.iterdir())
