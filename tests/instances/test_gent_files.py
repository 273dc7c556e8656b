"""Gent's completion files (``letting init = [[r, c], ...]``, numbered from 0) read as
they are meant, and every parameter file whose numbering cannot be told refused with
the reason, never guessed. The files of tests/data/gent and their answers (its
README) are checked against two of cpqueens' backends."""

from __future__ import annotations

import ast
import pathlib
import re

import pytest
from click.testing import CliRunner

import cpqueens
from cpqueens import Instance, InvalidInputError
from cpqueens.cli import cli
from cpqueens.instances import format_instance, parse_instance

GENT = pathlib.Path(__file__).parents[1] / "data" / "gent"
_ROW = re.compile(r"^\| (gent-[\w-]+\.param) \| (\d+) \| (\d+) \| (\d+) \| ([\d ]+|-) \|$", re.M)


def published() -> list[tuple[str, int, int, int, tuple[int, ...] | None]]:
    """The README's table: file, n, queens given, completions, a solution."""
    rows = []
    for name, n, given, count, solution in _ROW.findall((GENT / "README.md").read_text()):
        board = None if solution == "-" else tuple(int(c) for c in solution.split())
        rows.append((name, int(n), int(given), int(count), board))
    return rows


ANSWERS = published()


def test_the_readme_lists_every_file():
    assert sorted(name for name, *_ in ANSWERS) == sorted(p.name for p in GENT.glob("*.param"))
    assert len(ANSWERS) >= 4


@pytest.mark.parametrize(("name", "n", "given", "count", "solution"), ANSWERS)
def test_a_gent_file_reads_as_the_instance_it_states(name, n, given, count, solution):
    path = GENT / name
    text = path.read_text()
    # The generator's own print form: two spaces after '=', the queens as a Python list.
    match = re.fullmatch(r"letting n =  (\d+)\nletting init =  (\[.*\])\n", text)
    assert match, text
    pairs = ast.literal_eval(match[2])
    instance = cpqueens.read_instance(path)
    assert instance == Instance(int(match[1]), fixed=[tuple(pair) for pair in pairs])
    assert (instance.n, len(instance.fixed), instance.name) == (n, given, path.stem)
    # Written back (1-based, under 'queens') and read again, it is the same instance.
    assert parse_instance(format_instance(instance, "essence"), "essence") == instance


@pytest.mark.parametrize(("name", "n", "given", "count", "solution"), ANSWERS)
def test_a_gent_file_has_the_answer_its_readme_states(name, n, given, count, solution):
    instance = cpqueens.read_instance(GENT / name)
    first = cpqueens.solve(instance, backend="stack")
    second = cpqueens.solve(instance, backend="propagate")
    assert first.count == second.count == count
    assert set(first.solutions) == set(second.solutions)
    assert (solution in first.solutions) if count else solution is None
    assert cpqueens.solve(instance, backend="propagate", limit=1).satisfiable is (count > 0)


def test_a_gent_file_without_an_extension_is_read_too(tmp_path):
    bare = tmp_path / "gent-8-3-5"
    bare.write_bytes((GENT / "gent-8-3-5.param").read_bytes())
    assert cpqueens.read_instance(bare) == Instance(8, fixed={1: 0, 2: 2, 3: 7})


def test_gent_files_run_through_the_command_line():
    result = CliRunner().invoke(cli, ["solve", "--instance", str(GENT / "gent-8-3-5.param")])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("satisfiable")


# --- a numbering that cannot be told is refused, never guessed ---------------------------


def _refused(tmp_path, text: str, name: str = "x.param") -> str:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(InvalidInputError) as error:
        cpqueens.read_instance(path)
    message = str(error.value)
    assert message.startswith(str(path)), message
    return message


def test_gent_queens_renamed_to_queens_are_refused_when_a_0_shows_the_numbering(tmp_path):
    text = (GENT / "gent-8-3-5.param").read_text().replace("init", "queens")
    message = _refused(tmp_path, text)
    assert ":2: given queen [1, 0] has a row or column 0, but 'queens' counts from 1" in message
    assert "refused rather than guessed" in message and "'init'" in message


def test_a_block_in_column_0_is_refused_with_the_reason(tmp_path):
    message = _refused(tmp_path, "letting n = 5\nletting blocks = [[2, 3],\n[4, 0]]\n")
    assert ":3: blocked square [4, 0] has a row or column 0" in message


def test_init_holding_n_is_refused_as_maybe_numbered_from_1(tmp_path):
    message = _refused(tmp_path, "letting n =  5\nletting init =  [[1, 2], [3, 5]]\n")
    assert ":2: given queen [3, 5] has a row or column 5, but 'init' counts from 0" in message
    assert "may be numbered from 1" in message
    # Off the board in either numbering: said as such.
    far = _refused(tmp_path, "letting n = 5\nletting init = [[1, 6]]\n")
    assert "off the board: rows and columns run 0..4 under 'init'" in far


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("letting n = 5\nletting init = [[0, 1]]\nletting queens = [[2, 4]]\n",
         ":3: 'init' (line 2) lists squares from 0"),
        ("letting n = 5\nletting blocks = [[1, 1]]\nletting init = [[2, 4]]\n",
         ":3: 'init' (line 3) lists squares from 0"),
    ],
)  # fmt: skip
def test_a_file_mixing_numberings_is_refused(tmp_path, text, words):
    message = _refused(tmp_path, text)
    assert words in message and "cannot be told" in message


def test_init_keeps_the_other_checks_in_its_own_numbering(tmp_path):
    message = _refused(tmp_path, "letting n = 5\nletting init = [[1, 1],\n[1, 3]]\n")
    assert ":3: two queens given on row 1 (columns 1 and 3)" in message
    empty = tmp_path / "empty.param"
    empty.write_text("letting n = 4\nletting init = []\n")
    assert cpqueens.read_instance(empty) == Instance(4)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("n = 5;\nfixed = [-1, 5, -1, -1, -1];\n", ":2: fixed column 5 of row 1"),
        ("n = 5;\nnblocked = 1;\nblocked = array2d(1..1, 1..2, [5, 2]);\n",
         ":3: blocked square (5, 2)"),
    ],
)  # fmt: skip
def test_minizinc_data_holding_n_is_refused_as_maybe_numbered_from_1(tmp_path, text, words):
    message = _refused(tmp_path, text, "x.dzn")
    assert words in message and "may be numbered from 1" in message
