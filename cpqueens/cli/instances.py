"""The commands that make instance files: ``generate blocked``, ``generate completion``,
``generate diagonals`` and ``generate diagonals-to-completion`` (the reduction of an
Excluded Diagonals file to a completion instance).

One instance goes to ``-o FILE`` (the format told by its extension) or to stdout;
``--count C`` makes C of them, seeds S, S+1, ..., into the folder ``-o DIR/``, each
file named after its kind, board size and seed. Every file is checked writable
before the first is made, and each is written whole or not at all.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import click

from ..disk.writing import check_target
from ..instances import FORMATS, Instance, format_instance, write_instance
from ..instances.files import format_of
from ..instances.formats.records import format_table
from ._common import BadInput, Group, finished, quiet_option, say

#: ``generate``'s help: what it makes, examples, and the formats (from their table).
GENERATE_HELP = """Make blocked n-queens, n-queens completion and Excluded Diagonals instances,
    reproducible by seed.

    \b
    Examples:
      cpqueens generate blocked 20 --blocked 100 --seed 1 -o b20.param
      cpqueens generate blocked 30 --blocked 250 --min-free 2 --seed 1 --count 10 -o out/
      cpqueens generate completion 25 --queens 8 --seed 4 -o c25.json
      cpqueens generate completion 25 --queens 20 --from-solution --seed 4 -o c25.dzn
      cpqueens generate diagonals 10 --seed 1 -o diag10.param
      cpqueens generate diagonals-to-completion diag10.param --diagonals 6 -o c.param

    \b
    Formats, told by -o's extension (--format for a folder or stdout):
""" + "\n".join(f"      {line}" for line in format_table().splitlines())


@click.group(cls=Group, help=GENERATE_HELP)
def generate() -> None:
    """The instance generators (their help: :data:`GENERATE_HELP`)."""


def _common_options(function: Callable) -> Callable:
    for option in reversed(
        [
            click.option("--seed", type=int, required=True, help="Seed of the first instance."),
            click.option(
                "--count",
                type=click.IntRange(min=1),
                default=1,
                show_default=True,
                help="How many instances, seeds S, S+1, ...; -o then names a folder.",
            ),
            click.option(
                "-o",
                "--output",
                metavar="FILE|DIR/",
                help="The file (format from its extension), or the folder for --count. "
                "Default: print the instance.",
            ),
            click.option(
                "-f",
                "--format",
                "fmt",
                type=click.Choice(list(FORMATS)),
                help="The format in a folder or on stdout (default essence).",
            ),
            quiet_option,
        ]
    ):
        function = option(function)
    return function


@generate.command()
@click.argument("n", type=int)
@click.option("-m", "--blocked", type=int, required=True, help="How many squares to block.")
@click.option(
    "--min-free",
    type=int,
    default=1,
    show_default=True,
    help="The fewest free squares left in every row and column.",
)
@_common_options
def blocked(
    n: int,
    blocked: int,
    min_free: int,
    seed: int,
    count: int,
    output: str | None,
    fmt: str | None,
    quiet: bool,
) -> None:
    """Block squares of an N x N board at random, as Gent, Jefferson and Nightingale do.

    The squares are visited in a random order; each is blocked while its row and
    its column keep --min-free free squares, until --blocked squares are.
    """
    from ..instances import random_blocked

    free = "" if min_free == 1 else f"-free{min_free}"
    _generate(
        lambda s: random_blocked(n, blocked, min_free=min_free, seed=s),
        f"blocked-n{n}-m{blocked}{free}",
        seed,
        count,
        output,
        fmt,
        quiet,
    )


@generate.command()
@click.argument("n", type=int)
@click.option("-k", "--queens", type=int, required=True, help="How many queens to give.")
@click.option(
    "--from-solution",
    is_flag=True,
    help="Take the queens from a random solution, so that a completion exists.",
)
@_common_options
def completion(
    n: int,
    queens: int,
    from_solution: bool,
    seed: int,
    count: int,
    output: str | None,
    fmt: str | None,
    quiet: bool,
) -> None:
    """Give --queens queens on an N x N board, none attacking another, at random.

    Such an instance may have no completion; with --from-solution the queens are
    those of random rows of a random solution, and it always has one (the files
    are then named completable-...).
    """
    from ..instances import random_completion

    kind = "completable" if from_solution else "completion"
    _generate(
        lambda s: random_completion(n, queens, seed=s, from_solution=from_solution),
        f"{kind}-n{n}-q{queens}",
        seed,
        count,
        output,
        fmt,
        quiet,
    )


@generate.command()
@click.argument("n", type=int)
@click.option(
    "--min-free",
    type=int,
    default=4,
    show_default=True,
    help="The fewest free squares left in every row and column.",
)
@click.option(
    "-d",
    "--diagonals",
    type=int,
    help="Keep the first D diagonals. Default: all, a file whose every first D is an instance.",
)
@_common_options
def diagonals(
    n: int,
    min_free: int,
    diagonals: int | None,
    seed: int,
    count: int,
    output: str | None,
    fmt: str | None,
    quiet: bool,
) -> None:
    """Exclude whole diagonals of an N x N board at random (CSPLib problem 79).

    Gent, Jefferson and Nightingale's generator: the sum and difference diagonals,
    in a random order, each excluded while every row and column keeps --min-free
    free squares. Written as a .param file it is their format (n, numdiags, diags),
    read back with --diagonals D: its first D diagonals.
    """
    from ..instances import random_diagonals

    kept = "" if diagonals is None else f"-d{diagonals}"
    _generate(
        lambda s: random_diagonals(n, diagonals, min_free=min_free, seed=s),
        f"diag-n{n}-free{min_free}{kept}",
        seed,
        count,
        output,
        fmt,
        quiet,
    )


@generate.command("diagonals-to-completion")
@click.argument("file")
@click.option(
    "-d",
    "--diagonals",
    type=int,
    help="The instance of FILE: its first D diagonals (needed for an Excluded Diagonals "
    "file; a JSON file carries its own).",
)
@click.option(
    "-o",
    "--output",
    metavar="FILE",
    help="The file (format from its extension). Default: print the instance.",
)
@click.option(
    "-f",
    "--format",
    "fmt",
    type=click.Choice(list(FORMATS)),
    help="The format on stdout (default essence).",
)
@quiet_option
def diagonals_to_completion(
    file: str, diagonals: int | None, output: str | None, fmt: str | None, quiet: bool
) -> None:
    """The n-queens completion instance of an Excluded Diagonals instance.

    Gent, Jefferson and Nightingale's reduction (their queens-diag-transform.py):
    the same instance, a board of about 266 N with all but N queens given, and as
    many solutions. Only backends that take such boards decide it (see
    `cpqueens docs instances`).
    """
    from ..instances import diagonals_to_completion as reduction
    from ..instances import read_instance

    made = reduction(read_instance(file, diagonals=diagonals))
    if output is None:
        click.echo(format_instance(made, fmt or "essence"), nl=False)
        return
    if output.endswith(("/", os.sep)) or Path(output).is_dir():
        raise BadInput(f"-o names the file to write, e.g. -o {made.name or 'completion'}.param")
    ((target, chosen),) = _targets(output, "", range(1), 1, fmt)
    write_instance(made, target, format=chosen)
    finished(target.name)
    say(quiet, f"wrote {target} (n={made.n:,}, {made.n - len(made.fixed)} queens to place)")


def _generate(
    make: Callable[[int], Instance],
    stem: str,
    seed: int,
    count: int,
    output: str | None,
    fmt: str | None,
    quiet: bool,
) -> None:
    """Make ``count`` instances, seeds ``seed`` on, and write or print them."""
    if seed < 0:
        raise BadInput(f"--seed must be 0 or more, got {seed}")
    seeds = range(seed, seed + count)
    if output is None:
        if count > 1:
            raise BadInput(f"--count {count} writes files: give the folder, -o DIR/")
        click.echo(format_instance(make(seed), fmt or "essence"), nl=False)
        return
    targets = _targets(output, stem, seeds, count, fmt)
    for current, (target, chosen) in zip(seeds, targets, strict=True):
        write_instance(make(current), target, format=chosen)
        finished(target.name)
        say(quiet, f"wrote {target}")


def _targets(
    output: str, stem: str, seeds: range, count: int, fmt: str | None
) -> list[tuple[Path, str]]:
    """The files to write and their format, each checked writable before any is made."""
    folder = Path(output)
    if output.endswith(("/", os.sep)) or folder.is_dir():
        if not folder.is_dir():
            # A folder asked for by its trailing slash is made, as far as its parent.
            try:
                folder.mkdir()
            except OSError as error:
                reason = (error.strerror or str(error)).lower()
                raise BadInput(f"cannot make the folder {output!r}: {reason}") from None
        chosen = fmt or "essence"
        suffix = FORMATS[chosen]
        paths = [folder / f"{stem}-seed{current}{suffix}" for current in seeds]
    else:
        if count > 1:
            raise BadInput(
                f"--count {count} writes one file a seed: -o names a folder, e.g. "
                f"-o {folder.stem or 'instances'}/"
            )
        chosen = format_of(output)
        if fmt is not None and fmt != chosen:
            raise BadInput(
                f"--format {fmt} disagrees with the extension of {output!r} ({chosen}); "
                "give one of them"
            )
        paths = [folder]
    for path in paths:
        check_target(path)
    if len(paths) == 1:
        click.get_current_context().meta["cpqueens.output"] = str(paths[0])
    return [(path, chosen) for path in paths]
