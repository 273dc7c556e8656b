"""A DRUP proof from a SAT solver, through python-sat (``with_proof=True``).

The solver is given the statement and the blocking clauses of the boards listed,
and must find them unsatisfiable; its proof (DRUP, a kind of DRAT) is then written
out for the checker. python-sat holds a proof in memory until it is asked for, so
this producer suits instances whose search is small; the ``propagate`` producer
streams.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO

from ..errors import SolverError
from .statement import blocking_clause

#: The python-sat solvers that log proofs.
PROOF_SOLVERS = ("cadical153", "glucose4", "glucose3", "glucose42", "lingeling", "maplechrono")
DEFAULT_SOLVER = "cadical153"


def write_proof(
    clauses: list[list[int]],
    boards: Sequence[Sequence[int]],
    n: int,
    out: IO[str],
    *,
    solver: str = DEFAULT_SOLVER,
    max_bytes: int,
) -> int:
    """Have ``solver`` refute the statement with the boards' blocking clauses, and write
    its proof to ``out``; return the bytes written.

    Raises
    ------
    SolverError
        When the solver finds a model: a solution the boards listed do not hold (the
        count claimed is short), or when its proof would pass ``max_bytes``.
    """
    from pysat.solvers import Solver

    formula = clauses + [blocking_clause(board, n) for board in boards]
    with Solver(name=solver, bootstrap_with=formula, with_proof=True) as sat:
        if sat.solve():
            model = [lit for lit in sat.get_model() if 0 < lit <= n * n]
            board = tuple((lit - 1) % n for lit in sorted(model))
            raise SolverError(
                f"the SAT solver {solver} found a solution the {len(boards)} boards listed do "
                f"not hold, {board}: the count is not {len(boards)}"
            )
        proof = sat.get_proof() or []
    written = 0
    for line in proof:
        written += len(line) + 1
        if written > max_bytes:
            raise SolverError(
                f"the proof of {solver} passed max_proof_bytes={max_bytes:,}; raise it to allow"
            )
        out.write(line + "\n")
    if not proof or proof[-1].strip() != "0":
        out.write("0\n")  # the empty clause, should the solver not have logged it
        written += 2
    return written


def boards_of(
    clauses: list[list[int]], n: int, *, solver: str = DEFAULT_SOLVER, limit: int | None = None
) -> list[tuple[int, ...]]:
    """The models of the statement, as boards, each blocked once found (up to ``limit``)."""
    from pysat.solvers import Solver

    boards: list[tuple[int, ...]] = []
    with Solver(name=solver, bootstrap_with=clauses) as sat:
        while (limit is None or len(boards) < limit) and sat.solve():
            queens = sorted(lit for lit in sat.get_model() if 0 < lit <= n * n)
            board = tuple((lit - 1) % n for lit in queens)
            boards.append(board)
            sat.add_clause(blocking_clause(board, n))
    return boards
