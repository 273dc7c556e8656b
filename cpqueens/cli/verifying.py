"""``cpqueens verify``: one program's output, read from a file or standard input, checked
against the reference."""

from __future__ import annotations

from typing import Any

import click

from ..display.numbers import plural
from ._common import (
    DISAGREES,
    FAULT_SUFFIXES,
    NO_ANSWER,
    emit_json,
    faults_option,
    json_option,
    output_options,
    output_path,
    quiet_option,
    say,
)


@click.command()
@click.argument("n", type=int)
@click.argument("source", metavar="[FILE|-]", default="-")
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
    expect: str | None,
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
    was printed on (and its base); --faults FILE lists them all. An empty output
    answers "no solution". Exit status 0 when the output agrees with the reference,
    1 when it does not, 4 when it cannot be read (no answer to judge).
    """
    from ..checking.compare import MAX_OUTPUT_FILE, check_output
    from ..checking.judging.verdicts import CrossCheckReport
    from ..disk.reading import read_bytes
    from ..reporting.tables import verify_lines

    faults_target = output_path(faults_file, FAULT_SUFFIXES)
    label = "standard input" if source == "-" else source
    row, parsed = check_output(
        # The file is read whole (a regular file, bounded) before any work; standard
        # input is read by check_output once every other argument is known good.
        click.open_file("-", "rb")
        if source == "-"
        else read_bytes(source, what="a program's output", limit=MAX_OUTPUT_FILE),
        n,
        parse=parse,
        expect=expect or "all",
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
    if row.error:
        verdict = "the output gives no answer: it could not be read (no verdict)"
    elif row.agrees:
        verdict = "the output agrees"
    else:
        verdict = "the output DISAGREES with the reference"
    say(quiet, verdict)
    if faults_target is not None:
        say(quiet, f"wrote {plural(len(checked.fault_records()), 'fault')} to {faults_target}")
    if row.error:
        raise click.exceptions.Exit(NO_ANSWER)
    if not row.agrees:
        raise click.exceptions.Exit(DISAGREES)
