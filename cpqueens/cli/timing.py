"""The commands that time backends and write reports: ``bench`` and ``report``."""

from __future__ import annotations

import contextlib
import dataclasses
import json

import click

from ..disk.writing import write_atomic
from ..display.numbers import plural
from ..display.terminal import printable
from ..errors import InvalidInputError
from ..parallel.progress import progress_bar, wants_bar
from . import ranges
from ._common import (
    BENCH_SUFFIXES,
    DEFAULT_SET_HELP,
    DISAGREES,
    REPORT_SUFFIXES,
    TIMED_OUT,
    backend_list,
    default_set_note,
    emit_json,
    finished,
    json_option,
    note_once,
    output_path,
    quiet_option,
    say,
)


@click.command()
@click.argument("sizes", metavar="RANGE")
@click.option("--backends", "names", metavar="A,B,...", help=DEFAULT_SET_HELP)
@click.option("-r", "--repeat", type=click.IntRange(min=1), default=3, show_default=True)
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True),
    default=60,
    show_default=True,
    metavar="SECONDS",
    help="Per run: a longer run is stopped, marked timed out, and its backend not tried on "
    "larger n ('inf': no limit).",
)
@click.option(
    "--budget",
    type=click.FloatRange(min=0, min_open=True),
    default=600,
    show_default=True,
    metavar="SECONDS",
    help="For the whole command: once spent, the run going on is stopped and the runs left "
    "are not started ('inf': no budget).",
)
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False), help=f"One of {', '.join(BENCH_SUFFIXES)}."
)
@json_option
@quiet_option
def bench(
    sizes: str,
    names: str | None,
    repeat: int,
    time_limit: float,
    budget: float,
    output: str | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Time the backends on every n of RANGE: median seconds and nodes; plot with -o x.png.

    Each (backend, n) lists every solution --repeat times, so n goes up to 14, and
    never beyond what a backend takes (refused before any run, exit status 2). The
    plot has two log-scale panels, time and nodes against n, a line per backend
    through the medians and a dot per run.

    \b
    Limits (the defaults keep a bench under about ten minutes):
      --time-limit 60   a run that takes longer is stopped and marked "timed out";
                        its backend is not tried on larger n ("skipped")
      --budget 600      seconds for the whole command: once spent, the run going on
                        is stopped and the rest are not started ("skipped")

    The table, the JSON and the CSV give each (backend, n) a status (done, refused,
    timed out, skipped), and stderr says what was stopped and why. Exit status 3
    when --time-limit or --budget stopped a run.
    """
    from ..reporting.bench.plot import bench_figure
    from ..reporting.bench.runs import (
        LARGEST_N,
        beyond_bench,
        run_bench,
        size_refusal,
    )
    from ..reporting.bench.tables import bench_csv, bench_legend, bench_notes, bench_table
    from ..reporting.figures import figure_bytes

    chosen = backend_list(names)
    try:
        ns = ranges.parse_sizes(sizes, LARGEST_N, beyond=beyond_bench())
    except InvalidInputError as error:
        # Say too which backend named here could never take the board.
        refusal = None
        with contextlib.suppress(InvalidInputError):
            refusal = size_refusal(max(ranges.parse_sizes(sizes)), chosen) if names else None
        raise InvalidInputError(f"{error}; besides, {refusal}" if refusal else str(error)) from None
    target = output_path(output, BENCH_SUFFIXES)
    steps = len(ns) * len(chosen)
    with progress_bar(steps, "timing", enabled=wants_bar(quiet)) as bar:
        note = default_set_note(chosen) if names is None else None
        tell_note = note_once(quiet, note, bar.say)

        def start(backend: str, n: int) -> None:
            tell_note()
            bar.describe(f"timing {backend} n={n} ({plural(repeat, 'run')})")

        def done(timing) -> None:
            if timing.backend == chosen[-1] and timing.status != "skipped":
                finished(f"n={timing.n} for every backend")
            bar.advance()

        timings = run_bench(
            ns,
            chosen,
            repeat,
            on_done=done,
            on_start=start,
            time_limit=time_limit,
            budget=budget,
        )
    if target is not None:
        suffix = target.suffix.lower()
        if suffix == ".csv":
            write_atomic(target, bench_csv(timings))
        elif suffix == ".json":
            write_atomic(target, json.dumps([t.to_record() for t in timings], indent=2) + "\n")
        else:
            title = f"cpqueens backends, median of {plural(repeat, 'run')}"
            write_atomic(target, figure_bytes(bench_figure(timings, title), suffix[1:]))
    if as_json:
        emit_json([t.to_record() for t in timings])
    elif not quiet:
        click.echo(bench_table(timings))
        say(quiet, bench_legend(timings))
    for note in bench_notes(timings):
        say(quiet, printable(note))  # a backend's error, in its library's words
    if target is not None:
        say(quiet, f"wrote {target}")
    if any(t.stopped for t in timings):
        raise click.exceptions.Exit(TIMED_OUT)


@click.command()
@click.argument("sizes", metavar="RANGE")
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False), required=True, help="report.html or .md"
)
@click.option("--backends", "names", metavar="A,B,...", help=DEFAULT_SET_HELP)
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
    from ..reporting.bench.runs import LARGEST_N, beyond_bench
    from ..reporting.page.data import build_report
    from ..reporting.page.rendering import check_report_target, write_report

    ns = ranges.parse_sizes(sizes, LARGEST_N, beyond=beyond_bench("a report"))
    chosen = backend_list(names, enumerating=True)
    target = output_path(output, REPORT_SUFFIXES)
    check_report_target(target)  # a Markdown report's pictures folder, before any work
    if campaign_db is not None:
        from ..campaigns.store_schema import check_store

        check_store(campaign_db, create=False)  # a foreign file refused before any work
    steps = len(ns) + len(ns) * len(chosen) + 2
    with progress_bar(steps, "report", enabled=wants_bar(quiet)) as bar:
        note = default_set_note(chosen) if names is None else None
        tell_note = note_once(quiet, note, bar.say)

        def step(label: str | None) -> None:
            tell_note()
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
        from ..reporting.page.data import campaign_section

        data = dataclasses.replace(data, campaign=campaign_section(campaign_db))
    write_report(data, target)  # Markdown: its pictures in a folder beside it
    say(quiet, f"wrote {target}" + ("" if data.ok else "; some backends DISAGREE"))
    if not data.ok:
        raise click.exceptions.Exit(DISAGREES)
