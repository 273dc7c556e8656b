"""What is specific to the solver-family backends: choco, sat, cpmpy and minizinc.

Counts, solution sets, fixed queens, limits and time limits are tested for them from
the registry in test_backends.py; here are their options, their solvers and
encodings, their statistics, and what they do when a solver is missing or wrong.
"""

import pytest
from backend_sets import case, usable
from known_counts import A000170
from reference import brute_force

import cpqueens
from cpqueens.board import is_valid
from cpqueens.solvers import REGISTRY
from cpqueens.solvers.minizinc import backend as minizinc_backend
from cpqueens.solvers.sat import backend as sat_backend

FAMILIES = ("choco", "sat", "cpmpy", "minizinc")

#: The figures each backend must report, read from the solver.
STATS = {
    "choco": {"nodes", "fails", "backtracks", "restarts", "solver_time", "state"},
    "sat": {"decisions", "conflicts", "propagations", "restarts", "variables", "clauses"},
    "cpmpy": {"solver", "status", "solve_time", "solutions"},
    "minizinc": {"nodes", "failures", "solveTime", "status", "solver"},
}


@pytest.fixture(params=FAMILIES)
def family(request):
    return usable(request.param)


def sat_solvers():
    return sat_backend.usable_solvers() if REGISTRY["sat"].is_available() else ()


def cpmpy_solvers():
    if not REGISTRY["cpmpy"].is_available():
        return ()
    from cpqueens.solvers.cpmpy import _looked_up_solvers

    return _looked_up_solvers()[0]


def test_families_are_registered():
    assert set(FAMILIES) <= set(REGISTRY)


def test_stats_carry_the_solvers_own_figures(family):
    result = cpqueens.solve(8, backend=family)
    assert result.count == 92 and result.complete
    assert STATS[family] <= set(result.stats)


@pytest.mark.parametrize(
    "name, key", [case("choco", "nodes"), case("sat", "decisions"), case("minizinc", "nodes")]
)
def test_search_effort_is_counted(name, key):
    assert cpqueens.solve(9, backend=name).stats[key] > 0


@pytest.mark.parametrize(
    "backend, option, value, listed",
    [
        ("choco", "consistency", "strong", ["AC", "BC", "AC_REGIN"]),
        ("choco", "search", "dfs", ["auto", "input", "first-fail"]),
        ("minizinc", "search", "dfs", ["auto", "input", "first-fail"]),
        ("sat", "encoding", "unary", ["pairwise", "seqcounter", "totalizer", "kmtotalizer"]),
        ("sat", "solver", "zchaff", ["cadical195", "glucose4", "minisat22"]),
        ("cpmpy", "solver", "cbc", ["ortools", "choco"]),
        ("cpmpy", "solver", "pysat:zchaff", ["glucose4"]),
        ("minizinc", "solver", "zchaff", ["gecode"]),
    ],
)
def test_unknown_names_are_refused_at_the_call_with_the_valid_ones(backend, option, value, listed):
    usable(backend)
    with pytest.raises(cpqueens.InvalidInputError) as caught:
        cpqueens.solutions(8, backend=backend, **{option: value})
    message = str(caught.value)
    assert repr(value.split(":")[-1]) in message
    assert all(name in message for name in listed), message


def test_sat_names_the_missing_solvers_with_their_package():
    usable("sat")
    with pytest.raises(cpqueens.InvalidInputError, match=r"cryptosat \(pip install pycryptosat\)"):
        cpqueens.solve(6, backend="sat", solver="cryptosat")


def test_sat_native_encoding_needs_a_cardinality_solver():
    usable("sat")
    with pytest.raises(cpqueens.InvalidInputError, match="minicard"):
        cpqueens.solve(6, backend="sat", solver="cadical195", encoding="native")


@pytest.mark.parametrize("encoding", sat_backend.ENCODINGS)
def test_every_sat_encoding_counts_and_agrees_with_choco_or_stack(encoding):
    usable("sat")
    solver = "minicard" if encoding == "native" else "cadical195"
    for n in range(1, 9):
        result = cpqueens.solve(n, backend="sat", encoding=encoding, solver=solver)
        assert result.count == A000170[n], (encoding, n)
        assert result.stats["encoding"] == encoding
    other = "choco" if REGISTRY["choco"].is_available() else "stack"
    found = cpqueens.solve(9, backend="sat", encoding=encoding, solver=solver).solutions
    # Each block comes sorted, with its mirror image after it: the set is what counts.
    assert len(set(found)) == len(found)
    assert sorted(found) == sorted(cpqueens.solve(9, backend=other).solutions)


def test_sat_encodings_differ_in_size():
    usable("sat")
    sizes = {
        encoding: cpqueens.solve(6, backend="sat", encoding=encoding, solver="minicard").stats
        for encoding in ("pairwise", "seqcounter", "totalizer", "native")
    }
    assert sizes["pairwise"]["variables"] == 36  # the squares and nothing else
    assert sizes["seqcounter"]["variables"] > 36
    assert sizes["native"]["clauses"] < sizes["pairwise"]["clauses"]


@pytest.mark.parametrize("solver", sat_solvers())
def test_every_usable_sat_solver_enumerates(solver):
    result = cpqueens.solve(6, backend="sat", solver=solver)
    assert set(result.solutions) == brute_force(6)
    assert result.stats["solver"] == solver
    assert cpqueens.count(6, backend="sat", solver=solver, fixed={0: 1}) == 1
    assert cpqueens.solve(7, backend="sat", solver=solver, limit=3).count == 3


@pytest.mark.parametrize("consistency", ["AC", "AC_REGIN", "AC_ZHANG", "BC", "DEFAULT"])
def test_choco_consistency_levels_agree(consistency):
    usable("choco")
    result = cpqueens.solve(8, backend="choco", consistency=consistency)
    assert set(result.solutions) == brute_force(8)
    assert result.stats["consistency"] == consistency


def test_choco_is_lexicographic_and_lazy():
    usable("choco")
    iterator = cpqueens.solutions(12, backend="choco")
    assert next(iterator) == (0, 2, 4, 7, 9, 11, 5, 10, 1, 6, 8, 3)
    found = cpqueens.solve(9, backend="choco").solutions
    assert list(found) == sorted(found)
    result = cpqueens.solve(12, backend="choco", limit=2, search="input")
    assert result.solutions[0] == (0, 2, 4, 7, 9, 11, 5, 10, 1, 6, 8, 3)
    assert result.stats["nodes"] < 100  # the search stopped at the second solution


@pytest.mark.parametrize("name", ["choco", "minizinc"])
def test_first_fail_search_finds_a_large_board_and_lists_the_same_set(name):
    usable(name)
    result = cpqueens.solve(100, backend=name, limit=1, time_limit=60)
    assert result.stats["search"] == "first-fail" and not result.stats["timed_out"]
    assert is_valid(result.solution, 100)
    every = cpqueens.solve(8, backend=name, search="first-fail")
    assert set(every.solutions) == brute_force(8)
    fixed = {0: 2, 7: 4}
    found = cpqueens.solve(8, backend=name, search="first-fail", fixed=fixed).solutions
    assert set(found) == brute_force(8, fixed)


@pytest.mark.slow
@pytest.mark.parametrize("solver", cpmpy_solvers())
def test_every_usable_cpmpy_solver_enumerates(solver):
    result = cpqueens.solve(6, backend="cpmpy", solver=solver)
    assert result.solutions == tuple(sorted(brute_force(6)))
    assert result.complete and result.stats["solver"] == solver
    assert cpqueens.count(6, backend="cpmpy", solver=solver, fixed={0: 1}) == 1
    assert cpqueens.count(6, backend="cpmpy", solver=solver, fixed={0: 0, 1: 1}) == 0
    limited = cpqueens.solve(6, backend="cpmpy", solver=solver, limit=2)
    assert limited.count == 2 and not limited.complete


def test_cpmpy_listing_without_imports_matches_solver_lookup():
    usable("cpmpy")
    info = next(i for i in cpqueens.backends() if i.name == "cpmpy")
    assert {name for name, need in info.solvers.items() if need is None} == set(cpmpy_solvers())


def test_cpmpy_subsolver_names_are_taken():
    usable("cpmpy")
    if "pysat" not in cpmpy_solvers():
        pytest.skip("cpmpy's pysat is not usable here")
    assert cpqueens.count(6, backend="cpmpy", solver="pysat:glucose4") == 4


def test_backends_lists_cpmpy_solvers_and_what_installs_the_others():
    info = next(i for i in cpqueens.backends() if i.name == "cpmpy")
    if not info.available:
        assert info.solvers == {}
        return
    assert info.solvers["ortools"] is None
    assert all(need is None or need for need in info.solvers.values())
    assert any(str(need).startswith("pip install") for need in info.solvers.values())


@pytest.mark.parametrize("n", [14])
def test_time_limit_keeps_valid_solutions(family, n):
    cpqueens.count(5, backend=family)  # imports and first-run costs are not timed
    result = cpqueens.solve(n, backend=family, time_limit=0.2)
    assert result.stats["timed_out"] and not result.complete
    assert result.count < A000170[n]
    assert len(set(result.solutions)) == result.count
    assert all(is_valid(s, n) for s in result.solutions)


def test_minizinc_without_the_toolchain_says_how_to_install(monkeypatch):
    usable("minizinc")
    monkeypatch.setattr(minizinc_backend.shutil, "which", lambda program: None)
    assert not next(i for i in cpqueens.backends() if i.name == "minizinc").available
    with pytest.raises(cpqueens.BackendUnavailableError, match="apt-get install minizinc"):
        cpqueens.solutions(6, backend="minizinc")


def test_minizinc_ships_its_model():
    path = minizinc_backend.model_path()
    text = path.read_text()
    assert "alldifferent" in text and "int: n;" in text


def test_sat_solution_that_breaks_the_rules_is_an_error_naming_the_solver(monkeypatch):
    usable("sat")

    def rows_only(n, encoding, fixed, check_time=None):  # forgot columns and diagonals
        return [list(range(r * n + 1, r * n + n + 1)) for r in range(n)], [], n * n

    monkeypatch.setattr(sat_backend, "board_formula", rows_only)
    with pytest.raises(cpqueens.SolverError, match="cadical195"):
        cpqueens.solve(6, backend="sat")


def test_minizinc_model_that_breaks_the_rules_is_an_error(monkeypatch, tmp_path):
    usable("minizinc")
    wrong = tmp_path / "queens.mzn"
    wrong.write_text(
        "int: n; array[0..n-1] of int: fixed; array[0..n-1] of var 0..n-1: q;\nsolve satisfy;\n"
    )
    monkeypatch.setattr(minizinc_backend, "model_path", lambda: wrong)
    with pytest.raises(cpqueens.SolverError, match="gecode"):
        cpqueens.solve(5, backend="minizinc")


def test_cpmpy_solver_that_crashes_is_an_error_naming_it(monkeypatch):
    usable("cpmpy")
    import cpmpy

    def crash(*args, **kwargs):
        raise RuntimeError("segfault simulated")

    monkeypatch.setattr(cpmpy.SolverLookup, "get", crash)
    with pytest.raises(cpqueens.SolverError, match=r"'ortools'.*segfault simulated"):
        cpqueens.solve(6, backend="cpmpy")


def test_choco_assignment_that_breaks_the_rules_is_an_error(monkeypatch):
    usable("choco")
    from pychoco import backend as choco

    monkeypatch.setattr(choco, "get_intvar_value", lambda handle: 0)
    with pytest.raises(cpqueens.SolverError, match="Choco"):
        cpqueens.solve(6, backend="choco")


def test_cli_backends_lists_the_cpmpy_solvers():
    from click.testing import CliRunner

    from cpqueens.cli import cli

    usable("cpmpy")
    out = CliRunner().invoke(cli, ["backends"]).output
    line = next(line for line in out.splitlines() if line.startswith("cpmpy solvers usable"))
    assert "ortools" in line


def test_a_solver_run_leaves_sigterm_to_the_process(tmp_path):
    # Exact installs its own SIGTERM handler; a process pool forked afterwards (the
    # bitmask backend's) could then never terminate its workers.
    usable("cpmpy")
    if "exact" not in cpmpy_solvers():
        pytest.skip("cpmpy's exact is not usable here")
    import multiprocessing
    import time

    cpqueens.count(6, backend="cpmpy", solver="exact")
    child = multiprocessing.get_context("fork").Process(target=time.sleep, args=(60,))
    child.start()
    child.terminate()
    child.join(timeout=10)
    alive = child.is_alive()
    if alive:
        child.kill()
    assert not alive, "a forked child ignored SIGTERM after a solver run"


def test_cpmpy_time_limit_counts_the_time_between_solves(monkeypatch):
    # For a solver without an enumeration of its own (pysat, z3, pumpkin), solutions
    # are found by solving again with each one forbidden. cpmpy's own loop counts only
    # the solver's time against the limit; the time spent adding each nogood (0.05 s
    # here, 4.6 s over the 92 solutions of n=8) must count too.
    usable("cpmpy")
    if "pysat" not in cpmpy_solvers():
        pytest.skip("cpmpy's pysat is not usable here")
    import time

    from cpmpy.solvers.pysat import CPM_pysat

    added = CPM_pysat.add

    def slow_add(self, constraints):
        time.sleep(0.05)
        return added(self, constraints)

    monkeypatch.setattr(CPM_pysat, "add", slow_add)
    started = time.monotonic()
    result = cpqueens.solve(8, backend="cpmpy", solver="pysat", time_limit=1.0, limit=None)
    took = time.monotonic() - started
    assert result.stats["timed_out"] and not result.complete
    assert 0 < result.count < 92
    assert took < 3.0, f"a limit of 1 s took {took:.1f} s"
