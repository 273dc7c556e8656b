"""Blocked n-queens and n-queens completion on every registered backend, against an
independent brute force; the Instance object; satisfiable; cross-checks of instances."""

import random
import sys

import pytest
from reference import brute_force

import cpqueens
from cpqueens import Instance
from cpqueens.solvers import REGISTRY


def random_instances(count, seed, sizes=range(4, 8)):
    """Small random instances: some squares blocked, sometimes a queen or two given."""
    chooser = random.Random(seed)
    made = []
    for index in range(count):
        n = chooser.choice(list(sizes))
        squares = [(r, c) for r in range(n) for c in range(n)]
        blocked = chooser.sample(squares, chooser.randint(0, n * n // 3))
        free = [s for s in squares if s not in blocked]
        fixed = {}
        for row, column in chooser.sample(free, chooser.randint(0, 2)):
            fixed.setdefault(row, column)
        made.append(Instance(n, fixed=fixed, blocked=blocked, name=f"random-{seed}-{index}"))
    return made


INSTANCES = random_instances(12, seed=2017)
#: Known answers, worked out by hand: a blocked square that leaves a board unsolvable.
NONE_LEFT = Instance(4, blocked=[(0, 1), (0, 2)])  # row 0 needs column 1 or 2


def expected(instance):
    return brute_force(instance.n, instance.fixed_rows, instance.blocked)


def test_every_backend_takes_blocked_squares():
    # The explicit construction takes no fixed queens and no blocked squares either.
    refusing = [
        name
        for name, backend in REGISTRY.items()
        if not backend.supports_blocked and backend.supports_fixed
    ]
    assert not refusing, f"backends that refuse blocked squares: {refusing}"


@pytest.mark.slow
@pytest.mark.parametrize("instance", INSTANCES, ids=lambda i: i.name)
def test_solution_sets_match_the_brute_force(backend, instance):
    want = expected(instance)
    if REGISTRY[backend].enumerates:
        got = cpqueens.solutions(instance, backend=backend)
        found = list(got)
        assert len(found) == len(set(found)), "a solution came twice"
        assert set(found) == want
    assert cpqueens.count(instance, backend=backend) == len(want)


def test_the_same_as_arguments(backend):
    instance = INSTANCES[0]
    by_arguments = cpqueens.count(
        instance.n, backend=backend, fixed=instance.fixed_rows, blocked=instance.blocked
    )
    assert by_arguments == cpqueens.count(instance, backend=backend)


def test_satisfiable_is_the_decision_question(backend):
    unsat = cpqueens.solve(NONE_LEFT, backend=backend, limit=1)
    assert unsat.satisfiable is False and unsat.count == 0
    sat = cpqueens.solve(Instance(6, blocked=[(0, 0), (5, 5)]), backend=backend, limit=1)
    assert sat.satisfiable is True
    assert all((r, c) not in {(0, 0), (5, 5)} for r, c in enumerate(sat.solution))


def test_satisfiable_is_unknown_when_stopped_before_knowing():
    result = cpqueens.solve(30, backend="stack", time_limit=0.05)
    assert result.count > 0 or result.satisfiable is None
    assert (
        cpqueens.Result(
            n=4, backend="x", solutions=(), count=0, complete=False, stats={}, elapsed=0, fixed={}
        ).satisfiable
        is None
    )


# The Instance itself ------------------------------------------------------------------


def test_an_instance_is_frozen_hashable_and_sorted():
    a = Instance(6, fixed={2: 3}, blocked=[(5, 5), (0, 1), (0, 1)], name="a")
    b = Instance(6, fixed=[(2, 3)], blocked=[(0, 1), (5, 5)])
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a.blocked == ((0, 1), (5, 5)) and a.fixed == ((2, 3),)
    with pytest.raises(AttributeError):
        a.n = 7
    assert repr(Instance(4)) == "Instance(n=4)"


def test_a_repr_fits_a_line_naming_n_and_the_counts():
    big = cpqueens.random_blocked(30, 225, seed=1)
    given = cpqueens.Instance(40, fixed={r: (3 * r) % 40 for r in range(0, 40, 4)})
    diagonals = cpqueens.Instance(40, diagonals=[(k, 0) for k in range(40)])
    named = big.renamed("/data/competitions/xcsp-2022/BlockedQueens/blockedqueens-28-1.xml")
    expected = [  # a list: instances that differ only in their name are equal
        (big, ("n=30", "225 blocked squares")),
        (given, ("n=40", "10 fixed queens")),
        (diagonals, ("n=40", "40 excluded diagonals (820 squares)")),
        (named, ("n=30", "225 blocked squares", "blockedqueens-28-1.xml'")),
    ]
    for instance, words in expected:
        text = repr(instance)
        assert "\n" not in text and len(text) < 120, text
        assert text.startswith("Instance(") and all(word in text for word in words), text
    # The fields hold every square; a short instance still shows them in its repr.
    assert len(big.blocked) == 225 and len(given.fixed) == 10
    small = Instance(5, fixed={0: 0}, blocked=[(2, 4)])
    assert repr(small) == "Instance(n=5, fixed=((0, 0),), blocked=((2, 4),))"


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"blocked": [(0, 6)]}, cpqueens.InvalidInputError, r"blocked square \(0, 6\) is off"),
        ({"blocked": [(-1, 0)]}, cpqueens.InvalidInputError, r"blocked square \(-1, 0\)"),
        ({"blocked": [(1,)]}, cpqueens.InvalidTypeError, r"\(row, column\) pair of integers"),
        ({"blocked": [(1, 2, 3)]}, cpqueens.InvalidTypeError, r"got \(1, 2, 3\)"),
        ({"blocked": [("a", 1)]}, cpqueens.InvalidTypeError, r"got \('a', 1\)"),
        ({"blocked": 7}, cpqueens.InvalidTypeError, "iterable of"),
        ({"blocked": "ab"}, cpqueens.InvalidTypeError, "iterable of"),
        ({"fixed": {0: 1}, "blocked": [(0, 1)]}, cpqueens.InvalidInputError, r"\(0, 1\) stands"),
        ({"fixed": [(0, 1), (0, 2)]}, cpqueens.InvalidInputError, "two queens given on row 0"),
        ({"fixed": [(0, 9)]}, cpqueens.InvalidInputError, "column 9 is off the board"),
    ],
)
def test_bad_instances_are_refused_naming_the_square(kwargs, error, message):
    with pytest.raises(error, match=message):
        Instance(6, **kwargs)
    if "fixed" in kwargs and not isinstance(kwargs["fixed"], dict):
        return
    with pytest.raises(error, match=message):
        cpqueens.solve(6, backend="stack", **kwargs)


def test_an_instance_and_blocked_arguments_do_not_mix():
    with pytest.raises(cpqueens.InvalidInputError, match="not both"):
        cpqueens.solve(Instance(5), blocked=[(0, 0)])


def test_unique_classes_are_refused_with_blocked_squares():
    with pytest.raises(cpqueens.UnsupportedOptionError, match="blocked squares break"):
        cpqueens.count(6, blocked=[(0, 0)], unique=True)


def test_the_result_says_which_squares_were_blocked():
    result = cpqueens.solve(Instance(5, blocked=[(1, 1), (0, 0)]))
    assert result.blocked == ((0, 0), (1, 1))


# Cross-checks of instances --------------------------------------------------------------


def test_crosscheck_takes_instances(enumerating_backend):
    report = cpqueens.crosscheck(INSTANCES[:4], [enumerating_backend])
    assert report.ok, str(report)
    assert [row.instance for row in report.rows] == [i.name for i in INSTANCES[:4]]


def test_a_function_is_called_with_the_instance():
    def wrong(instance):  # forgets the blocked squares
        return cpqueens.solutions(instance.n, fixed=instance.fixed_rows)

    case = Instance(6, blocked=[(0, 1)], name="one-blocked")
    report = cpqueens.crosscheck(case, [wrong, "stack"])
    wrong_row, stack_row = report.rows
    assert not wrong_row.agrees and wrong_row.extra_count == 1 and stack_row.agrees
    assert "one-blocked" in str(report)


PROGRAM = """
import itertools, json, sys
spec = json.load(open(sys.argv[1]))
n, blocked = spec["n"], {tuple(s) for s in spec.get("blocks", [])}
queens = {r: c for r, c in spec.get("queens", [])}
for p in itertools.permutations(range(n)):
    if any(p[r] != c for r, c in queens.items()) or any((r, c) in blocked for r, c in enumerate(p)):
        continue
    if len({r + c for r, c in enumerate(p)}) == n == len({r - c for r, c in enumerate(p)}):
        print(" ".join(map(str, p)))
"""


def test_a_program_reads_the_instance_file(tmp_path):
    script = tmp_path / "solver.py"
    script.write_text(PROGRAM)
    program = cpqueens.Command([sys.executable, str(script), "{instance}"], name="mine")
    report = cpqueens.crosscheck(INSTANCES[:3], [program])
    assert report.ok, str(report)


def test_a_program_without_instance_cannot_be_given_blocked_squares():
    program = cpqueens.Command([sys.executable, "-c", "print('bdac cadb')"], name="plain")
    (row,) = cpqueens.crosscheck(Instance(4, blocked=[(0, 0)]), [program]).rows
    assert row.status == "ERROR" and "has no {instance}" in row.error
    assert cpqueens.crosscheck(Instance(4), [program]).ok


# The command line -------------------------------------------------------------------------


def run_cli(*args):
    from click.testing import CliRunner

    from cpqueens.cli import cli

    return CliRunner().invoke(cli, list(args))


def test_solve_an_instance_file_says_the_answer_first(tmp_path):
    unsat = tmp_path / "none.json"
    cpqueens.write_instance(NONE_LEFT, unsat)
    result = run_cli("solve", "--instance", str(unsat), "-b", "stack")
    assert result.exit_code == 0 and result.stdout.splitlines()[0] == "unsatisfiable"
    sat = tmp_path / "some.param"
    cpqueens.write_instance(Instance(6, blocked=[(0, 0)]), sat)
    result = run_cli("solve", "--instance", str(sat), "--json", "-q")
    record = __import__("json").loads(result.stdout)
    assert record["satisfiable"] is True and record["blocked"] == [[0, 0]]
    both = run_cli("solve", "6", "--instance", str(sat))
    assert both.exit_code == 2 and "give it alone" in both.output
    assert run_cli("solve").exit_code == 2


def test_count_and_tree_take_blocked_squares():
    want = len(brute_force(6, {}, [(0, 1), (2, 2)]))
    result = run_cli("count", "6", "--blocked", "0:1,2:2", "-b", "stack", "-q")
    assert result.exit_code == 0 and int(result.stdout) == want
    tree = run_cli("tree", "6", "--blocked", "0:1,2:2")
    assert tree.exit_code == 0 and f"{want} solutions" in tree.output
    bad = run_cli("count", "6", "--blocked", "0:9", "-b", "stack")
    assert bad.exit_code == 2 and "(0, 9) is off the board" in bad.output


def test_crosscheck_instance_files(tmp_path):
    paths = []
    for instance in INSTANCES[:2]:
        path = tmp_path / f"{instance.name}.json"
        cpqueens.write_instance(instance, path)
        paths.append(str(path))
    args = ["crosscheck", "--instance", paths[0], "--instance", paths[1]]
    result = run_cli(*args, "--backends", "stack,sat", "-q")
    assert result.exit_code == 0, result.output
    assert INSTANCES[0].name in result.output and "NO" not in result.output
