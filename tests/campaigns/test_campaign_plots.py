"""Campaign plots: the numbers behind cactus, scatter and transition, the files drawn, and
what each plot says of a solver that was wrong or could not run."""

from xml.etree import ElementTree

import matplotlib
import pytest
from click.testing import CliRunner
from fated_campaign import run_fated_campaign

import cpqueens
from cpqueens.cli import cli
from cpqueens.errors import InvalidInputError
from cpqueens.reporting.campaign import phase_transition as phase
from cpqueens.reporting.campaign import plots, runs
from cpqueens.reporting.campaign.runs import WRONG_COLOUR, fate_words, solver_fates


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
        "campaign": "tiny",
        "question": "decide",
        "time_limit": limit,
        "memory_limit_mb": 500,
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


def test_cactus_series_sorts_each_solvers_instance_times():
    # A point per instance solved: b's two repeats of i3 (3.0 and 5.0) are one, at 4.0.
    assert runs.cactus_series(ROWS) == {"a": [0.2, 0.4, 0.5, 1.0], "b": [0.6, 2.0, 4.0]}


def test_the_virtual_best_takes_each_instances_best_solver():
    # i1: a 1.0; i2: a 0.5; i3: b 4.0; i5: a 0.2; i6: a 0.4; i4 solved by none.
    assert runs.virtual_best_times(ROWS) == [0.2, 0.4, 0.5, 1.0, 4.0]
    assert runs.solver_ranking(ROWS) == ["a", "b"]


def test_a_solver_that_solves_nothing_still_has_a_series():
    rows = [*ROWS, run("i1", "c", "unknown", 10.0, blocked=8)]
    assert runs.cactus_series(rows)["c"] == []
    assert runs.solvers(rows) == ["a", "b", "c"]


def test_instance_verdicts_trust_sat_over_unsat_and_ignore_wrong_runs():
    assert runs.instance_verdicts(ROWS) == {
        "hash-i1": "sat",
        "hash-i2": "unsat",
        "hash-i3": "unsat",
        "hash-i4": "unknown",
        "hash-i5": "sat",
        "hash-i6": "sat",
    }


def test_scatter_points_take_the_median_of_solved_repeats_and_none_for_unsolved():
    assert runs.scatter_points(ROWS, "a", "b") == [
        (1.0, 2.0, "sat"),
        (0.5, None, "unsat"),
        (None, 4.0, "unsat"),
        (None, None, "unknown"),
        (0.2, None, "sat"),
        (0.4, 0.6, "sat"),
    ]


def test_scatter_points_leave_out_instances_one_solver_did_not_run():
    rows = [*ROWS, run("i7", "a", "sat", 1.0)]
    assert len(runs.scatter_points(rows, "a", "b")) == 6


def test_repeats_unsolved_everywhere_are_unsolved_but_one_solved_repeat_counts():
    rows = [
        run("i1", "a", "unknown", 10.0),
        run("i1", "a", "unknown", 10.0, repeat=1),
        run("i2", "a", "unknown", 10.0),
        run("i2", "a", "sat", 7.0, repeat=1),
    ]
    assert runs.instance_times(rows, "a") == {"hash-i1": None, "hash-i2": 7.0}


def test_transition_table_by_density_with_wall_time():
    table = phase.transition_table(ROWS, "density")
    # 0.125: i1 sat, i2 unsat. 0.25: i3 unsat, i5 and i6 sat, i4 undecided and left out.
    assert table.fractions == {8: {0.125: 0.5, 0.25: pytest.approx(2 / 3)}}
    assert table.samples == {8: {0.125: (2, 2), 0.25: (3, 4)}}
    # Unfinished runs count at the time limit (10): a at 0.25 has 0.2, 0.4, 10, 10.
    # b's error (i4) and wrong answer (i5) are left out: 3.0, 5.0, 0.6.
    assert table.efforts == {
        "a": {0.125: 0.75, 0.25: pytest.approx(5.2)},
        "b": {0.125: 6.0, 0.25: 3.0},
    }
    assert table.spread["a"][0.25] == (pytest.approx(0.35), pytest.approx(10.0))
    assert table.spread["b"][0.25] == (pytest.approx(1.8), pytest.approx(4.0))
    assert table.runs == {"a": {0.125: 2, 0.25: 4}, "b": {0.125: 2, 0.25: 3}}
    assert table.unfinished == {"a": {0.125: 0, 0.25: 2}, "b": {0.125: 1, 0.25: 0}}
    assert table.left_out == {"b": 2}


def test_transition_table_with_a_stats_counter_uses_only_runs_that_report_it():
    rows = [
        run("i1", "a", "sat", 1.0, blocked=2, stats={"nodes": 10}),
        run("i2", "a", "unknown", 9.0, blocked=2, stats={"nodes": 30}),
        run("i3", "a", "unsat", 1.0, blocked=4, stats={"nodes": 7}),
        run("i3", "b", "unsat", 1.0, blocked=4),  # no counter: left out
    ]
    table = phase.transition_table(rows, "blocked", effort="nodes")
    assert table.efforts == {"a": {2: 20.0, 4: 7.0}}
    assert table.fractions == {8: {2: 1.0, 4: 0.0}}


def test_transition_table_gives_a_fraction_line_per_n_and_pools_effort_over_n():
    rows = [
        run("p", "a", "sat", 1.0, n=4, blocked=4),
        run("q", "a", "unsat", 3.0, n=4, blocked=8),
        run("r", "a", "sat", 2.0, n=5, blocked=4),
        run("s", "a", "sat", 5.0, n=5, blocked=8),
    ]
    table = phase.transition_table(rows, "blocked")
    assert table.fractions == {4: {4: 1.0, 8: 0.0}, 5: {4: 1.0, 8: 1.0}}
    assert table.efforts == {"a": {4: 1.5, 8: 4.0}}
    by_n = phase.transition_table(rows, "n")
    assert by_n.fractions == {None: {4: 0.5, 5: 1.0}}


def test_transition_parameters_and_values():
    assert phase.transition_parameters(ROWS) == ["density", "fill", "n", "blocked", "seed"]
    row = run("x", "a", "sat", 1.0, n=10, blocked=25, fixed=3)
    assert phase.parameter_value(row, "density") == 0.25
    assert phase.parameter_value(row, "fill") == 0.3
    assert phase.parameter_value(row, "blocked") == 25
    assert phase.parameter_value(row, "queens") is None


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


@pytest.mark.slow
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


# What a reader sees. --------------------------------------------------------------------
# The figures are read back: titles, labels, styles and the data each line holds.


def luma(colour):
    """The grey a colour prints as (ITU-R BT.601): 0 black, 1 white."""
    from matplotlib.colors import to_rgb

    red, green, blue = to_rgb(colour)
    return 0.299 * red + 0.587 * green + 0.114 * blue


def lines_by_label(axes):
    return {line.get_label(): line for line in axes.get_lines()}


# The four solvers of docs/campaigns.md: exactcover solves all, fastest.
FOUR = [
    run(f"i{k}", solver, "sat" if k % 2 else "unsat", wall * (k + 1), blocked=8)
    for k in range(6)
    for solver, wall in [("exactcover", 0.01), ("sat", 0.1), ("cpsat", 0.05), ("choco", 0.2)]
]


def test_the_cactus_title_names_the_campaign_question_and_limits():
    # The figure's title: a long campaign name stays inside the picture.
    title = plots.cactus_figure(ROWS).get_suptitle()
    assert "campaign tiny" in title and "decide" in title
    assert "time limit 10.0 s" in title and "memory limit 500 MB" in title
    assert "Instances solved" in title
    assert plots.cactus_figure(ROWS, title="Mine").get_suptitle().startswith("Mine\n")


def test_the_cactus_draws_the_virtual_best_solver_as_a_line_of_its_own():
    lines = lines_by_label(plots.cactus_figure(ROWS).axes[0])
    vbs = next(line for label, line in lines.items() if label.startswith("VBS"))
    assert list(vbs.get_ydata()) == [0.2, 0.4, 0.5, 1.0, 4.0]
    assert "virtual best" in vbs.get_label()
    assert {label.split(" ")[0].rstrip(":") for label in lines} >= {"a", "b", "VBS", "time"}


def test_the_best_solver_is_the_darkest_line_and_every_line_reads_in_greyscale():
    axes = plots.cactus_figure(FOUR).axes[0]
    lines = {label.split(" ")[0]: line for label, line in lines_by_label(axes).items()}
    solvers = ["exactcover", "cpsat", "sat", "choco"]
    assert runs.solver_ranking(FOUR) == solvers
    greys = [luma(lines[label].get_color()) for label in solvers]
    # The best is not the palest: it is the darkest, and the lines lighten with rank.
    assert greys == sorted(greys) and greys[0] < greys[-1]
    # Each line has a dash pattern and a marker of its own, not a colour alone.
    assert len({lines[label].get_linestyle() for label in solvers}) == 4
    assert len({lines[label].get_marker() for label in solvers}) == 4
    # The legend lists the solvers best first.
    legend = [text.get_text().split(" ")[0] for text in axes.get_legend().get_texts()]
    assert legend[:5] == ["VBS:", *solvers]


def test_a_solver_keeps_its_style_from_the_cactus_to_the_transition():
    cactus = plots.cactus_figure(FOUR).axes[0]
    transition = plots.transition_figure(FOUR, "density").axes[1]
    for label in ("exactcover", "choco"):
        [one] = [line for line in cactus.get_lines() if line.get_label().startswith(label + " ")]
        [two] = [
            line for line in transition.get_lines() if line.get_label().startswith(label + " ")
        ]
        assert (one.get_color(), one.get_marker(), one.get_linestyle()) == (
            two.get_color(), two.get_marker(), two.get_linestyle()
        )  # fmt: skip


def test_the_scatter_names_solvers_on_its_axes_and_statuses_in_its_legend():
    # A solver named "sat" beside the status sat: the two must not be read one for the other.
    rows = [{**row, "solver": {"a": "sat", "b": "cpsat"}[row["solver"]]} for row in ROWS]
    figure = plots.scatter_figure(rows, "sat", "cpsat")
    axes = figure.axes[0]
    assert axes.get_xlabel() == "wall time of solver 'sat' (s)"
    # cpsat (b) was wrong on i5 and failed on i4: its axis says so under its name.
    assert axes.get_ylabel().splitlines()[0] == "wall time of solver 'cpsat' (s)"
    legend = figure.legends[0]
    words = [text.get_text() for text in legend.get_texts()]
    assert words[:3] == ["satisfiable", "unsatisfiable", "undecided (no run answered)"]
    assert not set(words) & {"sat", "unsat", "unknown", "cpsat"}
    assert legend.get_title().get_text().startswith("the instance is")
    verdicts = {"satisfiable", "unsatisfiable", "undecided (no run answered)"}
    markers = {
        c.get_label(): c.get_paths()[0] for c in axes.collections if c.get_label() in verdicts
    }
    assert len({tuple(map(tuple, path.vertices)) for path in markers.values()}) == 3
    assert "campaign tiny" in figure.get_suptitle()


def test_the_transition_defines_its_axis_and_shows_sample_sizes():
    figure = plots.transition_figure(ROWS, "density")
    top, bottom = figure.axes
    assert bottom.get_xlabel() == "density = blocked squares / n²"
    # Over the figure, not the top panel (centred on the panel, it ran off the left).
    title = figure.get_suptitle()
    assert "campaign tiny" in title and "time limit 10.0 s" in title
    # 0.125: two instances, both decided; 0.25: three of four decided.
    assert sorted(text.get_text() for text in top.texts if "/" in text.get_text() or
                  text.get_text().isdigit()) == ["2", "3/4"]  # fmt: skip
    assert "runs a point" in " ".join(line.get_label() for line in bottom.get_lines())


def test_the_transition_draws_the_median_with_its_interquartile_band():
    from matplotlib.collections import PolyCollection

    bottom = plots.transition_figure(ROWS, "density").axes[1]
    bands = [c for c in bottom.collections if isinstance(c, PolyCollection)]
    assert len(bands) == 2  # one a solver
    # a at 0.25: runs 0.2, 0.4, 10, 10: quartiles 0.35 and 10.
    a_band = bands[0].get_paths()[0].vertices
    assert min(a_band[:, 1]) == pytest.approx(0.35)
    assert max(a_band[:, 1]) == pytest.approx(10.0)


def test_the_transition_marks_runs_that_did_not_finish():
    bottom = plots.transition_figure(ROWS, "density").axes[1]
    hollow = [line for line in bottom.get_lines() if line.get_markerfacecolor() == "white"
              and len(line.get_xdata())]  # fmt: skip
    # a timed out at 0.25 (i3) and ran out of memory (i4); b timed out at 0.125 (i2).
    assert sorted(list(line.get_xdata()) for line in hollow) == [[0.125], [0.25]]
    texts = [text.get_text() for text in bottom.get_legend().get_texts()]
    assert any("did not finish" in text for text in texts)


def test_the_transition_draws_no_errored_run_as_a_time():
    rows = [
        run("p", "a", "sat", 1.0, blocked=8),
        run("q", "a", "error", 0.05, blocked=8),
        run("r", "a", "sat", 3.0, blocked=16),
        run("s", "a", "error", 0.01, blocked=16),
        run("s", "a", "wrong", 0.02, blocked=16, repeat=1),
    ]
    table = phase.transition_table(rows, "density")
    assert table.efforts == {"a": {0.125: 1.0, 0.25: 3.0}}
    assert table.left_out == {"a": 3}
    bottom = plots.transition_figure(rows, "density").axes[1]
    [line] = [line for line in bottom.get_lines() if line.get_label().startswith("a (")]
    # Not the errors' times, and not the limit in their place (median 5.5, then 10).
    assert list(line.get_ydata()) == [1.0, 3.0]
    texts = [text.get_text() for text in bottom.get_legend().get_texts()]
    assert "not drawn: 3 runs in error or wrong (a: 3)" in texts


def test_a_campaign_of_errors_only_is_refused_with_a_reason(tmp_path):
    rows = [run("p", "a", "error", 0.05, blocked=8)]
    with pytest.raises(InvalidInputError, match="every run ended in an error"):
        plots.transition(rows, "density", tmp_path / "t.png")


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
    rows = [run("i1", "a", "sat", 1.0, stats={"nodes": 3, "status": "OPTIMAL"})]
    with pytest.raises(InvalidInputError, match=r"'fails'.*nodes") as refused:
        plots.transition(rows, "density", tmp_path / "t.png", effort="fails")
    # Only figures that can be plotted are offered; a status word is none.
    assert "status" not in str(refused.value)
    with pytest.raises(InvalidInputError, match=r"'status' as a number.*: nodes$"):
        plots.transition(rows, "density", tmp_path / "t.png", effort="status")


def test_effort_has_one_definition_used_by_bench_profile_and_report():
    from cpqueens.reporting import effort
    from cpqueens.reporting.bench import runs as bench
    from cpqueens.reporting.page import rendering as report_page
    from cpqueens.reporting.profile import profiles as profile

    assert profile.EFFORT_KEYS is effort.EFFORT_KEYS and bench.main_effort is effort.main_effort
    assert effort.EFFORT_MEANING[1:] in report_page._EFFORT_TEXT


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


# Every solver's fate. -------------------------------------------------------------------
# A solver that solved nothing was slow, wrong or unable to run: the plots say which. The
# campaign below is the README's solvers from elsewhere in small: two backends that
# answer, a "model" that prints a board that solves nothing, and ACE with no Java to run
# on. What the plots say is read back from the SVG each command writes.


@pytest.fixture(scope="module")
def fated(tmp_path_factory):
    """The results file of the campaign of :mod:`fated_campaign`."""
    return run_fated_campaign(tmp_path_factory.mktemp("fated"))


def svg_texts(db, *options: str, tmp_path) -> list[str]:
    """The texts of ``cpqueens campaign plot DB OPTIONS`` written as SVG, in order."""
    path = tmp_path / "plot.svg"
    # Text kept as text, not as glyphs drawn as paths, so the file can be read back.
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        result = CliRunner().invoke(cli, ["campaign", "plot", str(db), *options, "-o", str(path)])
    assert result.exit_code == 0, result.output
    root = ElementTree.parse(path).getroot()
    return ["".join(element.itertext()).strip() for element in root.iter()
            if element.tag.endswith("}text")]  # fmt: skip


def said(texts: list[str]) -> str:
    """The picture's texts as one line: an entry wrapped on two lines reads as one."""
    return " ".join(texts)


def test_the_store_records_each_solvers_fate(fated):
    fates = solver_fates(cpqueens.load_results(fated))
    assert {label: fate_words(fate) for label, fate in fates.items()} == {
        "stack": None,
        "exactcover": None,
        "my-model": "WRONG on 6 instances",
        "ace": "could not run (not installed)",
    }


def test_the_cactus_marks_a_wrong_solver_and_one_that_could_not_run(fated, tmp_path):
    text = said(svg_texts(fated, "--cactus", tmp_path=tmp_path))
    assert "my-model: WRONG on 6 instances" in text
    assert "ace: could not run (not installed)" in text
    # Neither reads as a solver that was merely slow.
    assert "my-model (0 instances)" not in text and "ace (0 instances)" not in text
    assert "stack (6 instances)" in text and "exactcover (6 instances)" in text


def test_the_transition_marks_a_wrong_solver_and_one_that_could_not_run(fated, tmp_path):
    text = said(svg_texts(fated, "--transition", "density", tmp_path=tmp_path))
    assert "my-model: WRONG on 6 instances; not drawn" in text
    assert "ace: could not run (not installed); not drawn" in text


def test_the_scatter_says_on_each_axis_what_became_of_its_solver(fated, tmp_path):
    text = said(svg_texts(fated, "--scatter", "stack", "my-model", tmp_path=tmp_path))
    assert "wall time of solver 'my-model' (s) WRONG on 6 instances" in text
    # Its points sit on the time-out line: the legend says what circles them.
    assert "circled: a run of either solver gave" in text and "a WRONG answer" in text
    text = said(svg_texts(fated, "--scatter", "ace", "stack", tmp_path=tmp_path))
    assert "wall time of solver 'ace' (s) could not run (not installed)" in text
    assert "an error, no answer" in text and "a WRONG answer" not in text


def test_a_wrong_solver_stands_out_in_the_legend(fated):
    axes = plots.cactus_figure(cpqueens.load_results(fated)).axes[0]
    entries = dict(zip((text.get_text() for text in axes.get_legend().get_texts()),
                       axes.get_legend().legend_handles, strict=True))  # fmt: skip
    texts = {text.get_text(): text for text in axes.get_legend().get_texts()}
    wrong = texts["my-model: WRONG on 6 instances"]
    assert wrong.get_color() == WRONG_COLOUR and wrong.get_fontweight() == "bold"
    assert texts["ace: could not run (not installed)"].get_fontstyle() == "italic"
    # A cross for the wrong solver, no mark for the one that never ran: no line style.
    assert entries["my-model: WRONG on 6 instances"].get_marker() == "X"
    assert entries["my-model: WRONG on 6 instances"].get_linestyle() == "None"
    assert entries["ace: could not run (not installed)"].get_marker() in ("", "None")
    assert entries["ace: could not run (not installed)"].get_linestyle() == "None"
    # Nothing of theirs is drawn in the axes.
    assert all(len(line.get_xdata()) == 0 for line in axes.get_lines()
               if line.get_label().startswith(("my-model", "ace")))  # fmt: skip


def test_a_solver_wrong_somewhere_keeps_its_line_and_says_so():
    # b solved i1, i3 and i6, was wrong on i5 and failed on i4 (ROWS has no reason).
    figure = plots.cactus_figure(ROWS)
    texts = [text.get_text().replace("\n", " ") for text in figure.axes[0].get_legend().get_texts()]
    assert "b (3 instances; WRONG on 1 instance; 1 run in error: no reason recorded)" in texts
    assert "a (4 instances)" in texts
    [line] = [line for line in figure.axes[0].get_lines() if line.get_label().startswith("b (")]
    assert list(line.get_ydata()) == [0.6, 2.0, 4.0]


def test_a_solver_that_only_timed_out_is_drawn_as_slow():
    rows = [*ROWS, run("i1", "c", "unknown", 10.0, blocked=8)]
    texts = [text.get_text() for text in plots.cactus_figure(rows).axes[0].get_legend().get_texts()]
    assert "c (0 instances)" in texts


def test_a_solver_wrong_on_repeats_is_counted_by_instance():
    rows = [run("i1", "a", "wrong", 1.0), run("i1", "a", "wrong", 1.0, repeat=1),
            run("i2", "a", "sat", 1.0), run("i2", "b", "error", 0.1)]  # fmt: skip
    fates = solver_fates(rows)
    assert (fates["a"].wrong, fates["a"].solved, fates["a"].runs) == (1, 1, 3)
    assert fates["b"].could_not_run and not fates["a"].could_not_run
