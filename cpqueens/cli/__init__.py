"""The ``cpqueens`` command: solve, count, cross-check, time and picture the backends.

Every command checks its input before any long work, prints one line and exits
with status 2 on bad input, exits with 130 on Ctrl-C after saying what was
finished, and writes its output files atomically. A check that disagrees exits
with 1. A run stopped by ``--time-limit`` says so and exits with 3, for a run cut
short is neither a wrong answer nor bad input (``crosscheck`` gives 1 when
something also disagrees). A check where a program gave no answer (it failed, or
its output could not be read) and none answered wrong exits with 4. The work
itself is done by the library (:mod:`cpqueens.api`, :mod:`cpqueens.reporting`,
:mod:`cpqueens.checking`); the modules here only parse, dispatch and print.

Map: ``solving`` (backends, solvers, solve, count), ``checking`` (crosscheck: its
progress, table and verdict line), ``models`` (crosscheck's ``--model`` rows, a MiniZinc
model of the user's own each), ``proving`` (crosscheck's ``--certify``, the reference's
answers proved), ``resolving`` (what ``--backends`` names, turned into backends and
functions, and the programs' environment), ``verifying`` (verify), ``trees`` (tree),
``timing`` (bench, report), ``profiling`` (profile), ``instances`` (generate),
``campaigns`` (campaign run, summary, plot), ``fuzzing`` (fuzz), ``pages`` (docs: the
documentation's pages, listed and shown), ``ranges`` (the compact
notations of board sizes and fixed queens, parsed), ``_common`` (what every command
shares: exit statuses, one-line errors, Ctrl-C, output checks, options), ``failures``
(the one error door: any exception as one line and an exit status).
"""

from __future__ import annotations

import click

from .._version import __version__
from . import (
    campaigns,
    checking,
    fuzzing,
    instances,
    pages,
    profiling,
    solving,
    timing,
    trees,
    verifying,
)
from ._common import Group, ending_signals_interrupt


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cpqueens")
def cli() -> None:
    """n-queens solvers side by side: solve, count, cross-check, time and draw them.

    \b
    Examples:
      cpqueens backends
      cpqueens solvers
      cpqueens solve 8 --format zero-plus
      cpqueens count 12 --backend stack
      cpqueens crosscheck 1-10
      cpqueens crosscheck 1-10 --command "./myqueens {n}"
      ./myqueens 8 | cpqueens verify 8
      cpqueens tree 5 -o tree.svg
      cpqueens tree 6 --propagation arc --order first-fail -o tree.png
      cpqueens profile 10 -o profile.png
      cpqueens bench 4-10 -o bench.png
      cpqueens report 4-9 -o report.html
      cpqueens generate blocked 20 --blocked 100 --seed 1 -o b20.param
      cpqueens campaign run spec.toml --db results.sqlite
      cpqueens fuzz --command "./mysolver {instance}" --budget 10m -o bugs/
      cpqueens docs                        # the documentation, page by page

    \b
    Exit status:
      0    done, and every check agrees
      1    a check disagrees (crosscheck, verify, report), a campaign has a wrong answer,
           a hunt found a failure (fuzz)
      2    bad input
      3    stopped by --time-limit (solve, count, crosscheck, bench) or --budget (bench)
      4    a program or backend gave no answer and none answered wrong (crosscheck,
           verify: a run failed, or its output could not be read); a hunt found
           time-outs only (fuzz)
      70   an internal error of cpqueens (CPQUEENS_TRACEBACK=1 shows where)
      130  interrupted (Ctrl-C); 143 and 129 ended by SIGTERM and SIGHUP, which end
           what the command started as Ctrl-C does
    """


for command in (
    solving.backends,
    solving.solvers,
    solving.solve,
    solving.count,
    checking.crosscheck,
    verifying.verify,
    trees.tree,
    profiling.profile,
    timing.bench,
    timing.report,
    instances.generate,
    campaigns.campaign,
    fuzzing.fuzz,
    pages.docs,
):
    cli.add_command(command)


def main(argv: list[str] | None = None) -> int:
    """Run the command line (the ``cpqueens`` console script and ``python -m cpqueens``)."""
    try:
        with ending_signals_interrupt():
            cli.main(args=argv, prog_name="cpqueens")
    except OSError as error:
        # A disk that fills or a pipe closed early: say so in one line, not a traceback.
        if isinstance(error, BrokenPipeError):
            return 0
        click.echo(f"Error: {error}", err=True)
        return 2
    return 0
