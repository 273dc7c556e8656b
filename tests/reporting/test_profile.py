"""Seeing what propagation prunes: tree pictures and files from the CLI, the search profile."""

import csv
import io
import json

import pytest
from click.testing import CliRunner
from known_counts import A000170 as TOTAL

import cpqueens
from cpqueens.cli import cli
from cpqueens.reporting.profile.plot import profile_figure
from cpqueens.reporting.profile.profiles import COMBINATIONS, default_solvers, search_profile
from cpqueens.reporting.profile.tables import profile_csv


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("suffix", [".graphml", ".gexf", ".json", ".dot", ".png", ".svg", ".pdf"])
def test_tree_with_propagation_in_every_format(tmp_path, suffix):
    target = tmp_path / f"t{suffix}"
    result = run("tree", "6", "--propagation", "arc", "--order", "first-fail", "-o", str(target))
    assert result.exit_code == 0, result.output
    assert "44 queens placed, 18 dead ends" in result.stderr
    if suffix in (".png", ".svg", ".pdf"):
        assert target.stat().st_size > 1000
        return
    G = cpqueens.read_tree(target)
    H = cpqueens.decision_tree(6, propagation="arc", order="first-fail")
    assert dict(G.nodes(data=True)) == dict(H.nodes(data=True))
    assert (G.graph["propagation"], G.graph["order"]) == ("arc", "first-fail")


def test_tree_json_summary_and_refusals():
    summary = json.loads(run("tree", "8", "--propagation", "forward", "--json").stdout)
    assert (summary["queens_placed"], summary["dead_ends"], summary["solutions"]) == (1724, 560, 92)
    refused = run("tree", "6", "--order", "first-fail")
    assert refused.exit_code == 2 and "needs domains" in refused.stderr
    unknown = run("tree", "6", "--propagation", "ac3")
    assert unknown.exit_code == 2 and "'none', 'forward', 'arc'" in unknown.stderr
    assert run("tree", "8").stdout == (
        "n=8: decision tree of 2,056 nodes below the root, 92 solutions\n"
    )


@pytest.mark.slow
def test_drawing_sets_wipe_outs_apart(tmp_path):
    from cpqueens.trees.pictures.drawing import _kind

    G = cpqueens.decision_tree(6, propagation="forward", include_rejected=True)
    kinds = {v: _kind(d) for v, d in G.nodes(data=True)}
    assert {kinds[v] for v, d in G.nodes(data=True) if d["dead_end"]} == {"wiped_out"}
    assert "rejected" in kinds.values() and "dead_end" not in kinds.values()
    svg = cpqueens.draw_tree(G, tmp_path / "t.svg").read_text()
    assert "wiped out" in svg and " pruned)" in svg


def test_profile_counts_match_the_trees():
    profile = search_profile(7, {1: 3}, solvers=[])
    assert [(line.propagation, line.order) for line in profile.searches] == list(COMBINATIONS)
    for line in profile.searches:
        G = cpqueens.decision_tree(7, {1: 3}, propagation=line.propagation, order=line.order)
        depths = [d for node, d in G.nodes(data="depth") if node]
        assert list(line.nodes_per_depth) == [depths.count(k) for k in range(8)]
        assert line.solutions == len(cpqueens.tree_solutions(G))
    # Propagation never places more queens than blind search, and arc never more than forward.
    nodes = {line.label: line.nodes for line in profile.searches}
    assert nodes["arc/row"] <= nodes["forward/row"] <= nodes["none/row"]


def test_profile_reads_the_solvers_own_figures():
    profile = search_profile(6, solvers=[*default_solvers(), "random", "nonsense"])
    by_name = {s.backend: s for s in profile.solvers}
    assert by_name["nonsense"].error and "valid backends" in by_name["nonsense"].error
    assert by_name["random"].count == TOTAL[6]
    if "cpsat" in by_name:
        assert by_name["cpsat"].efforts()[0][0] == "branches"
    record = json.loads(json.dumps(profile.to_record()))
    assert record["searches"][3]["nodes"] == profile.searches[3].nodes
    rows = list(csv.DictReader(io.StringIO(profile_csv(profile))))
    first = [r for r in rows if r["series"] == "none/row" and r["figure"] == "nodes"]
    assert [int(r["value"]) for r in first] == list(profile.searches[0].nodes_per_depth[1:])
    figure = profile_figure(profile)
    assert figure.axes[0].get_yscale() == "log" and len(figure.axes[0].lines) == 5


@pytest.mark.slow
def test_profile_command(tmp_path):
    result = run("profile", "6", "--solvers", "none")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1].split() == [
        "depth",
        *(f"{p}/{o}" for p, o in COMBINATIONS),
    ]
    for suffix in (".png", ".svg", ".csv", ".json"):
        target = tmp_path / f"p{suffix}"
        assert run("profile", "6", "--solvers", "none", "-q", "-o", str(target)).exit_code == 0
        assert target.stat().st_size > 100
    data = json.loads(run("profile", "5", "--fixed", "0:0", "--solvers", "none", "--json").stdout)
    assert data["fixed"] == {"0": 0} and data["searches"][0]["solutions"] == 2
    bad = run("profile", "6", "-o", str(tmp_path / "p.txt"))
    assert bad.exit_code == 2 and "allowed extensions" in bad.stderr
    assert run("profile", "0").exit_code == 2
