"""FlatZinc solvers as programs to cross-check and race: :class:`FlatZincSolver`.

Any program that reads a FlatZinc file and answers as the FlatZinc standard says
(Gecode's ``fzn-gecode``, ``fzn-chuffed``, OR-Tools' ``fzn-cp-sat``...) is one
:class:`FlatZincSolver`: each instance, a plain board size too, is written as a
``.fzn`` file (:mod:`cpqueens.instances.formats.flatzinc`), the solver is run on it with the
standard flags of the question asked (:mod:`.flatzinc_flags`: ``-a`` for every
solution, ``-t`` for a time limit) and what it prints is read by
:func:`cpqueens.read_flatzinc_output`. It is a :class:`cpqueens.Command`, so it goes
wherever one does: ``cpqueens.crosscheck(range(1, 9), [cpqueens.FlatZincSolver()])``.
The same solver is ``crosscheck --flatzinc fzn-gecode`` on the command line and
``flatzinc = "fzn-gecode"`` in a campaign's ``[[solvers]]``.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..errors import InvalidInputError, InvalidTypeError
from .external import DEFAULT_MAX_OUTPUT, Command
from .flatzinc_flags import FLAGS

#: The FlatZinc solver used when none is named: Gecode's (Debian's package flatzinc).
DEFAULT_FLATZINC = "fzn-gecode"


class FlatZincSolver(Command):
    """A FlatZinc solver, run on the ``.fzn`` file of each instance and read as FlatZinc.

    Parameters
    ----------
    program : str or path
        The solver's program: a name found on the ``PATH`` (``"fzn-gecode"``, the
        default) or a path.
    options : str or sequence of str
        Options of the solver's own, put after the standard flags (a string is split
        as a shell would): ``"-p 2"`` for two threads of ``fzn-gecode``.
    expect : {"all", "some", "count"}
        What is compared, as for :class:`cpqueens.Command`; ``all`` and ``count``
        run the solver with ``-a``, ``some`` asks it for one solution.
    time_limit : float, optional
        Seconds the solver is told to stop after (``-t`` and its milliseconds).
    timeout : float or None
        Seconds after which the solver and every process it started are killed
        (60 by default): a run that hangs is an error.
    name : str, optional
        The label of its rows: the program's file name by default.
    cwd, env, max_output
        As for :class:`cpqueens.Command`.

    Examples
    --------
    >>> solver = FlatZincSolver("fzn-gecode", options="-p 1", time_limit=2)
    >>> solver.name, solver.argv(8, "q.fzn")
    ('fzn-gecode', ['fzn-gecode', '-a', '-t', '2000', '-p', '1', 'q.fzn'])
    >>> solver.argv(8, "q.fzn", question="decide")
    ['fzn-gecode', '-t', '2000', '-p', '1', 'q.fzn']
    """

    def __init__(
        self,
        program: str | os.PathLike = DEFAULT_FLATZINC,
        *,
        options: str | Sequence[str] = (),
        expect: str = "all",
        time_limit: float | None = None,
        timeout: float | None = 60.0,
        name: str | None = None,
        cwd: str | os.PathLike | None = None,
        env: Mapping[str, str] | None = None,
        max_output: int = DEFAULT_MAX_OUTPUT,
    ):
        if not isinstance(program, (str, os.PathLike)):
            raise InvalidTypeError(
                f"program must be a program's name or path, got {type(program).__name__}"
            )
        program = os.fspath(program)
        if not program.strip():
            raise InvalidInputError("program is empty: name a FlatZinc solver, e.g. fzn-gecode")
        super().__init__(
            [program, FLAGS, *_options(options), "{instance}"],
            parse="flatzinc",
            expect=expect,
            timeout=timeout,
            name=name or Path(program).name,
            cwd=cwd,
            env=env,
            max_output=max_output,
            instance_format="fzn",
            time_limit=time_limit,
        )

    def __repr__(self) -> str:
        return f"FlatZincSolver({self.template[0]!r}, expect={self.expect!r})"


def flatzinc_command(solver: str) -> str:
    """The command of a campaign's ``flatzinc = "..."``: the solver's program and its
    own options, the standard flags and the instance file put in their places.

    >>> flatzinc_command("fzn-gecode -p 2")
    'fzn-gecode {flags} -p 2 {instance}'
    """
    program, *options = solver_words(solver, "flatzinc")
    return " ".join([shlex.quote(program), FLAGS, *map(shlex.quote, options), "{instance}"])


def solver_words(solver: str, what: str = "--flatzinc") -> list[str]:
    """A FlatZinc solver as written on a command line or in a spec, ``"fzn-gecode -p 2"``:
    its program and its own options, split as a shell would (``what`` names the value
    in the error).

    >>> solver_words("fzn-gecode -p 2")
    ['fzn-gecode', '-p', '2']
    """
    if not isinstance(solver, str) or not solver.strip():
        raise InvalidInputError(
            f"{what} must name a FlatZinc solver's program, e.g. {DEFAULT_FLATZINC!r}; "
            f"got {solver!r}"
        )
    return _options(solver)


def _options(options: str | Sequence[str]) -> list[str]:
    if isinstance(options, str):
        try:
            return shlex.split(options)
        except ValueError as error:
            raise InvalidInputError(f"cannot split the options {options!r}: {error}") from None
    if not isinstance(options, Sequence) or not all(isinstance(o, str) for o in options):
        raise InvalidTypeError(f"options must be a str or a list of str, got {options!r}")
    return list(options)
