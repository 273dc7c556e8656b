"""The pictures and the report: one style per backend, legends off the data, readable
trees, the report's timing grid, machine section and Markdown pictures beside it."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import cpqueens
from cpqueens.reporting.bench.plot import bench_figure
from cpqueens.reporting.bench.runs import Timing
from cpqueens.reporting.style import backend_style
from cpqueens.solvers import REGISTRY

pytest.importorskip("matplotlib")


# ----------------------------------------------------------------------------- style


def test_every_backend_has_its_own_colour_and_marker():
    styles = {name: backend_style(name) for name in REGISTRY}
    assert all(set(style) == {"color", "marker"} for style in styles.values())
    pairs = [(s["color"], s["marker"]) for s in styles.values()]
    assert len(set(pairs)) == len(pairs)
    # Colours alone tell the registry's backends apart (stack and minizinc included).
    colours = [s["color"] for s in styles.values()]
    assert len(set(colours)) == len(colours)
    assert backend_style("stack")["color"] != backend_style("minizinc")["color"]


def test_backend_style_is_the_same_in_every_call_and_process():
    names = [*REGISTRY, "my-program", "campaign label", "arc/row"]
    first = [backend_style(name) for name in names]
    assert first == [backend_style(name) for name in names]
    # crc32, not hash(): another process (another hash seed) gives the same styles.
    code = (
        "from cpqueens.reporting.style import backend_style;"
        f"print([backend_style(n) for n in {names!r}])"
    )
    other = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert other.strip() == repr(first)


def test_a_name_outside_the_registry_gets_a_colour_no_backend_has():
    taken = {backend_style(name)["color"] for name in REGISTRY}
    for name in ("my-program", "solver A", "./a.out", "gecode-6"):
        assert backend_style(name)["color"] not in taken


# ----------------------------------------------------------------------------- bench


def _overlaps(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def _timings() -> list[Timing]:
    timings = []
    for i, backend in enumerate(REGISTRY):
        for n in range(4, 11):
            base = 1e-5 * (i + 1) * 6 ** (n - 4)
            effort = None if backend == "constraint" else "nodes"
            nodes = None if effort is None else 16 * 4 ** (n - 4)
            timings.append(Timing(backend, n, (base, base * 1.2), 2, nodes, effort=effort))
    return timings


@pytest.mark.slow
def test_the_bench_legend_lies_outside_every_axes():
    figure = bench_figure(_timings(), "twelve backends and more")
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    legends = figure.legends + [ax.get_legend() for ax in figure.axes if ax.get_legend()]
    assert legends
    for legend in legends:
        box = legend.get_window_extent(renderer)
        for axes in figure.axes:
            assert not _overlaps(box, axes.get_window_extent(renderer))
    labels = [text.get_text() for text in legends[0].get_texts()]
    assert labels[: len(REGISTRY)] == list(REGISTRY)
    # Each line has its backend's colour and marker.
    time_axes = figure.axes[0]
    for line, backend in zip(time_axes.get_lines(), REGISTRY, strict=True):
        style = backend_style(backend)
        assert line.get_color() == style["color"] and line.get_marker() == style["marker"]


# ----------------------------------------------------------------------------- trees


def test_a_deep_cut_tree_is_bounded_and_its_title_does_not_say_0_solutions(tmp_path):
    from matplotlib.image import imread

    from cpqueens.trees.pictures.drawing import _figure, _title
    from cpqueens.trees.pictures.proportions import MAX_ASPECT

    G = cpqueens.decision_tree(12, max_depth=3)
    title = _title(G, G, False)
    assert "0 solutions" not in title
    assert "cut at depth 3" in title and "no solution within reach" in title
    figure = _figure(G, G, False, None)
    width, height = figure.get_size_inches()
    assert width * 110 <= 4000 and max(width / height, height / width) <= MAX_ASPECT
    path = cpqueens.draw_tree(G, tmp_path / "t.png")
    rows, columns = imread(path).shape[:2]
    assert columns <= 4000 and columns / rows <= MAX_ASPECT + 0.01
    # Too crowded at the leaves to label them: the title says so.
    assert "too close to label" in figure.axes[0].get_title(loc="left").replace("\n", " ")


def test_tree_titles_count_in_the_one_style():
    from cpqueens.trees.pictures.drawing import _title

    G = cpqueens.decision_tree(8)
    assert _title(G, G, False) == "8-queens decision tree: 2,056 nodes below the root, 92 solutions"
    one = cpqueens.decision_tree(1)
    assert _title(one, one, False).endswith("1 node below the root, 1 solution")


def test_the_propagated_tree_is_labelled_readably_and_its_title_fits(tmp_path):
    from cpqueens.trees.pictures.drawing import _figure
    from cpqueens.trees.pictures.proportions import MIN_FONT

    G = cpqueens.decision_tree(6, propagation="arc", order="first-fail")
    figure = _figure(G, G, False, None)
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    ax = figure.axes[0]
    labels = [text for text in ax.texts if text.get_text()]
    assert labels and min(text.get_fontsize() for text in labels) >= MIN_FONT
    title = ax.title if ax.title.get_text() else ax._left_title
    assert title.get_window_extent(renderer).x1 <= figure.bbox.x1 + 1


# ----------------------------------------------------------------------------- report


@pytest.fixture(scope="module")
def report_data():
    from cpqueens.reporting.page.data import build_report

    return build_report([4, 5], ["stack", "tree"], repeat=1, tree_n=4, profile_n=4)


@pytest.mark.slow
def test_the_report_has_a_timing_grid_and_a_machine_section(report_data):
    from cpqueens.reporting.page.rendering import to_html

    page = to_html(report_data)
    assert "<th>backend</th><th>n=4</th><th>n=5</th>" in page
    grid = page.split("Median time to list every solution", 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr><td>(stack|tree)</td>((?:<td>[^<]*</td>){2})</tr>", grid)
    # A row of times for each backend, in the one style ("47.2 µs", "1.21 ms").
    assert sorted(name for name, _ in rows) == ["stack", "tree"]
    for _, cells in rows:
        times = re.findall(r"<td>([^<]*)</td>", cells)
        assert all(re.fullmatch(r"\d+(\.\d+)? (s|ms|µs|ns)", t) for t in times), times
    assert "<h2>Machine</h2>" in page
    for what in ("CPU", "cores", "load average", "Python", "OS", "solver packages"):
        assert f"<dt>{what}</dt>" in page
    assert "stack: -" in page
    assert 'class="plot"' in page and "width: 100%" in page
    # Still one self-contained file.
    assert "report_files" not in page and page.count("data:image/png;base64,") == 3


def test_write_markdown_puts_the_pictures_beside_and_links_them(report_data, tmp_path):
    from cpqueens.reporting.page.rendering import markdown_report, write_markdown, write_report

    target = tmp_path / "report.md"
    assert write_markdown(report_data, target) == target
    text = target.read_text()
    links = re.findall(r"!\[[^\]]*\]\(([^)]*)\)", text)
    assert links and all(link.startswith("report_files/") for link in links)
    assert "data:image" not in text
    for link in links:
        assert (tmp_path / link).stat().st_size > 100
    assert (tmp_path / "report_files" / "bench.png").read_bytes()[:4] == b"\x89PNG"
    assert "## Machine" in text and "| backend | n=4 | n=5 |" in text
    # The same as a function of the data alone, and the HTML by the suffix.
    body, files = markdown_report(report_data, "report_files")
    assert body == text and set(files) == set(links)
    page = write_report(report_data, tmp_path / "r.html")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html", "report.md", "report_files"]
    assert "data:image/png" in page.read_text()
