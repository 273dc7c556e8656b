"""Seeded generators of blocked n-queens, n-queens completion and Excluded Diagonals
instances.

The same seed gives the same instance on every run, machine and Python version:
every random choice is drawn from :meth:`random.Random.random` (the one method
whose sequence Python keeps from version to version for a given integer seed)
through the explicit algorithms below, and nothing depends on the order of a
set or a dict.

>>> import cpqueens
>>> cpqueens.random_blocked(4, 2, seed=1)
Instance(n=4, blocked=((0, 1), (3, 1)))
>>> cpqueens.random_completion(6, 2, seed=1, from_solution=True)
Instance(n=6, fixed=((1, 2), (5, 1)))
"""

from __future__ import annotations

import random

from ..arguments import check_int, check_n
from ..board import Solution
from ..errors import InvalidInputError, InvalidTypeError
from .instance import MAX_EXCLUDED_SQUARES, Instance, diagonal_squares

#: How many random orders a generator tries before it says the instance asked for
#: cannot be made, as the generator of Gent et al. does.
ATTEMPTS = 1000


def random_blocked(n: int, blocked: int, *, min_free: int = 1, seed: int | None = None) -> Instance:
    """A blocked n-queens instance: ``blocked`` squares blocked at random.

    The generator of Gent, Jefferson and Nightingale (CSPLib problem 80): visit the
    squares in a random order and block a square when its row and its column would
    each keep at least ``min_free`` free squares, until ``blocked`` squares are
    blocked. A visit order that leaves fewer blocked is dropped for a new one, up
    to 1,000 of them; more than ``n * (n - min_free)`` squares are never asked for.
    The rule is theirs, the random stream this module's: a seed here does not give
    the file their script gives for the same seed.

    Parameters
    ----------
    n : int
        Board size.
    blocked : int
        How many squares to block.
    min_free : int, default 1
        The fewest free squares left in every row and every column.
    seed : int, optional
        Makes the instance reproducible (0 or more); None draws a fresh one.

    Examples
    --------
    >>> import cpqueens
    >>> inst = cpqueens.random_blocked(8, 20, min_free=3, seed=7)
    >>> len(inst.blocked), inst == cpqueens.random_blocked(8, 20, min_free=3, seed=7)
    (20, True)
    >>> cpqueens.random_blocked(3, 7)
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: cannot block 7 squares on a 3x3 board leaving 1 \
free square in every row and column: at most 6 (n * (n - min_free))
    """
    n = check_n(n)
    count = check_int(blocked, "blocked", 0)
    min_free = check_int(min_free, "min_free", 0)
    if min_free > n:
        raise InvalidInputError(f"min_free must be at most n={n}, got {min_free}")
    most = n * (n - min_free)
    if count > most:
        raise InvalidInputError(
            f"cannot block {count} squares on a {n}x{n} board leaving {min_free} free "
            f"square{'' if min_free == 1 else 's'} in every row and column: at most {most} "
            "(n * (n - min_free))"
        )
    rng = _rng(seed)
    limit = n - min_free  # the most squares blocked in one row or column
    for _ in range(ATTEMPTS):
        order = _shuffled(rng, n * n)
        in_row, in_column = [0] * n, [0] * n
        chosen = []
        for square in order:
            if len(chosen) == count:
                break
            row, column = divmod(square, n)
            if in_row[row] < limit and in_column[column] < limit:
                in_row[row] += 1
                in_column[column] += 1
                chosen.append((row, column))
        if len(chosen) == count:
            return Instance(n, blocked=chosen)
    raise InvalidInputError(
        f"could not block {count} squares on a {n}x{n} board leaving {min_free} free in "
        f"every row and column: {ATTEMPTS} random orders all stopped short; ask for fewer"
    )


def random_completion(
    n: int, queens: int, *, seed: int | None = None, from_solution: bool = False
) -> Instance:
    """An n-queens completion instance: ``queens`` queens given, none attacking another.

    By default the queens are placed at random: the squares are visited in a
    random order and a queen is put on each square no queen placed so far
    attacks, until ``queens`` stand (an order that runs out first is dropped for a
    new one, up to 1,000). Such an instance may have no completion. With
    ``from_solution=True`` the queens of ``queens`` random rows are taken from a
    random whole solution (found by :func:`random_solution`), so every instance
    can be completed.

    Parameters
    ----------
    n : int
        Board size.
    queens : int
        How many queens to give, at most ``n``.
    seed : int, optional
        Makes the instance reproducible (0 or more); None draws a fresh one.
    from_solution : bool, default False
        Take the queens from a solution, making the instance completable.

    Examples
    --------
    >>> import cpqueens
    >>> cpqueens.random_completion(8, 3, seed=2)
    Instance(n=8, fixed=((0, 2), (3, 4), (7, 1)))
    >>> inst = cpqueens.random_completion(10, 6, seed=5, from_solution=True)
    >>> cpqueens.solve(inst).count  # it came from a solution: a completion exists
    1
    """
    n = check_n(n)
    count = check_int(queens, "queens", 0)
    if not isinstance(from_solution, bool):
        raise InvalidTypeError(f"from_solution must be True or False, got {from_solution!r}")
    if count > n:
        raise InvalidInputError(f"cannot give {count} queens on a {n}x{n} board: at most {n}")
    rng = _rng(seed)
    if from_solution:
        solution = random_solution(n, rng)
        rows = _shuffled(rng, n)[:count]
        return Instance(n, fixed={row: solution[row] for row in rows})
    for _ in range(ATTEMPTS):
        placed = _greedy_queens(rng, n, count)
        if placed is not None:
            return Instance(n, fixed=placed)
    raise InvalidInputError(
        f"could not place {count} queens at random on a {n}x{n} board: {ATTEMPTS} random "
        "orders all ran out of free squares first; ask for fewer, or take them from a "
        "solution (from_solution=True)"
    )


def random_diagonals(
    n: int, diagonals: int | None = None, *, min_free: int = 4, seed: int | None = None
) -> Instance:
    """An Excluded Diagonals instance (CSPLib problem 79): whole diagonals excluded.

    Gent, Jefferson and Nightingale's generator: the sum diagonals and the difference
    diagonals are each put in a random order; while either has one left, a random
    family (the other when one is empty) gives its next diagonal, which is excluded
    when every row and column keeps ``min_free`` free squares after it (a square
    already excluded counts once). The diagonals excluded, in that order, are a
    maximal set, and each first ``d`` of them an instance. The rule is theirs, the
    random stream this module's: a seed here does not give the file their script
    gives for the same seed.

    Parameters
    ----------
    n : int
        Board size.
    diagonals : int, optional
        Keep the first ``diagonals`` of them (default: all, the whole list a problem
        79 file holds).
    min_free : int, default 4
        The fewest free squares left in every row and every column (4 in every file
        of CSPLib's set).
    seed : int, optional
        Makes the instance reproducible (0 or more); None draws a fresh one.

    Examples
    --------
    >>> import cpqueens
    >>> cpqueens.random_diagonals(6, 3, min_free=2, seed=1)
    Instance(n=6, diagonals=((9, 0), (1, 1), (8, 1)))
    """
    n = check_n(n)
    count = None if diagonals is None else check_int(diagonals, "diagonals", 0)
    min_free = check_int(min_free, "min_free", 0)
    if min_free > n:
        raise InvalidInputError(f"min_free must be at most n={n}, got {min_free}")
    if n * (n - min_free) > MAX_EXCLUDED_SQUARES:
        raise InvalidInputError(
            f"n={n:,} is beyond the Excluded Diagonals generator: it may exclude up to "
            f"n * (n - min_free) = {n * (n - min_free):,} squares, and an instance at most "
            f"{MAX_EXCLUDED_SQUARES:,}"
        )
    rng = _rng(seed)
    families = {1: _shuffled(rng, 2 * n - 1), 0: _shuffled(rng, 2 * n - 1)}
    free_in_row, free_in_column = [n] * n, [n] * n
    excluded: set[tuple[int, int]] = set()
    chosen = []
    while families[0] or families[1]:
        kind = _randbelow(rng, 2) if families[0] and families[1] else int(bool(families[1]))
        diagonal = (families[kind].pop(), kind)
        fresh = [square for square in diagonal_squares(n, diagonal) if square not in excluded]
        if all(free_in_row[r] > min_free and free_in_column[c] > min_free for r, c in fresh):
            for row, column in fresh:
                free_in_row[row] -= 1
                free_in_column[column] -= 1
            excluded.update(fresh)
            chosen.append(diagonal)
    if count is not None and count > len(chosen):
        raise InvalidInputError(
            f"cannot exclude {count} diagonals of a {n}x{n} board leaving {min_free} free "
            f"squares in every row and column: this seed's maximal set holds {len(chosen)}"
        )
    return Instance(n, diagonals=chosen[:count])


def random_solution(n: int, rng: random.Random) -> Solution:
    """A random solution of the n-queens problem, found without a solver backend.

    A min-conflicts local search over permutations (one queen a row and a column,
    so only diagonals can clash): from a random permutation, pick a random row
    whose queen is attacked and swap its column with the row's whose swap leaves
    the fewest attacks (ties broken at random, equal moves allowed), until no queen
    is attacked; a search that stalls starts again from a new permutation.

    >>> import random
    >>> from cpqueens import is_valid
    >>> all(is_valid(random_solution(n, random.Random(n))) for n in (1, 4, 5, 8, 30))
    True
    """
    if n in (2, 3):
        raise InvalidInputError(f"the {n}-queens problem has no solution")
    if n == 1:
        return (0,)
    if n <= SMALL_N:
        return _random_backtracking(n, rng)
    while True:
        solution = _min_conflicts(n, _greedy_permutation(n, rng), rng, steps=50 * n)
        if solution is not None:
            return solution


#: Boards up to this size are solved by a randomised backtracking, which finds a
#: solution of a small board at once where the local search may wander among the
#: few solutions there are (n=6 has four).
SMALL_N = 12


def _random_backtracking(n: int, rng: random.Random) -> Solution:
    """Rows in order, each row's free columns in a random order, the first solution."""
    columns: list[int] = []
    orders = [_shuffled(rng, n)]
    while True:
        if not orders[-1]:
            orders.pop()
            columns.pop()
            continue
        column = orders[-1].pop()
        row = len(columns)
        if any(
            column == other or abs(column - other) == row - earlier
            for earlier, other in enumerate(columns)
        ):
            continue
        columns.append(column)
        if len(columns) == n:
            return tuple(columns)
        orders.append(_shuffled(rng, n))


def _greedy_permutation(n: int, rng: random.Random) -> list[int]:
    """A permutation with few diagonal clashes: each row takes the first of a few random
    unused columns that no queen above attacks (the last one drawn when none does)."""
    unused = list(range(n))
    ups, downs = [False] * (2 * n - 1), [False] * (2 * n - 1)
    columns = []
    for row in range(n):
        for _ in range(GREEDY_TRIES):
            index = _randbelow(rng, len(unused))
            column = unused[index]
            if not (ups[row + column] or downs[row - column + n - 1]):
                break
        unused[index] = unused[-1]
        unused.pop()
        ups[row + column] = downs[row - column + n - 1] = True
        columns.append(column)
    return columns


#: Random columns a row of :func:`_greedy_permutation` tries before taking a clash.
GREEDY_TRIES = 20


def _min_conflicts(n: int, columns: list[int], rng: random.Random, steps: int) -> Solution | None:
    """Repair ``columns`` (a permutation) into a solution in at most ``steps`` swaps."""
    ups, downs = [0] * (2 * n - 1), [0] * (2 * n - 1)  # queens per diagonal
    for row, column in enumerate(columns):
        ups[row + column] += 1
        downs[row - column + n - 1] += 1

    def attacked(row: int) -> bool:
        column = columns[row]
        return ups[row + column] > 1 or downs[row - column + n - 1] > 1

    def move(row: int, column: int, step: int) -> int:
        """Add ``step`` (+1 or -1) queens on (row, column); the change in clashes."""
        up, down = row + column, row - column + n - 1
        if step < 0:
            change = -(ups[up] > 1) - (downs[down] > 1)
        else:
            change = (ups[up] > 0) + (downs[down] > 0)
        ups[up] += step
        downs[down] += step
        return change

    def swap(first: int, second: int) -> int:
        """Swap the columns of two rows; the change in clashes."""
        a, b = columns[first], columns[second]
        change = move(first, a, -1) + move(second, b, -1)
        change += move(first, b, +1) + move(second, a, +1)
        columns[first], columns[second] = b, a
        return change

    clashes = sum(count - 1 for count in ups if count > 1)
    clashes += sum(count - 1 for count in downs if count > 1)
    for _ in range(steps):
        if clashes == 0:
            return tuple(columns)
        row = _randbelow(rng, n)
        while not attacked(row):
            row = _randbelow(rng, n)
        best, best_change, ties = -1, 0, 0
        for other in range(n):
            if other == row:
                continue
            change = swap(row, other)
            swap(row, other)  # undo: only the change is wanted here
            if best < 0 or change < best_change:
                best, best_change, ties = other, change, 1
            elif change == best_change:
                ties += 1  # keep each of the equal best with the same chance
                if _randbelow(rng, ties) == 0:
                    best = other
        if best_change <= 0:
            clashes += swap(row, best)
    return tuple(columns) if clashes == 0 else None


def _greedy_queens(rng: random.Random, n: int, count: int) -> list[tuple[int, int]] | None:
    """``count`` queens on squares visited in a random order, each one on a square no
    queen before it attacks; None when the squares run out first."""
    rows, columns = [False] * n, [False] * n
    ups, downs = [False] * (2 * n - 1), [False] * (2 * n - 1)
    placed: list[tuple[int, int]] = []
    if count == 0:
        return placed
    for square in _shuffled(rng, n * n):
        row, column = divmod(square, n)
        up, down = row + column, row - column + n - 1
        if rows[row] or columns[column] or ups[up] or downs[down]:
            continue
        rows[row] = columns[column] = ups[up] = downs[down] = True
        placed.append((row, column))
        if len(placed) == count:
            return placed
    return None


def _rng(seed: int | None) -> random.Random:
    """A generator seeded with ``seed``; negative seeds are refused, for
    ``random.Random`` gives ``-s`` the sequence of ``s``."""
    if seed is None:
        return random.Random()
    return random.Random(check_int(seed, "seed", 0))


def _randbelow(rng: random.Random, bound: int) -> int:
    """A whole number in ``range(bound)`` from :meth:`random.Random.random` alone.

    ``randrange`` and ``shuffle`` are left alone: Python keeps only ``random()``'s
    sequence from version to version. The bias of scaling 53 random bits, at most
    ``bound / 2**53``, is far below anything the boards asked for here could show.
    """
    return int(rng.random() * bound)


def _shuffled(rng: random.Random, size: int) -> list[int]:
    """``range(size)`` in a random order (Fisher and Yates, from the end)."""
    items = list(range(size))
    for last in range(size - 1, 0, -1):
        pick = _randbelow(rng, last + 1)
        items[last], items[pick] = items[pick], items[last]
    return items
