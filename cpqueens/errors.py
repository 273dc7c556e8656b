"""The exceptions cpqueens raises.

Every error derives from :class:`CPQueensError`, and each also derives from the
built-in exception a caller would naturally catch (``ValueError`` for a bad value,
``TypeError`` for a bad type, ``ImportError`` for a missing package), so both
``except CPQueensError`` and ``except ValueError`` work.
"""

from __future__ import annotations

from collections.abc import Iterable


class CPQueensError(Exception):
    """Base class of every error raised by cpqueens.

    Examples
    --------
    >>> import cpqueens
    >>> try:
    ...     cpqueens.count(0)
    ... except cpqueens.CPQueensError as error:
    ...     print(type(error).__name__, "|", error)
    InvalidInputError | n must be a positive integer, got 0
    """


class InvalidInputError(CPQueensError, ValueError):
    """An argument has the right type but a value that is not allowed.

    Examples
    --------
    >>> import cpqueens
    >>> cpqueens.count(-1)
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: n must be a positive integer, got -1
    >>> try:
    ...     cpqueens.solve(4, limit=0)
    ... except ValueError as error:  # an InvalidInputError is a ValueError too
    ...     print(type(error).__name__, "|", error)
    InvalidInputError | limit must be a positive integer, got 0
    """


class InvalidTypeError(CPQueensError, TypeError):
    """An argument has a type that is not allowed.

    Examples
    --------
    >>> import cpqueens
    >>> try:
    ...     cpqueens.count("8")
    ... except TypeError as error:  # an InvalidTypeError is a TypeError too
    ...     print(type(error).__name__, "|", error)
    InvalidTypeError | n must be an integer, got '8' (str)
    """


class UnknownBackendError(InvalidInputError):
    """The backend name is not in the registry; the message lists the valid names.

    ``name`` holds the name given and ``valid`` the registry's names.

    Examples
    --------
    >>> import cpqueens
    >>> try:
    ...     cpqueens.count(8, backend="nope")
    ... except cpqueens.UnknownBackendError as caught:
    ...     error = caught
    >>> print(error)  # doctest: +ELLIPSIS
    unknown backend 'nope'; valid backends are: recursive, stack, tree, ...
    >>> error.name, "stack" in error.valid, isinstance(error, cpqueens.InvalidInputError)
    ('nope', True, True)
    """

    def __init__(self, name: object, valid: Iterable[str]):
        self.name = name
        self.valid = tuple(valid)
        super().__init__(f"unknown backend {name!r}; valid backends are: {', '.join(self.valid)}")


class UnsupportedOptionError(InvalidInputError):
    """The backend cannot honour an option that was given to it.

    Examples
    --------
    >>> import cpqueens
    >>> cpqueens.solve(8, backend="stack", seed=1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpqueens.errors.UnsupportedOptionError: backend 'stack' does not support seed; backends \
that do: random, ...
    >>> try:
    ...     cpqueens.solve(8, backend="stack", colour="red")
    ... except cpqueens.UnsupportedOptionError as error:
    ...     print(error)
    backend 'stack' got unknown option(s) colour; its own options are: tried
    """


class BackendUnavailableError(CPQueensError, ImportError):
    """A backend needs an optional package that is not installed.

    The message names what is missing and the command that installs it. It is an
    ``ImportError`` too.

    Examples
    --------
    The ACE backend told (through ``CPQUEENS_ACE_JAR``) to run a jar that is not
    there:

    >>> import os, cpqueens
    >>> from unittest import mock
    >>> with mock.patch.dict(os.environ, {"CPQUEENS_ACE_JAR": "no-such-ace.jar"}):
    ...     try:
    ...         cpqueens.solve(4, "ace")
    ...     except cpqueens.BackendUnavailableError as error:
    ...         print(error)
    ...         print(isinstance(error, ImportError))
    backend 'ace' was given CPQUEENS_ACE_JAR='no-such-ace.jar', which is not a file; point it \
at an ACE jar or unset it
    True
    """


class SolverError(CPQueensError, RuntimeError):
    """An external solver failed, or handed back an assignment that is not a solution.

    The message names the backend and the solver, so that a wrong answer is never
    passed on as a result.

    Examples
    --------
    A reference that hands back a board that is no solution:

    >>> import cpqueens
    >>> def shaky(n):
    ...     return [(0, 1, 2, 3)]
    >>> try:
    ...     cpqueens.crosscheck(4, ["stack"], reference=shaky)
    ... except cpqueens.SolverError as error:
    ...     print(error)
    the reference 'shaky' returned (0, 1, 2, 3) for n=4, not a solution
    """


class WrongSolutionError(SolverError):
    """A solver handed back a board that does not solve the problem it was given.

    ``board`` is that board, so that a cross-check or a campaign can judge the run
    wrong (a wrong answer) rather than failed (an error).

    Examples
    --------
    A function that checks its solver's board raises it, and a cross-check judges
    that board:

    >>> import cpqueens
    >>> def guarded(n):
    ...     board = tuple(range(n))  # what a faulty solver handed back
    ...     if not cpqueens.is_valid(board):
    ...         raise cpqueens.WrongSolutionError(f"my solver returned {board}", board)
    ...     return [board]
    >>> try:
    ...     guarded(4)
    ... except cpqueens.SolverError as caught:
    ...     error = caught
    >>> print(error)
    my solver returned (0, 1, 2, 3)
    >>> error.board
    (0, 1, 2, 3)
    >>> row = cpqueens.crosscheck(4, [guarded]).rows[0]
    >>> row.status, row.invalid, row.error
    ('FAIL', ((0, 1, 2, 3),), None)
    """

    def __init__(self, message: str, board: tuple):
        super().__init__(message)
        self.board = board


class SearchTimeoutError(CPQueensError, TimeoutError):
    """``count`` ran out of its ``time_limit`` before the count was exact.

    ``partial`` holds the number of solutions found before the time ran out.

    Examples
    --------
    The backtracker takes minutes to reach the first solution of n=30:

    >>> import cpqueens
    >>> try:
    ...     cpqueens.count(30, time_limit=0.01)
    ... except cpqueens.SearchTimeoutError as caught:
    ...     error = caught
    >>> print(error)
    count(n=30, backend='recursive') ran out of its time_limit of 0.01 s after 0 solutions
    >>> error.partial, isinstance(error, TimeoutError)
    (0, True)
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

    Examples
    --------
    >>> import cpqueens
    >>> try:
    ...     cpqueens.decision_tree(8, max_nodes=1000)
    ... except cpqueens.TreeTooLargeError as caught:
    ...     error = caught
    >>> error.estimate, error.max_nodes, error.at_least, error.memory
    (2057, 1000, False, None)
    >>> print(error)
    the decision tree for n=8 would have 2,057 nodes, more than max_nodes=1,000 (about 1 kB \
of memory each); build a partial tree instead with max_depth=... (stop at a depth) or \
fixed={row: column} (queens placed in advance), or raise max_nodes if the memory is there
    >>> cpqueens.decision_tree(20)  # a far larger tree is refused on a cheap bound
    Traceback (most recent call last):
    ...
    cpqueens.errors.TreeTooLargeError: the decision tree for n=20 would have at least \
2,570,761 nodes, more than max_nodes=2,000,000 (about 1 kB of memory each); build a partial \
tree instead with max_depth=... (stop at a depth) or fixed={row: column} (queens placed in \
advance), or raise max_nodes if the memory is there
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

    Examples
    --------
    >>> import sys, cpqueens
    >>> failing = cpqueens.Command(
    ...     [sys.executable, "-c", "import sys; sys.exit('out of memory')"], name="failing"
    ... )
    >>> try:
    ...     failing.read(4)
    ... except cpqueens.CommandFailedError as error:
    ...     print(error)
    exited with status 1; standard error ends: out of memory

    A cross-check gives the failed run a row of its own, an error:

    >>> row = cpqueens.crosscheck(4, [failing]).rows[0]
    >>> row.status, row.error
    ('ERROR', 'exited with status 1; standard error ends: out of memory')
    """


class ProgramNotFoundError(CommandFailedError, InvalidInputError):
    """A program to run (a :class:`cpqueens.Command`) is missing, a folder, or not
    executable: a bad input, said before any work starts.

    Examples
    --------
    >>> import cpqueens
    >>> missing = cpqueens.Command("no-such-solver {n}")
    >>> try:
    ...     cpqueens.crosscheck(4, [missing])
    ... except cpqueens.ProgramNotFoundError as caught:
    ...     error = caught
    >>> print(error)
    program not found: 'no-such-solver' (not on the PATH)
    >>> isinstance(error, cpqueens.CommandFailedError), isinstance(error, ValueError)
    (True, True)
    """


class SandboxError(CPQueensError):
    """The warm process that a campaign's isolated runs are forked from died or could
    not start: the run is not the solver's fault.

    Examples
    --------
    The warm process of a :class:`~cpqueens.campaigns.isolation.Sandbox` (what
    :func:`cpqueens.run_campaign` runs each run in) killed before a run:

    >>> import cpqueens
    >>> from cpqueens.campaigns.isolation import Sandbox
    >>> box = Sandbox(warm=[])
    >>> box.process.kill()
    >>> _ = box.process.wait()
    >>> task = {"question": "decide", "time_limit": 5, "memory_limit_mb": 1000,
    ...         "instance": cpqueens.Instance(6),
    ...         "solver": {"label": "stack", "backend": "stack", "options": {}}}
    >>> try:
    ...     box.run(task)
    ... except cpqueens.SandboxError as error:
    ...     print(error)
    the warm process for isolated runs died
    >>> box.close()
    """
