"""The commands that check solvers against the decision tree: ``crosscheck``, ``verify``
and ``tree``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from .. import api
from ..engines.propagation import ORDERS, PROPAGATIONS
from ..errors import TreeTooLargeError
from ..parallel.progress import progress_bar, wants_bar
from . import ranges
from ._common import (
    DISAGREES,
    TIMED_OUT,
    TREE_SUFFIXES,
    BadInput,
    backend_list,
    check_tree_reference,
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
    help="Default: every available backend, or none when --command is given.",
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
    beside them. A backend stopped by --time-limit is marked T ("timed out"): the
    boards it found are checked, the rest is not counted missing. Exit status 1
    when anything disagrees with the reference, else 3 when a backend timed out
    (1 with --timeouts-fail).
    """
    from ..checking.external import DEFAULT_MAX_OUTPUT, Command, parse_size
    from ..checking.verdicts import CrossCheckReport
    from ..reporting.report import crosscheck_by_size
    from ..reporting.tables import crosscheck_table

    if not sizes and not instance_files:
        raise BadInput("give a RANGE of board sizes, or --instance FILE")
    cases: list[Any] = list(ranges.parse_sizes(sizes)) if sizes else []
    if instance_files:
        from ..instances import read_instance

        cases.extend(read_instance(path) for path in instance_files)
    ns = [case if isinstance(case, int) else case.n for case in cases]
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
    chosen: list | None = None if names is None else backend_list(names)
    if programs:
        chosen = [*(chosen or []), *programs]
    check_tree_reference(reference, ns)
    labels = [
        f"n={case}" if isinstance(case, int) else case.name or f"n={case.n}" for case in cases
    ]
    with progress_bar(len(cases), f"cross-checking {labels[0]}", enabled=wants_bar(quiet)) as bar:
        position = iter(labels[1:])

        def done(case: Any) -> None:
            finished(f"n={case}" if isinstance(case, int) else case.name or f"n={case.n}")
            bar.advance(f"cross-checking {next(position, 'done')}")

        rows, records = crosscheck_by_size(
            cases, chosen, reference, time_limit=time_limit, on_done=done
        )
    report = CrossCheckReport(tuple(rows), reference, timeouts_fail=timeouts_fail)
    if as_json:
        timed_out = bool(report.timed_out)
        emit_json(
            {"ok": report.agrees, "timed_out": timed_out, "reference": reference, "rows": records}
        )
    else:
        click.echo(crosscheck_table(rows, reference))
        say(quiet, _crosscheck_verdict(report))
    # A disagreement outweighs a time-out: it is the news a build must stop on.
    if not report.agrees:
        raise click.exceptions.Exit(DISAGREES)
    if report.timed_out:
        raise click.exceptions.Exit(TIMED_OUT)


def _crosscheck_verdict(report: CrossCheckReport) -> str:
    """The last line of ``crosscheck``: whether anything disagreed or timed out."""
    if any(not row.agrees for row in report.rows):
        return "some backends DISAGREE (rows marked !)"
    if report.timed_out and report.timeouts_fail:
        return "some backends timed out (rows marked T), a failure with --timeouts-fail"
    if report.timed_out:
        return "no backend disagrees, but some timed out (rows marked T): not all was compared"
    return "every backend agrees"


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
    missing, extra, invalid or repeated. Exit status 0 when the output agrees with
    the reference, 1 when it does not.
    """
    from ..checking.compare import check_output
    from ..checking.verdicts import CrossCheckReport
    from ..reporting.tables import verify_lines

    api.check_n(n)
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
    if as_json:
        (record,) = CrossCheckReport(rows=(row,), reference=reference).to_records()
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

    api.check_n(n)
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
        raise BadInput(
            f"the decision tree for n={n} would have "
            f"{'at least' if error.at_least else 'about'} {error.estimate:,} nodes, more "
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
        "nodes": figures.graph_nodes,
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
    line = f"n={n}: decision tree of {summary['nodes']:,} nodes, {summary['solutions']:,} solutions"
    if propagation != "none":
        line = (
            f"n={n}, {propagation} propagation, {order} order: {summary['queens_placed']:,} "
            f"queens placed, {summary['dead_ends']:,} dead ends (a domain wiped out), "
            f"{summary['solutions']:,} solutions"
        )
        if figures.wiped_out >= 0:
            line += f" (row {figures.wiped_out} wiped out at the root)"
    if target is None:
        click.echo(line)
    else:
        say(quiet, f"{line}; wrote {target}")
