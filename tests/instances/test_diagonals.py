"""Excluded Diagonals (CSPLib problem 79): the files as published, read with d and
answered as published; the instance that keeps its diagonals; the generator; Gent's
reduction to n-queens completion, the same instance as his script prints; the
command line and the campaigns."""

from __future__ import annotations

import csv
import re
import time
from pathlib import Path

import pytest
from backend_sets import params
from click.testing import CliRunner

import cpqueens
from cpqueens import Instance, InvalidInputError, InvalidTypeError
from cpqueens.campaigns.spec import board_json, load_spec
from cpqueens.checking.cases import solves
from cpqueens.cli import cli
from cpqueens.instances import diagonals_to_completion, parse_instance, random_diagonals
from cpqueens.solvers import REGISTRY

DATA = Path(__file__).parents[1] / "data" / "diagonals"
EXAMPLE = DATA / "diag-10-4-1.param"  # the generator's page's example: d = 9 unsat
#: Its published answers around the step: satisfiable up to d = 6, not from d = 7.
SAT, UNSAT = 6, 7


def published() -> list[dict[str, str]]:
    with open(DATA / "answers.csv", newline="") as handle:
        return list(csv.DictReader(handle))


def run(*args: str):
    return CliRunner().invoke(cli, [str(arg) for arg in args])


# --- the published files and their answers -----------------------------------------


def test_every_published_answer_is_cpqueens_answer():
    rows = published()
    assert len(rows) == 79 and {row["file"] for row in rows} == {
        "diag-10-4-1.param", "diag-12-4-7.param", "diag-14-4-3.param", "diag-16-4-2.param",
    }  # fmt: skip
    for row in rows:
        d = int(row["diagonals"])
        instance = cpqueens.read_instance(DATA / row["file"], diagonals=d)
        assert instance.name == f"{row['file'].removesuffix('.param')}-d{d}"
        assert len(instance.diagonals) == d
        result = cpqueens.solve(instance, backend="exactcover", limit=1)
        answer = {True: "sat", False: "unsat"}[result.satisfiable]
        assert answer == row["answer"], f"{row['file']} d={d}: cpqueens says {answer}"
        assert all(solves(board, instance) for board in result.solutions)


def test_the_generator_pages_example_is_unsatisfiable_at_nine():
    instance = cpqueens.read_instance(EXAMPLE, diagonals=9)
    assert cpqueens.solve(instance, backend="stack", limit=1).satisfiable is False


def test_an_excluded_diagonal_blocks_exactly_its_squares():
    # The generator's page: [4, 1] excludes (0,4), (1,3), (2,2), (3,1), (4,0); [5, 0]
    # excludes the difference diagonal 5 - 9 = -4: (0,4), (1,5), ..., (5,9).
    first = cpqueens.read_instance(EXAMPLE, diagonals=1)
    assert first.blocked == ((0, 4), (1, 3), (2, 2), (3, 1), (4, 0))
    difference = Instance(10, diagonals=[(5, 0)])
    assert difference.blocked == tuple((r, r + 4) for r in range(6))
    whole = cpqueens.read_instance(EXAMPLE, diagonals=14)
    for row, column in ((r, c) for r in range(10) for c in range(10)):
        on = any(
            (kind == 1 and row + column == k) or (kind == 0 and row - column == k - 9)
            for k, kind in whole.diagonals
        )
        assert ((row, column) in whole.blocked_set) == on


@pytest.mark.slow
@pytest.mark.parametrize("name", params(n for n, b in REGISTRY.items() if b.supports_blocked))
def test_every_backend_that_takes_blocked_squares_decides_them(name):
    sat = cpqueens.read_instance(EXAMPLE, diagonals=SAT)
    unsat = cpqueens.read_instance(EXAMPLE, diagonals=UNSAT)
    options = {"seed": 1} if REGISTRY[name].randomized else {}
    found = cpqueens.solve(sat, backend=name, limit=1, time_limit=60, **options)
    assert found.satisfiable is True and solves(found.solution, sat)
    # A local search never proves there is none: it stops, not knowing, at its limit; an
    # exhaustive search is given the time to prove it (ACE's JVM alone takes most of 1 s).
    limit = 60 if REGISTRY[name].exhaustive else 1
    none = cpqueens.solve(unsat, backend=name, limit=1, time_limit=limit, **options)
    assert none.satisfiable is (False if REGISTRY[name].exhaustive else None)


# --- reading: d asked for, never guessed ---------------------------------------------


def test_a_file_read_without_d_is_refused_with_its_count():
    with pytest.raises(InvalidInputError) as error:
        cpqueens.read_instance(EXAMPLE)
    message = str(error.value)
    assert str(EXAMPLE) in message and "14 diagonals" in message and "from 0 to 14" in message


@pytest.mark.parametrize(
    ("d", "error", "words"),
    [
        (15, InvalidInputError, "diagonals=15 is out of range: the file holds 14"),
        (-1, InvalidInputError, "diagonals must be an integer >= 0"),
        (2.0, InvalidTypeError, "diagonals must be an integer"),
    ],
)
def test_d_out_of_range_is_refused_naming_the_range(d, error, words):
    with pytest.raises(error, match=words):
        cpqueens.read_instance(EXAMPLE, diagonals=d)


def test_d_zero_is_the_plain_board_and_d_all_the_whole_file():
    none = cpqueens.read_instance(EXAMPLE, diagonals=0)
    assert none == Instance(10) and none.diagonals == () and none.name == "diag-10-4-1-d0"
    every = cpqueens.read_instance(EXAMPLE, diagonals=14)
    assert every.diagonals[:2] == ((4, 1), (2, 1)) and len(every.diagonals) == 14


def test_diagonals_is_refused_for_any_other_file(tmp_path):
    other = cpqueens.write_instance(Instance(5, blocked=[(0, 0)]), tmp_path / "b.param")
    with pytest.raises(InvalidInputError, match=r"b\.param: diagonals= takes the first D"):
        cpqueens.read_instance(other, diagonals=1)
    assert cpqueens.read_instance(other) == Instance(5, blocked=[(0, 0)])


def test_a_file_without_extension_opening_with_n_is_read(tmp_path):
    bare = tmp_path / "diag"
    bare.write_bytes(EXAMPLE.read_bytes())
    assert cpqueens.read_instance(bare, diagonals=3).diagonals == ((4, 1), (2, 1), (14, 0))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("n = 4\nnumdiags = 1\ndiags = [[3, 2]]\n", ":3: [3, 2]: the kind of a diagonal is 1"),
        ("n = 4\nnumdiags = 1\ndiags = [[7, 1]]\n", ":3: [7, 1] is off the board: diagonals run"),
        ("n = 4\nnumdiags = 2\ndiags = [[1, 1],\n[1, 1]]\n", ":4: [1, 1] is listed twice"),
        ("n = 4\nnumdiags = 3\ndiags = [[1, 1]]\n", ":2: numdiags = 3, but diags lists 1"),
        ("n = 4\nnumdiags = 1\n", "no 'diags = ...' in the file"),
        ("numdiags = 0\ndiags = []\n", "the board size is missing"),
        ("n = 4\nnumdiags = 1\ndiags = [[1, 1]\n", "the '[' of line 3 is never closed"),
        ("n = 4\nnumdiag = 1\ndiags = []\n", ":2: unknown name 'numdiag'"),
        ("n = 4\nn = 5\ndiags = []\n", ":2: 'n' is given twice"),
        ("n = 4\nnumdiags = 1\ndiags = [[1, 1, 0]]\n", ":3: ']' is expected, got ','"),
    ],
)
def test_a_bad_file_is_refused_at_its_line(tmp_path, text, words):
    path = tmp_path / "bad.param"
    path.write_text(text)
    with pytest.raises(InvalidInputError) as error:
        cpqueens.read_instance(path, diagonals=1)
    assert str(error.value).startswith(str(path)) and words in str(error.value)


def test_a_set_of_them_is_read_with_d(tmp_path):
    for name in ("diag-10-4-1.param", "diag-12-4-7.param"):
        (tmp_path / name).write_bytes((DATA / name).read_bytes())
    found = cpqueens.read_instances(tmp_path, diagonals=5)
    assert [inst.name for inst in found] == ["diag-10-4-1-d5", "diag-12-4-7-d5"]


# --- the instance keeps its diagonals, and is written back as what it is --------------


def test_the_instance_is_the_blocked_problem_and_keeps_its_diagonals():
    instance = cpqueens.read_instance(EXAMPLE, diagonals=3)
    blocked = Instance(10, blocked=instance.blocked)
    assert instance == blocked and hash(instance) == hash(blocked)  # the same problem
    assert blocked.diagonals is None and instance.diagonals == ((4, 1), (2, 1), (14, 0))
    assert repr(instance) == (
        "Instance(n=10, diagonals=((4, 1), (2, 1), (14, 0)), name='diag-10-4-1-d3')"
    )
    again = Instance(10, blocked=instance.blocked, diagonals=instance.diagonals)
    assert again.diagonals == instance.diagonals


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        ({"fixed": {0: 0}}, "gives no queen"),
        ({"blocked": [(0, 0)]}, "blocked= gives 1 squares, the diagonals cover"),
        ({"diagonals": [(1, 1), (1, 1)]}, r"diagonal \(1, 1\) is excluded twice"),
        ({"diagonals": [(1, 3)]}, "has kind 3"),
        ({"diagonals": [(9, 0)]}, "off the board: k runs over 0..8"),
        ({"diagonals": [(1,)]}, "a diagonal must be a"),
        ({"diagonals": "11"}, "diagonals must be"),
    ],
)
def test_the_instance_refuses_what_is_no_excluded_diagonals_problem(arguments, words):
    given = {"diagonals": [(1, 1)], **arguments}
    with pytest.raises((InvalidInputError, InvalidTypeError), match=words):
        Instance(5, **given)


def test_a_diagonal_too_many_squares_for_any_backend_is_refused_at_once():
    start = time.perf_counter()
    with pytest.raises(InvalidInputError, match="cover more than 4,000,000 squares"):
        Instance(10**7, diagonals=[(10**7 - 1, 1)])
    assert time.perf_counter() - start < 1


def test_written_back_byte_for_byte_and_as_json(tmp_path):
    every = cpqueens.read_instance(EXAMPLE, diagonals=14)
    written = cpqueens.write_instance(every, tmp_path / "same.param")
    assert written.read_bytes() == EXAMPLE.read_bytes()  # the generator's own bytes
    six = cpqueens.read_instance(EXAMPLE, diagonals=6)
    back = cpqueens.read_instance(cpqueens.write_instance(six, tmp_path / "six.param"), diagonals=6)
    assert back == six and back.diagonals == six.diagonals
    json_file = cpqueens.write_instance(six, tmp_path / "six.json")
    read = cpqueens.read_instance(json_file)  # JSON carries the instance's own diagonals
    assert read == six and read.diagonals == six.diagonals and read.name == "six"
    text = json_file.read_text()
    assert '"diagonals": [[4, 1], [2, 1], [14, 0], [8, 1], [8, 0], [7, 0]]' in text
    dzn = cpqueens.write_instance(six, tmp_path / "six.dzn")  # blocked squares there
    assert cpqueens.read_instance(dzn) == six


def test_json_whose_blocks_are_not_its_diagonals_is_refused():
    text = '{"n": 5,\n"blocks": [[0, 0]],\n"diagonals": [[3, 1]]}'
    with pytest.raises(InvalidInputError, match=r"x.json:3: the blocked squares of an Excl"):
        parse_instance(text, "json", "x.json")
    assert parse_instance('{"n": 5, "diagonals": [[0, 1]]}', "json").blocked == ((0, 0),)


# --- the generator -------------------------------------------------------------------


def test_the_generator_excludes_a_maximal_set_keeping_min_free():
    instance = random_diagonals(12, min_free=4, seed=7)
    assert instance == random_diagonals(12, min_free=4, seed=7)
    assert instance.diagonals == random_diagonals(12, min_free=4, seed=7).diagonals
    free = {(r, c) for r in range(12) for c in range(12)} - instance.blocked_set
    for line in range(12):
        assert sum(1 for r, c in free if r == line) >= 4
        assert sum(1 for r, c in free if c == line) >= 4
    for k in range(23):  # maximal: any other diagonal takes a row or column below 4
        for kind in (0, 1):
            if (k, kind) in instance.diagonals:
                continue
            more = Instance(12, diagonals=[*instance.diagonals, (k, kind)])
            rest = {(r, c) for r in range(12) for c in range(12)} - more.blocked_set
            fewest = min(
                min(sum(1 for r, _ in rest if r == i), sum(1 for _, c in rest if c == i))
                for i in range(12)
            )
            assert fewest < 4
    assert random_diagonals(12, 5, min_free=4, seed=7).diagonals == instance.diagonals[:5]


def test_the_generator_refuses_more_than_it_can_exclude():
    most = len(random_diagonals(8, seed=3).diagonals)
    with pytest.raises(InvalidInputError, match=f"this seed's maximal set holds {most}"):
        random_diagonals(8, most + 1, seed=3)
    with pytest.raises(InvalidInputError, match="beyond the Excluded Diagonals generator"):
        random_diagonals(10**6, seed=1)


# --- the reduction to n-queens completion -------------------------------------------


def gents_output(path: Path) -> Instance:
    """Gent's printed instance, read as his scripts read theirs: every number in it."""
    numbers = [int(x) for x in re.findall(r"\d+", path.read_text())]
    return Instance(numbers[0], fixed=list(zip(numbers[1::2], numbers[2::2], strict=True)))


def test_the_reduction_is_the_instance_gents_script_prints():
    gent = gents_output(DATA / "gent-completion-10-4-1-d6.param")
    made = diagonals_to_completion(cpqueens.read_instance(EXAMPLE, diagonals=SAT))
    assert made.n == gent.n == 2543 and made == gent
    assert made.n - len(made.fixed) == 10 and made.name == "diag-10-4-1-d6-completion"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("n", "diagonals"),
    [(4, []), (4, [(2, 0)]), (4, [(0, 1), (6, 1)]), (5, [(2, 1)]), (5, [(2, 1), (4, 1)])],
)
def test_the_reduction_has_the_same_answer(n, diagonals):
    small = Instance(n, diagonals=diagonals)
    big = diagonals_to_completion(small)
    answer = cpqueens.solve(small, backend="stack", limit=1).satisfiable
    result = cpqueens.solve(big, backend="propagate", limit=1)
    assert result.satisfiable is answer
    assert all(solves(board, big) for board in result.solutions)


def test_backends_that_cannot_take_the_reduced_board_refuse_it_at_once():
    big = diagonals_to_completion(cpqueens.read_instance(EXAMPLE, diagonals=SAT))
    small = [name for name, b in REGISTRY.items() if (b.largest_n() or big.n) < big.n]
    assert {"exactcover", "cpsat", "sat", "bitmask"} <= set(small)
    for name in small:
        start = time.perf_counter()
        with pytest.raises(InvalidInputError, match="n=2,543 is beyond"):
            cpqueens.solve(big, backend=name, limit=1)
        assert time.perf_counter() - start < 1, name


def test_the_reduction_takes_only_excluded_diagonals():
    with pytest.raises(InvalidInputError, match="takes an Excluded Diagonals instance"):
        diagonals_to_completion(Instance(5, blocked=[(0, 0)]))
    with pytest.raises(InvalidTypeError):
        diagonals_to_completion(5)


# --- the command line ----------------------------------------------------------------


def test_solve_and_count_take_diagonals():
    result = run("solve", "--instance", EXAMPLE, "--diagonals", UNSAT, "-b", "exactcover")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "unsatisfiable"
    counted = run("count", "--instance", EXAMPLE, "--diagonals", 3, "-b", "stack", "-q")
    assert counted.exit_code == 0 and counted.stdout.strip() == "63"
    refused = run("solve", "--instance", EXAMPLE)
    assert refused.exit_code == 2 and "14 diagonals" in refused.stderr
    alone = run("solve", "8", "--diagonals", "3")
    assert alone.exit_code == 2 and "--diagonals D takes the first D diagonals" in alone.stderr


def test_crosscheck_takes_diagonals():
    result = run(
        "crosscheck", "--instance", EXAMPLE, "--instance", DATA / "diag-12-4-7.param",
        "--diagonals", 9, "--backends", "stack,exactcover", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "diag-10-4-1-d9" in result.stdout and "diag-12-4-7-d9" in result.stdout


def test_generate_diagonals_writes_the_generators_format(tmp_path):
    target = tmp_path / "d.param"
    result = run("generate", "diagonals", 10, "--seed", 1, "-o", target)
    assert result.exit_code == 0, result.output
    text = target.read_text()
    pair = r"\[\d+, [01]\]"
    assert re.fullmatch(rf"n =  10\nnumdiags =  \d+\ndiags =  \[{pair}(, {pair})*\]\n", text)
    assert cpqueens.read_instance(target, diagonals=4).diagonals == (
        random_diagonals(10, 4, seed=1).diagonals
    )
    kept = run("generate", "diagonals", 10, "--seed", 1, "-d", 4, "-f", "json")
    first = random_diagonals(10, 4, seed=1).diagonals
    assert parse_instance(kept.stdout, "json").diagonals == first


def test_generate_diagonals_to_completion(tmp_path):
    target = tmp_path / "c.json"
    result = run("generate", "diagonals-to-completion", EXAMPLE, "--diagonals", SAT, "-o", target)
    assert result.exit_code == 0, result.output
    assert "n=2,543, 10 queens to place" in result.stderr
    assert cpqueens.read_instance(target) == gents_output(DATA / "gent-completion-10-4-1-d6.param")
    refused = run("generate", "diagonals-to-completion", EXAMPLE, "-o", target)
    assert refused.exit_code == 2 and "from 0 to 14" in refused.stderr


# --- campaigns -----------------------------------------------------------------------


@pytest.mark.slow
def test_a_campaign_takes_each_file_with_each_d(tmp_path):
    spec = {
        "instances": [{"files": str(DATA / "diag-1[02]-*.param"), "diagonals": [SAT, UNSAT]}],
        "solvers": [{"backend": "exactcover"}],
    }
    loaded = load_spec(spec)
    labels = [Path(item.label).name for item in loaded.instances]
    assert labels == [
        "diag-10-4-1.param-d6", "diag-10-4-1.param-d7",
        "diag-12-4-7.param-d6", "diag-12-4-7.param-d7",
    ]  # fmt: skip
    assert loaded.instances[0].source["diagonals"] == SAT
    assert '"diagonals":[[4,1],[2,1]' in board_json(loaded.instances[0].instance)
    report = cpqueens.run_campaign(spec, tmp_path / "r.sqlite", workers=1)
    assert report.ok
    answers = {
        (Path(row["file"]).name, row["params"]["diagonals"]): row["status"]
        for row in cpqueens.load_results(tmp_path / "r.sqlite")
    }
    assert answers == {
        ("diag-10-4-1.param", 6): "sat", ("diag-10-4-1.param", 7): "unsat",
        ("diag-12-4-7.param", 6): "sat", ("diag-12-4-7.param", 7): "sat",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ({"diagonals": -1}, "diagonals must be an integer >= 0"),
        ({"diagonals": 99}, "diagonals=99 is out of range"),
        ({}, "14 diagonals"),
    ],
)
def test_a_campaign_refuses_a_bad_d_naming_the_table(table, words):
    spec = {
        "instances": [{"files": str(EXAMPLE), **table}],
        "solvers": [{"backend": "exactcover"}],
    }
    with pytest.raises(InvalidInputError, match=r"\[\[instances\]\] #1") as error:
        load_spec(spec)
    assert words in str(error.value)
