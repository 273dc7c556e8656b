"""What a certificate says: the claim, who wrote the proof, who checked it and how.

>>> Certificate("count", 92, "propagate", "dratify 0.1.10 (native)", "proved").proved
True
"""

from __future__ import annotations

from dataclasses import dataclass

#: A certificate's verdicts. ``proved``: the checker accepted the proof (or, for a
#: solution, the board was checked and no proof is needed). ``refused``: the checker
#: rejected it; ``timed out`` and ``checker failed``: no verdict; each is a failure.
VERDICTS = ("proved", "refused", "timed out", "checker failed")


@dataclass(frozen=True)
class Certificate:
    """A claim about an instance, and how it was proved.

    Attributes
    ----------
    claim : {"count", "unsatisfiable", "satisfiable"}
        What is claimed: the number of solutions is ``count``; there is none; there
        is one (a board, checked against the instance: no proof is needed).
    count : int
        The number of solutions claimed (0 for "unsatisfiable").
    producer : str
        What wrote the proof: ``"propagate"`` (the forward-checking search) or
        ``"sat/<solver>"`` (python-sat's DRUP); ``"board"`` for a solution.
    checker : str
        The checker and its version (``"dratify 0.1.10 (native)"``, ``"drat-trim"``).
    verdict : str
        One of :data:`VERDICTS`.
    words : str
        What the checker said (its reason, or why it gave no verdict).
    proof_bytes : int
        The size of the DRAT proof.
    formula_clauses : int
        Clauses of the formula checked: the statement and the blocking clauses.
    seconds_to_prove, seconds_to_check : float
        Writing the proof (the search included) and checking it, apart.
    formula, proof : str or None
        Where the CNF and the proof were kept (``keep_proof=``), else None.

    Examples
    --------
    :func:`cpqueens.certify` gives one:

    >>> import cpqueens
    >>> certificate = cpqueens.certify(6)
    >>> certificate.claim, certificate.count, certificate.producer, certificate.verdict
    ('count', 4, 'propagate', 'proved')
    >>> certificate.proved, certificate.proof_bytes > 0, certificate.proof
    (True, True, None)
    >>> print(certificate)  # doctest: +ELLIPSIS
    4 solutions, no other: PROVED by dratify ... bytes of DRAT from propagate, written in \
... s, checked in ... s)
    >>> print(cpqueens.certify(6, question="decide"))
    a solution (the board checked): proved
    """

    claim: str
    count: int
    producer: str
    checker: str
    verdict: str
    words: str = ""
    proof_bytes: int = 0
    formula_clauses: int = 0
    seconds_to_prove: float = 0.0
    seconds_to_check: float = 0.0
    formula: str | None = None
    proof: str | None = None

    @property
    def proved(self) -> bool:
        """True when the claim stands proved."""
        return self.verdict == "proved"

    def __str__(self) -> str:
        what = {
            "count": f"{self.count:,} solutions, no other",
            "unsatisfiable": "no solution",
            "satisfiable": "a solution (the board checked)",
        }[self.claim]
        if self.claim == "satisfiable":
            return f"{what}: {self.verdict}"
        size = f"{self.proof_bytes / 2**20:,.1f} MB" if self.proof_bytes >= 2**20 else (
            f"{self.proof_bytes:,} bytes"
        )  # fmt: skip
        return (
            f"{what}: {self.verdict.upper()} by {self.checker} ({size} of DRAT from "
            f"{self.producer}, written in {self.seconds_to_prove:.2f} s, checked in "
            f"{self.seconds_to_check:.2f} s)" + (f"; {self.words}" if not self.proved else "")
        )
