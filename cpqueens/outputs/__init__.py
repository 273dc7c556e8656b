"""What a solver prints, read: boards in every layout programs print them, a stated
count, the competitions' ``s`` and ``v`` lines (XCSP3's, SAT solvers'), FlatZinc's
solution blocks. Nothing here runs a program or judges an answer: a reading says what
was printed, line by line, for the cross-check (:mod:`cpqueens.checking`) to judge.

Map: ``boards`` (:func:`cpqueens.parse_boards`, the readers tried in turn and the one
that reads the most valid boards kept), ``layouts`` (the readers, one per kind of
output), ``grids`` (grids, whatever separates their cells), ``reader_tools`` (what the
readers share), ``parsed_output`` (the result, every line accounted for), ``answers`` (a
solver's answer in the competitions' words), ``flatzinc``, ``xcsp`` with ``xcsp_lines``,
and ``dimacs`` (each format's solver output).
"""

from .boards import parse_boards
from .flatzinc import FlatZincOutput, read_flatzinc_output
from .parsed_output import ParsedOutput

__all__ = ["FlatZincOutput", "ParsedOutput", "parse_boards", "read_flatzinc_output"]
