"""Cross-checking a decision: does the instance have a solution, and is every board shown one?

An instance with blocked squares or queens given is a decision problem: the field's
solvers answer *satisfiable* with one solution, or *unsatisfiable*. Its
cross-check needs no solution set: the reference decides the instance (with a
witness when it is satisfiable), and each solver's answer is judged against that
decision, every board it shows checked against the instance, and any count it
states held to what it shows. Nothing here enumerates.

A solver's answer is one of :data:`ANSWERS`. A program says it the way the
competitions print it (``s SATISFIABLE`` / ``s UNSATISFIABLE`` / ``s UNKNOWN``,
``v`` lines; see :func:`cpqueens.outputs.answers.read_answer`) or by printing a
board; an output with no board and no status says there is none, as an empty
solution list does.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ...display.numbers import plural
from ...errors import SolverError
from ...instances import Instance
from ...result import Result
from ..cases import as_board, describe, solves
from ..external import Command
from ..row import EXAMPLES, CrossCheckRow, Fault
from .faults import sort_faults

#: A decision: a solution exists, none exists, or the solver could not tell.
ANSWERS = ("sat", "unsat", "unknown")
#: The most boards of one answer that are read and checked: a decision needs one.
MAX_BOARDS = 1_000
#: How each answer is said in a report.
WORDS = {"sat": "satisfiable", "unsat": "unsatisfiable", "unknown": "unknown"}


@dataclass(frozen=True)
class Decision:
    """A solver's answer to one instance: ``answer`` (one of :data:`ANSWERS`), the
    boards it showed (at most :data:`MAX_BOARDS`), the count it stated, if any, and
    whether a time limit stopped it."""

    answer: str
    boards: tuple[tuple, ...] = ()
    stated_count: int | None = None
    timed_out: bool = False
    #: Lines that claim a board and are none (read from a program's output).
    invalid_lines: tuple[str, ...] = ()
    #: The checker's verdict on a program's proof of "no solution" (a command with
    #: ``{proof}``), else None.
    certificate: Any = None


def decision_of(answer: Any) -> Decision:
    """The decision a backend or a function returned: a :class:`~cpqueens.Result`
    says it in ``satisfiable``; boards say *sat*, no board *unsat*.

    >>> decision_of([(1, 3, 0, 2)]).answer, decision_of([]).answer
    ('sat', 'unsat')
    """
    boards = tuple(_boards(answer))
    if isinstance(answer, Result):
        timed_out = bool(answer.stats.get("timed_out"))
        word = {True: "sat", False: "unsat", None: "unknown"}[answer.satisfiable]
        return Decision(word, boards, timed_out=timed_out)
    return Decision("sat" if boards else "unsat", boards)


def _boards(answer: Iterable[Any]) -> Iterable[tuple]:
    return (as_board(item) for item in itertools.islice(answer, MAX_BOARDS))


def program_decision(command: Command, instance: Instance) -> Decision:
    """Run a program on ``instance`` and read its answer (competition lines or boards).

    Raises :class:`~cpqueens.CommandFailedError` when it fails to run and
    :class:`~cpqueens.outputs.answers.BadOutput` when what it printed contradicts
    itself (``s SATISFIABLE`` and no board, two status lines).
    """
    printed = command.run(instance, question="decide")  # a FlatZinc solver: no -a
    read = command.answer(printed, instance.n, "decide", silence="unsat")
    boards = tuple(tuple(board) for board in read["solutions"][:MAX_BOARDS])
    return Decision(
        read["answer"],
        boards,
        stated_count=read["stated"],
        invalid_lines=tuple(read["invalid"][:EXAMPLES]),
        certificate=printed.certificate,
    )


def reference_decision(decision: Decision, label: str, instance: Instance) -> Decision:
    """The reference's decision, checked: a witness that is no solution of ``instance``
    makes it no reference at all (:class:`~cpqueens.SolverError`)."""
    wrong = next((b for b in decision.boards if not solves(b, instance)), None)
    if wrong is not None:
        raise SolverError(
            f"the reference {label!r} returned {wrong!r} for {describe(instance)}, not a solution"
        )
    if decision.answer == "sat" and not decision.boards:
        raise SolverError(f"the reference {label!r} says satisfiable and shows no solution")
    return decision


def judge_decision(
    instance: Instance,
    label: str,
    decision: Decision,
    reference: Decision,
    *,
    elapsed: float = 0.0,
) -> CrossCheckRow:
    """A row judging ``decision`` against the ``reference``'s.

    Every board shown must solve the instance; an *unsat* against a reference that
    found a solution, or a solution where the reference says *unsat*, disagrees
    (the row then names the witness); a stated count must fit the boards shown and
    the reference's answer. *unknown* is a time-out: not compared, its boards
    still checked.
    """
    n = instance.n
    boards = list(dict.fromkeys(decision.boards))  # a repeated witness is no fault here
    solutions = {board for board in boards if solves(board, instance)}
    faults = sort_faults(n, boards, solutions, "some", instance=instance)
    found: list[Fault] = list(faults["faults"])
    found += [Fault("not a board", None, detail=line) for line in decision.invalid_lines]
    if decision.answer == "unsat" and reference.answer == "sat":
        witness = reference.boards[0]
        detail = f"says unsatisfiable; the reference found {witness}"
        found.append(Fault("wrong answer", None, detail=detail))
    elif solutions and reference.answer == "unsat":
        witness = min(solutions)
        detail = f"shows {witness}, a solution, where the reference says unsatisfiable"
        found.append(Fault("wrong answer", witness, detail=detail))
    stated = decision.stated_count
    if stated is not None and (stated < len(solutions) or (stated and reference.answer == "unsat")):
        detail = f"states {plural(stated, 'solution')}, shows {plural(len(solutions), 'solution')}"
        if reference.answer != "unknown":
            detail += f", the reference says {WORDS[reference.answer]}"
        found.append(Fault("wrong count", None, detail=detail))
    invalid_count = faults["invalid_count"] + len(decision.invalid_lines)
    return CrossCheckRow(
        n=n,
        backend=label,
        count=len(boards),
        reference_count=len(reference.boards),
        agrees=not found,
        missing=(),
        extra=faults["extra"],
        invalid=faults["invalid"],
        duplicated=(),
        missing_count=0,
        extra_count=faults["extra_count"],
        invalid_count=invalid_count,
        duplicated_count=0,
        elapsed=elapsed,
        compared="decision",
        timed_out=decision.timed_out or decision.answer == "unknown",
        stated_count=stated,
        faults=tuple(found),
        answer=decision.answer,
        reference_answer=reference.answer,
    )
