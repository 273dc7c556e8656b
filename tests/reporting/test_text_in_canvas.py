"""No text of any picture the command line draws leaves its canvas.

Each picture is drawn as its command draws it, at the size its command gives it (the
docs' commands, on smaller boards and campaigns where the docs' would take minutes),
with every text recorded as it is drawn: title, legend entries and titles, tick and
axis labels, annotations. Recording the texts drawn, rather than every Text of the
figure, leaves out the tick labels matplotlib keeps, undrawn, beyond the axes' limits.
Each drawn text's box (``Text.get_window_extent``) must lie within the figure's, to a
pixel; a failure names each text that does not and by how many pixels on which side.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner
from fated_campaign import run_fated_campaign
from matplotlib.text import Text

from cpqueens.cli import cli
from cpqueens.reporting.campaign import plots
from cpqueens.reporting.figures import save_figure

#: How far (pixels) a text's box may pass the canvas' edge: rounding, not clipping.
SLACK = 1.0


@contextmanager
def drawn_texts() -> Iterator[list[tuple[str, tuple[float, float, float, float]]]]:
    """Record each text drawn meanwhile: its words, and by how many pixels its box
    passes the left, right, bottom and top edges of its figure (negative: inside)."""
    seen: list[tuple[str, tuple[float, float, float, float]]] = []
    original = Text.draw

    def draw(self: Text, renderer) -> None:
        if self.get_visible() and self.get_text().strip():
            box = self.get_window_extent(renderer)
            canvas = self.get_figure(root=True).bbox
            seen.append((self.get_text(), (canvas.x0 - box.x0, box.x1 - canvas.x1,
                                           canvas.y0 - box.y0, box.y1 - canvas.y1)))  # fmt: skip
        return original(self, renderer)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Text, "draw", draw)
        yield seen


def overflows(seen: list[tuple[str, tuple[float, float, float, float]]]) -> list[str]:
    """A line for each text recorded that passes an edge of its canvas by over SLACK."""
    out = []
    for words, passes in seen:
        sides = [f"{side} by {amount:.1f} px"
                 for side, amount in zip(("left", "right", "bottom", "top"), passes, strict=True)
                 if amount > SLACK]  # fmt: skip
        if sides:
            out.append(f"{words[:70]!r} leaves the canvas: {', '.join(sides)}")
    return list(dict.fromkeys(out))  # a text drawn twice (layout, then the file) once


def check_command(*args: str) -> None:
    """Run ``cpqueens ARGS`` and check every text of every picture it draws."""
    with drawn_texts() as seen:
        result = CliRunner().invoke(cli, [str(arg) for arg in args])
    # report exits 1 for the campaign's wrong answer, and writes its page all the same.
    assert result.exit_code in (0, 1), result.output
    assert seen, f"cpqueens {' '.join(map(str, args))} drew no text"
    problems = overflows(seen)
    assert not problems, "\n".join(problems)


def check_figure(figure, path: Path) -> None:
    """Write ``figure`` as its command does and check every text it draws."""
    with drawn_texts() as seen:
        save_figure(figure, path)
    assert seen
    problems = overflows(seen)
    assert not problems, "\n".join(problems)


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Path:
    """The results file of the campaign of :mod:`fated_campaign`, with plain boards too."""
    return run_fated_campaign(tmp_path_factory.mktemp("canvas"), plain=True)


# The campaign plots, drawn by ``cpqueens campaign plot``. ------------------------------


@pytest.mark.parametrize(
    "options",
    [
        ["--cactus"],
        ["--scatter", "stack", "exactcover"],
        ["--scatter", "exactcover", "my-model"],
        ["--scatter", "ace", "my-model"],
        ["--transition", "density"],
        ["--transition", "n"],
        ["--transition", "blocked", "--effort", "nodes"],
    ],
    ids=lambda options: "-".join(option.strip("-") for option in options),
)
def test_campaign_plots_keep_their_text_in_the_canvas(store, tmp_path, options):
    check_command("campaign", "plot", store, *options, "-o", tmp_path / "plot.png")


#: The solvers of :func:`docs_like_rows`, fastest first.
DOCS_SOLVERS = ("exactcover", "sat", "cpsat", "choco", "fzn-gecode", "my-model", "ace")
#: The reason the store records for ACE's runs where there is no Java.
NO_JAVA = (
    "BackendUnavailableError: backend 'ace' runs ACE on Java 17 or later, and java is "
    "not on the PATH; install it with: apt-get install default-jre-headless"
)


def docs_like_rows() -> list[dict]:
    """Judged runs as the docs' campaigns leave them: 16 instances of n = 40 at eight
    densities, seven solvers, one of which timed out on some, one wrong on most, one
    never run, so that every note of the transition's legend is there."""
    rows = []
    for k in range(16):
        blocked = 1260 + 20 * (k % 8)
        for rank, solver in enumerate(DOCS_SOLVERS):
            verdict, reason = ("sat" if k % 2 else "unsat"), None
            if solver == "my-model":
                verdict = "wrong" if k < 13 else "unknown"
                reason = "reported a board that does not solve the instance"
            elif solver == "ace":
                verdict, reason = "error", NO_JAVA
            elif solver == "choco" and k % 5 == 0:
                verdict = "unknown"
            wall = 10.0 if verdict == "unknown" else 0.01 * (rank + 1) * (k + 1)
            rows.append({
                "instance": f"blocked-n40-b{blocked}-s{k // 8 + 1}", "instance_hash": f"h{k}",
                "n": 40, "blocked_count": blocked, "fixed_count": 0, "generator": "blocked",
                "params": {"blocked": blocked}, "solver": solver, "question": "decide",
                "campaign": "solvers-from-elsewhere", "time_limit": 10.0, "wall": wall,
                "memory_limit_mb": 2000, "repeat": 0, "verdict": verdict,
                "verdict_reason": reason, "stats": {},
            })  # fmt: skip
    return rows


@pytest.mark.parametrize(
    "draw",
    [
        lambda rows: plots.cactus_figure(rows),
        lambda rows: plots.scatter_figure(rows, "sat", "cpsat"),
        lambda rows: plots.scatter_figure(rows, "fzn-gecode", "my-model"),
        lambda rows: plots.transition_figure(rows, "density"),
    ],
    ids=["cactus", "scatter-sat-cpsat", "scatter-wrong", "transition-density"],
)
def test_campaign_plots_of_the_docs_campaigns_keep_their_text_in_the_canvas(
    tmp_path, draw: Callable
):
    # The transition's title ran off the left ("aign blocked-transition: ...") once its
    # legend narrowed the panel; the scatter's title off the top.
    check_figure(draw(docs_like_rows()), tmp_path / "plot.png")


# The other pictures of the command line. -----------------------------------------------


def test_the_bench_plot_keeps_its_text_in_the_canvas(tmp_path):
    options = ["--backends", "stack,exactcover,bitmask", "-r", "1"]
    check_command("bench", "4-7", *options, "-o", tmp_path / "bench.png")


def test_the_profile_plot_keeps_its_text_in_the_canvas(tmp_path):
    check_command("profile", "8", "--solvers", "cpsat,sat", "-o", tmp_path / "profile.png")


def test_the_reports_pictures_keep_their_text_in_the_canvas(store, tmp_path):
    # Every picture of the page: bench, profile, decision tree, boards, campaign plots.
    options = ["--backends", "stack,exactcover", "-r", "1", "--tree-n", "4", "--profile-n", "6"]
    check_command("report", "4-6", *options, "--campaign", store, "-o", tmp_path / "report.html")


# The decision trees, drawn by ``cpqueens tree``, at the docs' sizes. --------------------


#: ``cpqueens tree`` as the docs run it: each style, and the comparison of two trees. A
#: case whose picture lets a text out is marked ``xfail(strict=False)``, the text named.
TREES = [
    pytest.param(["5", "-o", "tree.svg"], id="traditional"),
    pytest.param(["6", "--propagation", "arc", "--order", "first-fail", "-o", "tree.png"],
                 id="traditional-arc"),
    pytest.param(["8", "--hide-failed", "-o", "tree.png"], id="traditional-hide-failed"),
    pytest.param(["12", "--style", "icicle", "-o", "tree.png"], id="icicle"),
    pytest.param(["12", "--style", "pixel", "-o", "tree.png"], id="pixel"),
    pytest.param(["8", "--compare", "forward", "arc", "-o", "tree.png"], id="compare"),
]  # fmt: skip


@pytest.mark.parametrize("args", TREES)
def test_tree_pictures_keep_their_text_in_the_canvas(tmp_path, args):
    check_command("tree", *args[:-1], tmp_path / args[-1])
