"""Metamorphic relations: two runs of the same target that must agree, no reference needed.

Each relation turns an instance into a partner whose answer follows from the first:

* ``symmetry``: one of the seven other symmetries of the board: the same decision, the
  same count, the solutions mapped;
* ``block``: one more square blocked: no solution gained (exactly those without a queen
  there remain);
* ``unblock``: one blocked square freed: no solution lost;
* ``fix``: a queen of a found solution given: still satisfiable (exactly the solutions
  with that queen remain);
* ``reduction``: an Excluded Diagonals instance and its completion instance (Gent's
  reduction): the same decision and count;
* ``formats``: the same instance written in a second file format (0- and 1-based):
  the same answer;
* ``options``: the same instance solved by the same backend with another value of an
  option that must not change the answer (an encoding, a search strategy, a
  consistency: the backend's ``neutral_options``): the same answer.

A relation is a :class:`Relation` (its name and its detail: a symmetry, a square), so
that a violated one can be applied again, unchanged, to every smaller instance the
shrinker tries.

>>> from cpqueens import Instance
>>> from cpqueens.fuzzing.targets import Answer
>>> block = Relation("block", (0, 1))
>>> block.partner(Instance(4)), block.describe()
(Instance(n=4, blocked=((0, 1),)), 'blocking (0, 1)')
>>> both = ((1, 3, 0, 2), (2, 0, 3, 1))
>>> block.violated("all", Answer("sat", both, 2), Answer("sat", both, 2), 4)
'2 solutions, 1 without a queen on (0, 1), expected; 2 listed'
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..errors import CPQueensError
from ..instances import Instance, diagonals_to_completion
from .judging import decision_word, why_not_solution
from .targets import Answer
from .transforms import (
    SYMMETRIES,
    map_instance,
    map_solutions,
    with_blocked,
    with_queen,
    without_blocked,
)

#: Every relation, in the order they are described.
RELATIONS = ("symmetry", "block", "unblock", "fix", "reduction", "formats", "options")

#: Relations on the completion board of an Excluded Diagonals instance are tried only
#: for boards this small: the reduction makes a board of about 266 n.
REDUCTION_MAX_N = 4


@dataclass(frozen=True)
class Relation:
    """One relation with its detail: a symmetry's index, a square, a file format, or
    ``(option, value, value before)`` for ``options``."""

    name: str
    detail: Any = None

    def describe(self) -> str:
        if self.name == "symmetry":
            return SYMMETRIES[self.detail].name
        if self.name == "block":
            return f"blocking {self.detail}"
        if self.name == "unblock":
            return f"freeing {self.detail}"
        if self.name == "fix":
            return f"giving a queen on {self.detail}"
        if self.name == "formats":
            return f"the instance written as {self.detail}"
        if self.name == "options":
            option, value, before = self.detail
            return f"{option}={value} instead of " + (
                "its default" if before is None else f"{option}={before}"
            )
        return "Gent's reduction to completion"

    def partner(self, instance: Instance) -> Instance | None:
        """The partner instance, or None when the relation does not apply to it."""
        try:
            if self.name == "symmetry":
                return map_instance(SYMMETRIES[self.detail], instance)
            if self.name == "block":
                return with_blocked(instance, self.detail) if _on(self.detail, instance) else None
            if self.name == "unblock":
                return (
                    without_blocked(instance, self.detail)
                    if self.detail in instance.blocked
                    else None
                )
            if self.name == "fix":
                return with_queen(instance, self.detail) if _on(self.detail, instance) else None
            if self.name == "reduction":
                return diagonals_to_completion(instance) if instance.diagonals is not None else None
            return instance  # formats, options: the same instance, asked another way
        except CPQueensError:
            return None

    def moved(self, squares: Any) -> Relation:
        """The relation on an instance whose squares were moved by ``squares`` (a map of
        squares, None for a square dropped), for the shrinker."""
        if self.name in ("block", "unblock", "fix"):
            return Relation(self.name, squares(self.detail))
        return self

    def violated(self, question: str, first: Answer, second: Answer, n: int) -> str | None:
        """How the partner's answer breaks the relation (None: it holds), both answers
        definite and already judged (no fault, every board a solution)."""
        a, b = set(first.boards), set(second.boards)
        sat_a = bool(a) or bool(first.count) or first.status == "sat"
        sat_b = bool(b) or bool(second.count) or second.status == "sat"
        count_a = first.count if first.count is not None else len(a)
        count_b = second.count if second.count is not None else len(b)
        if self.name in ("symmetry", "reduction", "formats", "options"):
            if sat_a != sat_b:
                return f"{decision_word(sat_a)} expected; {decision_word(sat_b)}"
            if question in ("all", "count") and count_a != count_b:
                return f"{count_a:,} solutions expected; {count_b:,}"
            mapped = self.name == "symmetry" and question == "all"
            if mapped and map_solutions(SYMMETRIES[self.detail], a, n) != b:
                return f"the {count_a:,} solutions mapped expected; other boards listed"
            if question == "all" and self.name in ("formats", "options") and a != b:
                return "the same boards expected; other boards listed"
            return None
        row, column = self.detail
        if self.name == "block":
            if question == "decide":
                return "unsatisfiable once a square is freed" if sat_b and not sat_a else None
            if question == "count":
                return f"at most {count_a:,} expected; {count_b:,}" if count_b > count_a else None
            kept = {s for s in a if s[row] != column}
            if b != kept:
                where = f"without a queen on {self.detail}"
                return f"{count_a:,} solutions, {len(kept):,} {where}, expected; {len(b):,} listed"
            return None
        if self.name == "unblock":
            if question == "decide":
                return (
                    "satisfiable expected (as before the square was freed)"
                    if sat_a and not sat_b
                    else None
                )
            if question == "count":
                return f"at least {count_a:,} expected; {count_b:,}" if count_b < count_a else None
            lost = a - b
            gained = {s for s in b - a if s[row] != column}
            if lost or gained:
                return (
                    f"every one of the {count_a:,} solutions kept expected; "
                    f"{len(lost):,} lost, {len(gained):,} gained off {self.detail}"
                )
            return None
        # fix: the queen came from a found solution
        if not sat_b:
            return "satisfiable expected (the queen is taken from a solution found)"
        if question == "count" and count_b > count_a:
            return f"at most {count_a:,} expected; {count_b:,}"
        if question == "all":
            kept = {s for s in a if s[row] == column}
            if b != kept:
                return (
                    f"the {len(kept):,} solutions with a queen on {self.detail} expected; "
                    f"{len(b):,} listed"
                )
        return None


def _on(square: Any, instance: Instance) -> bool:
    return square is not None and 0 <= square[0] < instance.n and 0 <= square[1] < instance.n


def choose(
    rng: random.Random,
    instance: Instance,
    answer: Answer,
    names: tuple[str, ...],
    second_format: str | None = None,
    alternatives: tuple[tuple[str, Any, Any], ...] = (),
) -> Relation | None:
    """A relation for ``instance`` and the target's ``answer`` on it, drawn from ``names``
    among those that apply (``formats`` only with a ``second_format``, ``options`` only
    with ``alternatives``: a backend's other settings); None when none does."""
    n = instance.n
    options: list[Relation] = []
    for name in names:
        if name == "symmetry" and n > 1:
            options.append(Relation(name, rng.randrange(1, len(SYMMETRIES))))
        elif name == "block":
            taken = instance.blocked_set | set(instance.fixed)
            free = [(r, c) for r in range(n) for c in range(n) if (r, c) not in taken]
            if free:
                options.append(Relation(name, rng.choice(free)))
        elif name == "unblock" and instance.blocked:
            options.append(Relation(name, rng.choice(instance.blocked)))
        elif name == "fix":
            boards = [b for b in answer.boards if why_not_solution(b, instance) is None]
            given = instance.fixed_rows
            if boards:
                board = rng.choice(boards)
                rows = [row for row in range(n) if row not in given]
                if rows:
                    row = rng.choice(rows)
                    options.append(Relation(name, (row, board[row])))
        elif name == "reduction" and instance.diagonals is not None and n <= REDUCTION_MAX_N:
            options.append(Relation(name))
        elif name == "formats" and second_format is not None:
            options.append(Relation(name, second_format))
        elif name == "options" and alternatives:
            options.append(Relation(name, rng.choice(alternatives)))
    options = [relation for relation in options if relation.partner(instance) is not None]
    return rng.choice(options) if options else None
