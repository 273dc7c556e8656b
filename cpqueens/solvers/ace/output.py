"""Reading ACE's output line by line, in the XCSP competitions' conventions.

ACE (run with ``-xe -xc=false -npc -v=-1``) prints each solution as it finds it, on
a ``v`` line holding one ``<instantiation>`` of the array ``q``, then one status
line, ``s SATISFIABLE``, ``s UNSATISFIABLE`` or ``s UNKNOWN``, and ``d`` lines:
``d FOUND SOLUTIONS 92``, ``d WRONG DECISIONS 313``, ``d CPU 0.63``, and ``d COMPLETE
EXPLORATION`` once the whole space was searched (``d INCOMPLETE EXPLORATION`` when it
stopped first). :class:`AceReader` takes the lines one at a time and hands back each
solution as soon as its instantiation is whole; anything it cannot read is an
:class:`AceOutputError`, in one line, never a guess. The status words, the colours and
the instantiations are read as :mod:`cpqueens.outputs.xcsp_lines` reads them for any XCSP3 solver.

>>> reader = AceReader(4)
>>> reader.feed("v <instantiation id='sol1' type='solution'> <list> q[] </list> "
...             "<values> 1 3 0 2 </values> </instantiation>")
[1, 3, 0, 2]
>>> for line in ("s SATISFIABLE", "d FOUND SOLUTIONS  1", "d COMPLETE EXPLORATION"):
...     reader.feed(line)
>>> reader.status, reader.stated_count, reader.complete
('sat', 1, True)
"""

from __future__ import annotations

from typing import Any

from ...outputs.xcsp_lines import END, Fault, is_instantiation, read_instantiation, status, uncolour

#: The ``d`` lines kept as statistics, by the name they get in ``stats``.
_DETAILS = {
    "FOUND SOLUTIONS": "found",
    "WRONG DECISIONS": "wrong_decisions",
    "CPU": "cpu_seconds",
    "WCK SOL 1": "first_solution_seconds",
}
#: How much of a line an error message quotes.
_QUOTE = 80


class AceOutputError(Exception):
    """ACE printed something that is not an answer in its conventions (one line)."""


class AceReader:
    """ACE's output for an ``n``-queens instance, read one line at a time.

    After the last line: :attr:`status` (``"sat"``, ``"unsat"``, ``"unknown"``, or
    None when no ``s`` line came), :attr:`complete` (a ``d COMPLETE EXPLORATION``
    line came), :attr:`stated_count` (``d FOUND SOLUTIONS``), :attr:`stats` and
    :attr:`solutions`, the number of solutions read.
    """

    def __init__(self, n: int, *, array: str = "q", base: int = 0):
        self.n = n
        self.array = array
        self.base = base
        self.status: str | None = None
        self.complete = False
        self.incomplete = False
        self.stated_count: int | None = None
        self.stats: dict[str, Any] = {}
        self.solutions = 0
        self.others: list[str] = []
        self._pending: list[str] = []

    def feed(self, line: str) -> list[int] | None:
        """Read one line; return the columns of the solution it completes, if any."""
        line = uncolour(line).strip()
        head, _, tail = line.partition(" ")
        if head == "v":
            return self._values(tail)
        if self._pending:
            raise AceOutputError(f"an unfinished v line: {_quote(' '.join(self._pending))}")
        if head == "s":
            self._status(tail)
        elif head == "d":
            self._detail(" ".join(tail.split()))
        elif line and head != "c":
            self.others = [*self.others[-2:], line]
        return None

    def finish(self) -> None:
        """The output has ended: refuse an instantiation left unfinished."""
        if self._pending:
            raise AceOutputError(f"an unfinished v line: {_quote(' '.join(self._pending))}")

    def _status(self, words: str) -> None:
        said = status(words)
        if said is None:
            raise AceOutputError(f"an unknown status line: {_quote('s ' + words)}")
        if self.status is not None and self.status != said:
            raise AceOutputError(f"two status lines: s {self.status} and {_quote('s ' + words)}")
        self.status = said

    def _detail(self, text: str) -> None:
        if text == "COMPLETE EXPLORATION":
            self.complete = True
            return
        if text == "INCOMPLETE EXPLORATION":
            self.incomplete = True
            return
        for key, name in _DETAILS.items():
            if text.startswith(key + " "):
                figure = text[len(key) :].split()[0].replace(",", "")
                try:
                    value = float(figure) if "." in figure else int(figure)
                except ValueError:
                    quoted = _quote("d " + text)
                    raise AceOutputError(f"a d line without its figure: {quoted}") from None
                if name == "found":
                    self.stated_count = int(value)
                else:
                    self.stats[name] = value
                return

    def _values(self, text: str) -> list[int] | None:
        self._pending.append(text)
        joined = " ".join(self._pending)
        if not END.search(joined):
            if not is_instantiation(joined):
                self._pending = []
                raise AceOutputError(f"a v line without an instantiation: {_quote('v ' + text)}")
            return None
        self._pending = []
        board, fault = read_instantiation(joined, self.n, self.array, self.base)
        if fault is not None:
            raise AceOutputError(self._why(fault, joined))
        self.solutions += 1
        return list(board)

    def _why(self, fault: Fault, joined: str) -> str:
        """An instantiation's fault in words."""
        if fault.kind == "array":
            return (
                f"a v line of the variables {_quote(fault.found)}, where the array "
                f"{self.array}[] alone is read: {_quote(joined)}"
            )
        if fault.kind == "star":
            return f"a v line with a * among its values (a variable given none): {_quote(joined)}"
        if fault.kind == "number":
            return f"a v line whose values are not columns: {_quote(joined)}"
        if fault.kind == "count":
            return f"a v line of {fault.found} values for {self.n} rows: {_quote(joined)}"
        return f"a v line cpqueens cannot read: {_quote('v ' + joined)}"


def _quote(text: str) -> str:
    """``text`` quoted, cut to a length one line can show."""
    text = " ".join(text.split())
    return repr(text if len(text) <= _QUOTE else text[: _QUOTE - 3] + "...")
