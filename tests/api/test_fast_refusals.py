"""Refusals come at once: trees, ranges and sizes are judged before anything is expanded,
and options a backend cannot use are refused, never ignored."""

from __future__ import annotations

import importlib.util

import pytest
from click.testing import CliRunner
from timing import Stopwatch

import cpqueens
from cpqueens.cli import cli
from cpqueens.cli.ranges import largest_board, parse_sizes
from cpqueens.reporting.bench import runs as bench
from cpqueens.reporting.profile import profiles as profile
from cpqueens.solvers import REGISTRY, Problem
from cpqueens.trees.explicit import build
from cpqueens.trees.explicit.bounds import size_bounds
from cpqueens.trees.explicit.size import DEFAULT_MAX_NODES, estimate_tree_size

#: A refusal must come within this many seconds, as on a free core: the machine running
#: the tests is shared, and timed() and refused() divide out how busy it is (timing.py).
AT_ONCE = 1.0

needs_numba = pytest.mark.skipif(
    importlib.util.find_spec("numba") is None, reason="the bitmask backend needs numba"
)

HUGE = 10**23

COMBINATIONS = [
    ("none", "row"),
    ("forward", "row"),
    ("forward", "first-fail"),
    ("arc", "row"),
    ("arc", "first-fail"),
]
IDS = [f"{p}-{o}" for p, o in COMBINATIONS]


@pytest.fixture(autouse=True, scope="module")
def warm_up():
    # networkx, numba and the CLI load once, outside the timed calls.
    cpqueens.decision_tree(4)
    if importlib.util.find_spec("numba") is not None:
        cpqueens.count(6, backend="bitmask", workers=1)
    CliRunner().invoke(cli, ["tree", "3"])


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(cli, list(args), input=stdin)


def timed(call):
    """What ``call`` returns, and the seconds it took as on a free core."""
    with Stopwatch() as clock:
        outcome = call()
    return outcome, clock.free_core_seconds


def refused(call, error=cpqueens.InvalidInputError, within=AT_ONCE):
    with Stopwatch() as clock, pytest.raises(error) as caught:
        call()
    assert clock.free_core_seconds < within, (
        f"refused after {clock.seconds:.2f} s (slowdown {clock.slowdown:.2f})"
    )
    return caught.value


#: The careful estimate near the threshold walks random paths (about 0.3 s at n=14 on
#: a quiet machine): it is allowed more than the cheap bounds.
CAREFUL = 3.0


# The bounds behind the tree's guard are sound: checked against exact sizes. ------------


def _per_row(n, fixed):
    return tuple(fixed.get(row) for row in range(n))


@pytest.mark.parametrize(("propagation", "order"), COMBINATIONS, ids=IDS)
@pytest.mark.parametrize("fixed", [{}, {0: 1}, {2: 3}, {1: 4, 6: 0}, {0: 0, 3: 3}])
def test_bounds_hold_for_every_small_tree(propagation, order, fixed):
    for n in range(1, 9):
        queens = {row: col for row, col in fixed.items() if row < n and col < n}
        per_row = _per_row(n, queens)
        for max_depth in (None, 0, 1, 2, 3, 5):
            for rejected in (False, True):
                exact = estimate_tree_size(
                    n,
                    per_row,
                    include_rejected=rejected,
                    max_depth=max_depth,
                    propagation=propagation,
                    order=order,
                    max_nodes=None,
                )
                assert exact.exact
                bounds = size_bounds(
                    n,
                    per_row,
                    include_rejected=rejected,
                    depth_limit=n if max_depth is None else max_depth,
                    propagation=propagation,
                )
                case = (n, queens, max_depth, rejected)
                assert bounds.lower <= exact.graph_nodes <= bounds.upper, case


@pytest.mark.slow
@pytest.mark.parametrize(("propagation", "order"), COMBINATIONS, ids=IDS)
@pytest.mark.parametrize(("n", "fixed"), [(10, {}), (11, {}), (12, {}), (11, {3: 5})])
def test_bounds_hold_at_every_depth_of_larger_trees(propagation, order, n, fixed):
    # The propagate backend walks the very tree decision_tree builds: its nodes per
    # depth give the exact size of the tree cut at any depth.
    stats = cpqueens.solve(n, "propagate", fixed=fixed, propagation=propagation, order=order).stats
    per_depth = stats["nodes_per_depth"]
    for depth in range(n + 1):
        graph_nodes = 1 + sum(per_depth[1 : depth + 1])
        bounds = size_bounds(
            n,
            _per_row(n, fixed),
            include_rejected=False,
            depth_limit=depth,
            propagation=propagation,
        )
        assert bounds.lower <= graph_nodes <= bounds.upper, depth
    # Without fixed queens the lower bound reaches below the first level.
    whole = size_bounds(
        n, _per_row(n, fixed), include_rejected=False, depth_limit=n, propagation=propagation
    )
    assert whole.lower > 1 + n * (n - 3) or fixed


def test_a_cap_stops_the_bounds_once_passed():
    bounds = size_bounds(1000, (None,) * 1000, include_rejected=True, depth_limit=1000, cap=10)
    assert bounds.lower > 10 and bounds.upper > 10
    assert bounds.lower < 10**7  # stopped after the first level past the cap


# The tree's guard refuses at once. ----------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"propagation": "forward"}, {"propagation": "arc", "order": "first-fail"}],
    ids=["plain", "forward", "arc-first-fail"],
)
@pytest.mark.parametrize("n", [20, 100, 1000])
def test_large_trees_are_refused_at_once(n, kwargs):
    error = refused(lambda: cpqueens.decision_tree(n, **kwargs), cpqueens.TreeTooLargeError)
    message = str(error)
    assert f"n={n} would have at least" in message and "max_nodes=2,000,000" in message
    assert error.estimate > error.max_nodes == DEFAULT_MAX_NODES


@pytest.mark.parametrize("n", [10**6, HUGE])
def test_boards_beyond_the_tree_are_refused_at_once(n):
    error = refused(lambda: cpqueens.decision_tree(n))
    assert f"n={n:,} is beyond what a decision tree takes (n <= 1,000)" in str(error)
    assert not isinstance(error, cpqueens.TreeTooLargeError)


def test_a_shallow_tree_of_a_large_board_is_judged_without_an_estimate(monkeypatch):
    # decision_tree(100, max_depth=3, propagation="arc", order="first-fail") has between
    # 921,601 and 980,201 graph nodes: within the default node limit, but each node
    # carries its pruned squares (2.4 GB and minutes in all): refused on its price, at
    # once, and no estimate is made.
    bounds, elapsed = timed(
        lambda: size_bounds(100, (None,) * 100, include_rejected=False, depth_limit=3)
    )
    assert elapsed < AT_ONCE
    assert (bounds.lower, bounds.upper) == (921_601, 980_201)
    assert bounds.upper <= DEFAULT_MAX_NODES
    issue = {"max_depth": 3, "propagation": "arc", "order": "first-fail"}
    error = refused(lambda: cpqueens.decision_tree(100, **issue), cpqueens.TreeTooLargeError)
    assert "at least 921,601 nodes" in str(error) and error.cost and "GB" in error.cost
    # Below the lower bound, the same tree is refused at once.
    tight = {"max_depth": 3, "propagation": "arc", "order": "first-fail", "max_nodes": 900_000}
    error = refused(lambda: cpqueens.decision_tree(100, **tight), cpqueens.TreeTooLargeError)
    assert "at least 921,601 nodes" in str(error)

    # A smaller tree known to fit is built without asking the estimator.
    def no_estimate(*args, **kwargs):
        raise AssertionError("the bounds settle this tree")

    monkeypatch.setattr(build, "estimate", no_estimate)
    G = cpqueens.decision_tree(30, max_depth=2, propagation="arc", order="first-fail")
    assert G.number_of_nodes() == 1 + 30 + sum(1 for _, d in G.nodes(data="depth") if d == 2)


def test_the_estimate_runs_only_between_the_bounds():
    # n=13 and n=14 lie between them: estimated, as before, and refused in well under a second.
    for n, least in ((13, 4_000_000), (14, 20_000_000)):
        error = refused(
            lambda n=n: cpqueens.decision_tree(n), cpqueens.TreeTooLargeError, within=CAREFUL
        )
        assert error.estimate > least and "about" in str(error)
    assert cpqueens.decision_tree(8, propagation="arc", max_nodes=769).number_of_nodes() == 769


def test_the_size_estimate_of_a_huge_tree_is_a_bound_given_at_once():
    size, elapsed = timed(lambda: estimate_tree_size(1000, (None,) * 1000))
    assert elapsed < AT_ONCE
    assert size.lower_bound and not size.exact and size.graph_nodes > DEFAULT_MAX_NODES
    assert not estimate_tree_size(12, (None,) * 12).lower_bound


@pytest.mark.parametrize(
    "args",
    [
        ["tree", "1000"],
        ["tree", "100", "--propagation", "forward"],
        ["crosscheck", "1000", "--backends", "stack"],
        ["verify", "1000"],
    ],
    ids=" ".join,
)
def test_commands_refuse_large_trees_at_once(args):
    result, elapsed = timed(lambda: run(*args, stdin=""))
    assert elapsed < AT_ONCE
    assert result.exit_code == 2, result.output
    assert "n=1000" in result.stderr or "n=100" in result.stderr
    assert "Traceback" not in result.output


# Ranges and sizes are checked before anything is expanded. ----------------------------


@pytest.mark.slow
def test_a_range_of_billions_is_refused_before_it_is_expanded():
    import tracemalloc

    tracemalloc.start()
    try:
        error = refused(lambda: parse_sizes("1-99999999999"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000
    assert str(error) == (
        "range '1-99999999999' goes beyond n=20,000, the largest board any backend takes (stack)"
    )
    assert largest_board() == (20_000, "stack")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("99999999999-5", "range '99999999999-5' goes beyond n=20,000"),
        ("4,20001", "board size 20001 goes beyond n=20,000"),
        ("1-" + "9" * 5000, "goes beyond n=20,000"),
        ("3-1", "runs backwards"),
    ],
)
def test_ranges_name_the_part_and_the_largest_allowed(text, message):
    with pytest.raises(cpqueens.InvalidInputError, match=message):
        parse_sizes(text)


def test_a_command_sets_its_own_largest_size():
    assert parse_sizes("12-14", 14) == [12, 13, 14]
    with pytest.raises(cpqueens.InvalidInputError, match=r"goes beyond n=14, because"):
        parse_sizes("4,15", 14, beyond="because")


def test_crosscheck_refuses_a_range_of_billions_at_once():
    result, elapsed = timed(lambda: run("crosscheck", "1-99999999999"))
    assert elapsed < AT_ONCE
    assert result.exit_code == 2
    assert "range '1-99999999999' goes beyond n=20,000" in result.stderr


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["bench", "1000"], ["beyond n=14", "cpqueens solve N", "cpqueens count N"]),
        (["bench", "4-15"], ["range '4-15' goes beyond n=14", "lists every solution"]),
        (["report", "4-20", "-o", "r.html"], ["beyond n=14", "a report takes"]),
        (["profile", "1000"], ["(n <= 14)", "--backend propagate", "cpqueens tree N"]),
    ],
    ids=["bench-1000", "bench-4-15", "report-4-20", "profile-1000"],
)
def test_bench_profile_and_report_say_what_they_can_do(args, expected, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result, elapsed = timed(lambda: run(*args))
    assert elapsed < AT_ONCE
    assert result.exit_code == 2, result.output
    for text in expected:
        assert text in result.stderr, result.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_library_refuses_the_same_sizes():
    error = refused(lambda: bench.run_bench([4, 1000], ["stack"], repeat=1))
    assert "n=1000 goes beyond n=14" in str(error)
    error = refused(lambda: profile.search_profile(1000, solvers=[]))
    assert "n=1000 is beyond what the search profile takes (n <= 14)" in str(error)
    assert bench.LARGEST_N == profile.LARGEST_N == 14


@pytest.mark.parametrize(
    "call",
    [
        lambda: cpqueens.solve(HUGE),
        lambda: cpqueens.solve(HUGE, backend="stack"),
        lambda: cpqueens.count(HUGE, backend="bitmask"),
        lambda: cpqueens.solutions(HUGE),
        lambda: cpqueens.decision_tree(HUGE),
    ],
    ids=["solve", "solve-stack", "count", "solutions", "decision_tree"],
)
def test_an_astronomical_board_is_a_clean_error(call):
    error = refused(call)
    assert "n=100,000,000,000,000,000,000,000" in str(error)
    assert "<=" in str(error) or "up to" in str(error)


@pytest.mark.parametrize(
    "args",
    [["solve", str(HUGE)], ["verify", str(HUGE)], ["tree", str(HUGE)], ["count", str(HUGE)]],
    ids=lambda args: args[0],
)
def test_an_astronomical_board_is_a_clean_error_on_the_command_line(args):
    result, elapsed = timed(lambda: run(*args, stdin=""))
    assert elapsed < AT_ONCE
    assert result.exit_code == 2, result.output
    assert "n=100,000,000,000,000,000,000,000" in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_the_largest_board_still_reaches_the_backends():
    # 10**9 passes the general check, so each backend says what it takes.
    with pytest.raises(cpqueens.InvalidInputError, match="is beyond what backend 'stack'"):
        cpqueens.solve(10**9, backend="stack")
    with pytest.raises(cpqueens.InvalidInputError, match="board sizes go up to n=1,000,000,000"):
        cpqueens.solve(10**9 + 1, backend="stack")


# The bitmask backend refuses what it cannot use, never ignores it. ---------------------


@needs_numba
def test_too_many_workers_are_refused_at_once():
    error = refused(lambda: cpqueens.count(12, backend="bitmask", workers=1000))
    message = str(error)
    assert "got workers=1000" in message and "worker processes here" in message
    from cpqueens.solvers.bitmask.backend import WORKERS_PER_CORE, _default_workers

    most = WORKERS_PER_CORE * _default_workers()
    assert f"1 to {most}" in message
    assert cpqueens.count(12, backend="bitmask", workers=most) == 14200


def test_workers_on_a_cluster_are_not_bounded_by_local_cores():
    backend = REGISTRY["bitmask"]
    options = {"scheduler": "tcp://127.0.0.1:8786"}
    backend.check_problem(Problem(12, (None,) * 12, workers=1000, options=options))
    with pytest.raises(cpqueens.InvalidInputError, match="workers=1000"):
        backend.check_problem(Problem(12, (None,) * 12, workers=1000))


@pytest.mark.parametrize(
    "option",
    [
        {"scheduler": "tcp://127.0.0.1:1"},
        {"progress": True},
        {"progress": lambda done, total: pytest.fail("a listing reports no progress")},
    ],
    ids=["scheduler", "progress", "progress-callable"],
)
@needs_numba
def test_listing_refuses_the_options_of_a_count(option):
    error = refused(
        lambda: cpqueens.solve(8, backend="bitmask", **option), cpqueens.UnsupportedOptionError
    )
    assert "serve counting only" in str(error)
    lazy = cpqueens.solutions(8, backend="bitmask", **option)
    with pytest.raises(cpqueens.UnsupportedOptionError):
        next(lazy)
    # A count with a limit lists too.
    with pytest.raises(cpqueens.UnsupportedOptionError):
        cpqueens.count(8, backend="bitmask", limit=3, **option)


@needs_numba
def test_listing_says_it_ran_in_one_process():
    result = cpqueens.solve(8, backend="bitmask", workers=2, progress=False)
    assert result.count == 92 and result.stats["workers"] == 1


def test_the_scheduler_given_twice_is_refused():
    result = run("count", "10", "--scheduler", "tcp://a:1", "-O", "scheduler=tcp://b:2")
    assert result.exit_code == 2
    assert "the scheduler is given twice" in result.stderr
    assert "tcp://a:1" in result.stderr and "tcp://b:2" in result.stderr


@needs_numba
def test_too_many_workers_on_the_command_line():
    result, elapsed = timed(lambda: run("count", "12", "--workers", "1000"))
    assert elapsed < AT_ONCE
    assert result.exit_code == 2 and "got --workers 1000" in result.stderr


@needs_numba
def test_classes_with_fixed_queens_are_counted_without_a_bar(monkeypatch):
    # Those are counted by listing, which has no use for progress: no bar is asked for.
    from cpqueens.cli import solving

    monkeypatch.setattr(solving, "wants_bar", lambda quiet: True)
    result = run("count", "8", "--unique", "--fixed", "0:1", "-b", "bitmask")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == str(cpqueens.count(8, fixed={0: 1}, unique=True))
    assert run("count", "8", "-b", "bitmask").stdout.strip() == "92"


def test_a_tree_refused_on_its_bound_says_at_least():
    error = refused(lambda: cpqueens.decision_tree(200), cpqueens.TreeTooLargeError)
    assert error.at_least and "at least" in str(error)
    result = run("tree", "200")
    assert result.exit_code == 2 and "would have at least" in result.output
    result = run("crosscheck", "1000", "--backends", "stack")
    assert result.exit_code == 2 and "(at least" in result.output


def test_verify_of_a_board_beyond_any_tree_is_refused_before_building_rows():
    result, seconds = timed(lambda: run("verify", "999999999", stdin=""))
    assert seconds < AT_ONCE and result.exit_code == 2
    assert "trees go up to n=1,000" in result.output
    # No backend lists the solutions of so large a board: no reference is suggested.
    assert "no backend lists every solution" in result.output


@pytest.mark.parametrize("ns", [range(1, 10**11), "count"])
def test_crosscheck_in_python_refuses_endless_sizes_at_once(ns):
    import itertools

    sizes = itertools.count(1) if ns == "count" else ns
    refused(lambda: cpqueens.crosscheck(sizes, ["stack"]))
