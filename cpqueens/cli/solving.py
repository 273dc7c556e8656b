"""The commands about one board size: ``backends`` (and ``solvers``, those from
elsewhere), ``solve`` and ``count``.

``solve`` and ``count`` stopped by ``--time-limit`` say so and exit with status 3
(:data:`~cpqueens.cli._common.TIMED_OUT`): a run cut short is neither a wrong
answer nor bad input.
"""

from __future__ import annotations

import sys
import textwrap
from dataclasses import asdict
from typing import Any

import click

from .. import api
from ..board import MAX_RENDER_N
from ..display.numbers import seconds, thousands
from ..errors import SearchTimeoutError
from ..instances import Instance, as_instance
from ..parallel.progress import progress_bar, wants_bar
from ..result import Result
from ..solvers import REGISTRY, listing_backends
from . import ranges
from ._common import (
    FORMATS,
    TIMED_OUT,
    BadInput,
    backend_options,
    certify_options,
    check_backend,
    emit_json,
    json_option,
    quiet_option,
    report_certificate,
    say,
)


def instance_options(function: Any) -> Any:
    """--blocked, --instance and --diagonals: the instance asked about, beside N and
    --fixed."""
    function = click.option(
        "--diagonals",
        type=int,
        metavar="D",
        help="With an Excluded Diagonals --instance (CSPLib problem 79): its first D "
        "diagonals, the instance.",
    )(function)
    function = click.option(
        "-i",
        "--instance",
        "instance_file",
        metavar="FILE",
        help="The instance in FILE (.param, .json, .dzn): N, given queens, blocked squares.",
    )(function)
    return click.option(
        "--blocked", default="", metavar="R:C,...", help="Squares no queen may take, 0-based."
    )(function)


#: The columns of ``cpqueens backends``: a short heading each (the table fits 80
#: columns) and the field of :class:`~cpqueens.solvers.base.BackendInfo` it shows.
BACKEND_COLUMNS = {
    "ready": "available",
    "lists": "enumerates",
    "fixed": "fixed",
    "blocked": "blocked",
    "seeded": "randomized",
    "workers": "workers",
    "timed": "time_limit",
}
BACKEND_LEGEND = (
    "ready: installed here; lists: lists solutions, not only counts; fixed, blocked: takes "
    "queens given and squares blocked; seeded: random, repeatable with --seed; workers: "
    "takes --workers; timed: stops at --time-limit; max n: the largest board it takes."
)


@click.command()
@json_option
@quiet_option
def backends(as_json: bool, quiet: bool) -> None:
    """List the registered backends, what each can do, where each comes from (its
    package or program and their versions here) and what installs a missing one (with
    --quiet, the table alone)."""
    infos = api.backends()
    if as_json:
        emit_json([{**asdict(info), "options": list(info.options)} for info in infos])
        return
    from ..reporting.tables import format_grid

    grid = [["backend", *BACKEND_COLUMNS, "max n"]]
    for info in infos:
        marks = ["yes" if getattr(info, field) else "-" for field in BACKEND_COLUMNS.values()]
        ready = "yes" if info.available else "no"
        grid.append([info.name, ready, *marks[1:], thousands(info.max_n)])
    click.echo(format_grid(grid))
    if quiet:
        return
    click.echo(textwrap.fill(BACKEND_LEGEND, 79))
    click.echo()
    width = max(len(info.name) for info in infos) + 2
    for info in infos:
        missing = "" if info.available else f" [needs: {info.missing or info.install}]"
        line = f"{info.name:<{width}}{info.summary}{missing}"
        click.echo(textwrap.fill(line, 79, subsequent_indent=" " * width))
    click.echo("\nWhere each comes from (the versions here; what installs it):")
    for line in _origins(infos):
        click.echo(textwrap.fill(line, 79, initial_indent="  ", subsequent_indent="    "))
    for info in infos:
        if info.solvers:
            usable = [name for name, need in info.solvers.items() if need is None]
            absent = [f"{name} ({need})" for name, need in info.solvers.items() if need]
            usable_line = f"{info.name} solvers usable here: {', '.join(usable) or 'none'}"
            click.echo("\n" + textwrap.fill(usable_line, 79, subsequent_indent="  "))
            if absent:
                absent_line = f"{info.name} solvers missing: {', '.join(absent)}"
                click.echo(textwrap.fill(absent_line, 79, subsequent_indent="  "))


def _origins(infos: tuple[Any, ...]) -> list[str]:
    """One line a backend, those of cpqueens' own code in one: where it comes from,
    its versions, and (when missing) the command that installs it."""
    own = [info for info in infos if info.install is None]
    lines = [f"{', '.join(i.name for i in own)}: {own[0].origin} ({own[0].version})"] if own else []
    for info in infos:
        if info.install is not None:
            needs = "" if info.available else f"; missing, install: {info.missing or info.install}"
            lines.append(f"{info.name}: {info.origin} ({info.version}){needs}")
    return lines


@click.command()
@json_option
@quiet_option
def solvers(as_json: bool, quiet: bool) -> None:
    """List the solvers from elsewhere found here: FlatZinc programs (fzn-* on the PATH),
    the solvers MiniZinc lists, ACE (XCSP3); where each comes from, its version, how to
    use it and what installs it when missing (with --quiet, the table alone)."""
    from ..reporting.tables import format_grid
    from ..solvers.installed import external_solvers

    found = external_solvers()
    if as_json:
        emit_json([asdict(solver) for solver in found])
        return
    grid = [["solver", "kind", "here", "version"]]
    grid += [[s.name, s.kind, "yes" if s.found else "no", s.version or "-"] for s in found]
    click.echo(format_grid(grid))
    if quiet:
        return
    for solver in found:
        words = [f"{solver.name}: {solver.origin}"]
        words.append(f"why not: {solver.note}" if solver.note else f"use: {solver.use}")
        if not solver.found and solver.install:
            words.append(f"install: {solver.install}")
        click.echo(textwrap.fill("; ".join(words), 79, subsequent_indent="    "))
    say(False, 'any other XCSP3 solver: a command with format = "xcsp" (cpqueens docs external)')


@click.command()
@click.argument("n", type=int, required=False)
@click.option("-b", "--backend", default=api.DEFAULT_BACKEND, show_default=True)
@click.option("-l", "--limit", type=int, help="Stop after K solutions (default 1).")
@click.option("-a", "--all", "every", is_flag=True, help="List every solution.")
@click.option("--fixed", default="", metavar="R:C,...", help="Queens given in advance, 0-based.")
@instance_options
@click.option("--seed", type=int, help="Seed of a randomised backend (e.g. random).")
@click.option("--unique", is_flag=True, help="One solution per rotation/reflection class.")
@click.option(
    "--time-limit",
    type=float,
    metavar="SECONDS",
    help="Stop the search after this (exit status 3).",
)
@click.option(
    "-f", "--format", "fmt", type=click.Choice(FORMATS), default="grid", show_default=True
)
@certify_options
@backend_options
@json_option
@quiet_option
def solve(
    n: int | None,
    backend: str,
    limit: int | None,
    every: bool,
    fixed: str,
    blocked: str,
    instance_file: str | None,
    diagonals: int | None,
    seed: int | None,
    unique: bool,
    time_limit: float | None,
    fmt: str,
    certify: bool,
    keep_proof: str | None,
    backend_option: tuple[str, ...],
    as_json: bool,
    quiet: bool,
) -> None:
    """Print solutions of the N-queens problem (the first one unless --limit or --all).

    With --instance FILE (or --fixed, --blocked) it solves that instance and first
    says whether it is satisfiable, unsatisfiable (proved: the search ran to the
    end) or unknown (stopped before knowing). Formats: grid (Q and .), zero-plus
    (0 and +), x-dash (x and -), letters (one column letter per row, a = first
    column), json, csv (one row per solution), xcsp (the XCSP competitions'
    s line and one v <instantiation> line per solution). Exit status 3 when --time-limit
    stopped the search: the solutions found before it are printed. --certify proves the
    answer (all solutions with --all; else a solution, or that there is none).
    """
    from ..display.streaming import write_pieces
    from ..reporting.solution_text import result_record, solution_pieces

    if every and limit is not None:
        raise BadInput("give either --limit or --all, not both")
    problem = board_problem(n, fixed, blocked, instance_file, diagonals)
    size = problem.n
    fmt = "json" if as_json else fmt
    # The backend's own size refusal first: a hint below must name a backend that
    # takes the board.
    engine = REGISTRY[check_backend(backend)]
    api.check_size(engine, size)
    if every and not engine.exhaustive:
        able = listing_backends(size)
        instead = f"; backends that do: {', '.join(able)}" if able else ""
        raise BadInput(
            f"--all: backend {backend!r} finds solutions and cannot list them all{instead}"
        )
    if fmt == "letters" and size > 26:
        raise BadInput(f"the letters format goes up to n=26, got n={size}")
    if fmt in ("grid", "zero-plus", "x-dash") and size > MAX_RENDER_N:
        # Before the search: a board nobody can look at is not worth finding for it.
        raise BadInput(
            f"the {fmt} format draws boards up to n={MAX_RENDER_N:,}, got n={size:,}; "
            f"print the columns instead: cpqueens solve {size} -b {backend} --json (or -f csv)"
        )
    result = api.solve(
        problem,
        backend=backend,
        limit=None if every else (1 if limit is None else limit),
        seed=seed,
        unique=unique,
        time_limit=time_limit,
        certify=keep_proof or certify,
        **ranges.parse_options(backend_option),
    )
    timed_out = bool(result.stats.get("timed_out"))
    if fmt == "json":
        # On top as well as in stats, so that a script need not know where to dig.
        emit_json({**result_record(result), "timed_out": timed_out})
    else:
        if (instance_file is not None or not problem.plain) and fmt != "xcsp":
            click.echo(_answer(result))  # xcsp's own s line says it
        write_pieces(solution_pieces(result, fmt), sys.stdout)
    say(quiet or fmt == "json", _solve_summary(result, time_limit))
    report_certificate(result.certificate, quiet or fmt == "json")
    if timed_out:
        raise click.exceptions.Exit(TIMED_OUT)


def board_problem(
    n: int | None, fixed: str, blocked: str, instance_file: str | None, diagonals: int | None
) -> Instance:
    """The instance that ``solve``, ``count`` or ``tree`` was asked about: a file's, or N with
    the queens and blocked squares given."""
    if instance_file is not None:
        if n is not None or fixed or blocked:
            raise BadInput("--instance brings its own N, queens and blocked squares: give it alone")
        from ..instances import read_instance

        return read_instance(instance_file, diagonals=diagonals)
    if diagonals is not None:
        raise BadInput("--diagonals D takes the first D diagonals of an --instance FILE")
    if n is None:
        raise BadInput("give a board size N, or --instance FILE")
    return as_instance(n, ranges.parse_fixed(fixed) or None, ranges.parse_squares(blocked) or None)


def _answer(result: Result) -> str:
    """The decision's answer, the first line of solving an instance."""
    return {True: "satisfiable", False: "unsatisfiable", None: "unknown"}[result.satisfiable]


def _solve_summary(result: Result, time_limit: float | None) -> str:
    """The summary line of ``solve``, saying what stopped the search short of the end."""
    summary = result.summary()
    if result.stats.get("timed_out"):
        return summary.replace("the time limit", f"the time limit of {time_limit:g} s")
    if not result.complete and result.count and REGISTRY[result.backend].exhaustive:
        summary += " (--all lists every solution)"
    return summary


@click.command()
@click.argument("n", type=int, required=False)
@click.option("-b", "--backend", help="Default: the fastest counter available.")
@click.option("-w", "--workers", type=int, help="Parallel workers, for backends that have them.")
@click.option("--unique", is_flag=True, help="Count rotation/reflection classes instead.")
@click.option("--fixed", default="", metavar="R:C,...", help="Queens given in advance, 0-based.")
@instance_options
@click.option(
    "--time-limit", type=float, metavar="SECONDS", help="Give up after this (exit status 3)."
)
@click.option("--scheduler", metavar="ADDRESS", help="Count on a dask cluster (bitmask).")
@click.option(
    "--checkpoint",
    metavar="FILE",
    help="Keep each finished part of the count in FILE (bitmask): the same command resumes "
    "a count that was stopped, at any moment, where it was.",
)
@certify_options
@backend_options
@json_option
@quiet_option
def count(
    n: int | None,
    backend: str | None,
    workers: int | None,
    unique: bool,
    fixed: str,
    blocked: str,
    instance_file: str | None,
    diagonals: int | None,
    time_limit: float | None,
    scheduler: str | None,
    checkpoint: str | None,
    certify: bool,
    keep_proof: str | None,
    backend_option: tuple[str, ...],
    as_json: bool,
    quiet: bool,
) -> None:
    """Print the number of solutions of the N-queens problem.

    When --time-limit stops the count, print the number found so far as a lower
    bound ("at least ...") and exit with status 3. --certify proves the count
    (backend propagate, the default then, exactcover or sat): exit status 1 when it is
    not proved.
    """
    import time

    problem = board_problem(n, fixed, blocked, instance_file, diagonals)
    n = problem.n
    queens = problem.fixed
    proving = keep_proof or certify
    name = check_backend(backend or ("propagate" if proving else _fastest_counter()))
    options: dict[str, Any] = ranges.parse_options(backend_option)
    if scheduler is not None:
        if "scheduler" in options:
            raise BadInput(
                f"the scheduler is given twice, as --scheduler {scheduler} and as "
                f"-O scheduler={options['scheduler']}; give it once"
            )
        options["scheduler"] = scheduler
    if checkpoint is not None:
        options["checkpoint"] = checkpoint
        _say_resumed(checkpoint, quiet)
    # A bar only where the backend reports progress and was not given its own
    # (-O progress=...), and not for classes with fixed queens: those are counted by
    # listing the solutions, which reports no progress.
    show_bar = (
        wants_bar(quiet)
        and "progress" in REGISTRY[name].options
        and "progress" not in options
        and not (unique and queens)
    )
    with progress_bar(None, f"counting n={n}", enabled=show_bar) as bar:
        if show_bar:
            options["progress"] = bar.update
        start = time.perf_counter()
        timed_out = False
        try:
            total = api.count(
                problem,
                backend=name,
                workers=workers,
                unique=unique,
                time_limit=time_limit,
                certify=proving,
                **options,
            )
        except SearchTimeoutError as stopped:
            # Not bad input (the Group would make it exit 2): a count cut short.
            total, timed_out = stopped.partial, True
        elapsed = time.perf_counter() - start
    certificate = getattr(total, "certificate", None)
    if as_json:
        record = {"n": n, "backend": name, "unique": unique, "count": int(total)}
        if certificate is not None:
            from ..reporting.solution_text import certificate_record

            record["certificate"] = certificate_record(certificate)
        emit_json({**record, "elapsed": elapsed, "timed_out": timed_out})
    elif timed_out:
        _say_partial_count(n, name, unique, total, time_limit, elapsed, quiet)
    else:
        click.echo(total)
        kind = "symmetry classes" if unique else "solutions"
        say(quiet, f"n={n}: {total:,} {kind} (backend {name}, {seconds(elapsed)})")
    report_certificate(certificate, quiet or as_json)
    if timed_out:
        raise click.exceptions.Exit(TIMED_OUT)


def _say_resumed(checkpoint: str, quiet: bool) -> None:
    """Say how much of a checkpointed count is done already."""
    from ..solvers.bitmask.checkpoint import progress_of

    found = progress_of(checkpoint)
    if found is not None:
        done, total = found
        say(quiet, f"resumed: {done:,} of {total:,} subproblems already counted in {checkpoint}")


def _say_partial_count(
    n: int, name: str, unique: bool, total: int, time_limit: float, elapsed: float, quiet: bool
) -> None:
    """Print a count stopped by the time limit as the lower bound it is."""
    kind = "symmetry classes" if unique else "solutions"
    # In words on stdout even with --quiet: the bare number would pass for the exact count.
    click.echo(f"at least {total:,} {kind} (stopped by the time limit of {time_limit:g} s)")
    say(
        quiet, f"n={n}: backend {name} stopped after {seconds(elapsed)}, before the count was exact"
    )


def _fastest_counter() -> str:
    # The compiled bitmask counter when it is there, else the library default.
    bitmask = REGISTRY.get("bitmask")
    return "bitmask" if bitmask is not None and bitmask.is_available() else api.DEFAULT_BACKEND
