"""The command line's one error door: any exception becomes one line and an exit status.

A library refusal (:class:`~cpqueens.errors.CPQueensError`) is bad input, and so is
what bad input can make Python itself raise before a check sees it: nesting too
deep (``RecursionError``), a size that does not fit in memory (``MemoryError``), a
number too large (``OverflowError``), a file or store that cannot be used
(``OSError``, ``sqlite3.Error``), a service that does not answer
(``TimeoutError``). Each is exit status 2. Anything else is a fault of cpqueens
itself: one line saying so, exit status :data:`INTERNAL_ERROR`, and the traceback
only when ``CPQUEENS_TRACEBACK=1`` asks for it.

>>> failure(RecursionError("maximum recursion depth exceeded"))
('the input is nested too deeply to be read (maximum recursion depth exceeded)', 2)
>>> failure(KeyError("x"))
("internal error (a fault of cpqueens, please report it): KeyError: 'x'; \
CPQUEENS_TRACEBACK=1 shows where", 70)
"""

from __future__ import annotations

import os
import re
import sys

from ..display.terminal import printable
from ..errors import CPQueensError

#: Bad input, as every command's help says.
BAD_INPUT = 2
#: A fault of cpqueens itself (``EX_SOFTWARE`` of sysexits.h).
INTERNAL_ERROR = 70


def failure(error: BaseException) -> tuple[str, int]:
    """The one line that says what went wrong, and the exit status it ends in."""
    words = _words(error)
    if words is not None:
        return one_line(words), BAD_INPUT
    kind = type(error).__name__
    detail = one_line(str(error))
    return (
        f"internal error (a fault of cpqueens, please report it): {kind}"
        f"{': ' + detail if detail else ''}; CPQUEENS_TRACEBACK=1 shows where"
    ), INTERNAL_ERROR


def show_traceback() -> bool:
    """Whether the user asked for tracebacks (``CPQUEENS_TRACEBACK=1``)."""
    return os.environ.get("CPQUEENS_TRACEBACK", "") not in ("", "0")


def one_line(text: str) -> str:
    """``text`` with its line breaks and runs of blanks folded into single spaces, and
    any other control character shown, not sent to the terminal (a file's name may
    hold one).

    >>> one_line("no such column:\\n  r.instance_id in 'a\\x1b]0;x\\x07.db'")
    "no such column: r.instance_id in 'a\\\\x1b]0;x\\\\x07.db'"
    """
    return printable(re.sub(r"\s+", " ", text).strip())


def _words(error: BaseException) -> str | None:
    detail = str(error)
    if isinstance(error, CPQueensError):
        return detail
    if isinstance(error, RecursionError):
        return f"the input is nested too deeply to be read ({detail})"
    if isinstance(error, MemoryError):
        return "out of memory: the input asks for more than this machine has; try a smaller one"
    if isinstance(error, OverflowError):
        return f"a number is too large: {detail}"
    # sqlite3 is looked up, not imported: a store's error comes only once it is loaded.
    sqlite3 = sys.modules.get("sqlite3")
    if sqlite3 is not None and isinstance(error, sqlite3.Error):
        return f"the results store cannot be used: {detail}"
    if isinstance(error, TimeoutError):
        return f"timed out: {detail or 'no answer in time'}"
    if isinstance(error, OSError):
        where = f"{error.filename}: " if error.filename else ""
        return f"{where}{(error.strerror or detail).lower()}"
    return None
