"""``cpqueens crosscheck``: backends, functions and programs checked against a reference,
on board sizes or instances; its progress, table and verdict line."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import click

from ..checking.external import INSTANCE_FORMATS
from ..display.numbers import plural
from ..display.terminal import printable
from ..errors import InvalidInputError
from ..parallel.progress import progress_bar, wants_bar
from ..solvers import REGISTRY
from . import ranges
from ._common import (
    DEFAULT_SET_HELP,
    DISAGREES,
    FAULT_SUFFIXES,
    NO_ANSWER,
    TIMED_OUT,
    BadInput,
    default_set_note,
    emit_json,
    faults_option,
    finished,
    json_option,
    note_once,
    output_options,
    output_path,
    quiet_option,
    say,
    summarise,
)
from .models import model_option, model_runners
from .proving import certificate_lines, certified_cases, certify_option
from .resolving import backend_choice, program_environment

if TYPE_CHECKING:
    from ..checking.judging.verdicts import CrossCheckReport


@click.command()
@click.argument("sizes", metavar="RANGE", required=False)
@click.option(
    "-i",
    "--instance",
    "instance_files",
    multiple=True,
    metavar="FILE",
    help="Check on the instance in FILE (.param, .json, .dzn) too, or on every instance "
    "in a folder or an archive (.zip, .tar.gz). Repeatable.",
)
@click.option(
    "--diagonals",
    type=int,
    metavar="D",
    help="The --instance files are Excluded Diagonals files (CSPLib problem 79): check "
    "each one's first D diagonals.",
)
@click.option(
    "--backends",
    "names",
    metavar="A,B,...",
    help=DEFAULT_SET_HELP.replace("; the run", ", or none when --command is given; the run")
    + " MODULE:FUNCTION names a Python function f(n) -> solutions (or f(n, fixed)), "
    "its module importable from the current folder.",
)
@click.option(
    "--command",
    "commands",
    multiple=True,
    metavar="CMD",
    help='A program to check, {n} standing for the size, e.g. "./queens {n}". Repeatable.',
)
@click.option(
    "--flatzinc",
    "flatzinc_solvers",
    multiple=True,
    metavar="PROGRAM",
    help='A FlatZinc solver to check, e.g. fzn-gecode (or "fzn-gecode -p 2", with options '
    "of its own): run on each instance's .fzn file "
    "with the standard flags (-a for every solution), its output read as FlatZinc. "
    "Repeatable.",
)
@click.option(
    "--instance-format",
    type=click.Choice(INSTANCE_FORMATS),
    default="json",
    show_default=True,
    help="The format of the file {instance} names in a --command (fzn: FlatZinc, its "
    "output read as FlatZinc's; xcsp: XCSP3, its s and v lines read; xml is xcsp).",
)
@output_options
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="Per program and n, then it is killed  [default: 60].",
)
@click.option(
    "--max-output",
    metavar="BYTES",
    help="Most a program may print per n, e.g. 1000000, 64K or 1G; "
    "past it, it is killed  [default: 32M].",
)
@click.option(
    "--clean-env",
    is_flag=True,
    help="Run each program with only PATH, HOME, USER, LANG, LC_*, TZ and TMPDIR of this "
    "environment (it inherits all of it by default).",
)
@click.option(
    "--env",
    "env_pairs",
    multiple=True,
    metavar="NAME=VALUE",
    help="Set a variable in each program's environment (on top of --clean-env). Repeatable.",
)
@click.option(
    "--reference",
    default="tree",
    show_default=True,
    help="tree (the explicit decision tree, up to n=12) or a backend name.",
)
@click.option(
    "--time-limit",
    type=float,
    metavar="SECONDS",
    help="Per backend and n; a backend it stops is marked timed out (exit status 3).",
)
@click.option(
    "--timeouts-fail",
    is_flag=True,
    help="Count a backend stopped by --time-limit as a disagreement (exit 1, not 3).",
)
@click.option(
    "--all",
    "all_solutions",
    is_flag=True,
    help="On an --instance, compare every solution, not only the decision (refused at "
    "once when the reference would search too long).",
)
@certify_option
@model_option
@faults_option
@json_option
@quiet_option
def crosscheck(
    sizes: str | None,
    instance_files: tuple[str, ...],
    diagonals: int | None,
    names: str | None,
    commands: tuple[str, ...],
    flatzinc_solvers: tuple[str, ...],
    instance_format: str,
    parse: str,
    expect: str | None,
    base: str | None,
    ignore: tuple[str, ...],
    timeout: float | None,
    max_output: str | None,
    clean_env: bool,
    env_pairs: tuple[str, ...],
    reference: str,
    time_limit: float | None,
    timeouts_fail: bool,
    all_solutions: bool,
    certify: bool,
    models: tuple[str, ...],
    model_options: tuple[str, ...],
    faults_file: str | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Compare the backends' solutions with a reference on every n of RANGE (e.g. 1-10).

    RANGE is N, A-B, or a comma-separated list such as 4,6,8-10; --instance FILE
    (repeatable) adds instances with queens given and squares blocked, whose
    solution sets are compared the same way (a program reads each through
    {instance} in its command, as JSON or --instance-format; see `cpqueens docs instances`).
    Programs in any language join with --command: each runs once per n, its output
    is read as boards (or a count) and compared; --flatzinc fzn-gecode adds a FlatZinc
    solver (any fzn-* program); --backends then adds registry backends
    beside them; --backends mymodule:solve checks your Python function. A backend
    stopped by --time-limit is marked T ("timed out"): the boards it found are
    checked, the rest is not counted missing. A failed run is marked E, a wrong
    answer !. --faults FILE lists every faulty board, with the line a program
    printed it on. A program inherits this environment; --clean-env and --env
    NAME=VALUE give it another. Exit status 1 when anything disagrees with the
    reference (a wrong answer, !), else 4 when a backend or program gave no answer (E),
    else 3 when a backend timed out (1 with --timeouts-fail).
    """
    from ..arguments import parse_size
    from ..checking.compare import crosscheck as check
    from ..checking.external import DEFAULT_MAX_OUTPUT, Command
    from ..checking.flatzinc_solvers import FlatZincSolver, solver_words
    from ..reporting.tables import crosscheck_legend, crosscheck_table

    if not sizes and not instance_files:
        raise BadInput("give a RANGE of board sizes, or --instance FILE")
    if diagonals is not None and not instance_files:
        raise BadInput("--diagonals D takes the first D diagonals of each --instance FILE")
    faults_target = output_path(faults_file, FAULT_SUFFIXES)
    cases: list[Any] = (
        list(compared_sizes(sizes, names, commands + flatzinc_solvers)) if sizes else []
    )
    if instance_files:
        from ..instances import read_instance, read_instances
        from ..instances.bundles import is_bundle

        for path in instance_files:
            if is_bundle(path):  # a folder or an archive of instance files
                bundle = read_instances(path, diagonals=diagonals)
                for name, reason in bundle.skipped:
                    say(quiet, f"skipped {name}: {reason}")
                cases.extend(bundle)
            else:
                cases.append(read_instance(path, diagonals=diagonals))
    changed = {
        "--instance-format": instance_format != "json",
        "--parse": parse != "auto",
        "--expect": expect is not None,
        "--base": base is not None,
        "--ignore": bool(ignore),
        "--timeout": timeout is not None,
        "--max-output": max_output is not None,
        "--clean-env": clean_env,
        "--env": bool(env_pairs),
    }
    given = [flag for flag, is_set in changed.items() if is_set]
    # A --flatzinc solver is fed and read as FlatZinc: only its limits and environment vary.
    own = [flag for flag in given if flag in COMMAND_ONLY] if flatzinc_solvers else given
    if own and not commands:
        raise BadInput(f"{', '.join(own)} apply to --command programs, and none was given")
    max_bytes = DEFAULT_MAX_OUTPUT if max_output is None else parse_size(max_output, "--max-output")
    environment = program_environment(clean_env, env_pairs)
    programs: list[Command] = [
        Command(
            command,
            parse=parse,
            expect=expect,
            timeout=60.0 if timeout is None else timeout,
            max_output=max_bytes,
            base=None if base is None else int(base),
            ignore=ignore,
            env=environment,
            instance_format=instance_format,
        )
        for command in commands
    ]
    programs += [
        FlatZincSolver(
            words[0],
            options=words[1:],
            name=" ".join(words) if len(words) > 1 else None,  # two option sets, two rows
            timeout=60.0 if timeout is None else timeout,
            max_output=max_bytes,
            env=environment,
        )
        for words in map(solver_words, flatzinc_solvers)
    ]
    # Without --backends: every available backend that lists solutions, unless
    # programs were given, which are then checked on their own.
    chosen: list | None = None if names is None else backend_choice(names)
    # --model rows are checked like programs: on their own unless --backends is given.
    own_models = model_runners(models, model_options, time_limit)
    if programs or own_models:
        chosen = [*(chosen or []), *programs, *own_models]
    question = "all" if all_solutions else None
    note = None
    if names is None and not programs and not own_models:
        from ..checking.compare import default_backends

        note = default_set_note(default_backends())
    with progress_bar(len(cases), progress_label(cases[0]), enabled=wants_bar(quiet)) as bar:
        tell_note = note_once(quiet, note, bar.say)

        def starting(case: Any, label: str | None) -> None:
            tell_note()
            bar.describe(progress_label(case, "reference" if label is None else label))

        def done(case: Any, rows: list[Any]) -> None:
            finished(printable(case_label(case)))  # so that Ctrl-C can say what was finished
            bar.advance()

        report = check(
            cases,
            chosen,
            reference,
            time_limit=time_limit,
            timeouts_fail=timeouts_fail,
            on_start=starting,
            on_done=done,
            question=question,
        )
    rows = list(report.rows)
    proved = certified_cases(cases, question) if certify else None
    if faults_target is not None:
        report.write_faults(faults_target)
    if as_json:
        timed_out = bool(report.timed_out)
        emit_json(
            {
                "ok": report.agrees,
                "wrong": bool(report.wrong),  # something answered wrong (!)
                "unanswered": bool(report.unanswered),  # something gave no answer (E)
                "timed_out": timed_out,
                "reference": reference,
                **({"proved": {str(k): c.proved for k, c in proved.items()}} if proved else {}),
                "rows": report.to_records(),
            }
        )
    else:
        shown = None if proved is None else {key: c.proved for key, c in proved.items()}
        click.echo(
            "\n".join([crosscheck_table(rows, reference, shown), *certificate_lines(proved or {})])
        )
        say(quiet, crosscheck_legend(rows, reference))
        say(quiet, crosscheck_verdict(report, {program.name for program in programs}))
    if faults_target is not None:
        say(quiet, f"wrote {plural(len(report.fault_records()), 'fault')} to {faults_target}")
    # A wrong answer outweighs a failure to answer, which outweighs a time-out.
    if report.wrong:
        raise click.exceptions.Exit(DISAGREES)
    if report.unanswered:
        raise click.exceptions.Exit(NO_ANSWER)
    if proved is not None and not all(c.proved for c in proved.values()):
        raise click.exceptions.Exit(DISAGREES)  # a proof refused is as loud as a wrong answer
    if not report.agrees:  # time-outs, with --timeouts-fail
        raise click.exceptions.Exit(DISAGREES)
    if report.timed_out:
        raise click.exceptions.Exit(TIMED_OUT)


#: The options of crosscheck that only a --command program takes (not a --flatzinc one).
COMMAND_ONLY = ("--instance-format", "--parse", "--expect", "--base", "--ignore")


def compared_sizes(text: str, names: str | None, commands: tuple[str, ...]) -> list[int]:
    """The board sizes of RANGE, up to the largest that the backends compared take.

    A refusal names that backend, and the others that would take the board (they
    may be left out of the comparison by default or by --backends).
    """
    from ..arguments import MAX_N
    from ..checking.compare import default_backends

    if names is None:
        compared = [] if commands else default_backends()
    else:
        compared = ranges.parse_backends(names, list(REGISTRY))
    registered = [name for name in compared if name in REGISTRY]
    if commands or len(registered) < len(compared) or not registered:
        return ranges.parse_sizes(text, MAX_N, beyond="the largest board cpqueens handles")
    sizes = {name: REGISTRY[name].largest_n() or MAX_N for name in registered}
    largest = max(sizes.values())
    try:
        return ranges.parse_sizes(text, largest, beyond="")
    except ranges.BeyondLargestError as error:
        takers = [
            name
            for name, backend in REGISTRY.items()
            if (backend.largest_n() or MAX_N) > largest and name not in compared
        ]
        name = max(sizes, key=lambda key: sizes[key])
        why = f"{error}, the largest board that the backends compared take ({name})"
        if takers:
            why += f"; {', '.join(takers)} take larger boards: --backends {takers[0]}"
        raise InvalidInputError(why) from None


def case_label(case: Any) -> str:
    """``n=9`` for a board size, the name (or ``n=...``) of an instance."""
    return f"n={case}" if isinstance(case, int) else case.name or f"n={case.n}"


def progress_label(case: Any, backend: str | None = None) -> str:
    """The words in front of the cross-check's progress bar: the case being checked,
    and the backend (or program, or ``reference``) running on it.

    >>> progress_label(9), progress_label(9, "stack")
    ('cross-checking n=9', 'cross-checking n=9: stack')
    """
    label = f"cross-checking {printable(case_label(case))}"
    if backend is None:
        return label
    backend = backend if len(backend) <= 40 else backend[:37] + "..."
    return f"{label}: {printable(backend)}"


def crosscheck_verdict(report: CrossCheckReport, programs: Iterable[str] = ()) -> str:
    """The last line of ``crosscheck``: what was checked, whether anything disagreed or
    timed out, and which marks of the table say so. ``programs`` are the labels of
    the ``--command`` programs; every other label is a backend.
    """
    from ..reporting.tables import MARKS, marks_used

    programs = set(programs)

    def who(rows: Iterable[Any]) -> tuple[str, bool]:
        labels = list(dict.fromkeys(row.backend for row in rows))
        made = sum(label in programs for label in labels)
        backends = len(labels) - made
        if backends + made == 1:
            return ("the program" if made else "the backend"), False
        parts = [plural(backends, "backend")] if backends else []
        parts += [plural(made, "program")] if made else []
        return " and ".join(parts), True

    def marked(rows: list[Any]) -> str:
        cases = summarise(list(dict.fromkeys(printable(r.instance or f"n={r.n}") for r in rows)))
        marks = ", ".join(f"{mark} = {MARKS[mark]}" for mark in marks_used(rows))
        return f"at {cases} (rows marked {marks})"

    wrong, failed, late = list(report.wrong), list(report.unanswered), list(report.timed_out)
    said = []
    if wrong:
        subject, many = who(wrong)
        said.append(f"{subject} {'DISAGREE' if many else 'DISAGREES'} with the reference "
                    f"{marked(wrong)}")  # fmt: skip
    if failed:  # nothing was compared for these rows: they failed to answer, not to agree
        said.append(f"{who(failed)[0]} FAILED to give an answer {marked(failed)}")
    if said:
        return "; ".join(said)
    if late:
        subject, many = who(late)
        if report.timeouts_fail:
            return f"{subject} timed out (rows marked T), a failure with --timeouts-fail"
        return f"nothing disagrees, but {subject} timed out (rows marked T): not all was compared"
    subject, many = who(report.rows)
    return f"{subject} {'agree' if many else 'agrees'} with the reference"
