"""Cross-checking solvers against a reference solution set, and the report of what
disagrees: registry backends, Python callables and external programs alike.

The door (:mod:`.compare`: :func:`~cpqueens.crosscheck`, ``check_output``) checks
every argument and turns each size or instance into a :mod:`.cases` ``Case``; the
reference (:mod:`.references`) is priced there too. Then each backend is run and
judged (:mod:`.run_judge`, :mod:`.decision`); a program is an :mod:`.external`
``Command`` (a FlatZinc solver a :mod:`.flatzinc_solvers` one, its flags from
:mod:`.flatzinc_flags`), run by :mod:`cpqueens.programs`, its output read by
:mod:`cpqueens.outputs` and judged by :mod:`.output_judge`. Boards are sorted into
faults by :mod:`.faults`, the rows (:mod:`.row`) gathered in the report
(:mod:`.verdicts`) and said in words by :mod:`.row_text`.

Map: ``compare`` (the doors, ``crosscheck`` and ``check_output``), ``cases`` (each board
size or instance a caller gave, as one ``Case``), ``references`` (the reference, and the
door's check that it can be had), ``run_judge`` (one backend, function or program on one
case, asked and judged as one row), ``decision`` (an instance's decision, cross-checked),
``external`` (``Command``, a program as a backend), ``flatzinc_solvers``
(``FlatZincSolver``, any FlatZinc solver as a ``Command``), ``flatzinc_flags`` (the
standard flags of a FlatZinc solver), ``output_judge`` (what a program printed, once
parsed, judged as a row), ``faults`` (boards sorted into faults: invalid, repeated, extra,
missing), ``row`` (a cross-check's row and its faults), ``verdicts`` (the report: the rows
gathered, and whether they agree), ``row_text`` (the rows in words).
"""

from .compare import check_output, crosscheck
from .external import Command
from .flatzinc_solvers import FlatZincSolver
from .row import CrossCheckRow
from .verdicts import CrossCheckReport

__all__ = [
    "Command",
    "CrossCheckReport",
    "CrossCheckRow",
    "FlatZincSolver",
    "check_output",
    "crosscheck",
]
