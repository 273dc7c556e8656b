"""The command that profiles the search: ``profile``, nodes per depth under each propagation."""

from __future__ import annotations

import json

import click

from ..disk.writing import write_atomic
from ..parallel.progress import progress_bar, wants_bar
from . import ranges
from ._common import backend_list, emit_json, json_option, output_path, quiet_option, say

PROFILE_SUFFIXES = (".png", ".svg", ".csv", ".json")


@click.command()
@click.argument("n", type=int)
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False), help=f"One of {', '.join(PROFILE_SUFFIXES)}."
)
@click.option("--fixed", default="", metavar="R:C,...", help="Queens given in advance, 0-based.")
@click.option(
    "--solvers",
    "names",
    metavar="A,B,...",
    help="Solvers whose own figures are shown beside; 'none' for none. "
    "Default: every available solver backend built on another package.",
)
@click.option("--time-limit", type=float, metavar="SECONDS", help="Per solver run.")
@json_option
@quiet_option
def profile(
    n: int,
    output: str | None,
    fixed: str,
    names: str | None,
    time_limit: float | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Count the queens placed at each depth under every propagation and order, for size N.

    N goes up to 14: the five searches are walked whole, in Python.

    Blind search, forward checking and arc consistency, rows in order or
    first-fail, side by side, with the dead ends and pruned squares of each, and
    the constraint solvers' own effort figures (CP-SAT's branches and conflicts, ...)
    for the same board. -o writes the log-scale plot (.png, .svg) or the figures
    (.csv, .json). On a terminal a progress bar names the search or solver running.
    """
    from ..reporting.figures import figure_bytes
    from ..reporting.profile.plot import profile_figure
    from ..reporting.profile.profiles import search_profile
    from ..reporting.profile.tables import profile_csv, profile_table

    target = output_path(output, PROFILE_SUFFIXES)
    solvers = [] if names == "none" else None if names is None else backend_list(names)
    with progress_bar(None, "profile", enabled=wants_bar(quiet)) as bar:

        def step(label: str, done: int, total: int) -> None:
            bar.update(done, total)
            bar.describe(f"profile n={n}: {label}")

        result = search_profile(
            n,
            ranges.parse_fixed(fixed) or None,
            solvers=solvers,
            time_limit=time_limit,
            on_step=step,
        )
    if target is not None:
        suffix = target.suffix.lower()
        if suffix == ".csv":
            write_atomic(target, profile_csv(result))
        elif suffix == ".json":
            write_atomic(target, json.dumps(result.to_record(), indent=2) + "\n")
        else:
            write_atomic(target, figure_bytes(profile_figure(result), suffix[1:]))
    if as_json:
        emit_json(result.to_record())
    elif not quiet or target is None:
        click.echo(profile_table(result))
    if target is not None:
        say(quiet, f"wrote {target}")
