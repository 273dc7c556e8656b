"""``cpqueens tree``: the decision tree of a board, drawn, exported or summed up."""

from __future__ import annotations

from typing import Any

import click

from ..display.numbers import plural, thousands
from ..engines.propagation import ORDERS, PROPAGATIONS
from ..errors import TreeTooLargeError
from . import ranges
from ._common import TREE_SUFFIXES, BadInput, emit_json, json_option, output_path, quiet_option, say


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
