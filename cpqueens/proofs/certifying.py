"""Certifying an answer: the boards listed checked against the statement, the proof
written (streamed to a file), the checker run on it, the verdict kept.

>>> import cpqueens
>>> certificate = cpqueens.certify(6)
>>> certificate.claim, certificate.count, certificate.verdict
('count', 4, 'proved')
>>> cpqueens.certify(3).claim
'unsatisfiable'
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from .. import arguments
from ..arguments import Square, check_int
from ..errors import InvalidInputError, SolverError
from ..instances import Instance, as_instance
from .certificate import Certificate
from .checker import check, check_checker
from .statement import models, statement_clauses, write_formula

#: The backends whose searches write proofs, and what writes each one's.
CERTIFYING_BACKENDS = {"propagate": "propagate", "sat": "sat", "exactcover": "exactcover"}
#: What certify() answers: the number of solutions, or whether there is one.
QUESTIONS = ("count", "decide")
#: Defaults: the proof's size, the checker's time and memory.
MAX_PROOF_BYTES = 2 * 2**30
CHECK_SECONDS = 600.0
CHECK_MEMORY_MB = 8192


def certify(
    n: int | Instance,
    fixed: Mapping[int, int] | None = None,
    *,
    blocked: Iterable[Square] | None = None,
    question: str = "count",
    producer: str = "propagate",
    boards: Sequence[Sequence[int]] | None = None,
    checker: str = "dratify",
    engine: str = "auto",
    check_seconds: float = CHECK_SECONDS,
    memory_mb: int = CHECK_MEMORY_MB,
    max_proof_bytes: int = MAX_PROOF_BYTES,
    keep_proof: str | os.PathLike | None = None,
) -> Certificate:
    """Prove the number of solutions of an instance (``question="count"``), or whether
    it has one (``"decide"``), with a proof an independent checker accepts.

    Parameters
    ----------
    n, fixed, blocked
        The instance, as for :func:`cpqueens.solve`.
    question : {"count", "decide"}
        A count is certified by its boards and a proof that no other exists; a
        decision by a board checked against the instance, or a proof of "no solution".
    producer : {"propagate", "exactcover", "sat"}
        What writes the proof: the forward-checking search's tree (one clause a node,
        streamed), the exact cover search's (the exactcover backend's rule, written
        from a tree kept in Python), or a SAT solver through python-sat.
    boards : sequence of boards, optional
        The solutions claimed (a backend's): each is checked against the statement,
        and the proof must refute every other board. By default, those the
        producer's own search finds.
    checker, engine
        ``"dratify"`` (``engine``: ``"auto"``, ``"native"``, ``"python"``) or
        ``"drat-trim"`` when it is on the PATH.
    check_seconds, memory_mb
        The checker's limits, in its process of its own.
    max_proof_bytes : int
        The largest proof to write (2 GiB unless raised): a larger one is refused
        before its search's arrays are made.
    keep_proof : path, optional
        A folder to keep the formula (``.cnf``) and the proof (``.drat``) in, for
        someone else's checker.

    Returns
    -------
    Certificate
        Whose ``verdict`` is ``"proved"`` only when the checker said so.

    Examples
    --------
    The count of n=6, the formula and the proof kept for another checker:

    >>> import os, tempfile, cpqueens
    >>> folder = tempfile.mkdtemp()
    >>> certificate = cpqueens.certify(6, keep_proof=folder)
    >>> certificate.claim, certificate.count, certificate.verdict
    ('count', 4, 'proved')
    >>> os.path.basename(certificate.formula), os.path.basename(certificate.proof)
    ('queens-6.cnf', 'queens-6.drat')

    No 6-queens solution has a queen in a corner: "no solution", proved.

    >>> cpqueens.certify(6, fixed={0: 0}).claim
    'unsatisfiable'
    """
    instance = as_instance(n, fixed, blocked)
    if question not in QUESTIONS:
        raise InvalidInputError(f"question must be one of {', '.join(QUESTIONS)}; got {question!r}")
    if producer not in CERTIFYING_BACKENDS.values():
        raise InvalidInputError(
            f"producer must be one of {', '.join(CERTIFYING_BACKENDS.values())}; got {producer!r}"
        )
    check_checker(checker, engine)
    check_seconds = arguments.check_seconds(check_seconds, "check_seconds")
    memory_mb = check_int(memory_mb, "memory_mb", 64)
    max_proof_bytes = check_int(max_proof_bytes, "max_proof_bytes", 1)
    folder = None if keep_proof is None else _folder(keep_proof)
    start = time.perf_counter()
    clauses = statement_clauses(instance)
    if question == "decide" and boards is None:
        boards = _one_board(instance)
    if question == "decide" and boards:
        # A solution needs no proof: its board, checked against the statement.
        _check_boards([tuple(boards[0])], instance, clauses)
        return Certificate("satisfiable", 1, "board", "cpqueens' board check", "proved",
                           seconds_to_prove=time.perf_counter() - start)  # fmt: skip
    # numpy and the compiled writer, only when a proof is written
    from .from_search import TREES, solutions_of, write_proof

    tree = None
    if producer in TREES:
        tree = TREES[producer](instance, max_proof_bytes)
    # A backend's boards, when given, are the claim: the proof written from a tree
    # refutes every other board, so a board the backend missed makes the checker
    # refuse it.
    if boards is not None:
        listed = [tuple(b) for b in boards]
    else:
        listed = solutions_of(tree) if tree is not None else _sat_boards(instance)
    _check_boards(listed, instance, clauses)
    claim = "count" if question == "count" and listed else "unsatisfiable"
    with tempfile.TemporaryDirectory(prefix="cpqueens-proof-") as scratch:
        stem = _stem(instance)
        formula, proof = Path(scratch) / f"{stem}.cnf", Path(scratch) / f"{stem}.drat"
        with open(formula, "w", encoding="ascii") as out:
            total = write_formula(out, instance, clauses, listed)
        with open(proof, "w", encoding="ascii") as out:
            if tree is not None:
                size = write_proof(tree, out)
                name = producer
            else:
                from .from_sat import DEFAULT_SOLVER
                from .from_sat import write_proof as sat_proof

                size = sat_proof(clauses, listed, instance.n, out, max_bytes=max_proof_bytes)
                name = f"sat/{DEFAULT_SOLVER}"
        proved_in = time.perf_counter() - start
        verdict = check(formula, proof, checker=checker, engine=engine, seconds=check_seconds,
                        memory_mb=memory_mb)  # fmt: skip
        kept = _keep(folder, formula, proof)
    return Certificate(
        claim=claim,
        count=len(listed),
        producer=name,
        checker=verdict.checker,
        verdict=verdict.verdict,
        words=verdict.words,
        proof_bytes=size,
        formula_clauses=total,
        seconds_to_prove=proved_in,
        seconds_to_check=verdict.seconds,
        formula=kept[0],
        proof=kept[1],
    )


def _one_board(instance: Instance) -> list[tuple[int, ...]]:
    """A solution, found by a SAT solver, or none. Whatever finds it, the board is
    then checked against the statement: the finder needs no trust, and a solver finds
    one long before a search tree is done."""
    from .from_sat import boards_of

    return boards_of(statement_clauses(instance), instance.n, limit=1)


def _sat_boards(instance: Instance) -> list[tuple[int, ...]]:
    from .from_sat import boards_of

    return boards_of(statement_clauses(instance), instance.n)


def _check_boards(boards: list[tuple[int, ...]], instance: Instance, clauses: list) -> None:
    """Each board listed a model of the statement, and no two the same: or no count."""
    if len(set(boards)) != len(boards):
        raise SolverError("the boards listed repeat a board: no count can be certified")
    for board in boards:
        if len(board) != instance.n or not all(0 <= c < instance.n for c in board):
            raise SolverError(f"the board {board} is no board of size {instance.n}")
    for board, model in zip(boards, models(boards, clauses, instance.n), strict=True):
        if not model:
            raise SolverError(f"the board {board} is no solution of the instance")


def _stem(instance: Instance) -> str:
    name = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in (instance.name or ""))
    return name.strip(".")[:60] or f"queens-{instance.n}"


def _folder(path: str | os.PathLike) -> Path:
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise InvalidInputError(f"keep_proof {os.fspath(path)!r} is not a folder")
    return folder


def _keep(folder: Path | None, formula: Path, proof: Path) -> tuple[str | None, str | None]:
    """Move the formula and the proof into ``folder`` (each whole, or not at all)."""
    if folder is None:
        return None, None
    folder.mkdir(parents=True, exist_ok=True)
    kept = []
    for path in (formula, proof):
        target = folder / path.name
        partial = target.with_name(target.name + ".part")
        shutil.move(path, partial)
        os.replace(partial, target)
        kept.append(str(target))
    return kept[0], kept[1]
