"""Cross-checking solvers against a reference solution set, and the report of what
disagrees: registry backends, Python callables and external programs alike.

The door (:mod:`.compare`: :func:`~cpqueens.crosscheck`, ``check_output``) checks
every argument and turns each size or instance into a :mod:`.cases` ``Case``; the
reference (:mod:`.references`) is priced there too. Then each backend is run and
judged (:mod:`.judging`); a program is an :mod:`.external` ``Command`` (a FlatZinc
solver a :mod:`.flatzinc_solvers` one, its flags from :mod:`.flatzinc_flags`), run by
:mod:`cpqueens.programs` and its output read by :mod:`cpqueens.outputs`. The rows
(:mod:`.row`) are gathered in the report by :mod:`.judging.verdicts`.

Map: ``compare`` (the doors, ``crosscheck`` and ``check_output``), ``cases`` (each board
size or instance a caller gave, as one ``Case``), ``references`` (the reference, and the
door's check that it can be had), ``judging`` (each run asked and judged as a row, its
boards sorted into faults, the rows gathered into the report and said in words),
``external`` (``Command``, a program as a backend), ``flatzinc_solvers``
(``FlatZincSolver``, any FlatZinc solver as a ``Command``), ``flatzinc_flags`` (the
standard flags of a FlatZinc solver), ``row`` (a cross-check's row and its faults).
"""

from .compare import check_output, crosscheck
from .external import Command
from .flatzinc_solvers import FlatZincSolver
from .judging.verdicts import CrossCheckReport
from .row import CrossCheckRow

__all__ = [
    "Command",
    "CrossCheckReport",
    "CrossCheckRow",
    "FlatZincSolver",
    "check_output",
    "crosscheck",
]
