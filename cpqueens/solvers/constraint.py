"""python-constraint (the ``python-constraint2`` package) behind the backend interface.

The model has one variable per row with the columns as its domain (a fixed row's
domain is its one column, and a blocked square is left out of its row's domain), an
``AllDifferentConstraint`` on the columns, and the diagonals. python-constraint has no
expressions to put an all-different on ``q[r] + r``, so the diagonals are either one
constraint over every row that does its own forward checking (``diagonals="global"``,
the default: once a row is assigned it hides the two squares it attacks in each
unassigned row), or one function constraint per pair of rows
(``diagonals="pairwise"``), the library's textbook formulation. Measured side by side
(medians of 3, counting every solution), the global constraint is about 1.3x faster
for n=9..11: 0.27 s against 0.36 s at n=10, 1.3 s against 1.7 s at n=11.

Solutions come one at a time from the solver's ``getSolutionIter``, so ``limit`` and
``time_limit`` stop the search without computing the rest. The clock is read by the
diagonals constraint, which the solver calls at every assignment, so a long stretch of
search without a solution is interrupted too.

A row with every square blocked leaves no solution: python-constraint refuses an
empty domain, so the solver is not started (``stats["empty_row"]`` names the row).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

from ..board import Solution
from ._domains import row_domains
from .base import Backend
from .problem import Problem
from .run import SearchRun, check_interval

DIAGONALS = ("global", "pairwise")


class ConstraintBackend(Backend):
    """python-constraint's ``OptimizedBacktrackingSolver`` with forward checking.

    Option ``diagonals``: ``"global"`` (one forward-checking constraint, default)
    or ``"pairwise"`` (one function constraint per pair of rows).

    >>> import cpqueens
    >>> result = cpqueens.solve(8, backend="constraint")
    >>> result.count, result.stats["solver"]
    (92, 'OptimizedBacktrackingSolver')
    >>> cpqueens.count(8, backend="constraint", diagonals="pairwise")
    92
    >>> cpqueens.count(8, backend="constraint", blocked=[(0, 0), (3, 3)])
    80

    See Also
    --------
    CPSatBackend : OR-Tools CP-SAT on the same row model.
    """

    name = "constraint"
    # The largest board taken: python-constraint's domains and set-up, which
    # cannot be stopped, take seconds past n=2000.
    max_n = 2_000
    summary = "python-constraint: backtracking with forward checking, lazy solution iterator"
    source = "python-constraint2 (constraint.Problem, OptimizedBacktrackingSolver)"
    requires = "constraint"
    install_hint = "python-constraint2"
    lexicographic = False  # the solver's variable order and value order are its own
    supports_blocked = True
    options = ("diagonals",)
    neutral_options = (("diagonals", DIAGONALS),)

    def check_options(self, options: dict[str, Any]) -> None:
        self.choice(options, "diagonals", DIAGONALS)

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        import constraint  # here, so that import cpqueens stays light

        n = problem.n
        diagonals = self.choice(problem.options, "diagonals", DIAGONALS)
        solver = constraint.OptimizedBacktrackingSolver()
        csp = constraint.Problem(solver)
        rows = range(n)
        # A call of the diagonals constraint costs up to n * n steps on a large board.
        interval = check_interval(n * n)
        domains = row_domains(problem)
        empty = next((row for row in rows if not domains[row]), None)
        run.stats.update(solver=type(solver).__name__, diagonals=diagonals, solutions=0)
        if empty is not None:
            run.stats["empty_row"] = empty
            return
        for row in rows:
            csp.addVariable(row, domains[row])
        csp.addConstraint(constraint.AllDifferentConstraint(), list(rows))
        # The solver runs between two solutions without handing control back, so the
        # clock is read from inside a constraint it calls at every assignment.
        if diagonals == "global":
            csp.addConstraint(_diagonals_constraint_type()(run.check_time, interval), list(rows))
        else:
            for first in rows:
                for second in range(first + 1, n):
                    csp.addConstraint(_apart(second - first), (first, second))
            csp.addConstraint(
                _diagonals_constraint_type()(run.check_time, interval, check=False), list(rows)
            )
        found = 0
        try:
            for assignment in csp.getSolutionIter():
                found += 1
                yield tuple(assignment[row] for row in rows)
                run.check_time()
        finally:
            run.stats["solutions"] = found


def _apart(distance: int):
    """Two rows ``distance`` apart must not share a diagonal."""
    return lambda a, b: abs(a - b) != distance


@functools.cache
def _diagonals_constraint_type() -> type:
    import constraint
    from constraint.domain import Unassigned

    class DiagonalsConstraint(constraint.Constraint):
        """No two queens on a diagonal, over all rows, with forward checking.

        The variables are the row numbers, their values the columns. Called with
        ``forwardcheck`` truthy, it hides from each unassigned row the two squares
        every assigned queen attacks there, and fails once a row has none left.
        """

        def __init__(self, check_time: Callable[[], None], interval: int, *, check: bool = True):
            # ``check_time`` raises once the deadline has passed; with ``check`` False
            # the constraint only keeps the clock (the pairwise model's diagonals).
            self._check_time = check_time
            self._check = check
            self._calls = 0
            self._interval = interval

        def __call__(
            self,
            variables: list[int],
            domains: dict,
            assignments: dict,
            forwardcheck: Any = False,
            _unassigned: Any = Unassigned,
        ) -> bool:
            self._calls += 1
            if self._calls % self._interval == 0:
                self._check_time()
            if not self._check:
                return True
            ups: set[int] = set()
            downs: set[int] = set()
            for row in variables:
                column = assignments.get(row, _unassigned)
                if column is _unassigned:
                    continue
                if column + row in ups or column - row in downs:
                    return False
                ups.add(column + row)
                downs.add(column - row)
            if forwardcheck:
                for row in variables:
                    if row in assignments:
                        continue
                    domain = domains[row]
                    for column in domain[:]:
                        if column + row in ups or column - row in downs:
                            domain.hideValue(column)
                    if not domain:
                        return False
            return True

    return DiagonalsConstraint
