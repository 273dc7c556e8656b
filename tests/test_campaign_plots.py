"""Campaign plots: the numbers behind cactus, scatter and transition, and the files drawn."""

import pytest

from cpqueens.errors import InvalidInputError
from cpqueens.reporting import campaign_plots as plots


def run(instance, solver, verdict, wall, *, n=8, blocked=0, fixed=0, limit=10.0, **extra):
    """One judged run, with the keys the plots read."""
    return {
        "instance": instance,
        "instance_hash": f"hash-{instance}",
        "n": n,
        "blocked_count": blocked,
        "fixed_count": fixed,
        "generator": "blocked",
        "params": extra.pop("params", {"n": n, "blocked": blocked, "seed": 1}),
        "solver": solver,
        "question": "decide",
        "time_limit": limit,
        "repeat": extra.pop("repeat", 0),
        "verdict": verdict,
        "wall": wall,
        "stats": extra.pop("stats", {}),
    }


# Density 8/64 = 0.125: i1 (sat), i2 (unsat). Density 16/64 = 0.25: i3 (unsat, b twice),
# i4 (nobody answers), i5 (sat; b's unsat was judged wrong), i6 (sat).
ROWS = [
    run("i1", "a", "sat", 1.0, blocked=8),
    run("i1", "b", "sat", 2.0, blocked=8),
    run("i2", "a", "unsat", 0.5, blocked=8),
    run("i2", "b", "unknown", 10.0, blocked=8),
    run("i3", "a", "unknown", 10.0, blocked=16),
    run("i3", "b", "unsat", 3.0, blocked=16),
    run("i3", "b", "unsat", 5.0, blocked=16, repeat=1),
    run("i4", "a", "memout", 1.2, blocked=16),
    run("i4", "b", "error", 0.1, blocked=16),
    run("i5", "a", "sat", 0.2, blocked=16),
    run("i5", "b", "wrong", 0.3, blocked=16),
    run("i6", "a", "sat", 0.4, blocked=16),
    run("i6", "b", "sat", 0.6, blocked=16),
]


def assert_drawn(path, suffix):
    assert path.exists() and path.stat().st_size > 0
    data = path.read_bytes()
    if suffix == ".png":
        assert data.startswith(b"\x89PNG")
    elif suffix == ".svg":
        assert b"<svg" in data
    else:
        assert data.startswith(b"%PDF")


# The numbers. ---------------------------------------------------------------------------


def test_cactus_series_sorts_each_solvers_solved_times():
    assert plots.cactus_series(ROWS) == {"a": [0.2, 0.4, 0.5, 1.0], "b": [0.6, 2.0, 3.0, 5.0]}


def test_a_solver_that_solves_nothing_still_has_a_series():
    rows = [*ROWS, run("i1", "c", "unknown", 10.0, blocked=8)]
    assert plots.cactus_series(rows)["c"] == []
    assert plots.solvers(rows) == ["a", "b", "c"]


def test_instance_verdicts_trust_sat_over_unsat_and_ignore_wrong_runs():
    assert plots.instance_verdicts(ROWS) == {
        "hash-i1": "sat",
        "hash-i2": "unsat",
        "hash-i3": "unsat",
        "hash-i4": "unknown",
        "hash-i5": "sat",
        "hash-i6": "sat",
    }


def test_scatter_points_take_the_median_of_solved_repeats_and_none_for_unsolved():
    assert plots.scatter_points(ROWS, "a", "b") == [
        (1.0, 2.0, "sat"),
        (0.5, None, "unsat"),
        (None, 4.0, "unsat"),
        (None, None, "unknown"),
        (0.2, None, "sat"),
        (0.4, 0.6, "sat"),
    ]


def test_scatter_points_leave_out_instances_one_solver_did_not_run():
    rows = [*ROWS, run("i7", "a", "sat", 1.0)]
    assert len(plots.scatter_points(rows, "a", "b")) == 6


def test_repeats_unsolved_everywhere_are_unsolved_but_one_solved_repeat_counts():
    rows = [
        run("i1", "a", "unknown", 10.0),
        run("i1", "a", "unknown", 10.0, repeat=1),
        run("i2", "a", "unknown", 10.0),
        run("i2", "a", "sat", 7.0, repeat=1),
    ]
    assert plots.instance_times(rows, "a") == {"hash-i1": None, "hash-i2": 7.0}


def test_transition_table_by_density_with_wall_time():
    table = plots.transition_table(ROWS, "density")
    # 0.125: i1 sat, i2 unsat. 0.25: i3 unsat, i5 and i6 sat, i4 undecided and left out.
    assert table.fractions == {8: {0.125: 0.5, 0.25: pytest.approx(2 / 3)}}
    # Unsolved runs count at the time limit (10): a at 0.25 has 0.2, 0.4, 10, 10.
    assert table.efforts == {
        "a": {0.125: 0.75, 0.25: pytest.approx(5.2)},
        "b": {0.125: 6.0, 0.25: 5.0},
    }


def test_transition_table_with_a_stats_counter_uses_only_runs_that_report_it():
    rows = [
        run("i1", "a", "sat", 1.0, blocked=2, stats={"nodes": 10}),
        run("i2", "a", "unknown", 9.0, blocked=2, stats={"nodes": 30}),
        run("i3", "a", "unsat", 1.0, blocked=4, stats={"nodes": 7}),
        run("i3", "b", "unsat", 1.0, blocked=4),  # no counter: left out
    ]
    table = plots.transition_table(rows, "blocked", effort="nodes")
    assert table.efforts == {"a": {2: 20.0, 4: 7.0}}
    assert table.fractions == {8: {2: 1.0, 4: 0.0}}


def test_transition_table_gives_a_fraction_line_per_n_and_pools_effort_over_n():
    rows = [
        run("p", "a", "sat", 1.0, n=4, blocked=4),
        run("q", "a", "unsat", 3.0, n=4, blocked=8),
        run("r", "a", "sat", 2.0, n=5, blocked=4),
        run("s", "a", "sat", 5.0, n=5, blocked=8),
    ]
    table = plots.transition_table(rows, "blocked")
    assert table.fractions == {4: {4: 1.0, 8: 0.0}, 5: {4: 1.0, 8: 1.0}}
    assert table.efforts == {"a": {4: 1.5, 8: 4.0}}
    by_n = plots.transition_table(rows, "n")
    assert by_n.fractions == {None: {4: 0.5, 5: 1.0}}


def test_transition_parameters_and_values():
    assert plots.transition_parameters(ROWS) == ["density", "fill", "n", "blocked", "seed"]
    row = run("x", "a", "sat", 1.0, n=10, blocked=25, fixed=3)
    assert plots.parameter_value(row, "density") == 0.25
    assert plots.parameter_value(row, "fill") == 0.3
    assert plots.parameter_value(row, "blocked") == 25
    assert plots.parameter_value(row, "queens") is None


# The files. -----------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
def test_cactus_is_written(tmp_path, suffix):
    path = plots.cactus(ROWS, tmp_path / f"cactus{suffix}", title="a campaign")
    assert path == tmp_path / f"cactus{suffix}"
    assert_drawn(path, suffix)


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_scatter_is_written(tmp_path, suffix):
    path = plots.scatter(ROWS, "a", "b", str(tmp_path / f"scatter{suffix}"))
    assert_drawn(path, suffix)


@pytest.mark.parametrize("suffix", [".png", ".svg"])
@pytest.mark.parametrize("parameter", ["density", "blocked", "n"])
def test_transition_is_written(tmp_path, suffix, parameter):
    path = plots.transition(ROWS, parameter, tmp_path / f"transition{suffix}")
    assert_drawn(path, suffix)


def test_zero_times_do_not_break_the_log_axes(tmp_path):
    rows = [run("i1", "a", "sat", 0.0), run("i1", "b", "sat", 0.0)]
    assert_drawn(plots.cactus(rows, tmp_path / "c.png"), ".png")
    assert_drawn(plots.scatter(rows, "a", "b", tmp_path / "s.png"), ".png")


def test_plot_kinds():
    assert plots.PLOT_KINDS == ("cactus", "scatter", "transition")


# The errors. ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["plot.jpg", "plot"])
def test_an_unknown_suffix_is_refused(tmp_path, name):
    with pytest.raises(InvalidInputError, match=r"suffix .*\.png, \.svg, \.pdf") as info:
        plots.cactus(ROWS, tmp_path / name)
    assert (".jpg" if name.endswith(".jpg") else "(none)") in str(info.value)
    assert not (tmp_path / name).exists()


def test_an_unknown_solver_is_named_with_the_solvers_present(tmp_path):
    with pytest.raises(InvalidInputError, match=r"unknown solver 'c'.*a, b"):
        plots.scatter(ROWS, "a", "c", tmp_path / "s.png")


def test_an_unknown_parameter_is_named_with_the_allowed_ones(tmp_path):
    with pytest.raises(InvalidInputError, match=r"'colour'.*density, fill, n, blocked, seed"):
        plots.transition(ROWS, "colour", tmp_path / "t.png")


def test_an_unknown_effort_counter_is_named(tmp_path):
    rows = [run("i1", "a", "sat", 1.0, stats={"nodes": 3})]
    with pytest.raises(InvalidInputError, match=r"'fails'.*nodes"):
        plots.transition(rows, "density", tmp_path / "t.png", effort="fails")


@pytest.mark.parametrize(
    "draw",
    [
        lambda path: plots.cactus([], path),
        lambda path: plots.scatter([], "a", "b", path),
        lambda path: plots.transition([], "density", path),
    ],
)
def test_no_runs_is_refused(tmp_path, draw):
    with pytest.raises(InvalidInputError, match="no runs to plot"):
        draw(tmp_path / "empty.png")
