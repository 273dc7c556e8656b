"""The instances a hunt tries: drawn from every family, weighted toward what breaks solvers.

Each instance is a pure function of the hunt's seed and its index, so that the same
seed gives the same instances in the same order, however many workers draw them, and
a resumed hunt goes on where the last one stopped.

A family is drawn first (plain, blocked, given, mixed, diagonals), then a *shape*
inside it. About a third of the draws are edge shapes: tiny boards (n = 1..4), a row
with every square blocked, two given queens that attack each other, queens given in
the first and last row and column, plain boards of many solutions (past 255 for
n >= 9, past 65,535 for n >= 13). The rest sit near each family's phase transition,
where answers flip between satisfiable and not: about two to seven free squares a row
on blocked boards (docs/instances.md), a quarter to a half of the queens given on
completion boards.

>>> from cpqueens.fuzzing.families import draw
>>> draw(0, 0, max_n=8) == draw(0, 0, max_n=8)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..errors import CPQueensError, InvalidInputError
from ..instances import Instance, random_blocked, random_completion, random_diagonals

#: Every family a hunt draws from, in the order reports list them.
FAMILIES = ("plain", "blocked", "given", "mixed", "diagonals")

#: The share of draws that are a tiny board (n = 1..4), whatever the family.
TINY_SHARE = 0.3


@dataclass(frozen=True)
class Drawn:
    """One instance of a hunt: its index, family, shape and the instance itself."""

    index: int
    family: str
    shape: str
    instance: Instance


def check_families(families: Sequence[str] | None) -> tuple[str, ...]:
    """The families asked for, checked (None: every family)."""
    if families is None:
        return FAMILIES
    if isinstance(families, str):
        families = [families]
    chosen = tuple(dict.fromkeys(families))
    unknown = [name for name in chosen if name not in FAMILIES]
    if unknown or not chosen:
        raise InvalidInputError(
            f"families must name some of: {', '.join(FAMILIES)}; got {list(families)!r}"
        )
    return chosen


def draw(seed: int, index: int, *, max_n: int = 12, families: Sequence[str] = FAMILIES) -> Drawn:
    """The ``index``-th instance of the hunt of ``seed``: the same every time."""
    rng = random.Random(f"cpqueens-fuzz/{seed}/{index}")
    family = families[rng.randrange(len(families))]
    shapes = _SHAPES[family]
    for _ in range(20):  # a shape that cannot be made on this board: draw again
        shape, make = shapes[rng.randrange(len(shapes))]
        n = _size(rng, max_n, shape)
        try:
            instance = make(rng, n)
        except CPQueensError:
            continue
        if instance is not None:
            return Drawn(index, family, shape, instance)
    return Drawn(index, "plain", "plain", Instance(_size(rng, max_n, "plain")))


def _size(rng: random.Random, max_n: int, shape: str) -> int:
    if shape == "many solutions" and max_n >= 9:  # past 255 solutions from n = 9 on
        return rng.randint(9, max_n)
    if max_n <= 4 or rng.random() < TINY_SHARE:
        return rng.randint(1, min(4, max_n))
    return rng.randint(5, max_n)


def _plain(rng: random.Random, n: int) -> Instance:
    return Instance(n)


def _near_transition_blocked(rng: random.Random, n: int) -> Instance:
    # Gent et al.'s generator, leaving between one and seven free squares a row.
    free = rng.randint(1, max(1, min(7, n)))
    blocked = max(0, n * (n - free) - rng.randint(0, n))
    return random_blocked(n, blocked, seed=rng.randrange(2**31))


def _few_blocked(rng: random.Random, n: int) -> Instance:
    squares = _squares(n)
    return Instance(n, blocked=rng.sample(squares, rng.randint(1, min(3, len(squares)))))


def _blocked_row(rng: random.Random, n: int) -> Instance:
    row = rng.randrange(n)
    others = _few_blocked(rng, n).blocked if rng.random() < 0.5 else ()
    return Instance(n, blocked=[(row, column) for column in range(n)] + list(others))


def _completion(rng: random.Random, n: int) -> Instance:
    queens = rng.randint(1, max(1, n // 2))
    return random_completion(n, queens, seed=rng.randrange(2**31), from_solution=rng.random() < 0.5)


def _attacking_queens(rng: random.Random, n: int) -> Instance | None:
    if n < 2:
        return None
    first = rng.randrange(n - 1)
    second = rng.randrange(first + 1, n)
    column = rng.randrange(n)
    way = rng.choice(("column", "diagonal", "antidiagonal"))
    step = second - first
    other = {"column": column, "diagonal": column + step, "antidiagonal": column - step}[way]
    if not 0 <= other < n:
        other = column
    return Instance(n, fixed={first: column, second: other})


def _edge_queens(rng: random.Random, n: int) -> Instance:
    # Queens on the board's edges: the first and last row, the first and last column.
    edges = [(0, rng.randrange(n)), (n - 1, rng.randrange(n)), (rng.randrange(n), 0),
             (rng.randrange(n), n - 1)]  # fmt: skip
    chosen = rng.sample(edges, rng.randint(1, len(edges)))
    fixed: dict[int, int] = {}
    for row, column in chosen:
        fixed.setdefault(row, column)
    return Instance(n, fixed=fixed)


def _mixed(rng: random.Random, n: int) -> Instance:
    given = (_completion if rng.random() < 0.7 else _edge_queens)(rng, n)
    taken = {square for square in given.fixed}
    free = [square for square in _squares(n) if square not in taken]
    if not free:
        return None
    blocked = rng.sample(free, rng.randint(1, max(1, min(len(free), n * n // 3))))
    if rng.random() < 0.2:  # a row blocked save its given queen
        row = rng.randrange(n)
        blocked += [(row, column) for column in range(n) if (row, column) not in taken]
    return Instance(n, fixed=given.fixed, blocked=blocked)


def _many_solutions(rng: random.Random, n: int) -> Instance:
    if rng.random() < 0.5:
        return Instance(n)
    return Instance(n, blocked=[rng.choice(_squares(n))])


def _diagonals(rng: random.Random, n: int) -> Instance:
    instance = random_diagonals(n, min_free=rng.randint(0, min(3, n)), seed=rng.randrange(2**31))
    diagonals = instance.diagonals or ()
    kept = rng.randint(0, len(diagonals))
    return Instance(n, diagonals=diagonals[:kept])


def _squares(n: int) -> list[tuple[int, int]]:
    return [(row, column) for row in range(n) for column in range(n)]


Maker = Callable[[random.Random, int], "Instance | None"]

_SHAPES: dict[str, list[tuple[str, Maker]]] = {
    "plain": [("plain", _plain), ("many solutions", _many_solutions)],
    "blocked": [
        ("near transition", _near_transition_blocked),
        ("near transition", _near_transition_blocked),
        ("few blocked", _few_blocked),
        ("blocked row", _blocked_row),
    ],
    "given": [
        ("completion", _completion),
        ("completion", _completion),
        ("attacking queens", _attacking_queens),
        ("edge queens", _edge_queens),
    ],
    "mixed": [("mixed", _mixed)],
    "diagonals": [("diagonals", _diagonals)],
}
