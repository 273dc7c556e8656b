"""``cpqueens tree``: the decision tree of a board, drawn, exported, compared or summed up.

A tree is built as the compact arrays of :func:`cpqueens.compact_tree` (millions of
nodes in a few bytes each) for every picture, the HTML explorer, a CP-Profiler
database and the summary printed without ``-o``: a traditional drawing counts the
nodes it would draw on them, and only a tree it can draw becomes a networkx graph.
The graph files are written from the networkx graph of
:func:`cpqueens.decision_tree`.
"""

from __future__ import annotations

from typing import Any

import click

from ..board import rows_named
from ..display.numbers import plural, thousands
from ..display.terminal import printable
from ..engines.propagation import ORDERS, PROPAGATIONS
from ..errors import TreeTooLargeError
from ..trees.pictures.drawing import STYLES
from ._common import TREE_SUFFIXES, BadInput, emit_json, json_option, output_path, quiet_option, say
from .solving import board_problem, instance_options

PICTURES = (".png", ".svg", ".pdf")
#: The graph files, written from the networkx tree; every other output takes the compact one.
GRAPH_FILES = (".graphml", ".gexf", ".json", ".dot")


@click.command()
@click.argument("n", type=int, required=False)
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False), help=f"One of {', '.join(TREE_SUFFIXES)}."
)
@click.option(
    "--style",
    type=click.Choice(STYLES),
    help="How a picture draws the tree: node by node (traditional, the default; up to "
    "n=6 whole, n=10 with --hide-failed), or one image for any size: icicle (each node "
    "a bar as wide as its share of the leaves) or pixel (nodes in search order, k a "
    "column).",
)
@click.option("--icicle", "shortcut", flag_value="icicle", help="The same as --style icicle.")
@click.option("--pixel", "shortcut", flag_value="pixel", help="The same as --style pixel.")
@click.option(
    "--html",
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="Write the tree's explorer page: the same as -o FILE.html.",
)
@click.option("--width", type=int, metavar="PIXELS", help="Icicle and pixel: the image's width.")
@click.option("--max-depth", type=int, help="Stop the tree at this many rows.")
@click.option("--max-nodes", type=int, help="Refuse trees larger than this.")
@click.option(
    "--max-bytes",
    type=click.IntRange(min=1),
    metavar="BYTES",
    help="Files (.sqlite, .html, .graphml, ...) and icicle or pixel pictures: refuse a "
    "write whose file, or the memory it needs beside the tree, would pass this many bytes "
    "(priced first; default 1 GiB for files, 2 GB for pictures).",
)
@click.option("--rejected", is_flag=True, help="Also show the squares that were tried and refused.")
@click.option("--solutions-only", is_flag=True, help="Draw only the paths that reach a solution.")
@click.option(
    "--hide-failed",
    is_flag=True,
    help="Draw each subtree without a solution as one triangle, with its nodes.",
)
@click.option("--fixed", default="", metavar="R:C,...", help="Queens given in advance, 0-based.")
@instance_options
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
@click.option(
    "--compare",
    nargs=2,
    type=click.Choice(PROPAGATIONS + ORDERS),
    metavar="A B",
    help="Build two trees, two propagations (none, forward, arc) or two orders (row, "
    "first-fail), the rest alike; print how they differ, and with -o draw their merged "
    "tree (icicle or pixel) or write it as .html.",
)
@json_option
@quiet_option
def tree(
    n: int | None,
    output: str | None,
    style: str | None,
    shortcut: str | None,
    html: str | None,
    width: int | None,
    max_depth: int | None,
    max_nodes: int | None,
    max_bytes: int | None,
    rejected: bool,
    solutions_only: bool,
    hide_failed: bool,
    fixed: str,
    blocked: str,
    instance_file: str | None,
    diagonals: int | None,
    propagation: str,
    order: str,
    compare: tuple[str, str] | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Build the backtracking decision tree of size N; draw it or export it with -o.

    Pictures: .png, .svg, .pdf, drawn --style traditional (node by node), icicle or
    pixel (any size). Graph data: .graphml, .gexf, .json (node-link), .dot; .html is
    a page to explore the tree in a browser, .sqlite a CP-Profiler database. Without
    -o, print the size of the tree. With --propagation forward or arc, the tree is
    the constraint-propagation search: dead ends where a row's domain is wiped out
    are drawn apart, and --rejected shows the squares pruned away. --instance FILE
    takes the board, its given queens and blocked squares from a file. --compare A B
    builds two trees (two propagations or two orders) and prints how they differ.
    """
    style, output = _shortcuts(style, shortcut, output, html)
    problem = board_problem(n, fixed, blocked, instance_file, diagonals)
    target = output_path(output, TREE_SUFFIXES)
    suffix = None if target is None else target.suffix.lower()
    picture = suffix in PICTURES
    style = _check_options(style, width, picture, solutions_only, hide_failed, compare)
    settings: dict[str, Any] = {
        "propagation": propagation,
        "order": order,
        "include_rejected": rejected,
        "max_depth": max_depth,
    }
    if compare is not None:
        _compare(problem, compare, settings, max_nodes, target, style, width, as_json, quiet)
        return
    compact = suffix not in GRAPH_FILES
    built = _build(problem, settings, max_nodes, compact)
    figures = _figures(built) if compact else _graph_figures(built)
    if target is not None:
        _write(built, target, style, solutions_only, hide_failed, width, max_bytes)
    summary = {
        "n": problem.n,
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
    line = _line(problem.n, figures, settings)
    if target is None:
        click.echo(line)
    else:
        say(quiet, f"{line}; wrote {target}")


def _shortcuts(
    style: str | None, shortcut: str | None, output: str | None, html: str | None
) -> tuple[str | None, str | None]:
    """--icicle and --pixel as --style, --html FILE as -o FILE (which must end in .html)."""
    if shortcut is not None:
        if style is not None and style != shortcut:
            raise BadInput(f"--{shortcut} and --style {style} ask for two styles: give one")
        style = shortcut
    if html is not None:
        if output is not None:
            raise BadInput("--html FILE and -o FILE both name the output: give one")
        if not html.lower().endswith(".html"):
            raise BadInput(f"--html writes a page: give a file ending in .html, not {html!r}")
        output = html
    return style, output


def _check_options(
    style: str | None,
    width: int | None,
    picture: bool,
    solutions_only: bool,
    hide_failed: bool,
    compare: tuple[str, str] | None,
) -> str:
    """The style to draw in, once the options fit together."""
    given = {"--solutions-only": solutions_only, "--hide-failed": hide_failed}
    given.update({"--style": style is not None, "--width": width is not None})
    for flag, is_set in given.items():
        if is_set and not picture:
            raise BadInput(f"{flag} applies to pictures (-o tree.png, .svg or .pdf)")
    chosen = style or ("icicle" if compare else "traditional")
    if chosen != "traditional":
        for flag in ("--solutions-only", "--hide-failed"):
            if given[flag]:
                raise BadInput(f"{flag} applies to --style traditional, not {chosen}")
    elif width is not None:
        raise BadInput("--width applies to --style icicle and pixel")
    if compare is not None and chosen == "traditional":
        raise BadInput("--compare draws the merged tree with --style icicle or pixel")
    return chosen


def _build(problem: Any, settings: dict[str, Any], max_nodes: int | None, compact: bool) -> Any:
    """The tree of ``problem``: compact, or the networkx graph; a refusal in the
    command line's words."""
    try:
        if compact:
            from ..trees.compact.build import compact_tree, node_bytes

            limits = {}
            if max_nodes is not None:
                limits["max_bytes"] = max_nodes * node_bytes(problem.n, settings["propagation"])
            return compact_tree(problem, **settings, **limits)
        from ..trees.explicit.build import decision_tree

        limits = {} if max_nodes is None else {"max_nodes": max_nodes}
        return decision_tree(problem, **settings, **limits)
    except TreeTooLargeError as error:
        raise BadInput(_refusal(problem.n, error, max_nodes, compact)) from None


def _refusal(n: int, error: TreeTooLargeError, max_nodes: int | None, compact: bool) -> str:
    nodes = f"{'at least' if error.at_least else 'about'} {error.estimate:,} nodes"
    cut = "draw part of it with --max-depth D or --fixed R:C"
    if error.cost:  # within --max-nodes, but its nodes cost more than the budget
        return (
            f"the decision tree for n={n} would have {nodes}, {error.cost} that "
            f"--max-nodes {error.max_nodes:,} allows; {cut}, or the plain tree with "
            "--propagation none (about 1 kB a node), or raise --max-nodes (the budget "
            "grows with it)"
        )
    if compact and max_nodes is None:
        return (
            f"the decision tree for n={n} would have {nodes}, more than its arrays may "
            f"hold in memory ({error.max_nodes:,} nodes); {cut}"
        )
    kind = "a few bytes" if compact else "about 1 kB"
    return (
        f"the decision tree for n={n} would have {nodes}, more than --max-nodes "
        f"{error.max_nodes:,}; {cut}, or raise --max-nodes if the memory is there "
        f"({kind} a node)"
    )


def _write(built: Any, target: Any, style: str, solutions_only: bool, hide_failed: bool,
           width: int | None, max_bytes: int | None = None) -> None:  # fmt: skip
    # Every writer goes through a temporary file, so the target is whole or absent.
    from ..display.numbers import bound_over
    from ..trees.explicit.cost import TREE_BYTES
    from ..trees.files.readwrite import export_tree
    from ..trees.pictures.drawing import draw_tree

    if target.suffix.lower() in PICTURES:
        options: dict[str, Any] = {"solutions_only": solutions_only, "hide_failed": hide_failed}
        if style != "traditional":
            options = {"width": width}
            if max_bytes is not None:
                options["max_bytes"] = max_bytes
        elif max_bytes is not None:
            raise BadInput(
                "--max-bytes applies to files (.sqlite, .html, .graphml, ...) and to the "
                "icicle and pixel styles; a traditional drawing is bounded by its nodes"
            )
        try:
            draw_tree(built, target, style=style, **options)
        except TreeTooLargeError as error:
            if not error.cost:
                raise
            allowed, raised = max_bytes or TREE_BYTES, bound_over(error.memory or 0)
            raise _priced_out("draw", target, error.cost, allowed, raised) from None
        return
    try:
        export_tree(built, target, **({} if max_bytes is None else {"max_bytes": max_bytes}))
    except TreeTooLargeError as error:
        if not error.cost:  # a bound of its own (the explorer's nodes): its words are right
            raise
        from ..trees.files.costs import WRITE_BYTES, write_price

        cost = f"{error.cost} ({error.estimate - 1:,} nodes below the root)"
        raised = write_price(built, target.suffix).bound()
        raise _priced_out("write", target, cost, max_bytes or WRITE_BYTES, raised) from None


def _priced_out(verb: str, target: Any, cost: str, allowed: int, raised: int) -> BadInput:
    """The one line of a picture or a file refused on its price: what it would take,
    the bound it passes, and the bound that lets it through."""
    doing = {"draw": "drawing", "write": "writing"}[verb]
    return BadInput(
        f"{doing} {target} would take {cost}, more than --max-bytes {allowed:,.0f} allows; "
        f"give --max-bytes {raised} to {verb} it anyway, or cut the tree with --max-depth D"
    )


def _graph_figures(graph: Any) -> Any:
    from ..trees.explicit.summary import tree_summary

    return tree_summary(graph)


def _figures(tree: Any) -> Any:
    """The figures of :func:`~cpqueens.trees.explicit.summary.tree_summary`, read off a
    compact tree."""
    import numpy as np

    from ..trees.compact.tree import FAILURE, REJECTED, SOLUTION
    from ..trees.explicit.summary import TreeSummary

    counts = np.bincount(tree.status[1:], minlength=6)
    nodes = len(tree.status)
    wiped = -1
    if tree.domains is not None and tree.status[0] == FAILURE:
        # The root's propagation emptied a row: the first with no square left.
        empty = np.flatnonzero(tree.domains[0] == 0)
        wiped = int(empty[0]) if len(empty) else -1
    return TreeSummary(
        graph_nodes=nodes,
        edges=nodes - 1,
        queens_placed=nodes - 1 - int(counts[REJECTED]),
        rejected=int(counts[REJECTED]),
        solutions=int(counts[SOLUTION]),
        dead_ends=int(counts[FAILURE]),
        wiped_out=wiped,
    )


def _line(n: int, figures: Any, settings: dict[str, Any]) -> str:
    """The summary line printed, or said beside the file written."""
    max_depth, propagation = settings["max_depth"], settings["propagation"]
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
            f"n={n}, {propagation} propagation, {settings['order']} order: "
            f"{plural(figures.queens_placed, 'queen')} placed, "
            f"{plural(figures.dead_ends, 'dead end')} (a domain wiped out), {solutions}"
        )
        if figures.wiped_out >= 0:
            line += f"; {rows_named(figures.wiped_out)} is wiped out at the root"
    return line


def _compare(
    problem: Any,
    compare: tuple[str, str],
    settings: dict[str, Any],
    max_nodes: int | None,
    target: Any,
    style: str,
    width: int | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Build the two trees, print how they differ, and draw or write their merged tree."""
    first, second = compare
    kinds = ["propagation" if v in PROPAGATIONS else "order" for v in compare]
    if kinds[0] != kinds[1]:
        raise BadInput(
            f"--compare takes two propagations ({', '.join(PROPAGATIONS)}) or two orders "
            f"({', '.join(ORDERS)}), got {first!r} and {second!r}"
        )
    default = {"propagation": "none", "order": "row"}[kinds[0]]
    if settings[kinds[0]] != default:
        raise BadInput(
            f"--compare {first} {second} sets the {kinds[0]} of each tree: drop --{kinds[0]}"
        )
    suffix = None if target is None else target.suffix.lower()
    if suffix not in (None, ".html", *PICTURES):
        raise BadInput("--compare writes the merged tree as a picture (.png, .svg, .pdf) or .html")
    trees = [
        _build(problem, {**settings, kinds[0]: value}, max_nodes, compact=True) for value in compare
    ]
    from ..trees.compare import compare_trees

    comparison = compare_trees(*trees)
    if target is not None:
        if comparison.merged is None:
            raise BadInput(
                "the two searches branch on different rows, so their trees have no "
                "merged tree to draw; without -o the comparison is printed depth by depth"
            )
        _write_merged(comparison, target, style, width, problem.n, compare)
    if as_json:
        emit_json(
            {
                "n": problem.n,
                "compare": list(compare),
                "a": _figures(trees[0]).nodes,
                "b": _figures(trees[1]).nodes,
                "aligned": comparison.aligned,
                "both": comparison.both,
                "only_a": comparison.only_a,
                "only_b": comparison.only_b,
                "solutions": list(comparison.solutions),
                "output": None if target is None else str(target),
            }
        )
        return
    click.echo(printable(comparison.table(), multiline=True))
    for line in comparison.legend():
        say(quiet, line)
    if target is not None:
        say(quiet, f"wrote {target}")


def _write_merged(comparison: Any, target: Any, style: str, width: int | None, n: int,
                  compare: tuple[str, str]) -> None:  # fmt: skip
    a, b = compare
    title = (
        f"{n}-queens search trees merged, a: {a}, b: {b}: {plural(comparison.both, 'node')} "
        f"in both, {thousands(comparison.only_a)} only in a, {thousands(comparison.only_b)} "
        "only in b"
    )
    if target.suffix.lower() == ".html":
        from ..trees.pictures.explorer import write_explorer

        write_explorer(comparison.merged, target, side=comparison.side, title=title)
        return
    from ..trees.pictures.drawing import draw_merged

    draw_merged(comparison, target, style=style, width=width, title=f"{title} ({style})")
