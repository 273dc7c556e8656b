"""The ``cpqueens`` command: solve, count, cross-check, time and picture the backends.

Every command checks its input before any long work, prints one line and exits
with status 2 on bad input, exits with 130 on Ctrl-C after saying what was
finished, and writes its output files atomically. The work itself is done by the
library (:mod:`cpqueens.api`, :mod:`cpqueens.bench`, :mod:`cpqueens.report`);
this module only parses, dispatches and prints.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

import click

from . import __version__, api, ranges
from ._files import check_writable, write_atomic
from .errors import CPQueensError, InvalidInputError, TreeTooLargeError
from .progress import progress_bar, wants_bar
from .solvers import REGISTRY

#: Exit statuses beyond click's own (0 success, 2 usage error).
DISAGREES, INTERRUPTED = 1, 130
FORMATS = ("grid", "zero-plus", "x-dash", "letters", "json", "csv")
TREE_SUFFIXES = (".graphml", ".gexf", ".json", ".dot", ".png", ".svg", ".pdf")
BENCH_SUFFIXES = (".png", ".svg", ".csv", ".json")
REPORT_SUFFIXES = (".html", ".md")


class BadInput(click.ClickException):
    """Bad input found after parsing (a library refusal, an unwritable path): exit 2."""

    exit_code = 2


class _Group(click.Group):
    """Turns library errors into one-line messages and Ctrl-C into a clean exit 130."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CPQueensError as error:
            raise BadInput(str(error)) from None
        except KeyboardInterrupt:
            finished = _summarise(ctx.meta.get("cpqueens.finished", [])) or "nothing"
            click.echo(f"\ninterrupted; finished: {finished}", err=True)
            if ctx.meta.get("cpqueens.output"):
                click.echo(f"{ctx.meta['cpqueens.output']} was not written", err=True)
            raise click.exceptions.Exit(INTERRUPTED) from None


def _summarise(labels: list[str]) -> str:
    """Join labels, folding runs such as "n=4 x", "n=5 x", "n=6 x" into "n=4..6 x".

    >>> _summarise(["check n=4", "check n=5", "check n=6", "tree n=5"])
    'check n=4..6, tree n=5'
    """
    runs: list[list] = []  # [prefix, first n, last n, suffix]
    for label in labels:
        match = re.fullmatch(r"(.*?n=)(\d+)(.*)", label)
        if match is None:
            runs.append([label, None, None, ""])
            continue
        prefix, n, suffix = match[1], int(match[2]), match[3]
        last = runs[-1] if runs else None
        if last and last[0] == prefix and last[3] == suffix and last[2] == n - 1:
            last[2] = n
        else:
            runs.append([prefix, n, n, suffix])
    return ", ".join(
        prefix
        if first is None
        else f"{prefix}{first}{'' if first == last else f'..{last}'}{suffix}"
        for prefix, first, last, suffix in runs
    )


def _finished(label: str) -> None:
    """Record a finished piece of work, for the message shown on Ctrl-C."""
    click.get_current_context().meta.setdefault("cpqueens.finished", []).append(label)


def _output(path: str | None, suffixes: tuple[str, ...]):
    """Check an output path up front, remembering it for the message shown on Ctrl-C."""
    if path is None:
        return None
    target = check_writable(path, suffixes)
    click.get_current_context().meta["cpqueens.output"] = str(target)
    return target


def _say(quiet: bool, message: str) -> None:
    """A human-oriented line on stderr, so that stdout stays clean for pipes."""
    if not quiet:
        click.echo(message, err=True)


def _emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2))


def _check_backend(name: str) -> str:
    backend = REGISTRY.get(name)
    if backend is None:
        raise InvalidInputError(
            f"unknown backend {name!r}; valid backends are: {', '.join(REGISTRY)}"
        )
    backend.require()
    return name


def _backend_list(text: str | None, *, enumerating: bool = False) -> list[str]:
    """The backends named in ``text``, or every available one; each checked to be usable."""
    if text is None:
        return [
            name
            for name, backend in REGISTRY.items()
            if backend.is_available() and (backend.enumerates or not enumerating)
        ]
    names = ranges.parse_names(text, list(REGISTRY))
    for name in names:
        _check_backend(name)
    return names


def _check_tree_reference(reference: str, ns: list[int]) -> None:
    """Refuse up front a decision-tree reference too large to build, pointing at --reference."""
    if reference != "tree":
        return
    from .treegraph import DEFAULT_MAX_NODES
    from .treesize import estimate_tree_size

    largest = max(ns)
    size = estimate_tree_size(largest, (None,) * largest)
    if size.graph_nodes > DEFAULT_MAX_NODES:
        raise BadInput(
            f"the decision-tree reference is too large for n={largest} (about "
            f"{size.graph_nodes:,} nodes, at most {DEFAULT_MAX_NODES:,}); use a backend "
            "as the reference instead, e.g. --reference stack"
        )


def _sizes(text: str) -> list[int]:
    return ranges.parse_sizes(text)


def quiet_option(function: Callable) -> Callable:
    return click.option(
        "-q", "--quiet", is_flag=True, help="Print only the result: no summary, no progress bar."
    )(function)


def json_option(function: Callable) -> Callable:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON, for scripts.")(
        function
    )


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cpqueens")
def cli() -> None:
    """n-queens solvers side by side: solve, count, cross-check, time and draw them.

    \b
    Examples:
      cpqueens backends
      cpqueens solve 8 --format zero-plus
      cpqueens count 12 --backend stack
      cpqueens crosscheck 1-10
      cpqueens tree 5 -o tree.svg
      cpqueens bench 4-10 -o bench.png
      cpqueens report 4-9 -o report.html
    """


@cli.command()
@json_option
def backends(as_json: bool) -> None:
    """List the registered backends and what each can do."""
    infos = api.backends()
    if as_json:
        _emit_json([{**asdict(info), "options": list(info.options)} for info in infos])
        return
    flags = ("enumerates", "fixed", "randomized", "workers", "time_limit")
    header = f"{'backend':<12}{'ready':<7}" + "".join(f"{f:<11}" for f in flags) + "max n"
    click.echo(header)
    for info in infos:
        ready = "yes" if info.available else "no"
        cells = "".join(f"{'yes' if getattr(info, f) else '-':<11}" for f in flags)
        click.echo(f"{info.name:<12}{ready:<7}{cells}{info.max_n or '-'}")
    click.echo()
    for info in infos:
        missing = "" if info.available else f" [needs: pip install {info.requires}]"
        click.echo(f"{info.name:<12}{info.summary}{missing}")


@cli.command()
@click.argument("n", type=int)
@click.option("-b", "--backend", default=api.DEFAULT_BACKEND, show_default=True)
@click.option("-l", "--limit", type=int, help="Stop after K solutions (default 1).")
@click.option("-a", "--all", "every", is_flag=True, help="List every solution.")
@click.option("--fixed", default="", metavar="R:C,...", help="Queens given in advance, 0-based.")
@click.option("--seed", type=int, help="Seed of a randomised backend (e.g. random).")
@click.option("--unique", is_flag=True, help="One solution per rotation/reflection class.")
@click.option("--time-limit", type=float, metavar="SECONDS", help="Stop the search after this.")
@click.option(
    "-f", "--format", "fmt", type=click.Choice(FORMATS), default="grid", show_default=True
)
@json_option
@quiet_option
def solve(
    n: int,
    backend: str,
    limit: int | None,
    every: bool,
    fixed: str,
    seed: int | None,
    unique: bool,
    time_limit: float | None,
    fmt: str,
    as_json: bool,
    quiet: bool,
) -> None:
    """Print solutions of the N-queens problem (the first one unless --limit or --all).

    Formats: grid (Q and .), zero-plus (0 and +), x-dash (x and -), letters (one
    column letter per row, a = first column), json, csv (one row per solution).
    """
    from .tables import format_solutions

    if every and limit is not None:
        raise BadInput("give either --limit or --all, not both")
    fmt = "json" if as_json else fmt
    if fmt == "letters" and n > 26:
        raise BadInput(f"the letters format goes up to n=26, got n={n}")
    result = api.solve(
        n,
        backend=backend,
        limit=None if every else (limit or 1),
        fixed=ranges.parse_fixed(fixed),
        seed=seed,
        unique=unique,
        time_limit=time_limit,
    )
    click.echo(format_solutions(result, fmt), nl=False)
    summary = result.summary()
    if not result.complete and not result.stats.get("timed_out"):
        summary += "; stopped at the limit (--all lists every solution)"
    _say(quiet or fmt == "json", summary)


@cli.command()
@click.argument("n", type=int)
@click.option("-b", "--backend", help="Default: the fastest counter available.")
@click.option("-w", "--workers", type=int, help="Parallel workers, for backends that have them.")
@click.option("--unique", is_flag=True, help="Count rotation/reflection classes instead.")
@click.option("--fixed", default="", metavar="R:C,...", help="Queens given in advance, 0-based.")
@click.option("--time-limit", type=float, metavar="SECONDS", help="Give up after this.")
@click.option("--scheduler", metavar="ADDRESS", help="Count on a dask cluster (bitmask).")
@json_option
@quiet_option
def count(
    n: int,
    backend: str | None,
    workers: int | None,
    unique: bool,
    fixed: str,
    time_limit: float | None,
    scheduler: str | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Print the number of solutions of the N-queens problem."""
    import time

    name = _check_backend(backend or _fastest_counter())
    options: dict[str, Any] = {} if scheduler is None else {"scheduler": scheduler}
    show_bar = wants_bar(quiet) and "progress" in REGISTRY[name].options
    with progress_bar(None, f"counting n={n}", enabled=show_bar) as bar:
        if show_bar:
            options["progress"] = bar.update
        start = time.perf_counter()
        total = api.count(
            n,
            backend=name,
            workers=workers,
            unique=unique,
            fixed=ranges.parse_fixed(fixed),
            time_limit=time_limit,
            **options,
        )
        elapsed = time.perf_counter() - start
    if as_json:
        _emit_json({"n": n, "backend": name, "unique": unique, "count": total, "elapsed": elapsed})
        return
    click.echo(total)
    kind = "symmetry classes" if unique else "solutions"
    _say(quiet, f"n={n}: {total:,} {kind} (backend {name}, {elapsed:.3g} s)")


def _fastest_counter() -> str:
    # The compiled bitmask counter when it is there, else the library default.
    bitmask = REGISTRY.get("bitmask")
    return "bitmask" if bitmask is not None and bitmask.is_available() else api.DEFAULT_BACKEND


@cli.command()
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
    from .report import crosscheck_by_size
    from .tables import crosscheck_table

    ns = _sizes(sizes)
    # Without --backends the library picks every available backend that lists solutions.
    chosen = None if names is None else _backend_list(names)
    _check_tree_reference(reference, ns)
    with progress_bar(len(ns), f"cross-checking n={ns[0]}", enabled=wants_bar(quiet)) as bar:

        def done(n: int) -> None:
            _finished(f"n={n}")
            bar.advance(f"cross-checking n={n + 1}")

        rows, records = crosscheck_by_size(
            ns, chosen, reference, time_limit=time_limit, on_done=done
        )
    ok = all(row.agrees for row in rows)
    if as_json:
        _emit_json({"ok": ok, "reference": reference, "rows": records})
    else:
        click.echo(crosscheck_table(rows, reference))
        _say(quiet, "every backend agrees" if ok else "some backends DISAGREE (rows marked !)")
    if not ok:
        raise click.exceptions.Exit(DISAGREES)


@cli.command()
@click.argument("n", type=int)
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False), help=f"One of {', '.join(TREE_SUFFIXES)}."
)
@click.option("--max-depth", type=int, help="Stop the tree at this many rows.")
@click.option("--max-nodes", type=int, help="Refuse trees larger than this.")
@click.option("--rejected", is_flag=True, help="Also show the squares that were tried and refused.")
@click.option("--solutions-only", is_flag=True, help="Draw only the paths that reach a solution.")
@click.option("--fixed", default="", metavar="R:C,...", help="Queens given in advance, 0-based.")
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
    as_json: bool,
    quiet: bool,
) -> None:
    """Build the backtracking decision tree of size N; draw it or export it with -o.

    Pictures: .png, .svg, .pdf. Graph data: .graphml, .gexf, .json (node-link), .dot.
    Without -o, print the size of the tree.
    """
    from .treedraw import draw_tree
    from .treegraph import decision_tree, tree_solutions
    from .treeio import export_tree

    api.check_n(n)
    target = _output(output, TREE_SUFFIXES)
    picture = target is not None and target.suffix.lower() in (".png", ".svg", ".pdf")
    if solutions_only and not picture:
        raise BadInput("--solutions-only applies to pictures (-o tree.png, .svg or .pdf)")
    limits: dict[str, Any] = {} if max_nodes is None else {"max_nodes": max_nodes}
    try:
        graph = decision_tree(
            n,
            ranges.parse_fixed(fixed) or None,
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
    summary = {
        "n": n,
        "nodes": graph.number_of_nodes(),
        "edges": graph.number_of_edges(),
        "solutions": len(solutions),
        "output": None if target is None else str(target),
    }
    if as_json:
        _emit_json(summary)
        return
    line = f"n={n}: decision tree of {summary['nodes']:,} nodes, {summary['solutions']:,} solutions"
    if target is None:
        click.echo(line)
    else:
        _say(quiet, f"{line}; wrote {target}")


@cli.command()
@click.argument("sizes", metavar="RANGE")
@click.option("--backends", "names", metavar="A,B,...", help="Default: every available backend.")
@click.option("-r", "--repeat", type=click.IntRange(min=1), default=3, show_default=True)
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False), help=f"One of {', '.join(BENCH_SUFFIXES)}."
)
@json_option
@quiet_option
def bench(
    sizes: str, names: str | None, repeat: int, output: str | None, as_json: bool, quiet: bool
) -> None:
    """Time the backends on every n of RANGE: median seconds and nodes; plot with -o x.png.

    Each (backend, n) runs --repeat times. The plot has two log-scale panels, time
    and nodes against n, a line per backend through the medians and a dot per run.
    """
    from .bench import bench_csv, bench_figure, bench_table, figure_bytes, run_bench

    ns = _sizes(sizes)
    chosen = _backend_list(names)
    target = _output(output, BENCH_SUFFIXES)
    steps = len(ns) * len(chosen)
    with progress_bar(steps, "timing", enabled=wants_bar(quiet)) as bar:

        def done(timing) -> None:
            if timing.backend == chosen[-1]:
                _finished(f"n={timing.n} for every backend")
            bar.advance(f"timing (done: {timing.backend} n={timing.n})")

        timings = run_bench(ns, chosen, repeat, on_done=done)
    if target is not None:
        suffix = target.suffix.lower()
        if suffix == ".csv":
            write_atomic(target, bench_csv(timings))
        elif suffix == ".json":
            write_atomic(target, json.dumps([t.to_record() for t in timings], indent=2) + "\n")
        else:
            title = f"cpqueens backends, median of {repeat} run{'s' if repeat > 1 else ''}"
            write_atomic(target, figure_bytes(bench_figure(timings, title), suffix[1:]))
    if as_json:
        _emit_json([t.to_record() for t in timings])
    elif not quiet:
        click.echo(bench_table(timings))
    if target is not None:
        _say(quiet, f"wrote {target}")


@cli.command()
@click.argument("sizes", metavar="RANGE")
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False), required=True, help="report.html or .md"
)
@click.option("--backends", "names", metavar="A,B,...", help="Default: every available backend.")
@click.option("--reference", default="tree", show_default=True, help="What the others must match.")
@click.option("-r", "--repeat", type=click.IntRange(min=1), default=3, show_default=True)
@click.option("--tree-n", type=click.IntRange(1, 7), default=5, show_default=True)
@quiet_option
def report(
    sizes: str,
    output: str,
    names: str | None,
    reference: str,
    repeat: int,
    tree_n: int,
    quiet: bool,
) -> None:
    """Write one self-contained HTML or Markdown report on the backends over RANGE.

    It holds the cross-check table, the time and node plots, a decision tree and
    sample boards, with every picture embedded. Exit status 1 when a backend
    disagrees (the report is written all the same).
    """
    from .report import build_report, to_html, to_markdown

    ns = _sizes(sizes)
    chosen = _backend_list(names, enumerating=True)
    target = _output(output, REPORT_SUFFIXES)
    _check_tree_reference(reference, ns)
    steps = len(ns) + len(ns) * len(chosen) + 1
    with progress_bar(steps, "report", enabled=wants_bar(quiet)) as bar:

        def step(label: str | None) -> None:
            if label is not None:
                _finished(label)
            bar.advance(label)

        data = build_report(
            ns, chosen, reference=reference, repeat=repeat, tree_n=tree_n, step=step
        )
    text = to_html(data) if target.suffix.lower() == ".html" else to_markdown(data)
    write_atomic(target, text)
    _say(quiet, f"wrote {target}" + ("" if data.ok else "; some backends DISAGREE"))
    if not data.ok:
        raise click.exceptions.Exit(DISAGREES)


def main(argv: list[str] | None = None) -> int:
    """Run the command line (the ``cpqueens`` console script and ``python -m cpqueens``)."""
    try:
        cli.main(args=argv, prog_name="cpqueens")
    except OSError as error:
        # A disk that fills or a pipe closed early: say so in one line, not a traceback.
        if isinstance(error, BrokenPipeError):
            return 0
        click.echo(f"Error: {error}", err=True)
        return 2
    return 0
