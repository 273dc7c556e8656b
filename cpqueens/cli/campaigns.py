"""The ``campaign`` commands: run a campaign, summarize its results, plot them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from ..display.terminal import printable
from ._common import DISAGREES, BadInput, Group, emit_json, output_path, quiet_option, say

#: Exit status of a campaign with runs that ended in an error (a missing program, a
#: crash): it answers nothing for them, yet nothing it answered is wrong.
RUNS_FAILED = 4
TRANSITION_PARAMS = "density, fill, n, or a generator parameter such as blocked"


def _not_an_option(wanted: str) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """A callback refusing a value that is the next option (``--transition -o x.png``):
    click takes any word as a value, and would then say that ``-o`` is missing."""

    def check(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        for word in value if isinstance(value, tuple) else (value,):
            if isinstance(word, str) and word.startswith("-"):
                raise BadInput(f"--{param.name} takes {wanted}, got the option {word!r}")
        return value

    return check


@click.group(cls=Group)
def campaign() -> None:
    """Benchmark campaigns: instances x solvers, isolated limited runs, verified answers.

    \b
    Examples:
      cpqueens campaign run examples/campaigns/blocked-transition.toml --db results.sqlite
      cpqueens campaign summary results.sqlite
      cpqueens campaign summary results.sqlite --json
      cpqueens campaign plot results.sqlite --cactus -o cactus.png
      cpqueens campaign plot results.sqlite --scatter sat cpsat -o scatter.svg
      cpqueens campaign plot results.sqlite --transition density -o transition.png

    \b
    Exit status of run and summary: 0 every run answered and no answer is wrong,
    1 a wrong answer or a disputed count (said on the first line), 2 bad input,
    4 runs that ended in an error (a missing program, a crash; said on the first
    line, with the first reason per solver), 130 Ctrl-C (every finished run is
    kept; run the campaign again to resume it).
    """


@campaign.command("run")
@click.argument("spec", type=click.Path(dir_okay=False))
@click.option(
    "--db", required=True, type=click.Path(dir_okay=False), help="The SQLite results file."
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    help="Runs at a time on this machine (default: one per core).",
)
@click.option("--scheduler", metavar="ADDRESS", help="A Dask scheduler, e.g. tcp://host:8786.")
@quiet_option
def run(spec: str, db: str, workers: int | None, scheduler: str | None, quiet: bool) -> None:
    """Run the campaign SPEC (a TOML file), keeping every finished run in --db.

    Runs already in the file are skipped, so the same command resumes a campaign
    that was stopped. Only a new file or a cpqueens results file is written to; two
    processes running one campaign on one file share its runs.
    """
    from ..campaigns.runner import run_campaign
    from ..campaigns.store_schema import check_store
    from ..parallel.progress import progress_bar, wants_bar
    from ..reporting.campaign.tables import summary_grid, summary_legend
    from ..reporting.tables import format_grid

    check_store(db, create=True)  # a file that is not cpqueens' refused before the spec is read
    with progress_bar(None, "runs", enabled=wants_bar(quiet)) as bar:

        def progress(done: int, total: int, failures: int) -> None:
            bar.update(done, total)
            if failures:
                bar.describe(f"runs ({failures} failed)")

        report = run_campaign(
            spec,
            db,
            workers=workers,
            scheduler=scheduler,
            progress=progress,
            notify=lambda line: say(quiet, line),
        )
    click.echo(printable(report.headline()))
    for item in report.wrong:
        click.echo(printable(f"  wrong: {item['solver']} on {item['instance']}: {item['reason']}"))
    for label in report.disputed:
        click.echo(printable(f"  disputed: {label}"))
    for line in report.unproved:
        click.echo(printable(f"  {line}"))
    for line in _error_lines(report.errors):
        click.echo(printable(line))
    click.echo(format_grid(summary_grid(report.summary)))
    for line in summary_legend(report.summary):
        say(quiet, line)
    shared = f", {report.others} by another process" if report.others else ""
    say(quiet, f"{report.ran} runs now, {report.skipped} already in {report.db}{shared}")
    _exit(bool(report.wrong or report.disputed or report.unproved), report.errors)


@campaign.command("summary")
@click.argument("db", type=click.Path(dir_okay=False))
@click.option("--campaign", "name", help="Only this campaign of the file.")
@click.option("--csv", "as_csv", is_flag=True, help="CSV, one row per solver.")
@click.option("--json", "as_json", is_flag=True, help="JSON, a list of one object per solver.")
@quiet_option
def summary(db: str, name: str | None, as_csv: bool, as_json: bool, quiet: bool) -> None:
    """Per solver: solved, sat, unsat, unknown, memout, error, wrong, PAR-2, median time,
    instances solved by it alone; the virtual best solver (VBS) as a row."""
    from ..campaigns.runner import error_line, load_results
    from ..campaigns.summary import errored, solved_alone, summarize, summary_csv
    from ..reporting.campaign.tables import summary_grid, summary_legend
    from ..reporting.tables import format_grid

    if as_csv and as_json:
        raise BadInput("give --csv or --json, not both")
    _check_db(db)
    rows = load_results(db, name)
    table = summarize(rows)
    wrong = [r for r in rows if r["verdict"] == "wrong"]
    errors = errored(rows)
    if as_json:
        emit_json(table)
    elif as_csv:
        click.echo(summary_csv(table), nl=False)
    else:
        if wrong:
            click.echo(f"WRONG: {len(wrong)} wrong answer{'s' * (len(wrong) != 1)}")
            for r in wrong:
                click.echo(printable(f"  {r['solver']} on {r['instance']}: {r['verdict_reason']}"))
        elif errors:
            click.echo(printable(error_line(errors, table)))
        for line in _error_lines(errors):
            click.echo(printable(line))
        click.echo(format_grid(summary_grid(table)))
        for line in summary_legend(table):
            say(quiet, line)
        for solver, labels in solved_alone(rows).items():
            shown = ", ".join(labels[:5]) + (" ..." if len(labels) > 5 else "")
            say(quiet, f"solved by {solver} alone: {shown}")
    _exit(bool(wrong), errors)


@campaign.command("plot")
@click.argument("db", type=click.Path(dir_okay=False))
@click.option("--cactus", is_flag=True, help="Instances solved against time, a line per solver.")
@click.option(
    "--scatter",
    nargs=2,
    metavar="A B",
    callback=_not_an_option("two solver labels"),
    help="Solver A's time against B's, per instance.",
)
@click.option(
    "--transition",
    metavar="PARAM",
    callback=_not_an_option(TRANSITION_PARAMS),
    help=f"Satisfiable fraction and median effort against PARAM ({TRANSITION_PARAMS}).",
)
@click.option(
    "--effort",
    default="wall",
    show_default=True,
    callback=_not_an_option("wall or a stats key"),
    help="For --transition: wall (seconds), or a figure of search effort the runs report "
    "(nodes, branches, decisions, conflicts...): the solver's own count of search steps.",
)
@click.option("--campaign", "name", help="Only this campaign of the file.")
@click.option("-o", "--output", required=True, help="The picture: .png, .svg or .pdf.")
@quiet_option
def plot(
    db: str,
    cactus: bool,
    scatter: tuple[str, str] | None,
    transition: str | None,
    effort: str,
    name: str | None,
    output: str,
    quiet: bool,
) -> None:
    """Draw a cactus, scatter or transition plot of a results file."""
    from ..campaigns.runner import load_results
    from ..reporting.campaign import plots

    chosen = sum([cactus, bool(scatter), transition is not None])
    if chosen != 1:
        raise BadInput("give exactly one of --cactus, --scatter A B, --transition PARAM")
    _check_db(db)
    target = output_path(output, plots.SUFFIXES)
    rows = load_results(db, name)
    if cactus:
        plots.cactus(rows, target)
    elif scatter:
        plots.scatter(rows, scatter[0], scatter[1], target)
    else:
        plots.transition(rows, transition, target, effort=effort)
    say(quiet, f"wrote {target}")


def _check_db(db: str) -> None:
    from ..campaigns.store_schema import check_store

    check_store(db, create=False)


def _error_lines(errors: list[dict[str, Any]]) -> list[str]:
    """A line per solver whose runs ended in an error: how many, and the first reason."""
    return [
        f"  error: {e['solver']}, {e['errors']} of {e['runs']} runs; the first: {e['reason']}"
        for e in errors
    ]


def _exit(wrong: bool, errors: list[dict[str, Any]]) -> None:
    """A wrong answer first (status 1), then runs that ended in an error (status 4)."""
    if wrong:
        raise click.exceptions.Exit(DISAGREES)
    if errors:
        raise click.exceptions.Exit(RUNS_FAILED)
