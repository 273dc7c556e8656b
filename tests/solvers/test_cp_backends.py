"""What is specific to the solver backends: options, workers, stats, missing packages.

The behaviour every backend shares (counts, solution sets, fixed queens, limits, time
limits) is tested for these two as well, from the registry, in test_backends.py.
"""

import subprocess
import sys

import pytest
from known_counts import A000170
from reference import brute_force

import cpqueens
from cpqueens.board import is_valid
from cpqueens.solvers import REGISTRY

SOLVER_BACKENDS = [name for name, b in REGISTRY.items() if b.requires is not None]


SOLVER_MODULES = (
    "ortools",
    "constraint",
    "pychoco",
    "pysat",
    "cpmpy",
    "minizinc",
    "z3",
    "exact",
    "pumpkin_solver",
)


def test_import_does_not_load_the_solver_packages():
    code = (
        f"import sys, cpqueens; SOLVER_MODULES = {SOLVER_MODULES!r}; cpqueens.backends(); "
        "print(sorted(m for m in SOLVER_MODULES if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("name", SOLVER_BACKENDS)
def test_missing_package_names_what_to_install(monkeypatch, name):
    backend = REGISTRY[name]
    monkeypatch.setattr(type(backend), "requires", "cpqueens_no_such_module")
    assert not backend.is_available()
    assert not next(i for i in cpqueens.backends() if i.name == name).available
    with pytest.raises(cpqueens.BackendUnavailableError) as caught:
        cpqueens.solve(6, backend=name)
    assert f"pip install {backend.install_hint}" in str(caught.value)
    assert isinstance(caught.value, ImportError)
    with pytest.raises(ImportError):  # at the call, not at the first solution
        cpqueens.solutions(6, backend=name)


def test_cpsat_stats_carry_the_solver_figures():
    result = cpqueens.solve(9, backend="cpsat")
    stats = result.stats
    assert result.complete and result.count == 352
    assert {"branches", "conflicts", "wall_time", "status", "workers"} <= set(stats)
    assert stats["workers"] == 1 and stats["search"] == "blocks"
    assert stats["branches"] > 0 and stats["wall_time"] > 0 and stats["solver_runs"] > 1


def test_cpsat_complete_enumeration_is_lexicographic():
    found = cpqueens.solve(9, backend="cpsat").solutions
    assert list(found) == sorted(found)


@pytest.mark.parametrize("split_depth", [0, 1, 3])
def test_cpsat_split_depth_does_not_change_the_solutions(split_depth):
    result = cpqueens.solve(8, backend="cpsat", split_depth=split_depth)
    assert result.complete and set(result.solutions) == brute_force(8)
    assert result.stats["split_depth"] == split_depth


@pytest.mark.parametrize("fixed", [{0: 0}, {1: 3, 5: 2}, {7: 7}])
def test_cpsat_free_search_enumerates_with_fixed_queens(fixed):
    result = cpqueens.solve(8, backend="cpsat", search="free", fixed=fixed)
    assert result.complete and set(result.solutions) == brute_force(8, fixed)


@pytest.mark.parametrize("search", ["blocks", "free"])
def test_cpsat_limit_stops_the_solver_with_distinct_solutions(search):
    result = cpqueens.solve(10, backend="cpsat", search=search, limit=7)
    assert result.count == len(set(result.solutions)) == 7
    assert not result.complete
    assert all(is_valid(s) for s in result.solutions)


def test_cpsat_limit_with_unique_counts_classes_not_solutions():
    assert cpqueens.solve(8, backend="cpsat", unique=True, limit=12).count == 12


@pytest.mark.slow
def test_cpsat_first_solution_for_n_200():
    result = cpqueens.solve(200, backend="cpsat", limit=1, time_limit=120)
    assert result.stats["search"] == "free"
    assert result.count == 1 and is_valid(result.solution, 200)


def test_cpsat_workers_find_a_first_solution():
    result = cpqueens.solve(40, backend="cpsat", limit=1, workers=2)
    assert is_valid(result.solution, 40) and result.stats["workers"] == 2
    assert "warning" not in result.stats


def test_cpsat_enumerating_with_workers_is_marked_incomplete():
    # One run over the whole board (split_depth=0) is where several CP-SAT workers
    # have been seen to miss solutions while reporting OPTIMAL.
    result = cpqueens.solve(9, backend="cpsat", workers=4, split_depth=0)
    assert not result.complete
    assert "warning" in result.stats and not result.stats["timed_out"]
    assert len(set(result.solutions)) == result.count <= A000170[9]
    assert all(is_valid(s) for s in result.solutions)


def test_cpsat_time_limit_keeps_the_solutions_found():
    result = cpqueens.solve(14, backend="cpsat", time_limit=0.3)
    assert result.stats["timed_out"] and not result.complete
    assert 0 < result.count < A000170[14]
    assert len(set(result.solutions)) == result.count
    assert all(is_valid(s, 14) for s in result.solutions)


@pytest.mark.parametrize(
    "backend, option, value, pattern",
    [
        ("cpsat", "search", "fast", "search must be one of"),
        ("cpsat", "split_depth", -1, "split_depth must be an integer >= 0, got -1"),
        ("cpsat", "split_depth", 1.5, "split_depth"),
        ("constraint", "diagonals", "sideways", "diagonals must be one of"),
    ],
)
def test_bad_option_values_fail_at_the_call(backend, option, value, pattern):
    with pytest.raises(ValueError, match=pattern):
        cpqueens.solutions(8, backend=backend, **{option: value})


def test_workers_are_refused_by_the_constraint_backend():
    with pytest.raises(cpqueens.UnsupportedOptionError, match=r"workers.*cpsat"):
        cpqueens.solve(8, backend="constraint", workers=2)


@pytest.mark.parametrize("diagonals", ["global", "pairwise"])
def test_constraint_diagonal_formulations_agree(diagonals):
    for n in range(1, 9):
        result = cpqueens.solve(n, backend="constraint", diagonals=diagonals)
        assert set(result.solutions) == brute_force(n)
        assert result.stats["diagonals"] == diagonals
    fixed = {0: 2, 7: 4}
    found = cpqueens.solve(8, backend="constraint", diagonals=diagonals, fixed=fixed)
    assert set(found.solutions) == brute_force(8, fixed)


def test_constraint_names_its_solver_and_stops_lazily():
    result = cpqueens.solve(12, backend="constraint", limit=3)
    assert result.stats["solver"] == "OptimizedBacktrackingSolver"
    assert result.stats["solutions"] == 3  # the iterator was not run past the limit
    assert result.elapsed < 5
