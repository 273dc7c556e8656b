"""A proof another program wrote: a SAT solver given the statement as DIMACS CNF, told
where to write its DRAT proof (a :class:`~cpqueens.Command` with ``{proof}``), and its
"no solution" checked by the same independent checker as cpqueens' own proofs.

The formula the solver reads is the statement (:mod:`.statement`), written here, so
what the proof proves is what the statement says: the instance has no solution.

>>> import tempfile, pathlib
>>> from cpqueens import Instance
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> clauses = write_statement(folder / "q3.cnf", Instance(3))
>>> clauses
34
>>> _ = (folder / "q3.drat").write_text("")  # a proof that proves nothing
>>> check_given_proof(folder / "q3.cnf", folder / "q3.drat", producer="mine",
...                   formula_clauses=clauses).verdict
'refused'
"""

from __future__ import annotations

import os
from pathlib import Path

from ..instances import Instance
from .certificate import Certificate
from .certifying import CHECK_MEMORY_MB, CHECK_SECONDS
from .checker import check, check_checker
from .statement import statement_clauses, write_formula


def write_statement(path: str | os.PathLike, instance: Instance) -> int:
    """Write the statement of ``instance`` as DIMACS CNF; return its clauses."""
    with open(path, "w", encoding="ascii") as out:
        return write_formula(out, instance, statement_clauses(instance), [])


def check_given_proof(
    formula: str | os.PathLike,
    proof: str | os.PathLike,
    *,
    producer: str,
    formula_clauses: int,
    seconds_to_prove: float = 0.0,
    checker: str = "dratify",
    engine: str = "auto",
    seconds: float = CHECK_SECONDS,
    memory_mb: int = CHECK_MEMORY_MB,
) -> Certificate:
    """The certificate of "no solution" that ``proof`` (DRAT, written by ``producer``
    in ``seconds_to_prove``) gives of ``formula`` (of ``formula_clauses`` clauses, as
    :func:`write_statement` said): ``proved`` only when the checker
    says so. A proof that was never written is refused without running the checker;
    a binary one, which dratify does not read, is left unchecked, saying so."""
    check_checker(checker, engine)
    proof = Path(proof)
    if not proof.is_file():
        return Certificate("unsatisfiable", 0, producer, checker, "refused",
                           words=f"no proof was written to {proof.name}")  # fmt: skip
    if checker == "dratify" and _binary(proof):
        return Certificate("unsatisfiable", 0, producer, checker, "checker failed",
                           words=BINARY, proof_bytes=proof.stat().st_size)  # fmt: skip
    verdict = check(Path(formula), proof, checker=checker, engine=engine, seconds=seconds,
                    memory_mb=memory_mb)  # fmt: skip
    return Certificate(
        claim="unsatisfiable",
        count=0,
        producer=producer,
        checker=verdict.checker,
        verdict=verdict.verdict,
        words=verdict.words,
        proof_bytes=proof.stat().st_size,
        formula_clauses=formula_clauses,
        seconds_to_prove=seconds_to_prove,
        seconds_to_check=verdict.seconds,
    )


#: Why a binary proof is not checked.
BINARY = (
    "the proof is binary DRAT, which dratify does not read: have the solver write text "
    "DRAT (cadical and kissat: --no-binary)"
)
#: The bytes a text DRAT proof starts with: digits, a sign, spaces, ``d`` and ``c``.
_TEXT = frozenset(b"0123456789- \t\r\ndc")


def _binary(proof: Path) -> bool:
    """Whether the proof is binary DRAT: as drat-trim tells, by its first bytes."""
    with open(proof, "rb") as handle:
        head = handle.read(10)
    return any(byte not in _TEXT for byte in head)
