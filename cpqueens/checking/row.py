"""A cross-check's verdict on one backend and one case: a :class:`CrossCheckRow`, and
each faulty board it holds as a :class:`Fault` (with where a program printed it).

The rows are plain frozen data; :mod:`.judging.faults` sorts boards into them,
:mod:`.judging.row_text` says them in words and :mod:`.judging.verdicts` gathers them
into the report.

>>> row = CrossCheckRow(n=4, backend="mine", count=2, reference_count=2, agrees=True,
...     missing=(), extra=(), invalid=(), duplicated=(), missing_count=0, extra_count=0,
...     invalid_count=0, duplicated_count=0, elapsed=0.1)
>>> row.status
'ok'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..board import Solution
from ..outputs.parsed_output import Origin

#: How many examples of each fault a row keeps (the totals are always kept).
EXAMPLES = 5

#: What a row compares: every solution, a few solutions, or only their number.
COMPARISONS = ("all", "some", "count")

#: The kinds of :class:`Fault`: a board that is no solution, a line shaped like a
#: board that is none, a repeat, a solution never returned, a valid board that is not
#: the reference's (it moves a given queen, sits on a blocked square, or neither), a
#: stated count that is wrong, a "no solution" whose proof the checker did not accept,
#: and a run that failed.
FAULT_KINDS = (
    "invalid",
    "not a board",
    "duplicate",
    "missing",
    "extra",
    "wrong fixed",
    "wrong blocked",
    "wrong count",
    "wrong answer",
    "unproved",
    "error",
)


@dataclass(frozen=True)
class Fault:
    """One faulty board of a row, and where the program printed it.

    ``kind`` is one of :data:`FAULT_KINDS`; ``board`` the board read 0-based (None
    for a line that is no board, a wrong count or an error); ``origin`` where a
    program printed it (its line, its text, its base: see
    :class:`cpqueens.outputs.parsed_output.Origin`), None for a Python function's board
    and for a missing one; ``detail`` why it is wrong, when there is more to say.
    """

    kind: str
    board: tuple | None
    origin: Origin | None = None
    detail: str | None = None


@dataclass(frozen=True)
class CrossCheckRow:
    """One backend on one board size, compared with the reference.

    ``missing``, ``extra``, ``invalid`` and ``duplicated`` hold the first few
    boards of each fault (sorted, except ``invalid``, kept in the order
    returned); the ``*_count`` fields hold their totals. ``count`` is how many
    boards the backend returned, duplicates and invalid ones included. ``error``
    is ``"ExceptionType: message"`` when the backend raised or ran out of time;
    the boards returned before that are counted but not compared.

    ``compared`` says what was compared: ``"all"`` (the whole solution set, as for
    every registry backend and function), ``"some"`` (a program that prints a few
    solutions: each must be valid, distinct and in the reference; none is missing)
    or ``"count"`` (only the number: ``count`` is the number the program stated).

    ``timed_out`` is True when the time limit stopped the backend. The boards it
    found before that are judged (an invalid, extra or repeated one is a
    disagreement) but the solutions it had no time to reach are not missing, so
    ``agrees`` says whether what it found agrees; ``status`` is then
    ``"timed out"``. A program killed at its own ``timeout`` is not this: it gets
    an ``error``, for a program that hangs is a fault.

    For a program's output, every line is accounted for. ``invalid_lines`` holds
    the first few lines (number from 1, text) shaped like a board that are not a
    valid one in the format the output was read in; ``invalid_count`` counts them
    with the invalid boards. ``stated_count`` is the count the program printed
    beside its boards (None when it printed none); one that differs from the
    boards it printed is a disagreement. ``notes`` holds the first few lines of
    prose (a header, a timing), shown but not judged, and ``note_count`` their
    number.

    Examples
    --------
    The rows of a :func:`cpqueens.crosscheck`'s report:

    >>> import cpqueens
    >>> def my_solver(n):  # forgets the last solution
    ...     return sorted(cpqueens.solutions(n))[:-1]
    >>> report = cpqueens.crosscheck(6, ["stack", my_solver])
    >>> [(row.backend, row.status) for row in report.rows]
    [('stack', 'ok'), ('my_solver', 'FAIL')]
    >>> row = report.rows[1]
    >>> row.n, row.count, row.reference_count, row.agrees, row.compared
    (6, 3, 4, False, 'all')
    >>> row.missing, row.missing_count, row.extra_count, row.error
    (((4, 2, 0, 5, 3, 1),), 1, 0, None)
    """

    n: int
    backend: str
    count: int
    reference_count: int
    agrees: bool
    missing: tuple[Solution, ...]
    extra: tuple[Solution, ...]
    invalid: tuple[tuple, ...]
    duplicated: tuple[Solution, ...]
    missing_count: int
    extra_count: int
    invalid_count: int
    duplicated_count: int
    elapsed: float
    error: str | None = None
    compared: str = "all"
    timed_out: bool = False
    invalid_lines: tuple[tuple[int, str], ...] = ()
    stated_count: int | None = None
    notes: tuple[tuple[int, str], ...] = ()
    note_count: int = 0
    #: The instance checked (its name or a description), None for a plain board size.
    instance: str | None = None
    #: A guess at what went wrong, e.g. that every board is a solution shifted by one.
    hint: str | None = None
    #: For a decision (``compared="decision"``): the answer, ``"sat"``, ``"unsat"`` or
    #: ``"unknown"``, and the reference's (see :mod:`cpqueens.checking.judging.decision`).
    answer: str | None = None
    reference_answer: str | None = None
    #: The checker's verdict, in words, on the DRAT proof a program wrote of its "no
    #: solution" (a command with ``{proof}``); None when it wrote none. A proof not
    #: proved is an ``"unproved"`` fault: the row disagrees.
    proof: str | None = None
    #: Every faulty board, in the order returned (the missing ones last), with where a
    #: program printed it: what ``--faults FILE`` writes.
    faults: tuple[Fault, ...] = field(default=(), repr=False, compare=False)

    def origin_of(self, board: tuple, kinds: Iterable[str]) -> Origin | None:
        """Where the first faulty ``board`` of one of ``kinds`` was printed, if known."""
        wanted = set(kinds)
        return next((f.origin for f in self.faults if f.kind in wanted and f.board == board), None)

    @property
    def miscounted(self) -> bool:
        """True when a program's stated count disagrees with its boards: with the
        boards it printed when it prints them all, with the reference when some."""
        if self.stated_count is None or self.compared == "count":
            return False
        claimed = self.count if self.compared == "all" else self.reference_count
        return self.stated_count != claimed

    @property
    def status(self) -> str:
        """``"ok"``, ``"timed out"``, ``"FAIL"`` (wrong solutions) or ``"ERROR"`` (raised).

        A wrong board found before the time limit makes a ``"FAIL"``: the fault
        outweighs the time-out.
        """
        if not self.agrees:
            return "ERROR" if self.error else "FAIL"
        return "timed out" if self.timed_out else "ok"
