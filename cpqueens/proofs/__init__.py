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

Map: ``statement`` (the trusted statement: the instance's CNF, and the blocking clauses
of a count), ``from_search`` (a DRAT proof written straight from the ``propagate``
search's tree), ``proof_kernels`` (that proof written as bytes by compiled code),
``exact_tree`` (the ``exactcover`` search kept as a tree, for the same writer),
``from_sat`` (a DRUP proof from a SAT solver, through python-sat), ``given`` (a proof
another program wrote, checked against the statement it was given), ``checker`` (the
independent checker, run in a process of its own under a time and a memory limit),
``_check_child`` (that process's script, which runs none of cpqueens' code),
``certifying`` (``certify``, the pieces tied together), ``certificate`` (what a
certificate says: the claim, who wrote the proof, who checked it and how), ``asking``
(``certify=`` as ``solve`` and ``count`` take it).
"""

from .asking import CertifiedCount
from .certificate import Certificate
from .certifying import CERTIFYING_BACKENDS, certify

__all__ = ["CERTIFYING_BACKENDS", "Certificate", "CertifiedCount", "certify"]
