"""What a cross-check checks: each board size or instance a caller gave, turned at the
door into one :class:`Case` holding an :class:`~cpqueens.Instance`.

A plain size ``n`` is the whole n-queens problem; an instance adds queens given in
advance and blocked squares. Past the door the checking family knows only the
instance; a case also keeps what the caller gave, for the caller's own functions
(called with ``n`` for a size, with the instance for an instance), and the question
asked of it (by default every solution of a size, the decision of an instance).

>>> [case.label for case in cases_of([4, Instance(5, blocked=[(0, 0)])])]
[None, 'n=5 with 1 square blocked']
"""

from __future__ import annotations

import itertools
import operator
from dataclasses import dataclass
from typing import Any

from ..board import Solution, is_valid
from ..errors import InvalidInputError, InvalidTypeError
from ..instances import Instance, as_instance

#: What a cross-check compares: None picks per case (every solution of a board
#: size, the decision of an instance), or one question for every case.
QUESTIONS = (None, "all", "decide")
#: The most board sizes one cross-check takes: more than any backend has boards.
MAX_SIZES = 20_000


@dataclass(frozen=True)
class Case:
    """One board size or instance to check, as the door made it.

    ``instance`` is what every check past the door works on; ``question`` what is
    compared (``"all"`` or ``"decide"``); ``sized`` is True when the caller gave a
    plain board size, not an :class:`~cpqueens.Instance`.
    """

    instance: Instance
    question: str
    sized: bool

    @property
    def given(self) -> int | Instance:
        """What the caller gave: ``n`` for a size, else the instance. The caller's
        functions, references and callbacks get this."""
        return self.instance.n if self.sized else self.instance

    @property
    def label(self) -> str | None:
        """The label of an instance in a report (its name, else a short description);
        None for a plain size, whose ``n`` says it all."""
        return None if self.sized else self.instance.name or describe(self.instance)


def cases_of(ns: Any, question: str | None = None) -> tuple[Case, ...]:
    """The door: the board sizes and instances ``ns`` (one, or an iterable of them),
    each checked and made an :class:`Case` with the question asked of it.

    Raises
    ------
    InvalidInputError, InvalidTypeError
        For a bad size, no size, too many, or a ``question`` not in :data:`QUESTIONS`.
    """
    given = _given(ns)
    if question not in QUESTIONS:
        raise InvalidInputError(
            f"question must be one of: {', '.join(map(repr, QUESTIONS))}; got {question!r}"
        )
    # By default, every solution of a board size and the decision of an instance.
    return tuple(
        Case(instance, question or ("all" if sized else "decide"), sized)
        for instance, sized in given
    )


def _given(ns: Any) -> tuple[tuple[Instance, bool], ...]:
    """Each item of ``ns`` (at most :data:`MAX_SIZES`) as an instance, and whether it
    was given as a plain size."""
    if isinstance(ns, Instance) or (isinstance(ns, int) and not isinstance(ns, bool)):
        return ((as_instance(ns), not isinstance(ns, Instance)),)
    if isinstance(ns, range) and len(ns) > MAX_SIZES:
        raise InvalidInputError(f"ns={ns!r} holds {len(ns):,} sizes; at most {MAX_SIZES:,}")
    try:
        # Each size is checked as it comes, so that an endless one fails at once.
        items = tuple(
            (as_instance(item), not isinstance(item, Instance))
            for item in itertools.islice(ns, MAX_SIZES + 1)
        )
    except TypeError as error:
        if "not iterable" not in str(error):
            raise
        raise InvalidTypeError(
            f"ns must be a board size, an Instance or an iterable of them, got {ns!r}"
        ) from None
    if len(items) > MAX_SIZES:
        raise InvalidInputError(f"ns holds more than {MAX_SIZES:,} sizes; at most {MAX_SIZES:,}")
    if not items:
        raise InvalidInputError("ns holds no board size; pass an integer or e.g. range(1, 9)")
    return items


def as_board(item: Any) -> tuple:
    """A returned board as a tuple, with integer-like columns made plain ints."""
    try:
        columns = tuple(item)
    except TypeError:
        return (item,)

    def plain(column: Any) -> Any:
        try:
            return operator.index(column)
        except TypeError:
            return column

    return tuple(plain(c) for c in columns)


def describe(instance: Instance) -> str:
    """``n=8``, or ``n=8 with 2 queens given and 5 squares blocked``.

    >>> describe(Instance(5, fixed={0: 0}, blocked=[(1, 2)]))
    'n=5 with 1 queen given and 1 square blocked'
    """
    parts = []
    if instance.fixed:
        parts.append(f"{len(instance.fixed)} queen{'s' if len(instance.fixed) != 1 else ''} given")
    if instance.blocked:
        many = len(instance.blocked)
        parts.append(f"{many} square{'s' if many != 1 else ''} blocked")
    return f"n={instance.n}" + (f" with {' and '.join(parts)}" if parts else "")


def solves(board: Solution, instance: Instance) -> bool:
    """True when ``board`` is a solution of ``instance``: valid, on the given queens,
    off the blocked squares."""
    return is_valid(board, instance.n) and extra_kind(board, instance) == "extra"


def extra_kind(board: Solution, instance: Instance) -> str:
    """What is wrong with a valid board that is not one of the reference's solutions:
    ``"wrong fixed"`` (it moves a queen given in advance), ``"wrong blocked"`` (a queen
    on a blocked square) or ``"extra"`` (neither: the reference lacks it).

    >>> inst = Instance(5, fixed={0: 0}, blocked=[(1, 2)])
    >>> extra_kind((1, 3, 0, 2, 4), inst), extra_kind((0, 2, 4, 1, 3), inst)
    ('wrong fixed', 'wrong blocked')
    """
    if any(row >= len(board) or board[row] != column for row, column in instance.fixed):
        return "wrong fixed"
    blocked = instance.blocked_set
    if any((row, column) in blocked for row, column in enumerate(board)):
        return "wrong blocked"
    return "extra"
