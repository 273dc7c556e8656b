"""Shrinking a failing instance to a minimal one that fails the same way.

Delta debugging (Zeller and Hildebrandt's ddmin) over the instance's parts, its
blocked squares and given queens: halves, then quarters, ... of them are dropped while
the failure stays. Then the board is made smaller, one row and one column at a time
(the first or last of each, the squares beyond moved in; or straight to the smallest
board the failure survives, the parts that do not fit dropped or pulled onto its last
row and column), and the parts are tried again; last, each part is moved toward the
corner (up, left) while the failure stays, and all of it is tried again.
So the result has, in this order, the fewest parts, the smallest n the failure
survives, and its squares nearest the corner.

Every candidate is judged by ``fails(instance, moved)``, where ``moved`` maps the
original board's squares onto the candidate's (None for a square dropped), so that a
relation with a square of its own (block this square) follows the board. Candidates
are remembered, so none is run twice.

>>> from cpqueens import Instance
>>> def fails(instance, moved):  # "fails" on any board of 3 or more with a blocked square
...     return instance.n >= 3 and len(instance.blocked) >= 1
>>> shrink(Instance(6, blocked=[(5, 5), (2, 3), (4, 1)]), fails).instance
Instance(n=3, blocked=((0, 0),))
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..instances import Instance
from .transforms import rebuilt

Square = tuple[int, int]
Part = tuple[str, Square]  # ("q", square) a given queen, ("b", square) a blocked square
SquareMap = Callable[[Square], "Square | None"]


class NoTimeToJudge(Exception):
    """Raised by ``fails`` when no time is left to judge a candidate."""


#: The most candidates one failure's shrinking runs.
MAX_CANDIDATES = 400


@dataclass(frozen=True)
class Shrunk:
    """The smallest instance found, how the original's squares map onto it, how many
    candidates were run, and whether the search ended (rather than ran out of time)."""

    instance: Instance
    moved: SquareMap
    candidates: int
    complete: bool


def shrink(
    instance: Instance,
    fails: Callable[[Instance, SquareMap], bool],
    *,
    deadline: float | None = None,
    max_candidates: int = MAX_CANDIDATES,
) -> Shrunk:
    """The smallest instance derived from ``instance`` on which ``fails`` holds."""
    return _Shrinker(instance, fails, deadline, max_candidates).run()


def _identity(square: Square) -> Square | None:
    return square


def _then(first: SquareMap, second: SquareMap) -> SquareMap:
    """The map of squares ``first``, then ``second`` (None stays None)."""
    return lambda square: second(first(square))


class _Shrinker:
    def __init__(self, instance, fails, deadline, max_candidates):
        self.fails = fails
        self.deadline = deadline
        self.left = max_candidates
        self.tried: dict[tuple, bool] = {}
        self.n = instance.n
        self.parts: list[Part] = [("q", s) for s in instance.fixed] + [
            ("b", s) for s in instance.blocked
        ]
        self.moved: SquareMap = _identity
        self.best = instance
        self.out_of_time = False

    def run(self) -> Shrunk:
        changed = True
        while changed and not self.out_of_time:
            changed = self._smallest_board()
            changed = self._fewer_parts() or changed
            changed = self._smaller_board() or changed
            # Parts moved into the corner may let the board shrink again: once more.
            while not self.out_of_time and self._nearer_corner():
                changed = True
        return Shrunk(self.best, self.moved, len(self.tried), not self.out_of_time)

    def _test(self, n: int, parts: list[Part], moved: SquareMap) -> bool:
        key = (n, tuple(sorted(parts)))
        if key in self.tried:
            return self.tried[key]
        if self.left <= 0 or (self.deadline is not None and time.monotonic() > self.deadline):
            self.out_of_time = True
            return False
        candidate = rebuilt(n, [s for k, s in parts if k == "q"], [s for k, s in parts if k == "b"])
        self.left -= 1
        try:
            result = candidate is not None and bool(self.fails(candidate, moved))
        except NoTimeToJudge:
            self.out_of_time = True
            return False
        self.tried[key] = result
        if result:
            self.n, self.parts, self.moved, self.best = n, parts, moved, candidate
        return result

    def _fewer_parts(self) -> bool:
        """ddmin over the parts: drop chunks while the failure stays."""
        if not self.parts:
            return False
        before = len(self.parts)
        if self._test(self.n, [], self.moved):
            return True
        granularity = 2
        while len(self.parts) >= 2 and not self.out_of_time:
            size = math.ceil(len(self.parts) / granularity)
            for start in range(0, len(self.parts), size):
                rest = self.parts[:start] + self.parts[start + size :]
                if self._test(self.n, rest, self.moved):
                    granularity = max(granularity - 1, 2)
                    break
            else:
                if size == 1:
                    break
                granularity = min(granularity * 2, len(self.parts))
        return len(self.parts) < before

    def _smallest_board(self) -> bool:
        """The smallest board, from n = 1 up, on which the failure stays: with the parts
        that fit on it (the others dropped), or with every part pulled onto it (a square
        past its last row or column moved onto that row or column, so that a failure of
        the last row or column stays one)."""
        for n in range(1, self.n):

            def clip(square: Square | None, n: int = n) -> Square | None:
                return square if square is not None and max(square) < n else None

            def clamp(square: Square | None, n: int = n) -> Square | None:
                return None if square is None else (min(square[0], n - 1), min(square[1], n - 1))

            for fit in (clip, clamp):
                kept = ((kind, fit(square)) for kind, square in self.parts)
                parts = list(dict.fromkeys(part for part in kept if part[1] is not None))
                if self._test(n, parts, _then(self.moved, fit)):
                    return True
        return False

    def _smaller_board(self) -> bool:
        """One row and one column fewer, while the failure stays."""
        shrunk = False
        while self.n > 1 and not self.out_of_time:
            for row in (self.n - 1, 0):
                if any(self._without(row, column) for column in (self.n - 1, 0)):
                    shrunk = True
                    break
            else:
                return shrunk
        return shrunk

    def _without(self, row: int, column: int) -> bool:
        def squeeze(square: Square | None) -> Square | None:
            if square is None or square[0] == row or square[1] == column:
                return None
            return (square[0] - (square[0] > row), square[1] - (square[1] > column))

        moved = _then(self.moved, squeeze)
        parts = [(kind, squeeze(s)) for kind, s in self.parts]
        parts = [(kind, s) for kind, s in parts if s is not None]
        return self._test(self.n - 1, parts, moved)

    def _nearer_corner(self) -> bool:
        """Each part one step up or left, while the failure stays."""
        for index, (kind, (row, column)) in enumerate(self.parts):
            for step in ((row - 1, column), (row, column - 1)):
                if min(step) < 0 or any(s == step for _, s in self.parts):
                    continue
                parts = [*self.parts[:index], (kind, step), *self.parts[index + 1 :]]
                if self._test(self.n, parts, self.moved):
                    return True
        return False
