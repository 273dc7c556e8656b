"""The commands that check backends against the decision tree: ``crosscheck`` and ``tree``."""

from __future__ import annotations

from typing import Any

import click

from .. import api
from ..errors import TreeTooLargeError
from ..parallel.progress import progress_bar, wants_bar
from ..solvers.propagation import ORDERS, PROPAGATIONS
from . import ranges
from ._common import (
    DISAGREES,
    TREE_SUFFIXES,
    BadInput,
    backend_list,
    check_tree_reference,
    emit_json,
    finished,
    json_option,
    output_path,
    quiet_option,
    say,
)


@click.command()
@click.argument("sizes", metavar="RANGE")
@click.option("--backends", "names", metavar="A,B,...", help="Default: every available backend.")
@click.option(
    "--reference",
    default="tree",
    show_default=True,
    help="tree (the explicit decision tree, up to n=12) or a backend name.",
)
@click.option("--time-limit", type=float, metavar="SECONDS", help="Per backend and n.")
@json_option
@quiet_option
def crosscheck(
    sizes: str,
    names: str | None,
    reference: str,
    time_limit: float | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Compare the backends' solutions with a reference on every n of RANGE (e.g. 1-10).

    RANGE is N, A-B, or a comma-separated list such as 4,6,8-10. Exit status 1
    when any backend disagrees with the reference.
    """
    from ..reporting.report import crosscheck_by_size
    from ..reporting.tables import crosscheck_table

    ns = ranges.parse_sizes(sizes)
    # Without --backends the library picks every available backend that lists solutions.
    chosen = None if names is None else backend_list(names)
    check_tree_reference(reference, ns)
    with progress_bar(len(ns), f"cross-checking n={ns[0]}", enabled=wants_bar(quiet)) as bar:

        def done(n: int) -> None:
            finished(f"n={n}")
            bar.advance(f"cross-checking n={n + 1}")

        rows, records = crosscheck_by_size(
            ns, chosen, reference, time_limit=time_limit, on_done=done
        )
    ok = all(row.agrees for row in rows)
    if as_json:
        emit_json({"ok": ok, "reference": reference, "rows": records})
    else:
        click.echo(crosscheck_table(rows, reference))
        say(quiet, "every backend agrees" if ok else "some backends DISAGREE (rows marked !)")
    if not ok:
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
    from ..trees.build import decision_tree, tree_solutions
    from ..trees.drawing import draw_tree
    from ..trees.readwrite import export_tree

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
            propagation=propagation,
            order=order,
            include_rejected=rejected,
            max_depth=max_depth,
            **limits,
        )
    except TreeTooLargeError as error:
        raise BadInput(
            f"the decision tree for n={n} would have about {error.estimate:,} nodes, more "
            f"than --max-nodes {error.max_nodes:,}; draw part of it with --max-depth D or"
            " --fixed R:C, or raise --max-nodes if the memory is there (about 1 kB a node)"
        ) from None
    solutions = tree_solutions(graph)
    if target is not None:
        # Both writers go through a temporary file, so the target is whole or absent.
        if picture:
            draw_tree(graph, target, solutions_only=solutions_only)
        else:
            export_tree(graph, target)
    placed = [data for node, data in graph.nodes(data=True) if node and not data["rejected"]]
    summary = {
        "n": n,
        "nodes": graph.number_of_nodes(),
        "edges": graph.number_of_edges(),
        "solutions": len(solutions),
        "propagation": propagation,
        "order": order,
        "queens_placed": len(placed),
        "dead_ends": sum(1 for data in placed if data["dead_end"]),
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
        if graph.nodes[0]["wiped_out"] >= 0:
            line += f" (row {graph.nodes[0]['wiped_out']} wiped out at the root)"
    if target is None:
        click.echo(line)
    else:
        say(quiet, f"{line}; wrote {target}")
