"""The instance file formats: one module a format, and one record each in ``records``,
from which every list of formats, extensions, readers and writers is made.

Adding a format is a module here (a ``format_*`` function from an
:class:`~cpqueens.Instance` to text, and a ``parse_*`` one from text and the file's
name when it is read) and one row of :data:`~.records.INSTANCE_FORMATS`.

Map: ``records`` (one record per format: name, extensions, aliases, reader, writer),
``text`` (what the text readers share: errors naming file and line, a tokenizer),
``essence`` (Essence' parameter files), ``jsonfile`` (JSON instance files, as the
PyCSP3 models read them), ``dzn`` (MiniZinc data files), ``diagonals`` (Excluded
Diagonals files, CSPLib problem 79), ``xcsp`` (XCSP3 files, read by understanding each
constraint), ``cnf`` (the instance as a SAT formula, clauses or DIMACS text, written
only), ``xc`` (Knuth's exact-cover input, written only), ``flatzinc`` (FlatZinc,
written only).
"""

from .records import INSTANCE_FORMATS, InstanceFormat, by_name, format_table

__all__ = ["INSTANCE_FORMATS", "InstanceFormat", "by_name", "format_table"]
