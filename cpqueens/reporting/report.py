"""A one-file report: cross-check, timing and node plots, search profile, decision tree, boards.

:func:`build_report` runs everything and returns a :class:`ReportData`;
:func:`to_html` writes it as one self-contained page (every picture embedded as a
data URI or inline SVG, so the file can be mailed or pasted into a write-up).
Markdown is written with its pictures as files beside it (:func:`write_markdown`:
``report.md`` and ``report_files/*.png``), since data-URI images do not show on
common hosting; :func:`to_markdown` still gives the one-file version.
:func:`write_report` writes either, by the target's suffix.
"""

from __future__ import annotations

import base64
import datetime
import html
import os
import platform
import sys
import tempfile
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._version import __version__
from ..api import solve
from ..checking.compare import crosscheck
from ..checking.verdicts import CrossCheckRow
from ..disk.writing import write_atomic
from ..display.numbers import plural, seconds, thousands
from ..display.svg import to_svg
from ..trees.build import decision_tree
from ..trees.drawing import draw_tree
from .bench import Timing, bench_figure, bench_notes, figure_bytes, run_bench
from .campaign import CampaignSection, campaign_parts, program_versions
from .effort import EFFORT_MEANING
from .profile import (
    SearchProfile,
    default_solvers,
    profile_figure,
    profile_grid,
    solver_figures,
    solver_grid,
)
from .tables import Grid, crosscheck_grid, format_grid


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
    #: (what, value) lines on the machine and the solver packages: see :func:`machine_info`.
    machine: tuple[tuple[str, str], ...] = ()

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
        bench_png=figure_bytes(figure, "png", dpi=110),
        tree_n=tree_n,
        tree_png=tree_png,
        boards=boards,
        # With its UTC offset: a report read elsewhere says when it was made.
        created=datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        profile=profile,
        profile_png=figure_bytes(profile_figure(profile), "png", dpi=110),
        machine=tuple(machine_info(backends)),
    )


def _span(ns: Sequence[int]) -> str:
    if list(ns) == list(range(ns[0], ns[-1] + 1)) and len(ns) > 1:
        return f"{ns[0]}..{ns[-1]}"
    return ", ".join(map(str, ns))


def _data_uri(data: bytes, mime: str) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


# ----------------------------------------------------------------------------- machine


def cpu_model() -> str:
    """The processor's name (``/proc/cpuinfo``, else :func:`platform.processor`)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            for line in info:
                if line.lower().startswith("model name"):
                    return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "-"


def _load() -> str:
    try:
        one, five, fifteen = os.getloadavg()
    except (AttributeError, OSError):  # not on Windows
        return "-"
    return f"{one:.2f}, {five:.2f}, {fifteen:.2f} (1, 5 and 15 minutes)"


def package_of(backend: str) -> str | None:
    """The pip package a registry backend is built on (from its ``install_hint``), or None.

    >>> package_of("cpsat"), package_of("stack"), package_of("no such backend")
    ('ortools', None, None)
    """
    from ..solvers import REGISTRY

    engine = REGISTRY.get(backend)
    return None if engine is None else engine.package


def machine_info(backends: Sequence[Any] = ()) -> list[tuple[str, str]]:
    """What a reader of a shared report needs to judge its times, as (what, value) pairs.

    The CPU model (``/proc/cpuinfo``, else :func:`platform.processor`), the cores,
    the load average now, Python, the OS, cpqueens, for each backend the version of
    the solver package it is built on (``-`` for a backend built on none), and the
    versions of the solver programs found on the PATH (MiniZinc and its solvers such
    as Gecode, Java: :func:`~cpqueens.reporting.campaign.program_versions`).
    """
    from ..solvers import REGISTRY

    names = [b if isinstance(b, str) else getattr(b, "name", str(b)) for b in backends]
    packages = []
    for name in dict.fromkeys(names):
        package = package_of(name)
        if package is None:
            version = "-"
        else:
            version = f"{package} {REGISTRY[name].package_version or 'not installed'}"
        packages.append(f"{name}: {version}")
    return [
        ("CPU", cpu_model()),
        ("cores", thousands(os.cpu_count())),
        ("load average", _load()),
        ("Python", f"{platform.python_implementation()} {platform.python_version()}"),
        ("OS", platform.platform(terse=True) or sys.platform),
        ("cpqueens", __version__),
        ("solver packages", "; ".join(packages) or "-"),
        ("solver programs", _programs()),
    ]


def _programs() -> str:
    found = program_versions()
    return "; ".join(f"{name} {version}" for name, version in found.items()) or "none found"


def _machine(data: ReportData) -> list[tuple[str, str]]:
    return list(data.machine) or machine_info(data.backends)


# ----------------------------------------------------------------------------- timing


#: How a timing grid's cell reads for a (backend, n) pair without a median.
_NO_MEDIAN = {"refused": "refused", "timed out": "timed out", "skipped": "not run"}


def _grid_of(timings: Sequence[Timing], cell: Callable[[Timing], str]) -> Grid:
    ns = sorted({t.n for t in timings})
    by_pair = {(t.backend, t.n): t for t in timings}
    grid = [["backend", *(f"n={n}" for n in ns)]]
    for backend in dict.fromkeys(t.backend for t in timings):
        cells = [by_pair.get((backend, n)) for n in ns]
        grid.append([backend, *("" if t is None else cell(t) for t in cells)])
    return grid


def timing_grid(timings: Sequence[Timing]) -> Grid:
    """The median times as a grid: a row per backend, a column per n (header first).

    >>> timing_grid([Timing("stack", 4, (0.5, 0.25), 2, 16), Timing("stack", 5, (1.5,), 10, 53)])
    [['backend', 'n=4', 'n=5'], ['stack', '375 ms', '1.50 s']]
    """

    def cell(t: Timing) -> str:
        if t.median is not None:
            return seconds(t.median)
        return _NO_MEDIAN.get(getattr(t, "status", ""), "-")

    return _grid_of(timings, cell)


#: Branches (CP-SAT) and decisions (SAT solvers) stand in for nodes: marked so.
_EFFORT_MARK = {"nodes": "", "branches": " b", "decisions": " d"}


def effort_grid(timings: Sequence[Timing]) -> Grid | None:
    """The search effort as a grid like :func:`timing_grid`; None when no run counted any.

    >>> effort_grid([Timing("stack", 4, (0.5,), 2, 16),
    ...              Timing("cpsat", 4, (0.1,), 2, 1234, effort="branches")])
    [['backend', 'n=4'], ['stack', '16'], ['cpsat', '1,234 b']]
    """
    if not any(t.nodes is not None for t in timings):
        return None

    def cell(t: Timing) -> str:
        return "-" if t.nodes is None else thousands(t.nodes) + _EFFORT_MARK.get(t.effort or "", "")

    return _grid_of(timings, cell)


_TIMING_CAPTION = "Median of the repeated runs (dots: each run); log scales."
_TIMING_TEXT = "Median time to list every solution: a row per backend, a column per board size."
_EFFORT_TEXT = (
    EFFORT_MEANING[0].upper() + EFFORT_MEANING[1:] + "; one a backend, the first it reports "
    "(b: branches, d: decisions, otherwise nodes)."
)


def _intro(data: ReportData) -> str:
    verdict = (
        "every backend agrees with the reference"
        if data.ok
        else "SOME BACKENDS DISAGREE with the reference (rows marked !)"
    )
    return (
        f"{plural(len(data.backends), 'backend')} ({', '.join(data.backends)}) on "
        f"n = {_span(data.ns)}, checked against {data.reference}: {verdict}. Generated by "
        f"cpqueens {__version__} on Python {platform.python_version()}, {data.created}."
    )


_CSS = """
body { font-family: system-ui, sans-serif; max-width: 64rem; margin: 2rem auto; padding: 0 1rem;
       color: #222; line-height: 1.45; }
pre { background: #f6f6f4; padding: .8rem; overflow-x: auto; font-size: .85rem; }
figure { margin: 1rem 0; }
figure.plot img { display: block; width: 100%; height: auto; }
figure.tree img { display: block; max-width: 100%; height: auto; }
figcaption { font-size: .9rem; color: #444; }
.boards { display: flex; flex-wrap: wrap; gap: 1.2rem; }
.boards figure { margin: 0; text-align: center; font-size: .85rem; }
.wide { overflow-x: auto; }
table { border-collapse: collapse; font-size: .9rem; margin: .5rem 0 1rem; }
th, td { padding: .2rem .6rem; border-bottom: 1px solid #ddd; text-align: right;
         white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
dl.machine { display: grid; grid-template-columns: max-content auto; gap: .1rem 1rem; }
dl.machine dt { font-weight: 600; }
dl.machine dd { margin: 0; }
pre.spec { white-space: pre-wrap; }
"""


_PROFILE_TEXT = (
    "Queens placed at each depth by blind backtracking (none), forward checking and "
    "arc consistency, with rows in order or first-fail (the row with the fewest "
    "squares left); then the constraint solvers' own effort figures on the same board."
)

#: Turns a picture (file name, bytes) into the address the document links it by.
Link = Callable[[str, bytes], str]


def embed(name: str, data: bytes) -> str:
    """The :data:`Link` of a one-file document: the picture as a data URI."""
    return _data_uri(data, "image/svg+xml" if name.endswith(".svg") else "image/png")


class PicturesBeside:
    """The :data:`Link` of a document whose pictures are files in a folder beside it.

    Collects ``{relative path: bytes}`` in :attr:`files` and links each picture by
    its relative path (quoted as a URL needs).
    """

    def __init__(self, folder: str) -> None:
        self.folder = folder.strip("/")
        self.files: dict[str, bytes] = {}

    def __call__(self, name: str, data: bytes) -> str:
        path = f"{self.folder}/{name}"
        self.files[path] = data
        return urllib.parse.quote(path)


def _figure_html(alt: str, url: str, caption: str = "", kind: str = "plot") -> str:
    """A picture: a plot takes the content column's full width, a tree its own size at most."""
    text = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
    return f'<figure class="{kind}"><img alt="{html.escape(alt)}" src="{url}">{text}</figure>'


def _profile_parts(data: ReportData, style: str, link: Link = embed) -> list[str]:
    """The search-profile section: heading, text, plot, the two tables."""
    profile = data.profile
    if profile is None:
        return []
    alt = f"nodes per depth for n={profile.n}"
    url = link(f"profile-{profile.n}.png", data.profile_png)
    grids = [format_grid(profile_grid(profile), style)]
    if profile.solvers:
        grids.append(format_grid(solver_grid(profile), style))
    figures = solver_figures(profile)
    if style == "html":
        return [
            f"<h2>Search profile, n = {profile.n}</h2>",
            f"<p>{html.escape(_PROFILE_TEXT)}</p>",
            _figure_html(alt, url),
            *(f'<div class="wide">{grid}</div>' for grid in grids),
            *(f"<p><small>{html.escape(line)}</small></p>" for line in figures),
        ]
    heading = f"## Search profile, n = {profile.n}"
    return [heading, _PROFILE_TEXT, f"![{alt}]({url})", *grids, *figures]


def _timing_parts(data: ReportData, style: str, link: Link = embed) -> list[str]:
    """The timing section: the plot, the grid of median times, the grid of effort."""
    url = link("bench.png", data.bench_png)
    alt = "time and nodes against n"
    grids = [(_TIMING_TEXT, timing_grid(data.timings))]
    efforts = effort_grid(data.timings)
    if efforts is not None:
        grids.append((_EFFORT_TEXT, efforts))
    notes = bench_notes(data.timings)
    if style == "html":
        parts = ["<h2>Time and search effort</h2>", _figure_html(alt, url, _TIMING_CAPTION)]
        for text, grid in grids:
            parts.append(f"<p>{html.escape(text)}</p>")
            parts.append(f'<div class="wide">{format_grid(grid, "html")}</div>')
        return parts + [f"<p><small>{html.escape(note)}</small></p>" for note in notes]
    parts = ["## Time and search effort", f"![{alt}]({url})", _TIMING_CAPTION]
    for text, grid in grids:
        parts += [text, format_grid(grid, "markdown")]
    return parts + notes


def _machine_parts(data: ReportData, style: str) -> list[str]:
    """The machine the report ran on, so that a shared report's times can be judged."""
    pairs = _machine(data)
    if style == "html":
        items = "".join(
            f"<dt>{html.escape(what)}</dt><dd>{html.escape(value)}</dd>" for what, value in pairs
        )
        return ["<h2>Machine</h2>", f'<dl class="machine">{items}</dl>']
    return ["## Machine", "\n".join(f"- **{what}**: {value}" for what, value in pairs)]


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
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>cpqueens report, n = {_span(data.ns)}</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>cpqueens report, n = {_span(data.ns)}</h1>",
        f"<p>{html.escape(_intro(data))}</p>",
        *_machine_parts(data, "html"),
        "<h2>Cross-check</h2>",
        "<p>Solutions found by each backend, compared with the reference's solution set.</p>",
        f'<div class="wide">{format_grid(check, "html")}</div>',
        *(f"<p><strong>{html.escape(problem)}</strong></p>" for problem in problems),
        *_timing_parts(data, "html"),
        *_profile_parts(data, "html"),
        *(campaign_parts(data.campaign, "html") if data.campaign else []),
        f"<h2>Decision tree, n = {data.tree_n}</h2>",
        _figure_html(
            f"decision tree for n={data.tree_n}", embed("tree.png", data.tree_png), kind="tree"
        ),
        "<h2>Sample boards</h2>",
        "<p>The first solution in lexicographic order for each n.</p>",
        f'<div class="boards">{boards}</div>',
        "</body></html>",
    ]
    return "\n".join(sections) + "\n"


def markdown_report(
    data: ReportData, images_dir: str | None = None
) -> tuple[str, dict[str, bytes]]:
    """Return the report as Markdown and the pictures it links to.

    With ``images_dir`` (a folder relative to the Markdown file, such as
    ``"report_files"``) every picture is linked by its relative path, and the
    mapping returned beside the text holds each of those paths and the picture's
    bytes, to be written next to the file (:func:`write_markdown` does it). With
    None, the pictures are data URIs in the text and the mapping is empty.
    """
    beside = PicturesBeside(images_dir) if images_dir is not None else None
    link: Link = beside if beside is not None else embed
    check, problems = crosscheck_grid(data.crosscheck_rows, data.reference)
    boards = "\n".join(
        f"![n={n}: {solution}]"
        f"({link(f'board-{n}.svg', to_svg(solution, cell=max(12, 160 // n)).encode())})"
        for n, solution in data.boards
    )
    tree_url = link(f"tree-{data.tree_n}.png", data.tree_png)
    parts = [
        f"# cpqueens report, n = {_span(data.ns)}",
        _intro(data),
        *_machine_parts(data, "markdown"),
        "## Cross-check",
        "Solutions found by each backend, compared with the reference's solution set.",
        format_grid(check, "markdown"),
        *(f"**{problem}**" for problem in problems),
        *_timing_parts(data, "markdown", link),
        *_profile_parts(data, "markdown", link),
        *(campaign_parts(data.campaign, "markdown", link) if data.campaign else []),
        f"## Decision tree, n = {data.tree_n}",
        f"![decision tree for n={data.tree_n}]({tree_url})",
        "## Sample boards",
        "The first solution in lexicographic order for each n.",
        boards,
    ]
    return "\n\n".join(parts) + "\n", (beside.files if beside is not None else {})


def to_markdown(data: ReportData) -> str:
    """Return the report as one Markdown text, its pictures embedded as data URIs.

    Common hosting (GitHub, GitLab) does not show data-URI images: to publish, use
    :func:`write_markdown`, which writes the pictures as files beside the text.
    """
    return markdown_report(data)[0]


def images_folder(path: str | os.PathLike) -> str:
    """The folder beside a Markdown report for its pictures, relative to it.

    >>> images_folder("out/report.md")
    'report_files'
    """
    return f"{Path(path).stem}_files"


def write_markdown(data: ReportData, path: str | os.PathLike) -> Path:
    """Write the report as Markdown to ``path``, its pictures as files in a folder beside.

    ``report.md`` gets ``report_files/bench.png``, ``report_files/tree-5.png``, ...,
    linked by relative paths, so the pair shows on common hosting (publish the
    folder with the file). Each file is written whole or not at all, the pictures
    before the text. Returns ``path``.
    """
    path = Path(path)
    text, files = markdown_report(data, images_folder(path))
    for relative, content in files.items():
        target = path.parent / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, content)
    return write_atomic(path, text)


def write_report(data: ReportData, path: str | os.PathLike) -> Path:
    """Write the report to ``path`` as its suffix says and return ``path``.

    ``.html``: one self-contained page (:func:`to_html`); any other suffix (``.md``):
    Markdown with its pictures in a folder beside it (:func:`write_markdown`).
    """
    if Path(path).suffix.lower() in (".html", ".htm"):
        return write_atomic(path, to_html(data))
    return write_markdown(data, path)
