"""The campaign section of a report: the summary table, the wrong answers, the plots.

:func:`campaign_section` reads a results file once; :func:`campaign_parts` lays the
section out as HTML or Markdown, its pictures embedded as data URIs like the rest of
the report, or linked by whatever ``link`` gives (the Markdown report's files beside).
"""

from __future__ import annotations

import base64
import html
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..campaigns.summary import COLUMNS, summarize
from ..numbers import count, plural, seconds
from .tables import format_grid


@dataclass(frozen=True)
class CampaignSection:
    """What the report shows of a campaign."""

    source: str
    campaign: str | None
    summary: tuple[dict[str, Any], ...]
    wrong: tuple[str, ...]
    cactus_png: bytes
    transition_png: bytes  # empty when the instances vary no generator parameter

    @property
    def ok(self) -> bool:
        return not self.wrong


def campaign_section(db: str | os.PathLike, campaign: str | None = None) -> CampaignSection:
    """Read a results file (one campaign of it, or all) and draw its plots."""
    from ..campaigns.runner import load_results
    from . import campaign_plots as plots

    rows = load_results(db, campaign)
    wrong = tuple(
        f"{r['solver']} on {r['instance']}: {r['verdict_reason']}"
        for r in rows
        if r["verdict"] == "wrong"
    )
    with tempfile.TemporaryDirectory(prefix="cpqueens-") as folder:
        cactus = plots.cactus(rows, Path(folder) / "cactus.png").read_bytes()
        transition = b""
        if any(r.get("generator") in ("blocked", "completion") for r in rows):
            parameter = "density" if any(r["blocked_count"] for r in rows) else "fill"
            path = plots.transition(rows, parameter, Path(folder) / "transition.png")
            transition = path.read_bytes()
    return CampaignSection(
        source=os.fspath(db),
        campaign=campaign,
        summary=tuple(summarize(rows)),
        wrong=wrong,
        cactus_png=cactus,
        transition_png=transition,
    )


#: How the summary's columns are headed in a report.
_HEADINGS = {"par2": "PAR-2", "median_time": "median time"}

#: The columns holding seconds; the others hold counts (and the solver's name).
_TIMES = ("par2", "median_time")


def _cell(column: str, value: Any) -> str:
    """A summary value in the one number style.

    >>> _cell("par2", 12.5), _cell("median_time", 0.0123), _cell("runs", 1200), _cell("sat", None)
    ('12.5 s', '12.3 ms', '1,200', '-')
    """
    if value is None:
        return "-"
    if column in _TIMES:
        return seconds(float(value))
    if isinstance(value, int) and not isinstance(value, bool):
        return count(value)
    return str(value)


def summary_grid(summary: Sequence[dict[str, Any]]) -> list[list[str]]:
    """A campaign's summary (:func:`cpqueens.campaigns.summary.summarize`) as a grid,
    header first: a row per solver, then the virtual best; for the terminal and the
    report alike."""
    header = [_HEADINGS.get(column, column) for column in COLUMNS]
    return [header] + [[_cell(c, entry[c]) for c in COLUMNS] for entry in summary]


def campaign_parts(
    section: CampaignSection,
    style: str,
    link: Callable[[str, bytes], str] | None = None,
) -> list[str]:
    """The section as HTML elements or Markdown blocks (``style`` "html" or "markdown").

    ``link(file name, png bytes)`` gives the address of each picture: by default a
    data URI, so the section is self-contained; the Markdown report passes one that
    writes the picture into its folder beside the file and returns the relative path.
    """
    link = link or _uri
    grid = summary_grid(section.summary)
    title = f"Campaign {section.campaign or ''} ({Path(section.source).name})".replace("  ", " ")
    verdict = (
        "No wrong answer."
        if section.ok
        else f"WRONG ANSWERS: {plural(len(section.wrong), 'run')} (listed below the table)."
    )
    text = (
        f"{verdict} Solved: sat or unsat, verified; PAR-2: mean time per run, a run "
        "not solved counted at twice the time limit; VBS: the virtual best solver."
    )
    pictures = [("instances solved against time", "cactus.png", section.cactus_png)]
    if section.transition_png:
        pictures.append(
            ("satisfiable fraction and median time", "transition.png", section.transition_png)
        )
    if style == "html":
        parts = [
            f"<h2>{html.escape(title)}</h2>",
            f"<p>{html.escape(text)}</p>",
            f'<div class="wide">{format_grid(grid, "html")}</div>',
        ]
        parts += [f"<p><strong>{html.escape(line)}</strong></p>" for line in section.wrong]
        parts += [
            f'<figure class="plot"><img alt="{alt}" src="{link("campaign-" + name, png)}"></figure>'
            for alt, name, png in pictures
        ]
        return parts
    parts = [f"## {title}", text, format_grid(grid, "markdown")]
    parts += [f"**{line}**" for line in section.wrong]
    parts += [f"![{alt}]({link('campaign-' + name, png)})" for alt, name, png in pictures]
    return parts


def _uri(name: str, png: bytes) -> str:
    return f"data:image/png;base64,{base64.b64encode(png).decode('ascii')}"
