"""The trusted statement: the instance's CNF, and the blocking clauses of a count.

It is the formula :func:`cpqueens.instances.formats.cnf.dimacs` writes with the pairwise
at-most-one encoding (what ``write_instance(..., "x.cnf")`` writes with
``encoding="pairwise"``): square ``(r, c)`` is variable ``r * n + c + 1``; every row
and every column at least one queen, every pair of squares sharing a row, a column
or a diagonal not both; a blocked square false, a given queen true. No auxiliary
variable: a model is a board. tests/proofs/test_certify.py holds it against a brute-force
enumeration of every board.

A count of k is the claim that the k boards listed are models and that the formula
with their k *blocking clauses* (not all of this board's queens) has none.

>>> from cpqueens import Instance
>>> clauses = statement_clauses(Instance(4))
>>> len(clauses), satisfies((1, 3, 0, 2), clauses), satisfies((0, 1, 2, 3), clauses)
(84, True, False)
>>> blocking_clause((1, 3, 0, 2), 4)
[-2, -8, -9, -15]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import IO

from ..instances import Instance
from ..instances.formats.cnf import blocked_clauses, board_formula, square

#: The at-most-one encoding of the statement: no auxiliary variable, so unit
#: propagation on it is forward checking, and a model is a board.
ENCODING = "pairwise"


def statement_clauses(instance: Instance) -> list[list[int]]:
    """The clauses of the statement of ``instance``."""
    clauses, _, _ = board_formula(instance.n, ENCODING, instance.fixed_per_row())
    return clauses + blocked_clauses(instance.n, instance.blocked)


def blocking_clause(board: Sequence[int], n: int) -> list[int]:
    """The clause no model but ``board`` falsifies: not all of its queens."""
    return [-square(n, row, column) for row, column in enumerate(board)]


def satisfies(board: Sequence[int], clauses: Iterable[Sequence[int]]) -> bool:
    """True when the board, as an assignment of the squares, satisfies every clause."""
    n = len(board)
    true = {square(n, row, column) for row, column in enumerate(board)}
    return all(any((lit > 0) == (abs(lit) in true) for lit in clause) for clause in clauses)


def models(boards: Sequence[Sequence[int]], clauses: list[list[int]], n: int) -> list[bool]:
    """:func:`satisfies` for many boards at once (numpy: a few hundred boards a step)."""
    import numpy as np

    if not boards:
        return []
    width = max(len(clause) for clause in clauses)
    literals = np.zeros((len(clauses), width), dtype=np.int64)
    for index, clause in enumerate(clauses):
        literals[index, : len(clause)] = clause
    variables, positive, used = np.abs(literals), literals > 0, literals != 0
    squares = np.asarray(boards, dtype=np.int64) + np.arange(n) * n + 1
    verdicts: list[bool] = []
    for start in range(0, len(boards), 256):
        chunk = squares[start : start + 256]
        true = np.zeros((len(chunk), n * n + 1), dtype=bool)
        true[np.arange(len(chunk))[:, None], chunk] = True
        values = true[:, variables] == positive  # boards x clauses x literals
        verdicts += (values & used).any(axis=2).all(axis=1).tolist()
    return verdicts


def write_formula(
    out: IO[str], instance: Instance, clauses: list[list[int]], boards: Sequence[Sequence[int]]
) -> int:
    """Write the statement and the blocking clauses of ``boards`` as DIMACS CNF to
    ``out``; return the number of clauses written."""
    n = instance.n
    total = len(clauses) + len(boards)
    out.write(f"c n-queens, n = {n}: the statement of cpqueens' certificate\n")
    out.write(f"c square (r, c) is variable r * {n} + c + 1, r and c from 0; pairwise\n")
    out.write(f"c then {len(boards)} blocking clauses, one a solution listed\n")
    out.write(f"p cnf {n * n} {total}\n")
    for clause in clauses:
        out.write(" ".join(map(str, clause)) + " 0\n")
    for board in boards:
        out.write(" ".join(map(str, blocking_clause(board, n))) + " 0\n")
    return total
