"""``crosscheck --certify``: the reference's answer of each case proved with a DRAT proof
an independent checker accepts, so that every row agreeing with it is proved too."""

from __future__ import annotations

from typing import Any

import click


def certify_option(function: Any) -> Any:
    return click.option(
        "--certify",
        is_flag=True,
        help="Prove the reference's answer of each case (a count, or whether a solution "
        "exists) with a DRAT proof that an independent checker accepts; a row 'proved' "
        "says which were, and an answer not proved exits with status 1.",
    )(function)


def certified_cases(cases: list[Any], question: str | None) -> dict[Any, Any]:
    """Each case's certificate, keyed as the cross-check table keys its columns (the
    board size, or the instance's label); a proof too large to write is a certificate
    that proved nothing, saying why."""
    from ..checking.cases import cases_of
    from ..proofs.asking import certify_answer

    return {
        case.label or case.instance.n: certify_answer(
            case.instance, "count" if case.question == "all" else "decide"
        )
        for case in cases_of(cases, question)
    }


def certificate_lines(certificates: dict[Any, Any]) -> list[str]:
    """A line for each certificate that did not prove its answer."""
    return [
        f"NOT PROVED {key if isinstance(key, str) else f'n={key}'}: {certificate}"
        for key, certificate in certificates.items()
        if not certificate.proved
    ]
