"""``certify=`` as :func:`cpqueens.solve` and :func:`cpqueens.count` take it: refused at
the call when it cannot be met, and the certificate of a finished search.
"""

from __future__ import annotations

import os
from typing import Any

from ..errors import UnsupportedOptionError
from ..instances import as_instance
from .certificate import Certificate
from .certifying import CERTIFYING_BACKENDS, certify
from .checker import check_checker


class CertifiedCount(int):
    """A count, and the :class:`~cpqueens.Certificate` that proves it (``certificate``).

    >>> counted = CertifiedCount(92, None)
    >>> counted + 0, counted.certificate is None
    (92, True)
    """

    certificate: Any

    def __new__(cls, value: int, certificate: Any) -> CertifiedCount:
        made = super().__new__(cls, value)
        made.certificate = certificate
        return made


def check_certify(certify: object, backend: str, limit: int | None, unique: bool) -> dict[str, Any]:
    """What ``certify=`` asks (True, or a folder to keep the proof in), refused when the
    backend, the question or the checker cannot give a proof."""
    if backend not in CERTIFYING_BACKENDS:
        raise UnsupportedOptionError(
            f"backend {backend!r} cannot prove its answers; backends that can "
            f"(certify=True): {', '.join(CERTIFYING_BACKENDS)}"
        )
    if limit not in (None, 1) or unique:
        raise UnsupportedOptionError(
            "certify=True proves a count (no limit) or a decision (limit=1), of every "
            "solution (not unique=True)"
        )
    check_checker("dratify")
    keep = None if certify is True else os.fspath(certify)  # type: ignore[arg-type]
    return {"keep_proof": keep, "producer": CERTIFYING_BACKENDS[backend]}


def certify_answer(instance: Any, question: str) -> Certificate:
    """The answer of ``instance`` to ``question`` (``"count"``, or ``"decide"``) proved,
    each by what proves it fastest: a count from the forward-checking search's tree
    (it lists the boards as it goes), a decision by a SAT solver's refutation. A proof
    too large to write is a certificate that proved nothing, saying why."""
    from .from_search import ProofTooLargeError

    producer = "propagate" if question == "count" else "sat"
    try:
        return certify(instance, question=question, producer=producer)
    except ProofTooLargeError as error:
        return Certificate(question, 0, producer, "none", "checker failed", str(error))


def certificate_of(result: Any, limit: int | None, proving: dict[str, Any]) -> Certificate:
    """The certificate of a finished search: its answer proved, or why it was not."""
    question = "decide" if limit == 1 else "count"
    if not result.complete and not (question == "decide" and result.solutions):
        return Certificate(question, result.count, proving["producer"], "none", "timed out",
                           "the search stopped at its time limit: nothing to prove")  # fmt: skip
    return certify(
        as_instance(result.n, dict(result.fixed), result.blocked),
        question=question,
        boards=result.solutions,
        **proving,
    )
