"""Every writer of a tree prices itself before it writes: a write past ``max_bytes`` is
refused at once, with nothing left on disk and a message that names the estimate, the
bound and the bound to pass; the price is near the file really written; a raised bound
lets the write through; the command line takes the bound as --max-bytes."""

import re
import time

import pytest
from click.testing import CliRunner

import cpqueens
from cpqueens.cli import cli
from cpqueens.errors import TreeTooLargeError
from cpqueens.trees.files.costs import WRITE_BYTES, write_price
from cpqueens.trees.files.cpprofiler import write_cpprofiler
from cpqueens.trees.files.readwrite import EXPORT_FORMATS, FORMATS

SEARCHES = [{}, {"propagation": "forward"}, {"propagation": "arc", "order": "first-fail"}]


def refused(tree, path, **bound) -> tuple[TreeTooLargeError, float]:
    start = time.perf_counter()
    with pytest.raises(TreeTooLargeError) as caught:
        cpqueens.export_tree(tree, path, **bound)
    return caught.value, time.perf_counter() - start


@pytest.mark.parametrize("suffix", EXPORT_FORMATS)
def test_a_write_past_the_bound_is_refused_before_anything_is_written(tmp_path, suffix):
    tree = cpqueens.compact_tree(9)
    price = write_price(tree, suffix)
    error, seconds = refused(tree, tmp_path / f"tree{suffix}", max_bytes=price.largest // 2)
    assert list(tmp_path.iterdir()) == []  # no file, no temporary file
    assert seconds < 0.5  # priced from the node count, not by converting the tree
    message = str(error)
    # The estimate, the bound and how to raise it, in the message and the error's fields.
    assert f"max_bytes={price.largest // 2:,}" in message
    assert f"({price.nodes - 1:,} nodes below the root)" in message and "on disk" in message
    assert f"pass max_bytes={price.bound():_} to write it anyway" in message
    assert error.memory == price.memory and error.seconds == price.seconds
    assert error.cost == price.words() and error.estimate == price.nodes


@pytest.mark.parametrize("suffix", FORMATS)
def test_a_large_tree_is_refused_at_once_by_default(tmp_path, suffix):
    # The plain tree of n=13 in a graph format: gigabytes of networkx graph and minutes;
    # refused in far less time than its conversion would take.
    tree = cpqueens.compact_tree(13)
    error, seconds = refused(tree, tmp_path / f"tree{suffix}")
    assert seconds < 0.5
    assert list(tmp_path.iterdir()) == []
    assert f"more than max_bytes={WRITE_BYTES:,}" in str(error)
    assert error.memory > WRITE_BYTES


def test_a_networkx_tree_is_priced_before_it_is_checked(tmp_path, monkeypatch):
    from cpqueens.trees.files import readwrite

    def no_check(*args, **kwargs):  # the check replays the whole search: not reached
        raise AssertionError("checked before it was priced")

    monkeypatch.setattr(readwrite, "_check_tree", no_check)
    G = cpqueens.decision_tree(8)
    with pytest.raises(TreeTooLargeError, match="max_bytes=1,000 "):
        cpqueens.export_tree(G, tmp_path / "tree.graphml", max_bytes=1000)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("search", SEARCHES, ids=str)
@pytest.mark.parametrize("suffix", EXPORT_FORMATS)
@pytest.mark.parametrize("n", [6, 9])
def test_the_price_is_within_a_factor_of_two_of_the_file(tmp_path, suffix, search, n):
    tree = cpqueens.compact_tree(n, **search)
    price = write_price(tree, suffix)
    path = cpqueens.export_tree(tree, tmp_path / f"tree{suffix}")
    size = path.stat().st_size
    assert price.disk / 2 <= size <= price.disk * 2, (size, price)


@pytest.mark.parametrize("suffix", [".json", ".graphml", ".dot", ".sqlite", ".html"])
def test_a_networkx_tree_is_priced_as_its_compact_tree_is_on_disk(tmp_path, suffix):
    G = cpqueens.decision_tree(8, propagation="forward")
    price = write_price(G, suffix)
    size = cpqueens.export_tree(G, tmp_path / f"tree{suffix}").stat().st_size
    assert price.disk / 2 <= size <= price.disk * 2, (size, price)
    assert price.disk == write_price(cpqueens.CompactTree.from_networkx(G), suffix).disk


@pytest.mark.parametrize("suffix", EXPORT_FORMATS)
def test_the_bound_the_message_names_lets_the_write_through(tmp_path, suffix):
    tree = cpqueens.compact_tree(8, propagation="forward")
    path = tmp_path / f"tree{suffix}"
    error, _ = refused(tree, path, max_bytes=1000)
    named = int(re.search(r"pass max_bytes=([\d_]+)", str(error))[1].replace("_", ""))
    assert cpqueens.export_tree(tree, path, max_bytes=named) == path
    assert path.stat().st_size > 0
    # Exactly at the price is within the bound; a byte less is not.
    largest = write_price(tree, suffix).largest
    cpqueens.export_tree(tree, tmp_path / f"again{suffix}", max_bytes=largest)
    refused(tree, tmp_path / f"not{suffix}", max_bytes=largest - 1)
    assert not (tmp_path / f"not{suffix}").exists()


def test_the_database_writer_prices_itself_too(tmp_path):
    tree = cpqueens.compact_tree(9)
    with pytest.raises(TreeTooLargeError, match=r"^write_cpprofiler would take about"):
        write_cpprofiler(tree, tmp_path / "tree.sqlite", max_bytes=10_000)
    assert list(tmp_path.iterdir()) == []
    path = write_cpprofiler(tree, tmp_path / "tree.sqlite", max_bytes=10**8)
    assert cpqueens.read_tree(path) == tree


def test_a_bound_that_is_not_a_number_is_refused(tmp_path):
    with pytest.raises(cpqueens.InvalidTypeError, match="max_bytes"):
        cpqueens.export_tree(cpqueens.compact_tree(5), tmp_path / "t.json", max_bytes=1.5)
    with pytest.raises(cpqueens.InvalidInputError, match="max_bytes"):
        cpqueens.export_tree(cpqueens.compact_tree(5), tmp_path / "t.json", max_bytes=0)


def test_the_command_line_takes_the_bound(tmp_path):
    target = tmp_path / "tree.gexf"
    result = CliRunner().invoke(cli, ["tree", "8", "-o", str(target), "--max-bytes", "1000"])
    assert result.exit_code == 2, result.output
    assert "more than --max-bytes 1,000 allows; give --max-bytes" in result.stderr
    assert not target.exists()
    raised = re.search(r"give --max-bytes (\d+)", result.stderr)[1]
    result = CliRunner().invoke(cli, ["tree", "8", "-o", str(target), "--max-bytes", raised])
    assert result.exit_code == 0, result.output
    assert cpqueens.read_tree(target).number_of_nodes() == 2057


def test_the_bound_is_for_files_not_pictures(tmp_path):
    result = CliRunner().invoke(
        cli, ["tree", "5", "-o", str(tmp_path / "t.svg"), "--max-bytes", "1000"]
    )
    assert result.exit_code == 2 and "--max-bytes applies to files" in result.stderr
