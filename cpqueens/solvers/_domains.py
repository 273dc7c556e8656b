"""Each row's columns at once, for the backends that give every row a domain.

:meth:`Problem.allowed_columns` looks every square of a row up in the blocked set,
which costs over a second for the four million squares of n=2000; the solver
backends build all their domains before the search, so here the blocked squares are
grouped by row once and a row without one gets its whole range.
"""

from __future__ import annotations

from .problem import Problem


def row_domains(problem: Problem) -> list[list[int]]:
    """Per row, the columns a queen may take: its fixed one, else every unblocked one.

    >>> row_domains(Problem(3, (None, 2, None), blocked=frozenset({(0, 1), (2, 0)})))
    [[0, 2], [2], [1, 2]]
    """
    blocked_in: dict[int, set[int]] = {}
    for row, column in problem.blocked:
        blocked_in.setdefault(row, set()).add(column)
    every = range(problem.n)
    domains = []
    for row, given in enumerate(problem.fixed):
        if given is not None:
            domains.append([given])
        elif row in blocked_in:
            taken = blocked_in[row]
            domains.append([column for column in every if column not in taken])
        else:
            domains.append(list(every))
    return domains
