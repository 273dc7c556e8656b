"""What a campaign costs, counted when its spec is read and before anything of it is
built: each board against the largest its solvers take, the squares its generators
visit, and its number of runs. Every count is arithmetic on the lists the spec gives
(their lengths multiplied), never a list expanded to be counted; a spec beyond a bound
is refused with the number and the bound.

>>> from .spec import SolverConfig
>>> price([Recipe("[[instances]] #1", sizes=(8, 9))], [SolverConfig("stack", "stack")],
...       repeats=10**9)
Traceback (most recent call last):
...
cpqueens.errors.InvalidInputError: the campaign has 2,000,000,000 runs (2 instances x \
1 solver x 1,000,000,000 repeats), beyond the bound of 1,000,000 runs; split it into \
smaller campaigns
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..arguments import MAX_N
from ..errors import InvalidInputError

#: The most runs a campaign has (instances x solvers x repeats).
MAX_RUNS = 1_000_000
#: The largest board (n * n squares) a generator that visits every square builds: at
#: n = 2,000 its list of squares in a random order already takes about 150 MB.
MAX_SQUARES = 4_000_000
#: The most squares the generators of one spec visit in all (seconds of work each
#: million).
MAX_TOTAL_SQUARES = 20_000_000


@dataclass(frozen=True)
class Recipe:
    """One ``[[instances]]`` table as read, before anything is built: a generator and
    the values it combines (``counts`` are its blocked squares or given queens), or
    the files its patterns match (``counts`` then the diagonals taken of each
    Excluded Diagonals file, one instance a file and d)."""

    where: str
    generator: str | None = "plain"
    sizes: tuple[int, ...] = ()
    counts: tuple[int, ...] = ()
    seeds: tuple[int, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    files: tuple[str, ...] = ()

    @property
    def instances(self) -> int:
        """How many instances it makes (at most: the same board twice is one)."""
        if self.generator is None:
            return len(self.files) * max(1, len(self.counts))
        if self.generator == "plain":
            return len(self.sizes)
        return len(self.sizes) * len(self.counts) * len(self.seeds)

    @property
    def visits_squares(self) -> bool:
        """True for a generator that lists every square of the board in a random order
        (blocked squares; queens given at random rather than from a solution)."""
        if self.generator == "completion":
            return not self.extra.get("from_solution", False)
        return self.generator == "blocked"


def largest_board(solvers: Sequence[Any]) -> tuple[int, str]:
    """The largest board any of ``solvers`` (:class:`~.spec.SolverConfig`) takes (a
    backend's limit, or any size for a program), and the label of one that takes it."""
    from ..solvers import get_backend

    best, who = 0, ""
    for config in solvers:
        largest = MAX_N if config.backend is None else get_backend(config.backend).largest_n()
        largest = MAX_N if largest is None else largest
        if largest > best:
            best, who = largest, config.label
    return best, who


def check_board(n: int, where: str, largest: tuple[int, str]) -> None:
    """Refuse a board no solver of the campaign takes (``largest``: see
    :func:`largest_board`)."""
    if n > largest[0]:
        raise InvalidInputError(
            f"{where}: n={n:,} is beyond every solver of the campaign: the largest board "
            f"any of them takes is n={largest[0]:,} ({largest[1]})"
        )


def price(recipes: Sequence[Recipe], solvers: Sequence[Any], repeats: int) -> None:
    """Refuse a campaign whose boards no solver takes, whose generators would visit too
    many squares, or that has more than :data:`MAX_RUNS` runs."""
    largest = largest_board(solvers)
    squares = 0
    for recipe in recipes:
        for n in recipe.sizes:
            check_board(n, recipe.where, largest)
        if recipe.visits_squares and recipe.sizes:
            n = max(recipe.sizes)
            if n * n > MAX_SQUARES:
                raise InvalidInputError(
                    f"{recipe.where}: generator {recipe.generator!r} visits every square of "
                    f"the board: n={n:,} is {n * n:,} squares, beyond the bound of "
                    f"{MAX_SQUARES:,} (n <= {int(MAX_SQUARES**0.5):,})"
                )
            squares += sum(n * n for n in recipe.sizes) * len(recipe.counts) * len(recipe.seeds)
    if squares > MAX_TOTAL_SQUARES:
        raise InvalidInputError(
            f"the generators would visit {squares:,} squares in all, beyond the bound of "
            f"{MAX_TOTAL_SQUARES:,}; ask for fewer or smaller generated instances"
        )
    instances = sum(recipe.instances for recipe in recipes)
    runs = instances * len(solvers) * repeats
    if runs > MAX_RUNS:
        raise InvalidInputError(
            f"the campaign has {runs:,} runs ({_many(instances, 'instance')} x "
            f"{_many(len(solvers), 'solver')} x {_many(repeats, 'repeat')}), beyond the "
            f"bound of {MAX_RUNS:,} runs; split it into smaller campaigns"
        )


def _many(count: int, what: str) -> str:
    return f"{count:,} {what}{'s' * (count != 1)}"
