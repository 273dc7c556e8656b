"""The campaign section of a report: what was run and how, the results, the plots.

:func:`campaign_section` reads a results file once; :func:`campaign_parts` lays the
section out as HTML or Markdown, its pictures embedded as data URIs like the rest of
the report, or linked by whatever ``link`` gives (the Markdown report's files beside).

A reader of a shared report must be able to judge and repeat it, so the section says,
besides the summary: the question, the time and memory limits, the repeats and the
spread of the times, the hosts and when the runs started (with their time zone), each
solver's configuration and version (and the versions of the MiniZinc, Gecode and Java
programs found here), and the campaign written back as a spec
(:func:`spec_text`).
"""

from __future__ import annotations

import base64
import functools
import html
import json
import os
import re
import shlex
import shutil
import socket
import statistics
import subprocess
import tempfile
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..campaigns.summary import COLUMNS, summarize
from ..campaigns.verify import SOLVED
from ..display.numbers import plural, seconds, thousands
from .tables import Grid, format_grid

Row = dict[str, Any]


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
    #: :func:`campaign_details`).
    details: tuple[tuple[str, str], ...] = ()
    #: Each solver's configuration and versions, a grid (see :func:`solver_grid`).
    solvers: tuple[tuple[str, ...], ...] = ()
    #: The spread of the solved times, a grid (see :func:`spread_grid`).
    spread: tuple[tuple[str, ...], ...] = ()
    #: The campaign as a spec, TOML (see :func:`spec_text`).
    spec: str = ""

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
        details=tuple(campaign_details(rows)),
        solvers=tuple(map(tuple, solver_grid(rows))),
        spread=tuple(map(tuple, spread_grid(rows))),
        spec=spec_text(rows),
    )


# ----------------------------------------------------------------------------- what ran


def _distinct(rows: Sequence[Row], key: str) -> list[Any]:
    return sorted({row[key] for row in rows if row.get(key) is not None})


def campaign_details(rows: Sequence[Row]) -> list[tuple[str, str]]:
    """What was asked, under which limits, how often, where and when, as (what, value).

    >>> rows = [{"campaign": "c", "question": "decide", "time_limit": 10.0,
    ...          "memory_limit_mb": 2000, "repeat": r, "instance_hash": "x",
    ...          "host": "h", "cpqueens_version": "1.0",
    ...          "started": f"2026-01-0{r + 1}T10:00:00+00:00"} for r in (0, 1)]
    >>> for what, value in campaign_details(rows): print(f"{what}: {value}")
    campaign: c
    question: decide
    time limit: 10.0 s of wall time per run
    memory limit: 2,000 MB of resident memory per run (its whole process tree)
    repeats: 2 runs of each instance and solver
    runs: 2 runs on 1 instance
    hosts: h
    runs started: 2026-01-01T10:00:00+00:00 to 2026-01-02T10:00:00+00:00
    cpqueens: 1.0
    """
    here = socket.gethostname()
    hosts = [f"{host} (this machine)" if host == here else host for host in _distinct(rows, "host")]
    started = _distinct(rows, "started")
    repeats = max((int(row["repeat"]) for row in rows), default=0) + 1
    details = [
        ("campaign", ", ".join(_distinct(rows, "campaign")) or "-"),
        ("question", ", ".join(_distinct(rows, "question")) or "-"),
        ("time limit", " / ".join(seconds(float(v)) for v in _distinct(rows, "time_limit"))
         + " of wall time per run"),
        ("memory limit", " / ".join(f"{thousands(int(v))} MB" for v in
                                    _distinct(rows, "memory_limit_mb"))
         + " of resident memory per run (its whole process tree)"),
        ("repeats", plural(repeats, "run") + " of each instance and solver"),
        ("runs", f"{plural(len(rows), 'run')} on "
                 f"{plural(len({row['instance_hash'] for row in rows}), 'instance')}"),
        ("hosts", ", ".join(hosts) or "-"),
        # Stored in UTC with its offset: the time zone is in the text.
        ("runs started", f"{started[0]} to {started[-1]}" if started else "-"),
        ("cpqueens", ", ".join(_distinct(rows, "cpqueens_version")) or "-"),
    ]  # fmt: skip
    return details


def _configuration(row: Row) -> str:
    if row.get("backend"):
        options = " ".join(f"{k}={v!r}" for k, v in sorted((row.get("options") or {}).items()))
        return f"backend {row['backend']}" + (f" ({options})" if options else "")
    return f"command {row.get('command')!r}"


def solver_grid(rows: Sequence[Row]) -> Grid:
    """A row per solver: its configuration, the versions its runs recorded, and the
    versions of the programs it runs that are found here (:func:`program_versions`)."""
    first: dict[str, Row] = {}
    versions: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        first.setdefault(row["solver"], row)
        if row.get("solver_version"):
            versions[row["solver"]].add(row["solver_version"])
    grid = [["solver", "configuration", "version of its runs", "programs (found here)"]]
    for label, row in first.items():
        recorded = ", ".join(sorted(versions[label])) or "-"
        grid.append([label, _configuration(row), recorded, programs_of(row) or "-"])
    return grid


def spread_grid(rows: Sequence[Row]) -> Grid:
    """The spread of each solver's solved times: quartiles over its solved runs, and,
    with repeats, how far an instance's repeated times lie apart ((max - min) / median,
    the median of it over the instances solved more than once)."""
    solved: dict[str, list[float]] = defaultdict(list)
    repeated: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        solved.setdefault(row["solver"], [])
        if row.get("verdict", row.get("status")) in SOLVED:
            solved[row["solver"]].append(float(row["wall"]))
            repeated[row["solver"]][row["instance_hash"]].append(float(row["wall"]))
    grid = [["solver", "solved runs", "first quartile", "median", "third quartile",
             "spread over repeats"]]  # fmt: skip
    for label, times in solved.items():
        if len(times) > 1:
            low, middle, high = statistics.quantiles(times, n=4, method="inclusive")
        else:
            low = middle = high = times[0] if times else None
        ratios = [
            (max(walls) - min(walls)) / statistics.median(walls)
            for walls in repeated[label].values()
            if len(walls) > 1 and statistics.median(walls) > 0
        ]
        spread = f"{statistics.median(ratios):.0%}" if ratios else "-"
        grid.append([label, thousands(len(times)), *map(seconds, (low, middle, high)), spread])
    return grid


# ----------------------------------------------------------------------------- programs


def _first_line(argv: list[str]) -> str:
    """The output of a program asked its version (stdout, else stderr), or ``""``."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    return (done.stdout or done.stderr).strip()


@functools.cache
def _minizinc_solvers() -> tuple[tuple[str, str, str], ...]:
    """(id, name, version) of each solver ``minizinc --solvers-json`` gives a version for."""
    try:
        listed = json.loads(_first_line(["minizinc", "--solvers-json"]) or "[]")
    except json.JSONDecodeError:
        return ()
    return tuple(
        (str(s.get("id", "")), str(s["name"]), str(s["version"]))
        for s in listed
        if s.get("name") and re.match(r"\d", str(s.get("version", "")))
    )


@functools.cache
def program_versions() -> dict[str, str]:
    """The programs the MiniZinc backends and Java solvers run, as found on the PATH.

    ``{"MiniZinc": "2.6.4", "Gecode": "6.2.0", "Java": "openjdk 17.0.15", ...}``: the
    MiniZinc toolchain, each solver ``minizinc --solvers-json`` gives a version for,
    and ``java``. A program not found is left out. Asked once per process.
    """
    found: dict[str, str] = {}
    if shutil.which("minizinc"):
        version = re.search(r"version (\S+)", _first_line(["minizinc", "--version"]))
        found["MiniZinc"] = version.group(1) if version else "unknown version"
        found.update((name, version) for _, name, version in _minizinc_solvers())
    if shutil.which("java"):
        # java -version: 'openjdk version "17.0.15" 2025-04-15', on stderr.
        lines = _first_line(["java", "-version"]).splitlines()
        words = re.match(r'(\S+) version "([^"]+)"', lines[0]) if lines else None
        found["Java"] = " ".join(words.groups()) if words else (lines or ["unknown"])[0]
    return found


def programs_of(row: Row) -> str:
    """The programs a run's solver configuration runs, with their versions found here:
    MiniZinc and its solver for the ``minizinc`` backend (and cpmpy's MiniZinc
    solvers), Java for a ``java ...`` command; ``""`` for none."""
    options = row.get("options") or {}
    backend, solver = row.get("backend"), str(options.get("solver", ""))
    names = []
    if backend == "minizinc" or (backend == "cpmpy" and solver.startswith("minizinc")):
        tag = (solver.partition(":")[2] if backend == "cpmpy" else solver) or "gecode"
        # MiniZinc takes a solver by its id or the id's last part ("gecode").
        named = (name for ident, name, _ in _minizinc_solvers()
                 if tag in (ident, ident.rpartition(".")[2]))  # fmt: skip
        names += ["MiniZinc", next(named, tag)]
    if row.get("command"):
        try:
            program = Path(shlex.split(row["command"])[0]).name
        except (ValueError, IndexError):
            program = ""
        names += [name for name in ("MiniZinc", "Java") if program == name.lower()]
    versions = program_versions()
    return ", ".join(f"{name} {versions.get(name, 'not found')}" for name in names)


# ----------------------------------------------------------------------------- spec


def _toml(value: Any) -> str:
    """A TOML value (strings as JSON writes them, which TOML reads as basic strings).

    >>> _toml({"solver": "glucose4", "workers": 1}), _toml([1, 2]), _toml(True)
    ('{ solver = "glucose4", workers = 1 }', '[1, 2]', 'true')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    return "[" + ", ".join(_toml(v) for v in value) + "]"


#: A generator's spec keys for its instances' ``params``: ``seed`` is listed as ``seeds``.
_SPEC_KEY = {"seed": "seeds"}


def _instance_tables(rows: Sequence[Row]) -> list[dict[str, Any]]:
    """The [[instances]] tables that make these instances: one per generator and fixed
    options when the instances are every combination of their values, else one per
    instance; the files in one."""
    seen: dict[str, Row] = {}
    for row in rows:
        seen.setdefault(row["instance_hash"], row)
    groups: dict[tuple, list[dict[str, Any]]] = defaultdict(list)
    files = []
    for row in seen.values():
        params = dict(row.get("params") or {})
        if row.get("generator"):
            fixed = tuple(sorted((k, v) for k, v in params.items() if isinstance(v, bool)
                                 or k == "min_free"))  # fmt: skip
            groups[(row["generator"], fixed)].append(params)
        elif row.get("file"):
            files.append(row["file"])
    tables = []
    for (generator, fixed), members in groups.items():
        keys = [k for k in members[0] if k not in dict(fixed)]
        values = {k: sorted({m[k] for m in members}) for k in keys}
        combinations = 1
        for options in values.values():
            combinations *= len(options)
        lists = [values] if combinations == len(members) else [
            {k: [m[k]] for k in keys} for m in members
        ]  # fmt: skip
        for listed in lists:
            table = {"generator": generator}
            table.update({_SPEC_KEY.get(k, k): v for k, v in listed.items()})
            tables.append({**table, **dict(fixed)})
    if files:
        tables.append({"files": sorted(files)})
    return tables


def spec_text(rows: Sequence[Row]) -> str:
    """The campaign(s) of the runs written back as a spec (TOML), from what the results
    file holds: the question, limits and repeats, the instances (as generator tables,
    or their files) and the solvers. A spec's ``seed``, a command's ``format`` and
    ``parse`` are not kept in the file, and so are not written."""
    by_campaign: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        by_campaign[row.get("campaign") or "campaign"].append(row)
    texts = []
    for name, runs in by_campaign.items():
        head = {"name": name, "question": runs[0]["question"]}
        lines = ["[campaign]"]
        for key in ("time_limit", "memory_limit_mb"):
            values = _distinct(runs, key)
            head[key] = values[-1]
            if len(values) > 1:  # the same campaign run again under other limits
                lines.append(f"# runs under {key} = {', '.join(map(_toml, values))}")
        head["repeats"] = max(int(row["repeat"]) for row in runs) + 1
        lines += [f"{key} = {_toml(value)}" for key, value in head.items()]
        for table in _instance_tables(runs):
            lines += ["", "[[instances]]", *(f"{k} = {_toml(v)}" for k, v in table.items())]
        solvers: dict[str, Row] = {}
        for row in runs:
            solvers.setdefault(row["solver"], row)
        for label, row in solvers.items():
            lines += ["", "[[solvers]]", f"label = {_toml(label)}"]
            if row.get("backend"):
                lines.append(f"backend = {_toml(row['backend'])}")
                if row.get("options"):
                    lines.append(f"options = {_toml(row['options'])}")
            else:
                lines.append(f"command = {_toml(row.get('command') or '')}")
        texts.append("\n".join(lines) + "\n")
    return "\n".join(texts)


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
        return thousands(value)
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
    grids = [
        (_SOLVERS_TEXT, section.solvers),
        (_SPREAD_TEXT, section.spread),
    ]
    grids = [(words, [list(row) for row in rows]) for words, rows in grids if rows]
    if style == "html":
        items = "".join(
            f"<dt>{html.escape(what)}</dt><dd>{html.escape(value)}</dd>"
            for what, value in section.details
        )
        parts = [f"<h2>{html.escape(title)}</h2>"]
        parts += [f'<dl class="machine">{items}</dl>'] if items else []
        parts += [
            f"<p>{html.escape(text)}</p>",
            f'<div class="wide">{format_grid(grid, "html")}</div>',
        ]
        parts += [f"<p><strong>{html.escape(line)}</strong></p>" for line in section.wrong]
        for words, rows in grids:
            parts += [f"<p>{html.escape(words)}</p>",
                      f'<div class="wide">{format_grid(rows, "html")}</div>']  # fmt: skip
        parts += [
            f'<figure class="plot"><img alt="{alt}" src="{link("campaign-" + name, png)}"></figure>'
            for alt, name, png in pictures
        ]
        if section.spec:
            parts += [f"<h3>The campaign as a spec</h3><p>{html.escape(_SPEC_TEXT)}</p>",
                      f'<pre class="spec">{html.escape(section.spec)}</pre>']  # fmt: skip
        return parts
    parts = [f"## {title}"]
    parts += ["\n".join(f"- **{what}**: {value}" for what, value in section.details)]
    parts += [text, format_grid(grid, "markdown")]
    parts += [f"**{line}**" for line in section.wrong]
    for words, rows in grids:
        parts += [words, format_grid(rows, "markdown")]
    parts += [f"![{alt}]({link('campaign-' + name, png)})" for alt, name, png in pictures]
    if section.spec:
        parts += ["### The campaign as a spec", _SPEC_TEXT, f"```toml\n{section.spec}```"]
    return [part for part in parts if part]


_SOLVERS_TEXT = (
    "The solvers: how each was configured, the version of its package its runs recorded, "
    "and the programs it runs as found on the machine that wrote this report."
)
_SPREAD_TEXT = (
    "The spread of the solved times: quartiles over each solver's solved runs, and how "
    "far the repeats of one instance lie apart, (slowest - fastest) / median, the "
    "median of it over the instances solved more than once."
)
_SPEC_TEXT = (
    "Written back from the results file, to run the campaign again with "
    "cpqueens campaign run (a seed, and a command's format, are not kept in the file)."
)


def _uri(name: str, png: bytes) -> str:
    return f"data:image/png;base64,{base64.b64encode(png).decode('ascii')}"
