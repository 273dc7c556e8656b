"""Instance files (Essence', JSON, MiniZinc data, DIMACS, exact cover) and the seeded
generators of blocked n-queens and completion instances, with their command."""

from __future__ import annotations

import itertools
import os
import pathlib
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner
from reference import brute_force

import cpqueens
from cpqueens import Instance, InvalidInputError, random_blocked, random_completion
from cpqueens.cli import cli
from cpqueens.instances import files, format_instance, generators, parse_instance
from cpqueens.instances.generators import random_solution

MODEL = pathlib.Path(cpqueens.__file__).parent / "solvers" / "minizinc" / "queens.mzn"
READABLE = {"essence": ".param", "json": ".json", "dzn": ".dzn", "xcsp": ".xml"}


def solutions_of(instance: Instance) -> set[tuple[int, ...]]:
    return brute_force(instance.n, instance.fixed_rows, instance.blocked)


def sample_instances() -> list[Instance]:
    """Hand-made corners and random instances of both kinds, n <= 8."""
    made = [
        Instance(1),
        Instance(4),
        Instance(1, fixed={0: 0}),
        Instance(3, blocked=[(0, 0), (2, 2), (1, 0)]),
        Instance(5, fixed={2: 2}, blocked=[(0, 0), (1, 3)]),
        Instance(8, fixed={0: 7, 7: 0}, blocked=[(3, 3), (4, 4)]),
    ]
    for seed in range(6):
        n = 4 + seed % 5
        made.append(random_blocked(n, seed + 2, seed=seed))
        made.append(random_completion(n, 1 + seed % 3, seed=seed))
        made.append(random_completion(max(n, 4), 2, seed=seed, from_solution=True))
        both = random_blocked(n, n, seed=seed + 100)
        queen = next(iter(sorted(set(itertools.product(range(n), repeat=2)) - both.blocked_set)))
        made.append(Instance(n, fixed=[queen], blocked=both.blocked))
    return made


SAMPLES = sample_instances()


# --- round trips -------------------------------------------------------------------


@pytest.mark.parametrize("fmt", sorted(READABLE))
@pytest.mark.parametrize("instance", SAMPLES, ids=repr)
def test_write_then_read_gives_the_same_instance(tmp_path, fmt, instance):
    path = cpqueens.write_instance(instance, tmp_path / f"case{READABLE[fmt]}")
    back = cpqueens.read_instance(path)
    assert back == instance
    assert (back.fixed, back.blocked) == (instance.fixed, instance.blocked)
    assert back.name == "case"
    assert parse_instance(format_instance(instance, fmt), fmt) == instance


def test_the_eprime_param_suffix_and_a_file_without_suffix_are_essence(tmp_path):
    instance = Instance(6, fixed={1: 3}, blocked=[(0, 0), (5, 5)])
    long = cpqueens.write_instance(instance, tmp_path / "six.eprime-param")
    assert cpqueens.read_instance(long) == instance
    assert cpqueens.read_instance(long).name == "six"
    bare = tmp_path / "bq-6"
    bare.write_text(long.read_text().split("\n", 1)[1])  # no comment: opens with letting
    assert cpqueens.read_instance(bare) == instance
    assert cpqueens.read_instance(bare).name == "bq-6"


def test_write_with_an_explicit_format(tmp_path):
    instance = Instance(4, blocked=[(1, 1)])
    path = cpqueens.write_instance(instance, tmp_path / "plain", format="json")
    assert path.read_text() == '{"n": 4, "blocks": [[1, 1]], "queens": []}\n'
    with pytest.raises(InvalidInputError, match="unknown instance format 'yaml'"):
        cpqueens.write_instance(instance, tmp_path / "x.json", format="yaml")


# --- Essence' ----------------------------------------------------------------------


def test_the_essence_example_of_the_generators():
    text = "letting n = 5\nletting blocks = [[1,1],\n[2,4],\n]\n"
    assert parse_instance(text, "essence") == Instance(5, blocked=[(0, 0), (1, 3)])


@pytest.mark.parametrize(
    "text",
    [
        "letting n = 5\nletting blocks = [[1,1],[2,4]]\n",
        "letting n=5 letting blocks=[[1,1],[2,4],]",
        "letting   n   =\n\n  5\r\nletting blocks\t=\t[ [ 1 , 1 ] ,\n\n [2,\n4] , ]\n",
        "$ a blocked queens instance\nletting n = 5 $ the size\n"
        "letting blocks = [ $ row, column\n [1,1], $ first\n [2,4]  $ second\n]\n$ the end",
        "language ESSENCE' 1.0\nletting n be 5\nletting blocks be [[1,1],[2,4]]\n",
        "letting blocks = [[2,4],[1,1],[1,1]]\nletting n = 5\n",
        "letting n = 5\nletting blocks = [[1,1],[2,4]; int(1..2)]\n",
    ],
)
def test_essence_layouts_comments_and_trailing_commas(text):
    assert parse_instance(text, "essence") == Instance(5, blocked=[(0, 0), (1, 3)])


def test_essence_completion_instances_list_their_queens():
    text = "letting n = 8\nletting queens = [\n  [1, 8],\n  [4, 2],\n]\n"
    assert parse_instance(text, "essence") == Instance(8, fixed={0: 7, 3: 1})
    both = "letting n = 4\nletting queens = [[1,2]]\nletting blocks = [[1,1]]\n"
    assert parse_instance(both, "essence") == Instance(4, fixed={0: 1}, blocked=[(0, 0)])
    assert parse_instance("letting n = 4\nletting blocks = []", "essence") == Instance(4)


def test_essence_is_written_one_based_with_only_what_is_given():
    text = format_instance(Instance(5, fixed={2: 2}, blocked=[(0, 0), (1, 3)]), "essence")
    lines = text.splitlines()
    assert lines[0].startswith("$ ")
    assert lines[1:] == [
        "letting n = 5",
        "letting blocks = [",
        "  [1, 1],",
        "  [2, 4]",
        "]",
        "letting queens = [",
        "  [3, 3]",
        "]",
    ]
    assert format_instance(Instance(3), "essence").splitlines()[1:] == ["letting n = 3"]


# --- JSON and MiniZinc data ------------------------------------------------------------


def test_json_is_the_pycsp3_form_from_zero():
    instance = Instance(5, fixed={2: 2}, blocked=[(1, 3), (0, 0)])
    expected = '{"n": 5, "blocks": [[0, 0], [1, 3]], "queens": [[2, 2]]}\n'
    assert format_instance(instance, "json") == expected
    assert parse_instance('{"n": 5, "blocks": [[0, 0], [1, 3]]}', "json") == Instance(
        5, blocked=[(0, 0), (1, 3)]
    )


def test_dzn_is_written_in_exactly_the_models_form():
    instance = Instance(5, fixed={1: 2}, blocked=[(0, 0), (1, 3)])
    assert format_instance(instance, "dzn") == (
        "n = 5;\n"
        "fixed = [-1, 2, -1, -1, -1];\n"
        "nblocked = 2;\n"
        "blocked = array2d(1..2, 1..2, [0, 0, 1, 3]);\n"
        "fewest_first = true;\n"
    )
    assert format_instance(Instance(3), "dzn") == (
        "n = 3;\n"
        "fixed = [-1, -1, -1];\n"
        "nblocked = 0;\n"
        "blocked = array2d(1..0, 1..2, []);\n"
        "fewest_first = true;\n"
    )


def test_dzn_is_read_in_any_layout():
    text = (
        "% a completion instance\nn=5;fixed=[-1,2,-1,\n-1,-1,];\n"
        "blocked =\n  array2d(1..2, 1..2,\n  [0, 0,\n   1, 3]);  % two squares\n"
        "fewest_first = false;"
    )
    assert parse_instance(text, "dzn") == Instance(5, fixed={1: 2}, blocked=[(0, 0), (1, 3)])
    assert parse_instance("n = 4;", "dzn") == Instance(4)


def test_the_minizinc_model_reads_blocked_squares():
    assert "int: nblocked;" in MODEL.read_text()


@pytest.mark.slow
@pytest.mark.parametrize("instance", SAMPLES[:12], ids=repr)
def test_minizinc_solves_a_written_dzn_file_from_the_command_line(tmp_path, instance):
    executable = shutil.which("minizinc")
    if executable is None:
        pytest.skip("needs the minizinc program on the PATH: apt-get install minizinc")
    data = cpqueens.write_instance(instance, tmp_path / "case.dzn")
    run = subprocess.run(
        [executable, "--all-solutions", str(MODEL), str(data)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    found = {
        tuple(int(c) for c in line[len("q = [") : -len("];")].split(","))
        for line in run.stdout.splitlines()
        if line.startswith("q = [")
    }
    assert found == solutions_of(instance)
    assert ("=====UNSATISFIABLE=====" in run.stdout) == (not found)


# --- errors ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text", "where", "words"),
    [
        ("bad.param", "letting n = 5\nletting blocks = [[1,x]]\n", ":2:", "got 'x'"),
        ("bad.param", "letting n = 5\nletting blocks = [[1,1],\n[2,4.5]]\n", ":3:", "bad number"),
        ("bad.param", "letting n = 5x\n", ":1:", "bad number '5x'"),
        ("zero.param", "letting n = 5\nletting blocks = [\n[1,1],\n[0,4]]\n", ":4:", "[0, 4]"),
        ("zero.param", "letting n = 5\nletting queens = [[3,0]]\n", ":2:", "given queen [3, 0]"),
        ("off.param", "letting n = 5\nletting blocks = [[1,1],\n\n[6,1]]\n", ":4:", "1..5"),
        ("nosize.param", "$ nothing\nletting blocks = [[1,1]]\n", ":2:", "board size is missing"),
        ("typo.param", "letting n = 5\nletting block = [[1,1]]\n", ":2:", "unknown name 'block'"),
        ("open.param", "letting n = 5\nletting blocks = [[1,1]\n", ":2:", "never closed"),
        ("twice.param", "letting n = 5\nletting n = 6\n", ":2:", "'n' is given twice"),
        ("size.param", "letting n = 0\n", ":1:", "positive integer"),
        ("pair.param", "letting n = 4\nletting blocks = [[1,1,1]]\n", ":2:", "pair"),
        ("rows.param", "letting n = 4\nletting queens = [[1,1],\n[1,3]]", ":3:", "row 1"),
        (
            "on.param",
            "letting n = 4\nletting blocks = [[2,2]]\nletting queens = [\n[2,2]]",
            ":4:",
            "[2, 2]",
        ),
        ("bad.json", '{"n": 5,\n"blocks": [[0, 0],\n[1, "x"]]}', ":3:", "pair of whole numbers"),
        ("bad.json", '{"n": 5,\n"blocks": [[0, 0],\n[1, 5]]}', ":3:", "0..4"),
        ("bad.json", '{"n": 5,\n"blocks": [[0, 0],\n[-1, 2]]}', ":3:", "[-1, 2]"),
        ("bad.json", '{"n": 5,\n"blocks": [[0, 0]\n[1, 2]]}', ":3:", "not valid JSON"),
        ("bad.json", '{\n"blocks": []}', ":1:", "board size is missing"),
        ("bad.json", '{"n": 5,\n"fixed": []}', ":2:", "unknown key 'fixed'"),
        ("bad.json", '{"n": 2.5}', ":1:", "whole number"),
        ("bad.dzn", "n = 5;\nfixed = [-1, 2, -1, -1, 7];\n", ":2:", "off the board"),
        (
            "bad.dzn",
            "n = 5;\nnblocked = 1;\nblocked = array2d(1..1, 1..2,\n[0, 9]);",
            ":4:",
            "0..4",
        ),
        (
            "bad.dzn",
            "n = 5;\nnblocked = 3;\nblocked = array2d(1..1, 1..2, [0, 1]);",
            ":2:",
            "nblocked",
        ),
        ("bad.dzn", "n = 5;\nfixed = [-1, 2, -1];\n", ":2:", "3 entries"),
        ("bad.dzn", "n = five;\n", ":1:", "got 'five'"),
        ("bad.dzn", "fixed = [-1];\n", ":1:", "board size is missing"),
        ("bad.dzn", "n = 5\nfixed = [-1, -1, -1, -1, -1];", ":2:", "';' is expected"),
    ],
)
def test_a_malformed_file_is_refused_naming_the_file_and_line(tmp_path, name, text, where, words):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(InvalidInputError) as error:
        cpqueens.read_instance(path)
    message = str(error.value)
    assert message.startswith(f"{path}{where} "), message
    assert words in message


@pytest.mark.parametrize("name", ["x.txt", "x.yaml", "x.param.bak"])
def test_an_unknown_suffix_is_refused_naming_the_file(tmp_path, name):
    path = tmp_path / name
    path.write_text("letting n = 4\n")
    with pytest.raises(InvalidInputError, match=r"cannot tell the instance format of .*x\."):
        cpqueens.read_instance(path)
    with pytest.raises(InvalidInputError, match=r"allowed extensions: \.param"):
        cpqueens.write_instance(Instance(4), path)


def test_unreadable_files_are_refused_clearly(tmp_path):
    with pytest.raises(InvalidInputError, match=r"\.cnf files are only written"):
        cpqueens.read_instance(tmp_path / "x.cnf")
    with pytest.raises(InvalidInputError, match="no such file"):
        cpqueens.read_instance(tmp_path / "missing.param")
    bare = tmp_path / "notes"
    bare.write_text("n = 4;\n")
    with pytest.raises(InvalidInputError, match=r"notes: .*must open with 'letting'"):
        cpqueens.read_instance(bare)
    with pytest.raises(cpqueens.InvalidTypeError):
        cpqueens.write_instance((4, []), tmp_path / "x.json")


# --- write-only formats ------------------------------------------------------------


def _read_xc(text: str) -> tuple[list[str], list[str], list[list[str]]]:
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("|")]
    primary, secondary = (part.split() for part in lines[0].split("|"))
    return primary, secondary, [line.split() for line in lines[1:]]


def _exact_covers(primary, secondary, options):
    """Every set of options covering each primary item once, each secondary at most once."""
    found = []

    def search(uncovered, used, chosen):
        if not uncovered:
            found.append(sorted(chosen))
            return
        item = min(uncovered)
        for index, option in enumerate(options):
            if item in option and not (set(option) & used) and set(option) <= all_items:
                search(uncovered - set(option), used | set(option), [*chosen, index])

    all_items = set(primary) | set(secondary)
    search(frozenset(primary), set(), [])
    return found


@pytest.mark.parametrize("instance", [s for s in SAMPLES if s.n <= 6], ids=repr)
def test_xc_file_structure_and_its_exact_covers(instance):
    n = instance.n
    text = format_instance(instance, "xc")
    assert text.startswith("| ")
    primary, secondary, options = _read_xc(text)
    assert primary == [f"r{r}" for r in range(n)] + [f"c{c}" for c in range(n)]
    assert secondary == [f"a{k}" for k in range(2 * n - 1)] + [f"b{k}" for k in range(2 * n - 1)]
    for name in primary + secondary:
        assert 1 <= len(name) <= 8 and ":" not in name and "|" not in name
    allowed = [
        (r, c)
        for r in range(n)
        for c in range(n)
        if (r, c) not in instance.blocked_set and instance.fixed_rows.get(r, c) == c
    ]
    assert options == [[f"r{r}", f"c{c}", f"a{r + c}", f"b{r - c + n - 1}"] for r, c in allowed]
    covers = {
        tuple(int(options[i][1][1:]) for i in sorted(cover, key=lambda i: int(options[i][0][1:])))
        for cover in _exact_covers(primary, secondary, options)
    }
    assert covers == solutions_of(instance)


def test_xc_refuses_item_names_longer_than_eight_characters():
    from cpqueens.instances.formats.xc import MAX_XC_N

    with pytest.raises(InvalidInputError, match="eight"):
        format_instance(Instance(MAX_XC_N + 1), "xc")


def test_cnf_is_written_and_its_models_are_the_solutions(tmp_path):
    pytest.importorskip("pysat")
    from pysat.formula import CNF
    from pysat.solvers import Solver

    for instance in [s for s in SAMPLES if s.n <= 6]:
        path = cpqueens.write_instance(instance, tmp_path / "case.cnf")
        text = path.read_text()
        assert any(line.startswith("p cnf ") for line in text.splitlines())
        n = instance.n
        board = range(1, n * n + 1)
        found = set()
        with Solver(bootstrap_with=CNF(from_string=text).clauses) as solver:
            for model in solver.enum_models():
                queens = [v - 1 for v in model if v > 0 and v in board]
                found.add(tuple(v % n for v in sorted(queens)))
                solver.add_clause([-v for v in model if v > 0 and v in board])
        assert found == solutions_of(instance), instance


# --- generators ----------------------------------------------------------------------


def test_the_generators_give_these_instances_for_these_seeds():
    # Fixed for good: a change here changes every instance set made with cpqueens.
    assert random_blocked(8, 10, seed=42) == Instance(
        8,
        blocked=[(0, 7), (1, 0), (1, 1), (1, 4), (2, 4), (3, 5), (3, 7), (4, 1), (7, 2), (7, 3)],
    )
    assert random_blocked(6, 12, min_free=2, seed=7).blocked[:4] == ((1, 1), (1, 2), (1, 3), (2, 1))
    assert random_completion(8, 3, seed=42) == Instance(8, fixed={0: 7, 1: 1, 3: 5})
    assert random_completion(12, 5, seed=42, from_solution=True) == Instance(
        12, fixed={1: 0, 2: 4, 7: 3, 8: 9, 9: 2}
    )
    assert random_solution(8, generators.random.Random(42)) == (5, 0, 4, 1, 7, 2, 6, 3)


@pytest.mark.slow
def test_the_same_seed_gives_the_same_instance_in_another_process():
    code = (
        "import cpqueens;"
        "print(cpqueens.random_blocked(9, 20, min_free=2, seed=5).blocked);"
        "print(cpqueens.random_completion(30, 9, seed=5).fixed);"
        "print(cpqueens.random_completion(30, 9, seed=5, from_solution=True).fixed)"
    )
    outputs = set()
    for hash_seed in ("0", "12345"):
        environment = {**os.environ, "PYTHONHASHSEED": hash_seed}
        run = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=environment
        )
        assert run.returncode == 0, run.stderr
        outputs.add(run.stdout)
    here = (
        f"{random_blocked(9, 20, min_free=2, seed=5).blocked}\n"
        f"{random_completion(30, 9, seed=5).fixed}\n"
        f"{random_completion(30, 9, seed=5, from_solution=True).fixed}\n"
    )
    assert outputs == {here}


def test_different_seeds_give_different_instances():
    assert len({random_blocked(10, 30, seed=s) for s in range(20)}) == 20
    assert len({random_completion(10, 4, seed=s) for s in range(20)}) == 20


@pytest.mark.parametrize(
    ("n", "count", "min_free"), [(5, 10, 1), (8, 40, 2), (8, 24, 5), (6, 0, 6)]
)
def test_random_blocked_keeps_min_free_squares_in_every_row_and_column(n, count, min_free):
    for seed in range(15):
        instance = random_blocked(n, count, min_free=min_free, seed=seed)
        assert len(instance.blocked) == count
        for line in range(n):
            assert sum(1 for r, _ in instance.blocked if r == line) <= n - min_free
            assert sum(1 for _, c in instance.blocked if c == line) <= n - min_free


def test_random_blocked_follows_the_visit_order_of_gent_et_al():
    # With min_free = n - 1 a row and a column each take one blocked square: the
    # blocked squares are the first squares of the visit order on distinct rows and
    # columns, so they never share one.
    instance = random_blocked(7, 7, min_free=6, seed=3)
    assert len({r for r, _ in instance.blocked}) == len({c for _, c in instance.blocked}) == 7


def test_random_blocked_refusals(monkeypatch):
    with pytest.raises(InvalidInputError, match=r"at most 6 \(n \* \(n - min_free\)\)"):
        random_blocked(3, 7)
    with pytest.raises(InvalidInputError, match="min_free must be at most n=3"):
        random_blocked(3, 0, min_free=4)
    with pytest.raises(InvalidInputError, match="seed must be an integer >= 0"):
        random_blocked(3, 1, seed=-1)
    # Blocking 6 of 9 squares, 1 free a line: the greedy pass can block a 2x2 corner
    # first and stop at 5. With one attempt allowed, some seed shows the refusal.
    monkeypatch.setattr(generators, "ATTEMPTS", 1)
    refused = 0
    for seed in range(40):
        try:
            random_blocked(3, 6, seed=seed)
        except InvalidInputError as error:
            assert "1 random orders all stopped short; ask for fewer" in str(error)
            refused += 1
    assert 0 < refused < 40


@pytest.mark.parametrize("from_solution", [False, True])
def test_random_completion_gives_non_attacking_queens(from_solution):
    for seed in range(12):
        n = 4 + seed % 5
        instance = random_completion(n, 1 + seed % 4, seed=seed, from_solution=from_solution)
        assert len(instance.fixed) == 1 + seed % 4
        for (r1, c1), (r2, c2) in itertools.combinations(instance.fixed, 2):
            assert r1 != r2 and c1 != c2 and abs(r1 - r2) != abs(c1 - c2)
        if from_solution:
            assert solutions_of(instance), instance


def test_random_completion_refusals(monkeypatch):
    with pytest.raises(InvalidInputError, match="at most 5"):
        random_completion(5, 6)
    with pytest.raises(InvalidInputError, match="3-queens problem has no solution"):
        random_completion(3, 1, from_solution=True)
    with pytest.raises(cpqueens.InvalidTypeError):
        random_completion(5, 1, from_solution="yes")
    monkeypatch.setattr(generators, "ATTEMPTS", 1)
    with pytest.raises(InvalidInputError, match="from_solution=True"):
        random_completion(9, 9, seed=1)
    assert random_completion(9, 9, seed=1, from_solution=True).fixed_rows.keys() == set(range(9))


@pytest.mark.parametrize("n", [1, 4, 5, 6, 7, 10, 12, 13, 16, 40, 300])
def test_random_solution_is_a_solution(n):
    for seed in range(3):
        solution = random_solution(n, generators.random.Random(seed))
        assert cpqueens.is_valid(solution) and len(solution) == n


# --- the command -------------------------------------------------------------------------


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_generate_blocked_writes_the_seeded_instance(tmp_path):
    target = tmp_path / "b.param"
    result = run("generate", "blocked", "8", "--blocked", "10", "--seed", "42", "-o", str(target))
    assert result.exit_code == 0, result.output
    assert f"wrote {target}" in result.stderr
    assert cpqueens.read_instance(target) == random_blocked(8, 10, seed=42)


def test_generate_completion_many_at_once_into_a_folder(tmp_path):
    folder = tmp_path / "set"
    result = run(
        "generate", "completion", "10", "--queens", "4", "--seed", "7", "--from-solution",
        "--count", "3", "-o", f"{folder}/", "--format", "json", "-q",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in folder.iterdir())
    assert names == [f"completable-n10-q4-seed{s}.json" for s in (7, 8, 9)]
    for seed in (7, 8, 9):
        read = cpqueens.read_instance(folder / f"completable-n10-q4-seed{seed}.json")
        assert read == random_completion(10, 4, seed=seed, from_solution=True)
        assert read.name == f"completable-n10-q4-seed{seed}"
    result = run(
        "generate", "blocked", "6", "-m", "5", "--min-free", "2", "--seed", "0", "--count",
        "2", "-o", str(folder),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert (folder / "blocked-n6-m5-free2-seed1.param").exists()


def test_generate_prints_when_no_output_is_given():
    result = run("generate", "blocked", "5", "--blocked", "3", "--seed", "1", "-f", "dzn")
    assert result.exit_code == 0
    assert result.stdout == format_instance(random_blocked(5, 3, seed=1), "dzn")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["blocked", "3", "--blocked", "9", "--seed", "1"], "at most 6"),
        (["blocked", "5", "--blocked", "2", "--seed", "1", "--count", "2", "-o", "x.param"],
         "-o names a folder"),
        (["blocked", "5", "--blocked", "2", "--seed", "1", "-o", "x.txt"], "instance format"),
        (["blocked", "5", "--blocked", "2", "--seed", "1", "-o", "x.json", "-f", "dzn"],
         "disagrees"),
        (["completion", "5", "--queens", "2", "--seed", "-1"], "0 or more"),
        (["completion", "5", "--queens", "2", "--seed", "1", "--count", "2"], "-o DIR/"),
        (["completion", "5", "--queens", "9", "--seed", "1", "-o", "x.param"], "at most 5"),
    ],
)  # fmt: skip
def test_generate_refuses_bad_input_with_status_2(tmp_path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    result = run("generate", *args)
    assert result.exit_code == 2, result.output
    assert words in result.stderr
    assert not list(tmp_path.iterdir())


def test_the_readers_and_writers_cover_the_formats():
    assert set(files.FORMATS) == {"essence", "json", "dzn", "cnf", "xc", "fzn", "xcsp"}
    assert set(files.READABLE) == set(READABLE)
