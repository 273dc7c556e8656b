"""Cross-checking solvers against a reference solution set, and the report of what
disagrees: registry backends, Python callables and external programs alike.

The door (:mod:`.compare`: :func:`~cpqueens.crosscheck`, ``check_output``) checks
every argument and turns each size or instance into a :mod:`.cases` ``Case``; the
reference (:mod:`.references`) is priced there too. Then each backend is run and
judged (:mod:`.backend_rows`, :mod:`.decision`); a program is an :mod:`.external`
``Command`` (a FlatZinc solver a :mod:`.flatzinc_solvers` one, its flags from
:mod:`.flatzinc_flags`), run by :mod:`cpqueens.programs`, its output read by
:mod:`cpqueens.outputs` and judged by :mod:`.output_judge`. Boards are sorted into
faults by :mod:`.faults`, the rows (:mod:`.rows`) gathered in the report
(:mod:`.verdicts`) and said in words by :mod:`.wording`.
"""

from .compare import check_output, crosscheck
from .external import Command
from .flatzinc_solvers import FlatZincSolver
from .rows import CrossCheckRow
from .verdicts import CrossCheckReport

__all__ = [
    "Command",
    "CrossCheckReport",
    "CrossCheckRow",
    "FlatZincSolver",
    "check_output",
    "crosscheck",
]
