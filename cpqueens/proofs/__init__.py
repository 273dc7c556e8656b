"""Certified answers: an unsatisfiable instance, or a count, backed by a proof that a
checker not written here accepts.

The trusted statement is the instance's CNF (:mod:`.statement`): one Boolean a
square, pairwise at-most-ones, blocked squares false, given queens true. A count k
is certified by k distinct boards, each a model of it, and a DRAT proof that the
CNF with their k blocking clauses is unsatisfiable; "no solution" by a DRAT proof
that the CNF alone is. The proof comes from the ``propagate`` search, one RUP clause
a node of its forward-checking tree (:mod:`.from_search`), from the ``exactcover``
search's tree (:mod:`.exact_tree`), or from a SAT solver through python-sat
(:mod:`.from_sat`); an independent checker (dratify, or drat-trim
when found) replays it in a process of its own, under time and memory limits
(:mod:`.checker`), and its verdict is read, never assumed. :func:`certify` ties the
pieces together (:mod:`.certifying`); :class:`Certificate` says what was proved.
"""

from .asking import CertifiedCount
from .certificate import Certificate
from .certifying import CERTIFYING_BACKENDS, certify

__all__ = ["CERTIFYING_BACKENDS", "Certificate", "CertifiedCount", "certify"]
