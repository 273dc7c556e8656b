"""``cpqueens fuzz``: hunt a solver's bugs with generated instances, shrink each one."""

from __future__ import annotations

import re
import sys

import click

from ..display.terminal import printable
from ._common import BadInput, emit_json, quiet_option, say
from .ranges import parse_options

#: A budget: seconds, or a number with s, m or h.
_BUDGET = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*([smh]?)\s*$")
_UNITS = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0}


def parse_budget(text: str) -> float:
    """Seconds of a budget written ``90``, ``90s``, ``10m`` or ``2h``.

    >>> parse_budget("10m"), parse_budget("90s"), parse_budget("45")
    (600.0, 90.0, 45.0)
    """
    match = _BUDGET.match(text)
    if match is None or float(match.group(1)) <= 0:
        raise BadInput(
            "--budget must be seconds (90), or a number with s, m or h (90s, 10m, 2h); "
            f"got {text!r}"
        )
    return float(match.group(1)) * _UNITS[match.group(2)]


@click.command()
@click.option("--backend", metavar="NAME", help="A backend of the registry to hunt.")
@click.option(
    "-O",
    "--option",
    "backend_option",
    multiple=True,
    metavar="KEY=VALUE",
    help="An option of the backend hunted, as solve takes it, e.g. -O solver=glucose4 for "
    "sat (repeatable).",
)
@click.option(
    "--command",
    metavar="CMD",
    help='A program to hunt: "./mysolver {instance}" (or {n}: plain boards only).',
)
@click.option(
    "--format",
    "instance_format",
    default="json",
    show_default=True,
    help="The format of the file {instance} names: json (0-based), param (Essence', 1-based), "
    "dzn, cnf, xc, fzn, xcsp.",
)
@click.option(
    "--question",
    type=click.Choice(["all", "decide", "count"]),
    default="all",
    show_default=True,
    help="What is compared: every solution, the decision, or the number of solutions.",
)
@click.option(
    "--budget",
    default="60s",
    show_default=True,
    metavar="TIME",
    help="For the whole hunt: 90, 90s, 10m, 2h.",
)
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True),
    default=5.0,
    show_default=True,
    metavar="SECONDS",
    help="Per run of the solver: a longer one is stopped, a timeout failure.",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="The same seed, the same instances.",
)
@click.option(
    "--reference",
    default="auto",
    show_default=True,
    help="auto, a backend's name, or none (metamorphic relations only).",
)
@click.option(
    "--families", metavar="A,B", help="Of plain, blocked, given, mixed, diagonals (default: all)."
)
@click.option(
    "--max-n",
    type=click.IntRange(min=1),
    default=12,
    show_default=True,
    help="The largest board drawn.",
)
@click.option(
    "--relations",
    metavar="A,B",
    help="Of symmetry, block, unblock, fix, reduction, formats, options (default: all that apply).",
)
@click.option(
    "--second-format",
    metavar="FORMAT",
    help="The program reads this format too: the same instance in both must get one answer.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Instances at a time.",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="A Dask scheduler, e.g. tcp://host:8786: the runs go to its workers.",
)
@click.option(
    "-o",
    "--output",
    metavar="FOLDER",
    help="Write each shrunk instance (its format and JSON) and report.json here; the hunt "
    "is kept in FOLDER/hunt.json, and the same command resumes it.",
)
@click.option(
    "--max-failures",
    type=click.IntRange(min=1),
    metavar="K",
    help="Stop once K distinct failures are found and shrunk (1: at the first bug).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON, for scripts.")
@quiet_option
def fuzz(
    backend: str | None,
    backend_option: tuple[str, ...],
    command: str | None,
    instance_format: str,
    question: str,
    budget: str,
    time_limit: float,
    seed: int,
    reference: str,
    families: str | None,
    max_n: int,
    relations: str | None,
    second_format: str | None,
    workers: int,
    scheduler: str | None,
    output: str | None,
    max_failures: int | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Hunt a solver's bugs: generated instances, checked against a reference and by
    metamorphic relations; each failure shrunk to a minimal instance.

    \b
    Examples:
      cpqueens fuzz --command "./mysolver {instance}" --budget 10m --seed 1 -o bugs/
      cpqueens fuzz --command "python mysolver.py {instance}" --format param
      cpqueens fuzz --backend sat --question count --budget 90s
      cpqueens fuzz --backend cpmpy -O solver=exact --budget 10m

    \b
    Exit status: 0 no failure found, 1 a failure found (a wrong answer, a crash: the
    table lists each, smallest first, with the line that shows it again), 4 no failure
    but time-outs (runs that gave no answer, even given three times the time limit
    once), 2 bad input, 130 Ctrl-C (with -o, the same command resumes the hunt).
    """
    from ..checking.external import Command
    from ..fuzzing import fuzz as hunt
    from ..fuzzing.output import write_findings
    from ..parallel.progress import progress_bar, wants_bar

    if (backend is None) == (command is None):
        raise BadInput("give the solver to hunt: --backend NAME or --command CMD (one of them)")
    seconds = parse_budget(budget)
    options = parse_options(backend_option)
    if options and backend is None:
        raise BadInput(
            "-O KEY=VALUE sets options of the --backend hunted; a --command runs as given"
        )
    program = None
    if command is not None:
        # The command's own timeout is a backstop: the hunt stops each run at --time-limit.
        program = Command(command, instance_format=instance_format, timeout=time_limit + 5.0)
        target = program
    else:
        target = backend
    state = None
    if output is not None:
        from ..disk.writing import check_folder

        folder = check_folder(output, "the hunt's findings")
        folder.mkdir(parents=True, exist_ok=True)
        state = folder / "hunt.json"

    with progress_bar(None, "hunting", enabled=wants_bar(quiet)) as bar:

        def progress(report, left: float) -> None:
            bar.update(report.tried, None)
            bar.describe(
                f"{report.tried:,} tried, {len(report.failures)} failure(s), "
                f"{len(report.timeouts)} time-out(s), {left:.0f} s left"
            )

        report = hunt(
            target,
            options=options,
            question=question,
            budget=seconds,
            seed=seed,
            reference=None if reference == "none" else reference,
            families=_names(families),
            max_n=max_n,
            workers=workers,
            time_limit=time_limit,
            relations=_names(relations),
            second_format=second_format,
            scheduler=scheduler,
            state=state,
            max_failures=max_failures,
            progress=progress,
        )
    if output is not None:
        written = write_findings(report, output, program)
    if as_json:
        emit_json(report.to_dict())
    else:
        click.echo(printable(str(report), multiline=True))
    if output is not None:
        say(quiet, f"wrote {len(written)} file(s) to {output} (the hunt kept in {state})")
    sys.exit(1 if report.failures else 4 if report.timeouts else 0)


def _names(text: str | None) -> list[str] | None:
    if text is None:
        return None
    return [part.strip() for part in text.split(",") if part.strip()]
