"""The instance formats, one record each: every list of formats, extensions and
readers is made from :data:`INSTANCE_FORMATS`.

Adding a format is a module that reads or writes it (a ``format_*`` function from an
:class:`~cpqueens.Instance` to text, and a ``parse_*`` one from text and the file's
name, when it is read) and one row here.

>>> [f.name for f in INSTANCE_FORMATS if f.reader is not None]
['essence', 'json', 'dzn', 'xcsp']
>>> by_name("param").name, by_name("xml").extension
('essence', '.xml')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..instance import Instance
from .diagonals import format_diagonals
from .dzn import format_dzn, parse_dzn
from .essence import format_essence, parse_essence
from .flatzinc import format_flatzinc
from .jsonfile import format_json, parse_json
from .xc import format_xc
from .xcsp.document import format_xcsp, parse_xcsp


@dataclass(frozen=True)
class InstanceFormat:
    """One format: its ``name``, the ``extensions`` that tell it (the first is the one
    written), other names it answers to (``aliases``), its writer (an instance to
    text), its reader (text and the file's name to an instance; None for a format
    only written, for other solvers; ``takes_bytes``: the file's bytes, for XML reads
    the encoding the file declares), and the line of the format tables (where its
    squares count from, and what it is for)."""

    name: str
    extensions: tuple[str, ...]
    writer: Callable[[Instance], str]
    reader: Callable[[str, str], Instance] | None
    squares: str
    purpose: str
    aliases: tuple[str, ...] = ()
    takes_bytes: bool = False

    @property
    def extension(self) -> str:
        """The extension a file of this format is written with."""
        return self.extensions[0]


def _essence(instance: Instance) -> str:
    # An Excluded Diagonals instance is written back as what it is.
    return format_essence(instance) if instance.diagonals is None else format_diagonals(instance)


def _dimacs(instance: Instance) -> str:
    from . import cnf  # pysat, loaded only to write a formula

    return cnf.dimacs(instance)


#: Every instance format, in the order the tables list them.
INSTANCE_FORMATS = (
    InstanceFormat("essence", (".param", ".eprime-param"), _essence, parse_essence, "from 1",
                   "Essence', squares from 1 (Savile Row, XCSP 2022)", aliases=("param",)),
    InstanceFormat("json", (".json",), format_json, parse_json, "from 0",
                   "squares from 0 (PyCSP3)"),
    InstanceFormat("dzn", (".dzn",), format_dzn, parse_dzn, "from 0",
                   "data for cpqueens' MiniZinc model"),
    InstanceFormat("cnf", (".cnf",), _dimacs, None, "(variables)", "DIMACS CNF, for SAT solvers"),
    InstanceFormat("xc", (".xc",), format_xc, None, "from 0",
                   "exact cover, for Knuth's DLX programs"),
    InstanceFormat("fzn", (".fzn",), format_flatzinc, None, "from 0",
                   "FlatZinc, for any FlatZinc solver (fzn-gecode ...)"),
    InstanceFormat("xcsp", (".xml", ".xml.lzma", ".xml.xz", ".xml.gz"), format_xcsp, parse_xcsp,
                   "from 0", "XCSP3, for ACE and the XCSP competitions' solvers",
                   aliases=("xml",), takes_bytes=True),
)  # fmt: skip


def by_name(name: str) -> InstanceFormat:
    """The format called ``name`` (or one of its aliases); KeyError for none."""
    for fmt in INSTANCE_FORMATS:
        if name == fmt.name or name in fmt.aliases:
            return fmt
    raise KeyError(name)


def format_table() -> str:
    """The formats as the command line's help lists them: name, extensions, purpose.

    >>> format_table().splitlines()[1].split()
    ['json', '.json', 'squares', 'from', '0', '(PyCSP3)']
    """
    width = max(len(", ".join(fmt.extensions)) for fmt in INSTANCE_FORMATS)
    return "\n".join(
        f"{fmt.name:<8} {', '.join(fmt.extensions):<{width}} {fmt.purpose}"
        for fmt in INSTANCE_FORMATS
    )
