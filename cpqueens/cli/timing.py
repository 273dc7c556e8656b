"""The commands that time backends and write reports: ``bench`` and ``report``."""

from __future__ import annotations

import dataclasses
import json
import os

import click

from .._files import write_atomic
from ..parallel.progress import progress_bar, wants_bar
from . import ranges
from ._common import (
    BENCH_SUFFIXES,
    DISAGREES,
    REPORT_SUFFIXES,
    BadInput,
    backend_list,
    check_tree_reference,
    emit_json,
    finished,
    json_option,
    output_path,
    quiet_option,
    say,
)


@click.command()
@click.argument("sizes", metavar="RANGE")
@click.option("--backends", "names", metavar="A,B,...", help="Default: every available backend.")
@click.option("-r", "--repeat", type=click.IntRange(min=1), default=3, show_default=True)
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False), help=f"One of {', '.join(BENCH_SUFFIXES)}."
)
@json_option
@quiet_option
def bench(
    sizes: str, names: str | None, repeat: int, output: str | None, as_json: bool, quiet: bool
) -> None:
    """Time the backends on every n of RANGE: median seconds and nodes; plot with -o x.png.

    Each (backend, n) lists every solution --repeat times, so n goes up to 14. The
    plot has two log-scale panels, time and nodes against n, a line per backend
    through the medians and a dot per run.
    """
    from ..reporting.bench import (
        LARGEST_N,
        bench_csv,
        bench_figure,
        bench_table,
        beyond_bench,
        figure_bytes,
        run_bench,
    )

    ns = ranges.parse_sizes(sizes, LARGEST_N, beyond=beyond_bench())
    chosen = backend_list(names)
    target = output_path(output, BENCH_SUFFIXES)
    steps = len(ns) * len(chosen)
    with progress_bar(steps, "timing", enabled=wants_bar(quiet)) as bar:

        def done(timing) -> None:
            if timing.backend == chosen[-1]:
                finished(f"n={timing.n} for every backend")
            bar.advance(f"timing (done: {timing.backend} n={timing.n})")

        timings = run_bench(ns, chosen, repeat, on_done=done)
    if target is not None:
        suffix = target.suffix.lower()
        if suffix == ".csv":
            write_atomic(target, bench_csv(timings))
        elif suffix == ".json":
            write_atomic(target, json.dumps([t.to_record() for t in timings], indent=2) + "\n")
        else:
            title = f"cpqueens backends, median of {repeat} run{'s' if repeat > 1 else ''}"
            write_atomic(target, figure_bytes(bench_figure(timings, title), suffix[1:]))
    if as_json:
        emit_json([t.to_record() for t in timings])
    elif not quiet:
        click.echo(bench_table(timings))
    if target is not None:
        say(quiet, f"wrote {target}")


@click.command()
@click.argument("sizes", metavar="RANGE")
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False), required=True, help="report.html or .md"
)
@click.option("--backends", "names", metavar="A,B,...", help="Default: every available backend.")
@click.option("--reference", default="tree", show_default=True, help="What the others must match.")
@click.option("-r", "--repeat", type=click.IntRange(min=1), default=3, show_default=True)
@click.option("--tree-n", type=click.IntRange(1, 7), default=5, show_default=True)
@click.option(
    "--profile-n",
    type=click.IntRange(1, 12),
    help="Board of the search profile. Default: the largest n of RANGE, at most 10.",
)
@click.option(
    "--campaign",
    "campaign_db",
    type=click.Path(dir_okay=False),
    help="Add a section on this campaign results file: its summary, cactus and transition plots.",
)
@quiet_option
def report(
    sizes: str,
    output: str,
    names: str | None,
    reference: str,
    repeat: int,
    tree_n: int,
    profile_n: int | None,
    campaign_db: str | None,
    quiet: bool,
) -> None:
    """Write one self-contained HTML or Markdown report on the backends over RANGE.

    It holds the cross-check table, the time and node plots, the search profile
    (nodes per depth under each propagation and order), a decision tree and
    sample boards, with every picture embedded. Exit status 1 when a backend
    disagrees or a campaign run given with --campaign is wrong (the report is written
    all the same).
    """
    from ..reporting.bench import LARGEST_N, beyond_bench
    from ..reporting.report import build_report, to_html, to_markdown

    ns = ranges.parse_sizes(sizes, LARGEST_N, beyond=beyond_bench("a report"))
    chosen = backend_list(names, enumerating=True)
    target = output_path(output, REPORT_SUFFIXES)
    check_tree_reference(reference, ns)
    if campaign_db is not None and not os.path.isfile(campaign_db):
        raise BadInput(f"results file {campaign_db!r} does not exist")
    steps = len(ns) + len(ns) * len(chosen) + 2
    with progress_bar(steps, "report", enabled=wants_bar(quiet)) as bar:

        def step(label: str | None) -> None:
            if label is not None:
                finished(label)
            bar.advance(label)

        data = build_report(
            ns,
            chosen,
            reference=reference,
            repeat=repeat,
            tree_n=tree_n,
            profile_n=profile_n,
            step=step,
        )
    if campaign_db is not None:
        from ..reporting.campaign import campaign_section

        data = dataclasses.replace(data, campaign=campaign_section(campaign_db))
    text = to_html(data) if target.suffix.lower() == ".html" else to_markdown(data)
    write_atomic(target, text)
    say(quiet, f"wrote {target}" + ("" if data.ok else "; some backends DISAGREE"))
    if not data.ok:
        raise click.exceptions.Exit(DISAGREES)
