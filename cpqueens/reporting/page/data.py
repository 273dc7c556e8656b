"""What a report shows, gathered once as plain data: :class:`ReportData` and its parts.

:func:`build_report` runs the cross-check, the timings, the search profile, the
decision tree and the sample boards, and returns a :class:`ReportData`: records,
grids' sources and the pictures as bytes. :func:`campaign_section` reads a campaign's
results file into a :class:`CampaignSection` to add to it. Nothing here writes a
page: :mod:`~cpqueens.reporting.page.rendering` renders the data as HTML or Markdown.

>>> rows, _ = crosscheck_by_size([4, 5], ["stack"])
>>> [(row.n, row.count, row.agrees) for row in rows]
[(4, 2, True), (5, 10, True)]
"""

from __future__ import annotations

import datetime
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...api import solve
from ...campaigns.summary import summarize
from ...checking.compare import crosscheck
from ...checking.row import CrossCheckRow
from ...trees.explicit.build import decision_tree
from ...trees.pictures.drawing import draw_tree
from ..bench.plot import bench_figure
from ..bench.runs import Timing, run_bench
from ..campaign.plots import cactus_figure, transition_figure
from ..campaign.spec_from_runs import spec_text
from ..campaign.tables import campaign_details, solver_grid, spread_grid
from ..figures import figure_bytes
from ..profile.plot import profile_figure
from ..profile.profiles import SearchProfile, default_solvers, search_profile
from .machine import machine_info


def crosscheck_by_size(
    ns: Sequence[Any],
    backends: Sequence[Any] | None,
    reference: str = "tree",
    *,
    time_limit: float | None = None,
    on_done: Callable[[Any], None] | None = None,
) -> tuple[list[CrossCheckRow], list[dict[str, Any]]]:
    """Cross-check every n (or instance) in one call, telling ``on_done`` of each one
    finished, so progress can be shown and an interruption says what was done.

    ``backends`` (registry names, functions, :class:`cpqueens.Command` programs) None
    means every available backend that lists solutions, as for
    :func:`cpqueens.crosscheck`. Returns the rows and their JSON-serialisable
    records, in order of n.
    """
    report = crosscheck(
        list(ns),
        backends=backends,
        reference=reference,
        time_limit=time_limit,
        on_done=None if on_done is None else lambda given, rows: on_done(given),
    )
    return list(report.rows), report.to_records()


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
    #: (what, value) lines on the machine and the solver packages: see
    #: :func:`~.machine.machine_info`, asked when none are given.
    machine: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        # The page only renders: what it shows of the machine is gathered here.
        if not self.machine:
            object.__setattr__(self, "machine", tuple(machine_info(self.backends)))

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
    figure = bench_figure(timings, title=f"cpqueens backends, n = {sizes_text(ns)}")
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


def sizes_text(ns: Sequence[int]) -> str:
    """The board sizes of a report as its title names them.

    >>> sizes_text([4, 5, 6]), sizes_text([4, 6, 9])
    ('4..6', '4, 6, 9')
    """
    if list(ns) == list(range(ns[0], ns[-1] + 1)) and len(ns) > 1:
        return f"{ns[0]}..{ns[-1]}"
    return ", ".join(map(str, ns))


@dataclass(frozen=True)
class CampaignSection:
    """What the report shows of a campaign."""

    source: str
    campaign: str | None
    summary: tuple[dict[str, Any], ...]
    wrong: tuple[str, ...]
    cactus_png: bytes
    transition_png: bytes  # empty when the instances vary no generator parameter
    #: (what, value) lines: question, limits, repeats, hosts, start times (see
    #: :func:`~.campaign_tables.campaign_details`).
    details: tuple[tuple[str, str], ...] = ()
    #: Each solver's configuration and versions, a grid (see
    #: :func:`~.campaign_tables.solver_grid`).
    solvers: tuple[tuple[str, ...], ...] = ()
    #: The spread of the solved times, a grid (see :func:`~.campaign_tables.spread_grid`).
    spread: tuple[tuple[str, ...], ...] = ()
    #: The campaign as a spec, TOML (see :func:`~.spec_from_runs.spec_text`).
    spec: str = ""

    @property
    def ok(self) -> bool:
        return not self.wrong


def campaign_section(db: str | os.PathLike, campaign: str | None = None) -> CampaignSection:
    """Read a results file (one campaign of it, or all) and draw its plots."""
    from ...campaigns.runner import load_results

    rows = load_results(db, campaign)
    wrong = tuple(
        f"{r['solver']} on {r['instance']}: {r['verdict_reason']}"
        for r in rows
        if r["verdict"] == "wrong"
    )
    cactus = figure_bytes(cactus_figure(rows))
    transition = b""
    if any(r.get("generator") in ("blocked", "completion") for r in rows):
        parameter = "density" if any(r["blocked_count"] for r in rows) else "fill"
        transition = figure_bytes(transition_figure(rows, parameter))
    return CampaignSection(
        source=os.fspath(db),
        campaign=campaign,
        summary=tuple(summarize(rows)),
        wrong=wrong,
        cactus_png=cactus,
        transition_png=transition,
        details=tuple(campaign_details(rows)),
        solvers=tuple(map(tuple, solver_grid(rows))),
        spread=tuple(map(tuple, spread_grid(rows))),
        spec=spec_text(rows),
    )
