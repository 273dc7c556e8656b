"""The compact notations of the command line: board sizes, fixed queens, atomic files."""

import pytest

from cpqueens import InvalidInputError
from cpqueens.cli.ranges import parse_fixed, parse_names, parse_sizes
from cpqueens.disk.writing import atomic_path, write_atomic
from cpqueens.parallel.progress import progress_bar, wants_bar


@pytest.mark.parametrize(
    "text, sizes",
    [
        ("1-10", list(range(1, 11))),
        ("4,6,8", [4, 6, 8]),
        ("8, 4-5 ,4", [4, 5, 8]),
        ("3..5", [3, 4, 5]),
    ],
)
def test_sizes(text, sizes):
    assert parse_sizes(text) == sizes


@pytest.mark.parametrize("text", ["", "a", "1-", "-3", "1-2-3", "4;5", "1.5", "4,,5"])
def test_malformed_sizes_name_the_text(text):
    with pytest.raises(InvalidInputError, match="malformed board sizes"):
        parse_sizes(text)


@pytest.mark.parametrize(
    "text, message",
    [("0:", "malformed fixed queen"), ("a:1", "malformed"), ("1:2,1:3", "given twice")],
)
def test_malformed_fixed(text, message):
    with pytest.raises(InvalidInputError, match=message):
        parse_fixed(text)


def test_names_keep_order_and_refuse_unknown():
    assert parse_names("b,a,b", ["a", "b"]) == ["b", "a"]
    with pytest.raises(InvalidInputError, match="unknown backend 'c'; valid backends are: a, b"):
        parse_names("a,c", ["a", "b"])
    with pytest.raises(InvalidInputError, match="comma-separated"):
        parse_names(" , ", ["a"])


def test_interrupted_write_leaves_nothing(tmp_path):
    target = tmp_path / "out.csv"
    with pytest.raises(KeyboardInterrupt), atomic_path(target) as temporary:
        temporary.write_text("half")
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []
    write_atomic(target, "whole\n")
    assert target.read_text() == "whole\n" and list(tmp_path.iterdir()) == [target]


def test_no_progress_bar_off_a_terminal(capsys):
    assert wants_bar(quiet=False) is False  # pytest captures stderr: not a terminal
    with progress_bar(2, "work", enabled=True) as bar:
        bar.advance("next")
        bar.update(2, 2)
    assert "\x1b" not in capsys.readouterr().out
