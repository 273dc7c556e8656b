"""Proving a campaign's answers (``certify = true``): each instance's answer proved once,
by a DRAT proof an independent checker accepts, and every run held to it.

An instance is proved when a run answered ``unsat`` on it (``decide``) or counted its
solutions (``count``, ``all``): its count from the forward-checking search's tree, its
"no solution" by a SAT solver's refutation (:func:`cpqueens.proofs.asking.certify_answer`).
The certificate is kept in the store, beside the instance, and made once whatever
the number of solvers, repeats and runs of the campaign.

Each run then gets ``proved``:

* ``"yes"``: its answer is the one proved (its count, or "no solution");
* ``"board"``: it answered ``sat``, with a solution checked against the instance,
  which needs no proof;
* ``"NO"``: its answer is not the one proved, or the proof was refused or gave no
  verdict (the certificate says why);
* ``""``: it answered nothing (unknown, an error).

A proof outranks a vote: a run whose answer a proved certificate contradicts is
wrong, and one that agrees with it is not, whatever the majority of the solvers said
(:mod:`.verify`); an instance is disputed only while no proof settles it.

>>> rows = [{"status": "unsat", "verdict": "unsat", "verdict_reason": None,
...          "question": "decide", "instance_hash": "h", "instance": "a", "count": None}]
>>> proved = {("h", "decide"): {"claim": "unsatisfiable", "count": 0, "verdict": "proved"}}
>>> apply_certificates(rows, [], proved), rows[0]["proved"]
([], 'yes')
"""

from __future__ import annotations

from typing import Any

from .spec import CampaignSpec
from .store import Store
from .verify import SOLVED


def asked(question: str) -> str:
    """What is proved of a campaign's question: a count, or a decision."""
    return "decide" if question == "decide" else "count"


def to_prove(row: dict[str, Any]) -> bool:
    """Whether a run's answer needs a proof: "no solution", or a count."""
    if row["status"] == "unsat":
        return True
    return row["question"] != "decide" and row["status"] in SOLVED and row["count"] is not None


def certify_campaign(store: Store, spec: CampaignSpec, rows: list[dict[str, Any]]) -> int:
    """Prove the answer of every instance of ``spec`` that one of its runs (``rows``,
    as the store reads them) needs proved and that the store holds no certificate of;
    return how many were made."""
    from ..proofs.asking import certify_answer

    question = asked(spec.question)
    kept = store.certificates()
    needed = {row["instance_hash"] for row in rows if to_prove(row)}
    made = 0
    for item in spec.instances:
        if item.key not in needed or (item.key, question) in kept:
            continue
        certificate = certify_answer(item.instance, question)
        instance_id = store.instance_id(item.key, item.label, item.instance, item.source)
        store.add_certificate(instance_id, question, certificate)
        kept[item.key, question] = {}
        made += 1
    return made


def apply_certificates(
    rows: list[dict[str, Any]],
    disputed: list[str],
    certificates: dict[tuple[str, str], dict[str, Any]],
) -> list[str]:
    """Give every run its ``proved`` (see the module) and hold its verdict to the proof;
    return the instances still disputed. Nothing changes without a certificate."""
    if not certificates:
        return disputed
    settled = set()
    for row in rows:
        certificate = certificates.get((row["instance_hash"], asked(row["question"])))
        row["proved"] = _proved(row, certificate)
        if certificate is None or certificate["verdict"] != "proved" or row["status"] == "wrong":
            continue
        settled.add(row["instance"])
        if row["proved"] == "yes":
            row["verdict"], row["verdict_reason"] = row["status"], None
        elif row["proved"] == "NO" and row["status"] in SOLVED:
            row["verdict"] = "wrong"
            row["verdict_reason"] = f"{_answer(row)}; proved: {_claim(certificate)}"
    return [label for label in disputed if label not in settled]


def certificate_lines(rows: list[dict[str, Any]], certificates: dict) -> list[str]:
    """A line for each instance whose certificate did not prove its answer."""
    lines = []
    for key, question in certificates:
        certificate = certificates[key, question]
        if certificate["verdict"] != "proved":
            label = next((r["instance"] for r in rows if r["instance_hash"] == key), key)
            lines.append(
                f"NOT PROVED {label}: {_claim(certificate)}: {certificate['verdict'].upper()}"
                + (f" ({certificate['words']})" if certificate["words"] else "")
            )
    return lines


def _proved(row: dict[str, Any], certificate: dict[str, Any] | None) -> str:
    if row["status"] == "sat" and row["question"] == "decide":
        return "board"
    if not to_prove(row) or certificate is None:
        return ""
    if certificate["verdict"] != "proved":
        return "NO"
    if certificate["claim"] == "satisfiable":  # a solution exists: "unsat" is wrong
        return "NO" if row["status"] == "unsat" else ""
    count = 0 if row["status"] == "unsat" else row["count"]
    return "yes" if count == certificate["count"] else "NO"


def _answer(row: dict[str, Any]) -> str:
    return "said unsat" if row["status"] == "unsat" else f"counted {row['count']:,}"


def _claim(certificate: dict[str, Any]) -> str:
    return {
        "count": f"{certificate.get('count', 0):,} solutions",
        "unsatisfiable": "no solution",
        "satisfiable": "a solution exists",
    }[certificate["claim"]]
