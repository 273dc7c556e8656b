"""Judging what a program printed, once parsed, against the reference, as a row.

The judge reads a :class:`~cpqueens.outputs.parsed_output.ParsedOutput` (the boards, the
count the program states, its notes and the lines that are no board, each with where
it was printed), never the program's raw text: how the output is read is
:mod:`cpqueens.outputs`' business, how the program is run :mod:`cpqueens.programs`'.

>>> from cpqueens import Instance, parse_boards
>>> row = judge_output(parse_boards("bdac cadb\\nTotal: 3", 4), Instance(4),
...                    {(1, 3, 0, 2), (2, 0, 3, 1)}, label="mine")
>>> row.agrees, row.faults[0].detail
(False, 'states 3 solutions, printed 2 boards')
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...board import Solution
from ...display.numbers import plural
from ...instances import Instance
from ...outputs.parsed_output import ParsedOutput, shorten
from ..row import EXAMPLES, CrossCheckRow, Fault
from .faults import error_row, has_faults, no_faults, sort_faults

#: What a program's shift hint adds: the output can be read 1-based as it is.
READ_ONE_BASED = "(read them with base=1, --base 1 on the command line)"


def judge_output(
    parsed: ParsedOutput,
    instance: Instance,
    expected: set[Solution],
    *,
    label: str,
    parse: str = "auto",
    expect: str = "all",
    elapsed: float = 0.0,
) -> CrossCheckRow:
    """Compare what was read from a program's output with the reference, as a row.

    Every faulty board keeps where it was printed (``row.faults``, each with its
    :class:`~cpqueens.outputs.parsed_output.Origin`): its line, its text and its base.
    Read as ``parse`` and compared as ``expect`` asks (see :class:`cpqueens.Command`);
    an output with a count and no board is compared as a count.
    """
    compared = expect
    if parse == "count" or (parse == "auto" and not parsed.boards and parsed.count is not None):
        compared = "count"
    n = instance.n
    reference_count = len(expected)
    if compared == "count":
        return _judge_count(parsed, instance, expected, label=label, elapsed=elapsed)
    if parsed.mixed:
        return error_row(
            n,
            label,
            f"mixed conventions: {parsed.mixed}",
            reference_count,
            elapsed,
            count=len(parsed.boards),
            compared=compared,
            **_notes(parsed),
        )
    # Nothing read (a stated "no solution" is an answer, and a wrong one here; so is
    # silence: a program that printed nothing found nothing).
    unread = not parsed.boards and not parsed.invalid_lines and parsed.count is None
    if unread and expected and not parsed.silent:
        message = unread_message(parsed, n, "a board")
        return error_row(n, label, message, reference_count, elapsed, compared=compared)
    doubt = doubtful_reading(parsed, n)
    if doubt:
        return error_row(
            n, label, doubt, reference_count, elapsed, count=len(parsed.boards),
            compared=compared, **_notes(parsed),
        )  # fmt: skip
    # No board and no solution to find (n = 2, 3): "no solution" in any words agrees.
    faults = sort_faults(
        n,
        parsed.boards,
        expected,
        compared,
        instance=instance,
        origin=parsed.origin,
        unread=parsed.unread_origins(),
    )
    if faults["hint"]:
        # Read as 1-based already, the shift is not the answer; else say how to read so.
        faults["hint"] = None if parsed.base == 1 else f"{faults['hint']} {READ_ONE_BASED}"
    row = CrossCheckRow(
        n=n,
        backend=label,
        count=len(parsed.boards),
        reference_count=reference_count,
        agrees=not has_faults(faults),
        elapsed=elapsed,
        compared=compared,
        invalid_lines=parsed.invalid_lines[:EXAMPLES],
        stated_count=parsed.count,
        **_notes(parsed),
        **faults,
    )
    if row.miscounted:
        claimed = (
            f"printed {plural(row.count, 'board')}"
            if compared == "all"
            else f"the reference has {reference_count:,}"
        )
        detail = f"states {plural(parsed.count or 0, 'solution')}, {claimed}"
        wrong = Fault("wrong count", None, detail=detail)
        return replace(row, agrees=False, faults=(*row.faults, wrong))
    return row


def with_proof(row: CrossCheckRow, certificate: Any) -> CrossCheckRow:
    """``row`` with the checker's verdict on the proof its program wrote of "no
    solution" (a :class:`~cpqueens.Certificate`, or None for none): proved, the row
    says so; refused, or left without a verdict, the row disagrees, as it would with
    a wrong answer."""
    if certificate is None:
        return row
    if certificate.proved:
        return replace(row, proof=str(certificate))
    said = f" ({certificate.words})" if certificate.words else ""
    detail = f"says no solution; its proof: {certificate.verdict.upper()}{said}"
    fault = Fault("unproved", None, detail=detail)
    return replace(row, proof=str(certificate), agrees=False, faults=(*row.faults, fault))


def _judge_count(
    parsed: ParsedOutput,
    instance: Instance,
    expected: set[Solution],
    *,
    label: str,
    elapsed: float,
) -> CrossCheckRow:
    """Only the number compared: the count the program states, else its boards'.

    The boards it printed beside its count are claims too: each must be a valid,
    distinct solution. A line shaped like a board that no reader took makes the
    output unreadable, never a count that agrees.
    """
    n = instance.n
    reference_count = len(expected)
    if parsed.invalid_lines:
        return error_row(
            n, label, unread_line_message(parsed, n), reference_count, elapsed,
            compared="count", **_notes(parsed),
        )  # fmt: skip
    doubt = doubtful_reading(parsed, n)
    if doubt:
        return error_row(n, label, doubt, reference_count, elapsed, compared="count")
    if parsed.count is not None:
        stated: int | None = parsed.count
    elif parsed.boards:
        stated = len(parsed.boards)
    else:
        stated = 0 if parsed.silent else None
    if stated is None:
        message = unread_message(parsed, n, "a count")
        return error_row(n, label, message, reference_count, elapsed, compared="count")
    faults = sort_faults(n, parsed.boards, expected, "some", instance=instance,
                         origin=parsed.origin)  # fmt: skip
    faults["hint"] = None
    return count_row(n, label, stated, reference_count, elapsed=elapsed, faults=faults,
                     **_notes(parsed))  # fmt: skip


def count_row(
    n: int,
    label: str,
    stated: int,
    reference_count: int,
    *,
    elapsed: float,
    faults: dict[str, Any] | None = None,
    **fields: Any,
) -> CrossCheckRow:
    """A row comparing a count: ``stated`` against the reference's, with the ``faults``
    found in any boards shown beside it (none by default)."""
    faults = no_faults() if faults is None else faults
    if stated != reference_count:
        detail = f"states {plural(stated, 'solution')}, the reference has {reference_count:,}"
        faults["faults"] = (*faults["faults"], Fault("wrong count", None, detail=detail))
    return CrossCheckRow(
        n=n,
        backend=label,
        count=stated,
        reference_count=reference_count,
        agrees=stated == reference_count and not has_faults(faults),
        elapsed=elapsed,
        compared="count",
        **fields,
        **faults,
    )


#: What the readers take, for a message about an output none of them could read.
READ_FORMS = (
    "grids (Q and ., 0 and +, x and -, 1 and 0; spaced, unspaced, checkered, [x][Q], |Q| |), "
    "column letters (cgbhfdae), lines of numbers (0- or 1-based; (row, column) pairs), "
    "JSON or Python lists, and a count tied to a word for solutions ('92 solutions')"
)
#: Where a reader who needs another form is sent.
READ_HELP = "choose a form with --parse (parse= in Python); see `cpqueens docs external`"


def unread_message(parsed: ParsedOutput, n: int, what: str) -> str:
    """Why nothing could be read: the first line, the forms read and where to look."""
    first = parsed.first_skipped()
    if first is None:
        return "the output holds nothing but lines left out by ignore="
    return (
        f"nothing in its output could be read as {what} of size {n}; first line: {first!r}. "
        f"Read are {READ_FORMS}: {READ_HELP}"
    )


def unread_line_message(parsed: ParsedOutput, n: int) -> str:
    """A line shaped like a board that no reader took: the output cannot be trusted."""
    number, text = parsed.invalid_lines[0]
    more = len(parsed.invalid_lines) - 1
    others = f" (and {plural(more, 'more line')} like it)" if more else ""
    return (
        f"could not read line {number}: {shorten(text.strip(), 60)!r} looks like part of a "
        f"board of size {n} but is not one in any form read{others}; {READ_HELP}"
    )


def doubtful_reading(parsed: ParsedOutput, n: int) -> str | None:
    """Say so when most boards read are not boards of size n at all (a row too many or
    too few, a row with no queen or several): the output was more likely misread than
    wrong, and is reported as unreadable rather than judged."""
    boards = parsed.boards
    if len(boards) < 2:
        return None
    misshapen = [
        index for index, board in enumerate(boards)
        if len(board) != n or any(column is None for column in board)
    ]  # fmt: skip
    if 2 * len(misshapen) <= len(boards):
        return None
    where = parsed.origin(misshapen[0]).describe()
    return (
        f"could not read the output as boards of size {n}: {len(misshapen):,} of the "
        f"{len(boards):,} boards read ({parsed.style}) are not {n} rows of one queen each, "
        f"e.g. {boards[misshapen[0]]}" + (f" {where}" if where else "") + f"; {READ_HELP}"
    )


def _notes(parsed: ParsedOutput) -> dict[str, Any]:
    return {"notes": parsed.notes[:EXAMPLES], "note_count": len(parsed.notes)}
