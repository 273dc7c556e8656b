"""The campaign section of a report: the summary table, the wrong answers, the plots.

:func:`campaign_section` reads a results file once; :func:`campaign_parts` lays the
section out as HTML or Markdown, its pictures embedded like the rest of the report.
"""

from __future__ import annotations

import base64
import html
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..campaigns.summary import COLUMNS, summarize
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
    from ..campaigns import plots
    from ..campaigns.runner import load_results

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


def campaign_parts(section: CampaignSection, style: str) -> list[str]:
    """The section as HTML elements or Markdown blocks (``style`` "html" or "markdown")."""
    grid = [list(COLUMNS)] + [
        ["-" if entry[c] is None else str(entry[c]) for c in COLUMNS] for entry in section.summary
    ]
    title = f"Campaign {section.campaign or ''} ({Path(section.source).name})".replace("  ", " ")
    verdict = (
        "No wrong answer."
        if section.ok
        else f"WRONG ANSWERS: {len(section.wrong)} (listed below the table)."
    )
    text = (
        f"{verdict} Solved: sat or unsat, verified; PAR-2: mean seconds per run, a run "
        "not solved counted at twice the time limit; VBS: the virtual best solver."
    )
    pictures = [("instances solved against time", section.cactus_png)]
    if section.transition_png:
        pictures.append(("satisfiable fraction and median time", section.transition_png))
    if style == "html":
        parts = [f"<h2>{html.escape(title)}</h2>", f"<p>{html.escape(text)}</p>",
                 format_grid(grid, "html")]  # fmt: skip
        parts += [f"<p><strong>{html.escape(line)}</strong></p>" for line in section.wrong]
        parts += [f'<figure><img alt="{alt}" src="{_uri(png)}"></figure>' for alt, png in pictures]
        return parts
    parts = [f"## {title}", text, format_grid(grid, "markdown")]
    parts += [f"**{line}**" for line in section.wrong]
    parts += [f"![{alt}]({_uri(png)})" for alt, png in pictures]
    return parts


def _uri(png: bytes) -> str:
    return f"data:image/png;base64,{base64.b64encode(png).decode('ascii')}"
