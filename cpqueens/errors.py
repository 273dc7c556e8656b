"""The exceptions cpqueens raises.

Every error derives from :class:`CPQueensError`, and each also derives from the
built-in exception a caller would naturally catch (``ValueError`` for a bad value,
``TypeError`` for a bad type, ``ImportError`` for a missing package), so both
``except CPQueensError`` and ``except ValueError`` work.
"""

from __future__ import annotations

from collections.abc import Iterable


class CPQueensError(Exception):
    """Base class of every error raised by cpqueens."""


class InvalidInputError(CPQueensError, ValueError):
    """An argument has the right type but a value that is not allowed."""


class InvalidTypeError(CPQueensError, TypeError):
    """An argument has a type that is not allowed."""


class UnknownBackendError(InvalidInputError):
    """The backend name is not in the registry; the message lists the valid names."""

    def __init__(self, name: object, valid: Iterable[str]):
        self.name = name
        self.valid = tuple(valid)
        super().__init__(f"unknown backend {name!r}; valid backends are: {', '.join(self.valid)}")


class UnsupportedOptionError(InvalidInputError):
    """The backend cannot honour an option that was given to it."""


class BackendUnavailableError(CPQueensError, ImportError):
    """A backend needs an optional package that is not installed."""


class SolverError(CPQueensError, RuntimeError):
    """An external solver failed, or handed back an assignment that is not a solution.

    The message names the backend and the solver, so that a wrong answer is never
    passed on as a result.
    """


class WrongSolutionError(SolverError):
    """A solver handed back a board that does not solve the problem it was given.

    ``board`` is that board, so that a cross-check or a campaign can judge the run
    wrong (a wrong answer) rather than failed (an error).
    """

    def __init__(self, message: str, board: tuple):
        super().__init__(message)
        self.board = board


class SearchTimeoutError(CPQueensError, TimeoutError):
    """``count`` ran out of its ``time_limit`` before the count was exact.

    ``partial`` holds the number of solutions found before the time ran out.
    """

    def __init__(self, message: str, partial: int):
        self.partial = partial
        super().__init__(message)


class TreeTooLargeError(InvalidInputError):
    """The decision tree asked for would not fit in memory, or take too long to build.

    ``estimate`` holds the estimated number of graph nodes and ``max_nodes`` the
    limit; ``at_least`` is True when ``estimate`` is only a bound from below (a tree
    far too large is refused on a cheap bound). A tree with propagation may be
    refused within ``max_nodes`` on its price: then ``memory`` (bytes) and
    ``seconds`` hold what its nodes would cost, and ``cost`` says it in words, with
    the budget passed ("about 2.4 GB of memory and 93 s to build, more than the
    budget of 2.0 GB and 30 s"); for a refusal on the node count they are None and
    "". The message says how to ask for a smaller tree instead.
    """

    def __init__(
        self,
        message: str,
        estimate: int,
        max_nodes: int,
        *,
        at_least: bool = False,
        memory: float | None = None,
        seconds: float | None = None,
        cost: str = "",
    ):
        self.estimate = estimate
        self.max_nodes = max_nodes
        self.at_least = at_least
        self.memory = memory
        self.seconds = seconds
        self.cost = cost
        super().__init__(message)


class CommandFailedError(CPQueensError, RuntimeError):
    """An external program (a :class:`cpqueens.Command`) failed: it could not be
    started, exited with a non-zero status, ran out of time, or printed nothing
    that could be read. The message says which, with the end of its standard error.
    """


class ProgramNotFoundError(CommandFailedError, InvalidInputError):
    """A program to run (a :class:`cpqueens.Command`) is missing, a folder, or not
    executable: a bad input, said before any work starts."""


class SandboxError(CPQueensError):
    """The warm process that a campaign's isolated runs are forked from died or could
    not start: the run is not the solver's fault."""
