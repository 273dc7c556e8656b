"""What a solver prints, read: boards in every layout programs print them, a stated
count, the competitions' ``s`` and ``v`` lines (XCSP3's, SAT solvers'), FlatZinc's
solution blocks. Nothing here runs a program or judges an answer: a reading says what
was printed, line by line, for the cross-check (:mod:`cpqueens.checking`) to judge.

Map: ``parsing`` (:func:`cpqueens.parse_boards`, the readers tried in turn),
``readers`` and ``grids`` (one layout each), ``reading`` (what they share),
``parsed`` (the result, every line accounted for), ``answers`` (a solver's answer in
the competitions' words), ``flatzinc``, ``xcsp`` with ``xcsp_lines``, and ``dimacs``
(each format's solver output).
"""

from .flatzinc import FlatZincOutput, read_flatzinc_output
from .parsed import ParsedOutput
from .parsing import parse_boards

__all__ = ["FlatZincOutput", "ParsedOutput", "parse_boards", "read_flatzinc_output"]
