"""Limits are promises: time limits hold at every size, huge boards are refused at
once, and Ctrl-C reaches the caller, on every registered backend."""

import pytest
from backend_sets import EXHAUSTIVE, solver_params
from interrupting import interrupt_solve
from timing import Stopwatch

import cpqueens
from cpqueens.solvers import REGISTRY
from cpqueens.solvers.run import TIME_LIMIT_SLACK, TIME_LIMIT_SLACK_SHARE

#: Added to the promised slack for this test machine's own noise (start-up of a
#: solver's runtime); the whole slack is stretched by how busy the machine is.
NOISE = 1.0


def slack(limit: float) -> float:
    """What may come after ``limit``: the library's promise, and the noise."""
    return max(TIME_LIMIT_SLACK, TIME_LIMIT_SLACK_SHARE * limit) + NOISE


def test_huge_board_is_refused_at_once(backend):
    with (
        Stopwatch() as clock,
        pytest.raises(cpqueens.InvalidInputError, match="is beyond what backend"),
    ):
        cpqueens.solve(10**9, backend=backend)
    clock.check(0, 0.5, what=f"{backend}'s refusal")


def test_the_refusal_names_backends_that_can():
    with pytest.raises(cpqueens.InvalidInputError, match=r"backends that take n=100: .*stack"):
        cpqueens.solve(100, backend="bitmask")


@pytest.mark.slow
def test_time_limit_holds_on_a_board_that_runs_for_minutes(backend):
    # Every solution of n=30 takes any backend here far longer than the limit. Compiled
    # kernels are loaded first: compiling runs off the clock (tests/api/test_first_call.py),
    # and would otherwise be timed here on whichever test first needs them.
    REGISTRY[backend].load_kernels()
    with Stopwatch() as clock:
        result = cpqueens.solve(30, backend=backend, time_limit=1.0)
    clock.check(1.0, slack(1.0), what=backend)
    assert not result.complete
    assert result.stats["timed_out"]


@pytest.mark.slow
@pytest.mark.parametrize(("backend", "solver"), solver_params(EXHAUSTIVE))
def test_time_limit_holds_for_every_solver_a_backend_takes(backend, solver):
    # A backend's solvers differ in how they stop (cpmpy's loop of solves for pysat,
    # z3 and pumpkin overran a 4 s limit by 4 s at n=10): each is held to the promise.
    REGISTRY[backend].load_kernels()
    cpqueens.solve(4, backend=backend, solver=solver, limit=1)  # the solver's start, off the clock
    with Stopwatch() as clock:
        result = cpqueens.solve(10, backend=backend, solver=solver, time_limit=4.0, limit=None)
    clock.check(4.0, slack(4.0), what=f"{backend} with solver {solver}")
    assert result.complete or result.stats["timed_out"]


@pytest.mark.slow
def test_time_limit_holds_at_the_largest_board_taken(backend):
    # Model building and set-up count against the limit too (compiling does not: see above).
    n = min(REGISTRY[backend].largest_n() or 2000, 2000)
    REGISTRY[backend].load_kernels()
    with Stopwatch() as clock:
        result = cpqueens.solve(n, backend=backend, limit=1, time_limit=1.0)
    clock.check(1.0, slack(1.0), what=f"{backend} at n={n}")
    if result.solutions:
        assert cpqueens.is_valid(result.solution)


@pytest.mark.slow
def test_ctrl_c_reaches_the_caller(backend):
    # A solver that swallows SIGINT and returns what it had would pass a partial
    # answer off as complete: the interrupt must come out as KeyboardInterrupt. The
    # backend is loaded first, so that the signal comes in the search, not in an import
    # (which takes longer than 1.5 s on a busy machine).
    with Stopwatch() as clock:
        ended = interrupt_solve(
            f"cpqueens.count(4, backend={backend!r})",
            f"cpqueens.solve(16, backend={backend!r})",
            after=1.5,
        )
    assert ended.out.strip() == "interrupted", (ended.out, ended.err[-500:])
    assert ended.returncode == 0, ended.err[-500:]
    clock.check(0, 5.0, seconds=ended.seconds, what="ending after SIGINT")


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["kissat404", "lingeling"])
def test_sat_solvers_that_cannot_be_stopped_run_where_they_can(solver):
    # pysat can neither interrupt nor budget them: with a time limit they run in a
    # child process, killed at the deadline, and what they found is kept, sorted.
    pytest.importorskip("pysat")
    for n, limit in ((30, None), (600, 1)):
        with Stopwatch() as clock:
            result = cpqueens.solve(n, backend="sat", solver=solver, time_limit=1.0, limit=limit)
        clock.check(1.0, slack(1.0), what=f"{solver} at n={n}")
        assert not result.complete and result.stats["timed_out"]
        assert all(cpqueens.is_valid(s, n) for s in result.solutions)
    assert list(result.solutions) == sorted(result.solutions)
    # Given the time, the child's answer is the whole answer.
    assert cpqueens.count(8, backend="sat", solver=solver, time_limit=60) == 92


def test_a_sat_child_that_dies_is_a_solver_error():
    pytest.importorskip("pysat")
    from cpqueens.solvers.problem import Problem
    from cpqueens.solvers.run import SearchRun
    from cpqueens.solvers.sat.backend import models_in_child

    problem = Problem(6, (None,) * 6, options={"solver": "lingeling", "encoding": "bogus"})
    with pytest.raises(cpqueens.SolverError, match=r"in a child process\) died \(status 1\)"):
        list(models_in_child(problem, SearchRun(10.0)))
