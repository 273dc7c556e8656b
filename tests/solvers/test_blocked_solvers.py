"""Blocked n-queens and completion on the constraint and SAT backends, and the CNF text.

Every backend here is checked against a brute force of its own (every permutation,
filtered by the attack rule, the given queens and the blocked squares) on seeded
random small instances, in each of its ways to search; then the instances without a
solution, ``limit=1``, the MiniZinc model run from the command line on a data file,
and :func:`cpqueens.instances.formats.cnf.dimacs` solved by pysat and read back.
"""

import functools
import random
import re
import shutil
import subprocess
import sys
from itertools import permutations

import pytest
from backend_sets import params, usable

import cpqueens
from cpqueens import Instance
from cpqueens.instances.formats import cnf
from cpqueens.solvers import REGISTRY
from cpqueens.solvers.minizinc import backend as minizinc_backend

BACKENDS = ("cpsat", "constraint", "choco", "cpmpy", "minizinc", "sat")


@functools.cache
def brute_force(instance: Instance) -> frozenset[tuple[int, ...]]:
    """Every solution of ``instance``, from all permutations (n <= 8)."""
    n, given, blocked = instance.n, instance.fixed_rows, instance.blocked_set
    return frozenset(
        p
        for p in permutations(range(n))
        if all(p[row] == column for row, column in given.items())
        and not any((row, column) in blocked for row, column in enumerate(p))
        and len({row + column for row, column in enumerate(p)}) == n
        and len({row - column for row, column in enumerate(p)}) == n
    )


def random_instance(seed: int) -> Instance:
    """n in 4..8, up to two queens given (in distinct rows), up to n*n/3 squares blocked.

    Half the time the given queens come from a solution of the plain board, so that
    blocked squares, not the given queens alone, decide most instances.
    """
    rng = random.Random(seed)
    n = rng.randint(4, 8)
    rows = rng.sample(range(n), rng.randint(0, 2))
    plain = sorted(brute_force(Instance(n)))
    if rng.random() < 0.5:
        solution = rng.choice(plain)
        given = {row: solution[row] for row in rows}
    else:
        given = {row: rng.randrange(n) for row in rows}
    free = [(r, c) for r in range(n) for c in range(n) if given.get(r) != c]
    blocked = rng.sample(free, rng.randint(0, n * n // 3))
    return Instance(n, fixed=given, blocked=blocked, name=f"seed {seed}")


INSTANCES = [random_instance(seed) for seed in range(20)]

#: Each backend's ways to search, as the options and call arguments that choose them.
VARIANTS = [
    ("cpsat", {"search": "blocks"}),
    ("cpsat", {"search": "blocks", "split_depth": 0}),
    ("cpsat", {"search": "blocks", "split_depth": 3}),
    ("cpsat", {"search": "free"}),
    ("constraint", {"diagonals": "global"}),
    ("constraint", {"diagonals": "pairwise"}),
    ("choco", {"search": "input"}),
    ("choco", {"search": "first-fail", "consistency": "BC"}),
    ("cpmpy", {}),
    ("cpmpy", {"solver": "choco"}),
    ("minizinc", {"search": "input"}),
    ("minizinc", {"search": "first-fail"}),
    ("sat", {}),
    ("sat", {"encoding": "pairwise", "solver": "glucose4"}),
    ("sat", {"encoding": "totalizer"}),
    ("sat", {"encoding": "native", "solver": "minicard"}),
    ("sat", {"solver": "kissat404"}),  # not incremental: a fresh solver per solution
    # With a time limit, Kissat runs in a child process: the blocked squares travel there.
    ("sat", {"solver": "kissat404", "time_limit": 120}),
]


def variant_id(variant):
    name, options = variant
    return "-".join([name, *(f"{k}={v}" for k, v in options.items())])


@pytest.fixture(params=VARIANTS, ids=variant_id)
def variant(request):
    name, options = request.param
    usable(name)
    if name == "cpmpy" and "solver" in options:
        from cpqueens.solvers.cpmpy import _looked_up_solvers

        if options["solver"] not in _looked_up_solvers()[0]:
            pytest.skip(f"cpmpy's solver {options['solver']!r} is not usable here")
    if name == "sat" and "solver" in options:
        from cpqueens.solvers.sat.backend import usable_solvers

        if options["solver"] not in usable_solvers():
            pytest.skip(f"pysat's solver {options['solver']!r} is not built here")
    return name, options


def test_the_instances_mix_solvable_and_unsolvable_ones():
    counts = [len(brute_force(instance)) for instance in INSTANCES]
    assert sum(1 for c in counts if c) >= 12 and sum(1 for c in counts if not c) >= 3
    assert any(instance.blocked and instance.fixed for instance in INSTANCES)


@pytest.mark.parametrize("name", BACKENDS)
def test_the_backends_say_they_take_blocked_squares(name):
    assert REGISTRY[name].supports_blocked
    assert next(i for i in cpqueens.backends() if i.name == name).blocked


@pytest.mark.slow
def test_every_variant_finds_exactly_the_solutions_of_random_instances(variant):
    name, options = variant
    for instance in INSTANCES:
        expected = brute_force(instance)
        result = cpqueens.solve(instance, backend=name, **options)
        assert result.complete, (instance, result.stats)
        assert set(result.solutions) == expected, instance
        assert result.count == len(expected), instance  # and no solution twice
        assert result.satisfiable is bool(expected), instance


#: No solution once the given queen's row neighbour loses its two columns left.
CUT_OFF = Instance(5, fixed={1: 2}, blocked=[(0, 0), (0, 4)])
#: No solution: row 3 has every square blocked.
BARE_ROW = Instance(6, blocked=[(3, column) for column in range(6)])
#: Instances without a solution: proved by search, by the given queen, by a bare row.
UNSOLVABLE = [
    Instance(3, blocked=[(1, 1)]),
    Instance(4, blocked=[(0, 1), (0, 2)]),
    CUT_OFF,
    BARE_ROW,
    Instance(7, fixed={0: 3}, blocked=[(6, column) for column in range(7)]),
    Instance(8, blocked=[(0, column) for column in range(8)]),
]


@pytest.mark.slow
def test_an_instance_without_solution_is_proved_so(variant):
    name, options = variant
    for instance in UNSOLVABLE:
        assert not brute_force(instance)
        result = cpqueens.solve(instance, backend=name, **options)
        assert result.count == 0 and result.complete, (instance, result.stats)
        assert result.satisfiable is False, instance
        assert cpqueens.count(instance, backend=name, **options) == 0


#: The one solution (4, 2, 0, 3, 1).
ONE_SOLUTION = Instance(5, fixed={1: 2}, blocked=[(0, 0), (1, 3)])
#: Eleven solutions of n=8, with a queen given.
ELEVEN = Instance(8, fixed={0: 3}, blocked=[(1, c) for c in range(0, 8, 2)] + [(5, 5), (7, 0)])
#: Instances with solutions: one only, and a few.
SOLVABLE = [
    Instance(1),
    ONE_SOLUTION,
    ELEVEN,
    Instance(8, blocked=[(r, c) for r in range(8) for c in range(8) if (r + c) % 5 == 0]),
]


@pytest.mark.slow
def test_limit_one_finds_a_solution_and_says_satisfiable(variant):
    name, options = variant
    for instance in SOLVABLE:
        expected = brute_force(instance)
        assert expected
        result = cpqueens.solve(instance, backend=name, limit=1, **options)
        assert result.count == 1 and result.solution in expected, instance
        assert result.satisfiable is True, instance


def test_blocked_squares_in_the_split_rows_are_never_a_cpsat_block():
    usable("cpsat")
    instance = Instance(8, blocked=[(0, c) for c in range(7)] + [(1, 5)])
    result = cpqueens.solve(instance, backend="cpsat", split_depth=2)
    assert set(result.solutions) == brute_force(instance)
    # Row 0 keeps column 7, row 1 then columns 0..4: five blocks, one run each.
    assert result.stats["solver_runs"] == 5


@pytest.mark.parametrize("name", params(["cpsat", "constraint", "choco"]))
def test_a_bare_row_starts_no_solver_and_is_named(name):
    assert cpqueens.solve(BARE_ROW, backend=name).stats["empty_row"] == 3


# --- MiniZinc: the model on a data file, from the command line ---------------------


def write_dzn(instance: Instance, path, *, fewest_first: bool) -> None:
    """``instance`` as queens.mzn's data, in the format its header comment gives."""
    fixed = [instance.fixed_rows.get(row, -1) for row in range(instance.n)]
    flat = [value for square in instance.blocked for value in square]
    path.write_text(
        f"n = {instance.n};\n"
        f"fixed = [{', '.join(map(str, fixed))}];\n"
        f"nblocked = {len(instance.blocked)};\n"
        f"blocked = array2d(1..{len(instance.blocked)}, 1..2, [{', '.join(map(str, flat))}]);\n"
        f"fewest_first = {str(fewest_first).lower()};\n"
    )


@pytest.mark.slow
@pytest.mark.parametrize("fewest_first", [False, True])
def test_the_minizinc_model_solves_a_data_file_from_the_command_line(tmp_path, fewest_first):
    usable("minizinc")
    model = str(minizinc_backend.model_path())
    for instance in [*INSTANCES[:6], CUT_OFF, ONE_SOLUTION, Instance(6)]:
        data = tmp_path / "instance.dzn"
        write_dzn(instance, data, fewest_first=fewest_first)
        done = subprocess.run(
            [shutil.which("minizinc"), "--solver", "gecode", "-a", model, str(data)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        found = {
            tuple(int(v) for v in re.findall(r"-?\d+", line))
            for line in done.stdout.splitlines()
            if line.startswith("q = ")
        }
        assert found == brute_force(instance), (instance, done.stdout)
        end = "==========" if found else "=====UNSATISFIABLE====="
        assert end in done.stdout


def test_the_minizinc_data_format_is_in_the_models_header():
    header = minizinc_backend.model_path().read_text().split("include")[0]
    for name in ("n", "fixed", "nblocked", "blocked", "fewest_first"):
        assert re.search(rf"%\s+{name}\b", header), name
    assert "blocked = array2d(1..2, 1..2, [0, 0, 1, 3]);" in header
    assert "array2d(1..0, 1..2, [])" in header


# --- The CNF: DIMACS text, solved by pysat and read back ----------------------------


def parse_dimacs(text: str) -> tuple[int, list[list[int]], list[str]]:
    """The number of variables, the clauses and the comment lines of DIMACS text."""
    comments, clauses, header = [], [], None
    for line in text.splitlines():
        if line.startswith("c"):
            assert header is None, "a comment after the header"
            comments.append(line)
        elif line.startswith("p cnf "):
            header = tuple(map(int, line.split()[2:]))
        else:
            literals = list(map(int, line.split()))
            assert literals[-1] == 0 and 0 not in literals[:-1], line
            clauses.append(literals[:-1])
    assert header is not None
    variables, count = header
    assert count == len(clauses)
    assert all(abs(lit) <= variables for clause in clauses for lit in clause)
    return variables, clauses, comments


def solutions_of_cnf(text: str, n: int) -> list[tuple[int, ...]]:
    """Every model of the CNF projected on the n*n square variables, read as placements.

    Each model found is forbidden on all n*n squares (not only its queens), so that
    the count is the number of distinct projections, whatever the formula says.
    """
    from pysat.solvers import Solver

    _, clauses, _ = parse_dimacs(text)
    squares = n * n
    found = []
    with Solver(name="glucose4", bootstrap_with=clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            true = {lit for lit in model[:squares] if lit > 0}
            placement = []
            for row in range(n):
                columns = [c for c in range(n) if cnf.square(n, row, c) in true]
                assert len(columns) == 1, (row, columns)
                placement.append(columns[0])
            found.append(tuple(placement))
            solver.add_clause([-v if v in true else v for v in range(1, squares + 1)])
    return found


def test_dimacs_models_are_exactly_the_solutions():
    usable("sat")
    for instance in INSTANCES:
        found = solutions_of_cnf(cnf.dimacs(instance), instance.n)
        assert len(found) == len(set(found))
        assert set(found) == brute_force(instance), instance


@pytest.mark.slow
@pytest.mark.parametrize("encoding", cnf.CLAUSE_ENCODINGS)
def test_every_clause_encoding_gives_the_same_models(encoding):
    usable("sat")
    for instance in [*INSTANCES[:8], *SOLVABLE, CUT_OFF]:
        text = cnf.dimacs(instance.n, instance.fixed, instance.blocked, encoding=encoding)
        assert f"encoding: {encoding}" in text
        assert sorted(solutions_of_cnf(text, instance.n)) == sorted(brute_force(instance))


def test_dimacs_says_how_to_read_it_and_is_the_sat_backends_formula():
    usable("sat")
    instance = ELEVEN
    text = cnf.dimacs(instance, encoding="seqcounter")
    variables, clauses, comments = parse_dimacs(text)
    said = "\n".join(comments)
    assert "n = 8" in said and "r * 8 + c + 1" in said and "seqcounter" in said
    assert "(0, 3)" in said and "(1, 0) (1, 2) (1, 4) (1, 6) (5, 5) (7, 0)" in said
    assert all(line.startswith("c ") for line in comments)
    assert len(brute_force(instance)) == 11
    for row, column in instance.blocked:
        assert [-(row * 8 + column + 1)] in clauses
    assert [4] in clauses  # the given queen (0, 3)
    stats = cpqueens.solve(instance, backend="sat", encoding="seqcounter").stats
    assert (stats["variables"], stats["clauses"]) == (variables, len(clauses))


def test_dimacs_takes_an_instance_or_its_parts_alike():
    usable("sat")
    instance = ONE_SOLUTION
    assert cnf.dimacs(instance) == cnf.dimacs(5, {1: 2}, [(1, 3), (0, 0)])
    assert cnf.dimacs(instance) == cnf.dimacs(5, [(1, 2)], instance.blocked)
    plain = cnf.dimacs(4, encoding="pairwise")
    assert "given queens" not in plain and "blocked" not in plain
    assert "p cnf 16 84" in plain  # 8 lines and 76 pairs, no auxiliary variable


def test_dimacs_refuses_what_is_no_clause_encoding_or_no_instance():
    with pytest.raises(cpqueens.InvalidInputError, match="clause encoding: pairwise"):
        cnf.dimacs(4, encoding="native")
    with pytest.raises(cpqueens.InvalidInputError, match="seqcounter"):
        cnf.dimacs(4, encoding="unary")
    with pytest.raises(cpqueens.InvalidInputError, match="not both"):
        cnf.dimacs(ONE_SOLUTION, blocked=[(0, 1)])
    with pytest.raises(cpqueens.InvalidInputError, match="blocked square"):
        cnf.dimacs(4, fixed={0: 1}, blocked=[(0, 1)])
    with pytest.raises(cpqueens.InvalidInputError, match="off the board"):
        cnf.dimacs(4, blocked=[(4, 0)])


def test_the_cnf_module_imports_no_solver_package():
    code = "import sys, cpqueens.instances.formats.cnf; print('pysat' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
