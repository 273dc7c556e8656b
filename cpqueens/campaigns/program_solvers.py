"""A campaign's solvers that are programs: ``command = ...`` and ``flatzinc = ...``.

A ``[[solvers]]`` table that names a program says how it is run, fed and read:

* ``command = "./mysolver {instance}"`` with ``format`` (the instance file's format,
  :data:`~cpqueens.checking.external.INSTANCE_FORMATS`; ``json`` by default) and
  ``parse`` (how its output is read; by default as its format's solvers print:
  FlatZinc's for ``fzn``, else the competitions' ``s`` and ``v`` lines or boards);
* ``flatzinc = "fzn-gecode"`` (the program and any options of its own): the same as
  ``command = "fzn-gecode {flags} {instance}"`` with ``format = "fzn"``, where
  ``{flags}`` stands for the standard flags of the campaign's question and time
  limit (:mod:`cpqueens.checking.flatzinc_flags`);
* ``command = "cadical --no-binary {instance} {proof}"`` with ``format = "cnf"``: a
  SAT solver, whose "no solution" is held to the DRAT proof it writes to ``{proof}``
  (:class:`cpqueens.Command`).

>>> read_program({"flatzinc": "fzn-gecode"})
('fzn-gecode {flags} {instance}', 'fzn', 'flatzinc')
>>> read_program({"command": "ace {instance}", "format": "xcsp"})
('ace {instance}', 'xcsp', 'auto')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..checking.external import INSTANCE_FORMATS, PROOF
from ..checking.flatzinc_flags import FLAGS
from ..checking.flatzinc_solvers import flatzinc_command
from ..errors import InvalidInputError
from ..outputs.boards import check_style

#: How each format's output is read unless ``parse`` says otherwise.
PARSE_OF = {"fzn": "flatzinc"}


def read_program(table: Mapping[str, Any]) -> tuple[str, str, str]:
    """The command, format and parse of a ``[[solvers]]`` table that names a program,
    every key checked (an error names the key, the value and what is allowed)."""
    if table.get("flatzinc") is not None:
        if "format" in table:
            raise InvalidInputError('flatzinc = ... is read as format = "fzn": give no format')
        command, fmt = flatzinc_command(table["flatzinc"]), "fzn"
    else:
        command, fmt = table.get("command"), table.get("format", "json")
    if not isinstance(command, str) or not command.strip():
        raise InvalidInputError(f"command must be a non-empty string, got {command!r}")
    if fmt not in INSTANCE_FORMATS:
        raise InvalidInputError(
            f"format must be one of: {', '.join(INSTANCE_FORMATS)}; got {fmt!r}"
        )
    parse = table.get("parse", PARSE_OF.get(fmt, "auto"))
    check_style(parse, "parse=")  # read as the crosscheck reads a program's output
    if FLAGS in command and fmt != "fzn":
        raise InvalidInputError(
            f'{FLAGS} stands for a FlatZinc solver\'s flags: give format = "fzn", not {fmt!r}'
        )
    if PROOF in command and fmt != "cnf":
        raise InvalidInputError(
            f'{PROOF} is where a SAT solver writes its DRAT proof: give format = "cnf", not {fmt!r}'
        )
    if table.get("options"):
        raise InvalidInputError("options are for a backend; put them in the command")
    return command, fmt, parse
