"""The commands that check solvers against the decision tree: ``crosscheck``, ``verify``
and ``tree``."""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..arguments import check_n, check_time_limit
from ..display.numbers import plural, thousands
from ..engines.propagation import ORDERS, PROPAGATIONS
from ..errors import InvalidInputError, TreeTooLargeError
from ..parallel.progress import progress_bar, wants_bar
from ..solvers import REGISTRY
from . import ranges
from ._common import (
    DEFAULT_SET_HELP,
    DISAGREES,
    TIMED_OUT,
    TREE_SUFFIXES,
    BadInput,
    check_backend,
    check_tree_reference,
    default_set_note,
    emit_json,
    finished,
    json_option,
    output_options,
    output_path,
    quiet_option,
    say,
)

if TYPE_CHECKING:
    from ..checking.verdicts import CrossCheckReport

#: The files --faults writes.
FAULT_SUFFIXES = (".csv", ".json")


def faults_option(function: Callable) -> Callable:
    return click.option(
        "--faults",
        "faults_file",
        metavar="FILE",
        help="Write every faulty board to FILE (.csv or .json): n, backend or program, "
        "the kind of fault, the board 0-based, and the line the program printed it on.",
    )(function)


@click.command()
@click.argument("sizes", metavar="RANGE", required=False)
@click.option(
    "-i",
    "--instance",
    "instance_files",
    multiple=True,
    metavar="FILE",
    help="Check on the instance in FILE (.param, .json, .dzn) too. Repeatable.",
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
@faults_option
@json_option
@quiet_option
def crosscheck(
    sizes: str | None,
    instance_files: tuple[str, ...],
    names: str | None,
    commands: tuple[str, ...],
    parse: str,
    expect: str,
    base: str | None,
    ignore: tuple[str, ...],
    timeout: float | None,
    max_output: str | None,
    reference: str,
    time_limit: float | None,
    timeouts_fail: bool,
    all_solutions: bool,
    faults_file: str | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Compare the backends' solutions with a reference on every n of RANGE (e.g. 1-10).

    RANGE is N, A-B, or a comma-separated list such as 4,6,8-10; --instance FILE
    (repeatable) adds instances with queens given and squares blocked, whose
    solution sets are compared the same way (a program reads each through
    {instance} in its command, as JSON; see docs/instances.md). Programs in any
    language join with --command: each runs once per n, its output is read as
    boards (or a count) and compared; --backends then adds registry backends
    beside them; --backends mymodule:solve checks your Python function. A backend
    stopped by --time-limit is marked T ("timed out"): the boards it found are
    checked, the rest is not counted missing. A failed run is marked E, a wrong
    answer !. --faults FILE lists every faulty board, with the line a program
    printed it on. Exit status 1 when anything disagrees with the reference, else
    3 when a backend timed out (1 with --timeouts-fail).
    """
    from ..checking.compare import check_enumerable
    from ..checking.compare import crosscheck as check
    from ..checking.external import DEFAULT_MAX_OUTPUT, Command, parse_size
    from ..reporting.tables import crosscheck_table

    if not sizes and not instance_files:
        raise BadInput("give a RANGE of board sizes, or --instance FILE")
    faults_target = output_path(faults_file, FAULT_SUFFIXES)
    cases: list[Any] = list(compared_sizes(sizes, names, commands)) if sizes else []
    if instance_files:
        from ..instances import read_instance

        cases.extend(read_instance(path) for path in instance_files)
    changed = {
        "--parse": parse != "auto",
        "--expect": expect != "all",
        "--base": base is not None,
        "--ignore": bool(ignore),
        "--timeout": timeout is not None,
        "--max-output": max_output is not None,
    }
    given = [flag for flag, is_set in changed.items() if is_set]
    if given and not commands:
        raise BadInput(f"{', '.join(given)} apply to --command programs, and none was given")
    max_bytes = DEFAULT_MAX_OUTPUT if max_output is None else parse_size(max_output, "--max-output")
    programs = [
        Command(
            command,
            parse=parse,
            expect=expect,
            timeout=60.0 if timeout is None else timeout,
            max_output=max_bytes,
            base=None if base is None else int(base),
            ignore=ignore,
        )
        for command in commands
    ]
    # Without --backends: every available backend that lists solutions, unless
    # programs were given, which are then checked on their own.
    chosen: list | None = None if names is None else backend_choice(names)

    if programs:
        chosen = [*(chosen or []), *programs]
    question = "all" if all_solutions else None
    plain = [case for case in cases if isinstance(case, int)]
    if plain:
        check_tree_reference(reference, plain)
    for case in cases:
        if isinstance(case, int):
            continue
        if all_solutions or reference == "tree":
            # The tree reference lists every solution, whatever is compared.
            check_enumerable(case, reference, "drop --all to compare the decision")
    check_time_limit(time_limit)
    if names is None and not programs:
        from ..checking.compare import default_backends

        say(quiet, default_set_note(default_backends()))
    with progress_bar(len(cases), progress_label(cases[0]), enabled=wants_bar(quiet)) as bar:

        def starting(case: Any, label: str | None) -> None:
            bar.describe(progress_label(case, "reference" if label is None else label))

        def done(case: Any, rows: list[Any]) -> None:
            finished(case_label(case))  # so that Ctrl-C can say what was finished
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
    if faults_target is not None:
        report.write_faults(faults_target)
    if as_json:
        timed_out = bool(report.timed_out)
        emit_json(
            {
                "ok": report.agrees,
                "timed_out": timed_out,
                "reference": reference,
                "rows": report.to_records(),
            }
        )
    else:
        click.echo(crosscheck_table(rows, reference))
        say(quiet, crosscheck_verdict(report, {program.name for program in programs}))
    if faults_target is not None:
        say(quiet, f"wrote {plural(len(report.fault_records()), 'fault')} to {faults_target}")
    # A disagreement outweighs a time-out: it is the news a build must stop on.
    if not report.agrees:
        raise click.exceptions.Exit(DISAGREES)
    if report.timed_out:
        raise click.exceptions.Exit(TIMED_OUT)


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
    except InvalidInputError as error:
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
    label = f"cross-checking {case_label(case)}"
    if backend is None:
        return label
    backend = backend if len(backend) <= 40 else backend[:37] + "..."
    return f"{label}: {backend}"


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

    def legend(rows: list[Any]) -> str:
        return ", ".join(f"{mark} = {MARKS[mark]}" for mark in marks_used(rows))

    wrong = [row for row in report.rows if not row.agrees]
    late = list(report.timed_out)
    if wrong:
        subject, many = who(wrong)
        if all(row.error for row in wrong):
            # Nothing was compared for these rows: they failed to run, not to agree.
            return f"{subject} FAILED to give an answer (rows marked {legend(wrong)})"
        verb = "DISAGREE" if many else "DISAGREES"
        return f"{subject} {verb} with the reference (rows marked {legend(wrong)})"
    if late:
        subject, many = who(late)
        if report.timeouts_fail:
            return f"{subject} timed out (rows marked T), a failure with --timeouts-fail"
        return f"nothing disagrees, but {subject} timed out (rows marked T): not all was compared"
    subject, many = who(report.rows)
    return f"{subject} {'agree' if many else 'agrees'} with the reference"


def backend_choice(text: str) -> list[Any]:
    """The backends named in ``--backends``: registry names (each checked to be usable)
    and Python functions named ``MODULE:FUNCTION``, loaded."""
    chosen: list[Any] = []
    for name in ranges.parse_backends(text, list(REGISTRY)):
        chosen.append(load_function(name) if ":" in name else check_backend(name))
    return chosen


def load_function(spec: str) -> Callable[[Any], Any]:
    """The Python function named ``MODULE:FUNCTION`` (or ``file.py:FUNCTION``), as a
    crosscheck backend labelled ``spec``; a one-line error naming it when it cannot be.

    The module is imported from the current folder or sys.path. A function of one
    argument is called as the Python API calls it (with n, or the instance); one that
    takes two is called ``f(n, fixed)``, ``fixed`` a dict row -> column.
    """
    spec = spec.strip()
    module_name, _, attribute = (part.strip() for part in spec.partition(":"))
    where = f"--backends {spec!r}"
    try:
        module = _import(module_name)
    except ModuleNotFoundError as error:
        missing = error.name or module_name
        if module_name == missing or module_name.startswith(missing + "."):
            raise BadInput(
                f"{where}: no module named {module_name!r} in the current folder or on sys.path"
            ) from None
        raise BadInput(
            f"{where}: importing {module_name!r} failed: no module named {missing!r}"
        ) from None
    except BadInput:
        raise
    except (Exception, SystemExit) as error:
        raise BadInput(
            f"{where}: importing {module_name!r} failed: {type(error).__name__}: {error}"
        ) from None
    target: Any = module
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise BadInput(f"{where}: module {module_name!r} has no {attribute!r}") from None
    if not callable(target):
        raise BadInput(
            f"{where}: {attribute!r} is a {type(target).__name__}, not a function f(n) -> solutions"
        )
    return _as_backend(target, spec)


def _import(module_name: str) -> Any:
    """Import a module by name from the current folder or sys.path, or a ``.py`` file."""
    importlib.invalidate_caches()  # a module written a moment ago is found
    if module_name.endswith(".py"):
        path = Path(module_name)
        if not path.is_file():
            raise BadInput(f"--backends: no file {module_name!r}")
        found = importlib.util.spec_from_file_location(path.stem, path)
        if found is None or found.loader is None:
            raise BadInput(f"--backends: cannot import {module_name!r}")
        module = importlib.util.module_from_spec(found)
        found.loader.exec_module(module)
        return module
    folder = os.getcwd()
    added = folder not in sys.path and "" not in sys.path
    if added:
        sys.path.insert(0, folder)
    try:
        return importlib.import_module(module_name)
    finally:
        if added:
            with contextlib.suppress(ValueError):
                sys.path.remove(folder)


def _as_backend(function: Callable[..., Any], label: str) -> Callable[[Any], Any]:
    """``function`` called as a crosscheck backend: f(case), or f(n, fixed) when it
    needs two arguments."""
    from ..checking.cases import size_of
    from ..instances import Instance

    try:
        parameters = inspect.signature(function).parameters.values()
        needed = sum(
            p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
            for p in parameters
        )
    except (TypeError, ValueError):  # a builtin without a signature: called with n
        needed = 1

    def run(case: Any) -> Any:
        if needed >= 2:
            fixed = dict(case.fixed) if isinstance(case, Instance) else {}
            return function(size_of(case), fixed)
        return function(case)

    run.__name__ = label
    return run


@click.command()
@click.argument("n", type=int)
@click.argument("source", metavar="[FILE|-]", type=click.File("rb"), default="-")
@output_options
@click.option(
    "--reference",
    default="tree",
    show_default=True,
    help="tree (the explicit decision tree, up to n=12) or a backend name.",
)
@faults_option
@json_option
@quiet_option
def verify(
    n: int,
    source: Any,
    parse: str,
    expect: str,
    base: str | None,
    ignore: tuple[str, ...],
    reference: str,
    faults_file: str | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Check a program's output for board size N, read from FILE or standard input.

    \b
    Examples:
      ./myqueens 8 | cpqueens verify 8
      cpqueens verify 8 boards.txt --expect some

    Every line is accounted for: boards, a stated count, captions ("Solution 3:"),
    notes (prose, shown with their line numbers, never judged) and lines shaped
    like a board that are not one (invalid: the output disagrees). Prints what is
    missing, extra, invalid or repeated, each faulty board 0-based with the line it
    was printed on (and its base); --faults FILE lists them all. Exit status 0 when
    the output agrees with the reference, 1 when it does not.
    """
    from ..checking.compare import check_output
    from ..checking.verdicts import CrossCheckReport
    from ..reporting.tables import verify_lines

    check_n(n)
    faults_target = output_path(faults_file, FAULT_SUFFIXES)
    check_tree_reference(reference, [n])
    text = source.read()
    name = getattr(source, "name", "-")
    label = "standard input" if name in ("-", "<stdin>") else name
    row, parsed = check_output(
        text,
        n,
        parse=parse,
        expect=expect,
        base=None if base is None else int(base),
        reference=reference,
        label=label,
        ignore=ignore,
    )
    checked = CrossCheckReport(rows=(row,), reference=reference)
    if faults_target is not None:
        checked.write_faults(faults_target)
    if as_json:
        (record,) = checked.to_records()
        record.update(
            style=parsed.style,
            base=parsed.base,
            stated_count=parsed.count,
            captions=parsed.captions,
            ignored=parsed.ignored,
            mixed=parsed.mixed,
        )
        emit_json(record)
    else:
        click.echo("\n".join(verify_lines(row, parsed, reference)))
    say(quiet, "the output agrees" if row.agrees else "the output DISAGREES with the reference")
    if faults_target is not None:
        say(quiet, f"wrote {plural(len(checked.fault_records()), 'fault')} to {faults_target}")
    if not row.agrees:
        raise click.exceptions.Exit(DISAGREES)


@click.command()
@click.argument("n", type=int)
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False), help=f"One of {', '.join(TREE_SUFFIXES)}."
)
@click.option("--max-depth", type=int, help="Stop the tree at this many rows.")
@click.option("--max-nodes", type=int, help="Refuse trees larger than this.")
@click.option("--rejected", is_flag=True, help="Also show the squares that were tried and refused.")
@click.option("--solutions-only", is_flag=True, help="Draw only the paths that reach a solution.")
@click.option("--fixed", default="", metavar="R:C,...", help="Queens given in advance, 0-based.")
@click.option(
    "--blocked", default="", metavar="R:C,...", help="Squares no queen may take (never nodes)."
)
@click.option(
    "--propagation",
    type=click.Choice(PROPAGATIONS),
    default="none",
    show_default=True,
    help="Blind backtracking, forward checking, or arc consistency after each queen.",
)
@click.option(
    "--order",
    type=click.Choice(ORDERS),
    default="row",
    show_default=True,
    help="Next row: the lowest unplaced one, or the one with the fewest squares left.",
)
@json_option
@quiet_option
def tree(
    n: int,
    output: str | None,
    max_depth: int | None,
    max_nodes: int | None,
    rejected: bool,
    solutions_only: bool,
    fixed: str,
    blocked: str,
    propagation: str,
    order: str,
    as_json: bool,
    quiet: bool,
) -> None:
    """Build the backtracking decision tree of size N; draw it or export it with -o.

    Pictures: .png, .svg, .pdf. Graph data: .graphml, .gexf, .json (node-link), .dot.
    Without -o, print the size of the tree. With --propagation forward or arc, the
    tree is the constraint-propagation search: dead ends where a row's domain is
    wiped out are drawn apart, and --rejected shows the squares pruned away.
    """
    from ..trees.build import decision_tree
    from ..trees.drawing import draw_tree
    from ..trees.readwrite import export_tree
    from ..trees.summary import tree_summary

    check_n(n)
    target = output_path(output, TREE_SUFFIXES)
    picture = target is not None and target.suffix.lower() in (".png", ".svg", ".pdf")
    if solutions_only and not picture:
        raise BadInput("--solutions-only applies to pictures (-o tree.png, .svg or .pdf)")
    limits: dict[str, Any] = {} if max_nodes is None else {"max_nodes": max_nodes}
    try:
        graph = decision_tree(
            n,
            ranges.parse_fixed(fixed) or None,
            blocked=ranges.parse_squares(blocked) or None,
            propagation=propagation,
            order=order,
            include_rejected=rejected,
            max_depth=max_depth,
            **limits,
        )
    except TreeTooLargeError as error:
        nodes = f"{'at least' if error.at_least else 'about'} {error.estimate:,} nodes"
        if error.cost:  # within --max-nodes, but its nodes cost more than the budget
            raise BadInput(
                f"the decision tree for n={n} would have {nodes}, {error.cost} that "
                f"--max-nodes {error.max_nodes:,} allows; draw part of it with --max-depth D"
                " or --fixed R:C, or the plain tree with --propagation none (about 1 kB a"
                " node), or raise --max-nodes (the budget grows with it)"
            ) from None
        raise BadInput(
            f"the decision tree for n={n} would have {nodes}, more "
            f"than --max-nodes {error.max_nodes:,}; draw part of it with --max-depth D or"
            " --fixed R:C, or raise --max-nodes if the memory is there (about 1 kB a node)"
        ) from None
    figures = tree_summary(graph)
    if target is not None:
        # Both writers go through a temporary file, so the target is whole or absent.
        if picture:
            draw_tree(graph, target, solutions_only=solutions_only)
        else:
            export_tree(graph, target)
    summary = {
        "n": n,
        # Nodes below the root, as the docs and the search stats count them.
        "nodes": figures.nodes,
        "graph_nodes": figures.graph_nodes,
        "edges": figures.edges,
        "solutions": figures.solutions,
        "propagation": propagation,
        "order": order,
        "queens_placed": figures.queens_placed,
        "dead_ends": figures.dead_ends,
        "output": None if target is None else str(target),
    }
    if as_json:
        emit_json(summary)
        return
    solutions = plural(figures.solutions, "solution")
    if max_depth is not None and max_depth < n and not figures.solutions:
        # Cut before the last row: solutions may lie below the cut; "0 solutions" would lie.
        solutions = f"cut at depth {max_depth}, before any solution could be reached"
    below = f"{plural(figures.nodes, 'node')} below the root"
    if figures.rejected:
        below += (
            f" ({plural(figures.queens_placed, 'queen')} placed, "
            f"{thousands(figures.rejected)} rejected)"
        )
    line = f"n={n}: decision tree of {below}, {solutions}"
    if propagation != "none":
        line = (
            f"n={n}, {propagation} propagation, {order} order: "
            f"{plural(figures.queens_placed, 'queen')} placed, "
            f"{plural(figures.dead_ends, 'dead end')} (a domain wiped out), {solutions}"
        )
        if figures.wiped_out >= 0:
            line += f" (row {figures.wiped_out} wiped out at the root)"
    if target is None:
        click.echo(line)
    else:
        say(quiet, f"{line}; wrote {target}")
