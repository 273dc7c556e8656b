"""One solution of any size in closed form, without search.

For every n except 2 and 3 a solution of the n-queens problem can be written down
directly. Ahrens (1910) gave the first explicit constructions; Hoffman, Loessi and
Moore (1969) gave the ones by the residue of n modulo 6 that this backend uses, and
Bernhardsson (1991) surveyed them with the other explicit solutions. In 1-based rows
and columns, the queen of row ``r`` takes the ``r``-th entry of a list of the even
columns followed by the odd ones, adjusted for two residues:

* ``n mod 6`` neither 2 nor 3: ``2, 4, ..., then 1, 3, 5, ...``;
* ``n mod 6 == 2``: the odd columns are ``3, 1, 7, 9, ..., n - 1, 5`` (1 and 3
  swapped, 5 moved to the end);
* ``n mod 6 == 3``: the even columns are ``4, 6, ..., n - 1, 2`` (2 moved to the end)
  and the odd ones ``5, 7, ..., n, 1, 3`` (1 and 3 moved to the end).

Every list is built with numpy in a few vector operations, so a board of ten million
rows takes a fraction of a second; the solution is checked like any backend's (with
the numpy check of :func:`cpqueens.board.is_valid` for large boards) before it is
handed over.

The construction gives one solution, not all of them. A run therefore yields that
solution and reports itself incomplete (``Result.complete`` is False: other
solutions exist for every n >= 4 and were not looked for), whatever ``limit`` asks
for; for n = 1 the one solution is every solution, and for n = 2 and n = 3, which
have none, the run is complete with no solution (``satisfiable`` is False). It takes
neither fixed queens nor blocked squares, which the construction cannot honour.

References
----------
* W. Ahrens, *Mathematische Unterhaltungen und Spiele*, 2nd ed., vol. 1,
  Teubner, Leipzig, 1910.
* E. J. Hoffman, J. C. Loessi and R. C. Moore, "Constructions for the Solution of
  the m Queens Problem", *Mathematics Magazine* 42(2), 66-72, 1969.
* B. Bernhardsson, "Explicit solutions to the N-queens problem for all N",
  *ACM SIGART Bulletin* 2(2), 7, 1991.

>>> import cpqueens
>>> cpqueens.solve(8, backend="construct").solution
(1, 3, 5, 7, 2, 0, 6, 4)
>>> r = cpqueens.solve(10**6, backend="construct")
>>> r.count, r.complete, r.satisfiable, r.solution[:4]
(1, False, True, (1, 3, 5, 7))
>>> cpqueens.solve(3, backend="construct").satisfiable
False
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..board import Solution
from ..errors import UnsupportedOptionError
from .base import Backend
from .guards import check_solution
from .problem import Problem
from .run import SearchRun


def construct(n: int) -> Any:
    """Return the explicit solution of the n-queens problem as a numpy array, or None.

    Entry ``r`` is the 0-based column of the queen in row ``r``; None for n = 2 and
    n = 3, which have no solution. The construction is Hoffman, Loessi and Moore's
    (1969), by the residue of n modulo 6 (see the module's description).

    >>> construct(4).tolist(), construct(9).tolist()
    ([1, 3, 0, 2], [3, 5, 7, 1, 4, 6, 8, 0, 2])
    >>> construct(3) is None
    True
    """
    import numpy as np

    if n in (2, 3):
        return None
    # 4-byte columns up to 2^31 rows: half the memory and time of int64.
    kind = np.int32 if n < 2**31 else np.int64
    # 1-based columns, as in the published lists; shifted to 0-based at the end.
    evens = np.arange(2, n + 1, 2, dtype=kind)
    odds = np.arange(1, n + 1, 2, dtype=kind)
    if n % 6 == 2:
        odds = np.concatenate(([3, 1], np.arange(7, n, 2, dtype=kind), [5]))
    elif n % 6 == 3:
        evens = np.concatenate((np.arange(4, n, 2, dtype=kind), [2]))
        odds = np.concatenate((np.arange(5, n + 1, 2, dtype=kind), [1, 3]))
    columns = np.concatenate((evens, odds)).astype(kind, copy=False)
    columns -= 1
    return columns


class ConstructBackend(Backend):
    """One solution from the explicit construction by n mod 6, for boards of any size.

    It lists one solution only (``Result.complete`` is False for n >= 4) and takes
    no fixed queens and no blocked squares. ``stats`` holds ``constructed`` (1 when
    a solution was written down, 0 for n = 2 and 3).

    >>> import cpqueens
    >>> r = cpqueens.solve(12, backend="construct", limit=5)
    >>> r.count, r.complete, r.solution
    (1, False, (1, 3, 5, 7, 9, 11, 0, 2, 4, 6, 8, 10))
    """

    name = "construct"
    summary = "one solution by the explicit construction by n mod 6, no search, any n"
    source = "Hoffman, Loessi and Moore 1969 (after Ahrens 1910; Bernhardsson 1991)"
    # One solution of each size, not every solution: see the module's description.
    lexicographic = False
    supports_fixed = False
    supports_blocked = False
    # The columns of a hundred million rows are 400 MB of int32 (Columns, never a
    # tuple of Python ints), and their check a few hundred MB more.
    max_n = 10**8
    #: It lists solutions (``enumerates``: ``solve`` and ``solutions`` take it), but
    #: not every solution: the registry's tests and comparisons of whole solution
    #: sets leave out a backend that is not ``exhaustive``.
    exhaustive = False

    def count(self, problem: Problem, run: SearchRun) -> int:
        """Refuse: one constructed solution says nothing of how many there are."""
        raise UnsupportedOptionError(
            f"backend {self.name!r} writes down one solution and cannot count them; "
            "use a counting backend (e.g. bitmask) for cpqueens.count"
        )

    def count_unique(self, problem: Problem, run: SearchRun) -> int:
        """Refuse, as :meth:`count` does."""
        return self.count(problem, run)

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        columns = construct(problem.n)
        if columns is None:
            run.stats["constructed"] = 0
            return
        # Other solutions exist for every n >= 4; the construction does not look for them.
        if problem.n > 1:
            run.complete = False
        run.stats["constructed"] = 1
        yield check_solution(columns, problem, self.name)
