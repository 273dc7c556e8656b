"""A one-file report: cross-check, timing and node plots, search profile, decision tree, boards.

:func:`build_report` runs everything and returns a :class:`ReportData`;
:func:`to_html` and :func:`to_markdown` write it out as a single self-contained
document: every picture is embedded as a data URI (or inline SVG), so the file can
be mailed or pasted into a write-up without anything beside it.
"""

from __future__ import annotations

import base64
import datetime
import html
import platform
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._version import __version__
from ..api import solve
from ..checking.compare import crosscheck
from ..checking.verdicts import CrossCheckRow
from ..svgboard import to_svg
from ..trees.build import decision_tree
from ..trees.drawing import draw_tree
from .bench import Timing, bench_figure, bench_grid, figure_bytes, run_bench
from .campaign import CampaignSection, campaign_parts
from .profile import (
    SearchProfile,
    default_solvers,
    profile_figure,
    profile_grid,
    solver_figures,
    solver_grid,
)
from .tables import crosscheck_grid, format_grid


def crosscheck_by_size(
    ns: Sequence[Any],
    backends: Sequence[Any] | None,
    reference: str = "tree",
    *,
    time_limit: float | None = None,
    on_done: Callable[[Any], None] | None = None,
) -> tuple[list[CrossCheckRow], list[dict[str, Any]]]:
    """Cross-check one n (or instance) at a time, so progress can be shown and an
    interruption loses little.

    ``backends`` (registry names, functions, :class:`cpqueens.Command` programs) None
    means every available backend that lists solutions, as for
    :func:`cpqueens.crosscheck`. Returns the rows and their JSON-serialisable
    records, in order of n.
    """
    rows: list[CrossCheckRow] = []
    records: list[dict[str, Any]] = []
    for n in ns:
        report = crosscheck([n], backends=backends, reference=reference, time_limit=time_limit)
        rows.extend(report.rows)
        records.extend(report.to_records())
        if on_done is not None:
            on_done(n)
    return rows, records


def tree_picture(n: int, *, solutions_only: bool = False, fmt: str = "png") -> bytes:
    """Draw the decision tree of size ``n`` and return the picture's bytes."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"tree.{fmt}"
        draw_tree(decision_tree(n), path, solutions_only=solutions_only)
        return path.read_bytes()


@dataclass(frozen=True)
class ReportData:
    """Everything a report shows, computed once and written as HTML or Markdown."""

    ns: tuple[int, ...]
    backends: tuple[str, ...]
    reference: str
    crosscheck_rows: tuple[CrossCheckRow, ...]
    timings: tuple[Timing, ...]
    bench_png: bytes
    tree_n: int
    tree_png: bytes
    boards: tuple[tuple[int, tuple[int, ...]], ...]
    created: str
    profile: SearchProfile | None = None
    profile_png: bytes = b""
    campaign: CampaignSection | None = None

    @property
    def ok(self) -> bool:
        """True when every backend agreed with the reference and no campaign run is wrong."""
        agree = all(row.agrees for row in self.crosscheck_rows)
        return agree and (self.campaign is None or self.campaign.ok)


def build_report(
    ns: Sequence[int],
    backends: Sequence[str],
    *,
    reference: str = "tree",
    repeat: int = 3,
    tree_n: int = 5,
    profile_n: int | None = None,
    step: Callable[[str | None], None] | None = None,
) -> ReportData:
    """Run the cross-check, the timings, the profile, the tree and the sample boards.

    The search profile is for ``profile_n`` (default: the largest n, at most 10),
    with the report's solver backends beside it. ``step`` is called after each
    unit of work (one per n for the cross-check, one per (n, backend) for the
    timings, one for the profile, one for the tree) with a label naming what is
    now complete, or None when a size is not complete yet.
    """
    from .profile import search_profile

    tell = step or (lambda label: None)
    rows, _ = crosscheck_by_size(
        ns, backends, reference, on_done=lambda n: tell(f"cross-check n={n}")
    )
    last = backends[-1]
    timings = run_bench(
        ns,
        backends,
        repeat,
        on_done=lambda t: tell(f"timing n={t.n}" if t.backend == last else None),
    )
    figure = bench_figure(timings, title=f"cpqueens backends, n = {_span(ns)}")
    profile_n = min(max(ns), 10) if profile_n is None else profile_n
    solvers = [name for name in default_solvers() if name in backends]
    profile = search_profile(profile_n, solvers=solvers)
    tell(f"profile n={profile_n}")
    tree_png = tree_picture(tree_n)
    tell(f"tree n={tree_n}")
    boards = tuple((n, solve(n, limit=1).solutions[0]) for n in ns if n not in (2, 3) and n <= 16)
    return ReportData(
        ns=tuple(ns),
        backends=tuple(backends),
        reference=reference,
        crosscheck_rows=tuple(rows),
        timings=tuple(timings),
        bench_png=figure_bytes(figure, "png", dpi=90),
        tree_n=tree_n,
        tree_png=tree_png,
        boards=boards,
        created=datetime.datetime.now().isoformat(timespec="seconds"),
        profile=profile,
        profile_png=figure_bytes(profile_figure(profile), "png", dpi=90),
    )


def _span(ns: Sequence[int]) -> str:
    if list(ns) == list(range(ns[0], ns[-1] + 1)) and len(ns) > 1:
        return f"{ns[0]}..{ns[-1]}"
    return ", ".join(map(str, ns))


def _data_uri(data: bytes, mime: str) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def _intro(data: ReportData) -> str:
    verdict = (
        "every backend agrees with the reference"
        if data.ok
        else "SOME BACKENDS DISAGREE with the reference (rows marked !)"
    )
    return (
        f"Backends {', '.join(data.backends)} on n = {_span(data.ns)}, checked against "
        f"{data.reference}: {verdict}. Generated by cpqueens {__version__} on "
        f"Python {platform.python_version()}, {data.created}."
    )


_CSS = """
body { font-family: system-ui, sans-serif; max-width: 62rem; margin: 2rem auto; padding: 0 1rem;
       color: #222; line-height: 1.45; }
pre { background: #f6f6f4; padding: .8rem; overflow-x: auto; font-size: .85rem; }
img { max-width: 100%; }
figure { margin: 1rem 0; }
.boards { display: flex; flex-wrap: wrap; gap: 1.2rem; }
.boards figure { margin: 0; text-align: center; font-size: .85rem; }
table { border-collapse: collapse; font-size: .9rem; margin: .5rem 0 1rem; }
th, td { padding: .2rem .6rem; border-bottom: 1px solid #ddd; text-align: right; }
th:first-child, td:first-child { text-align: left; }
"""


_PROFILE_TEXT = (
    "Queens placed at each depth by blind backtracking (none), forward checking and "
    "arc consistency, with rows in order or first-fail (the row with the fewest "
    "squares left); then the constraint solvers' own effort figures on the same board."
)


def _profile_parts(data: ReportData, style: str) -> list[str]:
    """The search-profile section: heading, text, plot, the two tables."""
    profile = data.profile
    if profile is None:
        return []
    alt = f"nodes per depth for n={profile.n}"
    uri = _data_uri(data.profile_png, "image/png")
    grids = [format_grid(profile_grid(profile), style)]
    if profile.solvers:
        grids.append(format_grid(solver_grid(profile), style))
    figures = solver_figures(profile)
    if style == "html":
        return [
            f"<h2>Search profile, n = {profile.n}</h2>",
            f"<p>{html.escape(_PROFILE_TEXT)}</p>",
            f'<figure><img alt="{alt}" src="{uri}"></figure>',
            *grids,
            *(f"<p><small>{html.escape(line)}</small></p>" for line in figures),
        ]
    heading = f"## Search profile, n = {profile.n}"
    return [heading, _PROFILE_TEXT, f"![{alt}]({uri})", *grids, *figures]


def to_html(data: ReportData) -> str:
    """Return the report as one HTML page; pictures are inline SVG or base64 data URIs."""
    check, problems = crosscheck_grid(data.crosscheck_rows, data.reference)
    boards = "".join(
        f"<figure>{to_svg(solution, cell=max(12, 160 // n))}"
        f"<figcaption>n={n}: {html.escape(str(solution))}</figcaption></figure>"
        for n, solution in data.boards
    )
    sections = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>cpqueens report, n = {_span(data.ns)}</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>cpqueens report, n = {_span(data.ns)}</h1>",
        f"<p>{html.escape(_intro(data))}</p>",
        "<h2>Cross-check</h2>",
        "<p>Solutions found by each backend, compared with the reference's solution set.</p>",
        format_grid(check, "html"),
        *(f"<p><strong>{html.escape(problem)}</strong></p>" for problem in problems),
        "<h2>Time and search effort</h2>",
        f'<figure><img alt="time and nodes against n" '
        f'src="{_data_uri(data.bench_png, "image/png")}">',
        "<figcaption>Median of the repeated runs (dots: each run); log scale.</figcaption>",
        "</figure>",
        format_grid(bench_grid(data.timings), "html"),
        *_profile_parts(data, "html"),
        *(campaign_parts(data.campaign, "html") if data.campaign else []),
        f"<h2>Decision tree, n = {data.tree_n}</h2>",
        f'<figure><img alt="decision tree for n={data.tree_n}" '
        f'src="{_data_uri(data.tree_png, "image/png")}"></figure>',
        "<h2>Sample boards</h2>",
        "<p>The first solution in lexicographic order for each n.</p>",
        f'<div class="boards">{boards}</div>',
        "</body></html>",
    ]
    return "\n".join(sections) + "\n"


def to_markdown(data: ReportData) -> str:
    """Return the report as Markdown; pictures are embedded as data URIs, so it is one file."""
    check, problems = crosscheck_grid(data.crosscheck_rows, data.reference)
    boards = "\n".join(
        f"![n={n}: {solution}]"
        f"({_data_uri(to_svg(solution, cell=max(12, 160 // n)).encode(), 'image/svg+xml')})"
        for n, solution in data.boards
    )
    parts = [
        f"# cpqueens report, n = {_span(data.ns)}",
        _intro(data),
        "## Cross-check",
        "Solutions found by each backend, compared with the reference's solution set.",
        format_grid(check, "markdown"),
        *(f"**{problem}**" for problem in problems),
        "## Time and search effort",
        f"![time and nodes against n]({_data_uri(data.bench_png, 'image/png')})",
        "Median of the repeated runs (dots: each run); log scale.",
        format_grid(bench_grid(data.timings), "markdown"),
        *_profile_parts(data, "markdown"),
        *(campaign_parts(data.campaign, "markdown") if data.campaign else []),
        f"## Decision tree, n = {data.tree_n}",
        f"![decision tree for n={data.tree_n}]({_data_uri(data.tree_png, 'image/png')})",
        "## Sample boards",
        "The first solution in lexicographic order for each n.",
        boards,
    ]
    return "\n\n".join(parts) + "\n"
