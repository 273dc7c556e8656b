"""Solvers in any language, run as programs: a :class:`Command` is a crosscheck backend.

The program runs once per board size with ``{n}`` in its command replaced by the
size (or ``{instance}`` by an instance file's path), an empty standard input and no
shell. What it prints on standard output is read by :func:`cpqueens.parse_boards`,
up to ``max_output`` bytes; the end of what it prints on standard error is kept for
the message when it fails. Every way a program can fail (not found, a non-zero
exit, a timeout, too much output) is a :class:`~cpqueens.CommandFailedError` with a
message, which a cross-check turns into a row, never a traceback.

Here lives what a program is: its command line, its limits, how its output is read.
How it is run and measured is :mod:`cpqueens.programs.running`; how its output is judged,
:mod:`.judging.output_judge`.
"""

from __future__ import annotations

import os
import shlex
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..arguments import UNLIMITED_SECONDS, binary_size, check_int, check_seconds
from ..board import Solution
from ..errors import CommandFailedError, InvalidInputError, InvalidTypeError
from ..instances import Instance, as_instance, formats, write_instance
from ..outputs.answers import read_answer
from ..outputs.boards import Ignore, check_base, check_style, compile_ignore, read_output
from ..outputs.dimacs import ANSWER_STATUSES, dimacs_answer, dimacs_parsed, read_dimacs_output
from ..outputs.parsed_output import ParsedOutput
from ..outputs.xcsp import xcsp_answer, xcsp_parsed
from ..programs.running import (
    Printed,
    check_environment,
    check_program,
    exit_message,
    run_program,
)
from .cases import describe
from .flatzinc_flags import FLAGS, expand_flags, flatzinc_flags
from .row import COMPARISONS

#: The formats ``{instance}`` files can be written in, by their names and other names
#: (``param`` is ``essence``, ``xml`` is ``xcsp``).
INSTANCE_FORMATS = tuple(
    name for fmt in formats.INSTANCE_FORMATS for name in (fmt.name, *fmt.aliases)
)
#: The names of the XCSP3 format, whose solvers' output is read as the competitions print it.
XCSP_FORMATS = ("xcsp", *formats.by_name("xcsp").aliases)
#: Where a SAT solver given ``{instance}`` as DIMACS writes its DRAT proof.
PROOF = "{proof}"
#: The most a program may print on standard output (bytes) before it is stopped: every
#: solution of n=13 printed as grids (about 24 MiB) fits, and a program that never
#: stops printing would otherwise fill the memory.
DEFAULT_MAX_OUTPUT = 32 * 2**20


class Command:
    """A program that solves n-queens, to cross-check like any backend.

    Parameters
    ----------
    command : str or sequence of str
        The command line, split as a shell would (quotes work) but never run by
        a shell, or an argv list. ``{n}`` is replaced by the board size wherever
        it occurs; a command without ``{n}`` runs unchanged for every size.
    parse : str
        How to read its output: a style of :func:`cpqueens.parse_boards`
        (``"auto"`` by default).
    expect : {"all", "some", "count"}, optional
        ``"all"`` (the default, except for a ``"cnf"`` command: ``"some"``, for a
        SAT solver prints one model): it prints every solution, so a missing one is
        a fault.
        ``"some"``: it prints one or a few, each of which must be valid, distinct
        and a solution. ``"count"``: only the number is compared (the count it
        states, else the number of boards it printed). With ``parse="auto"`` an
        output holding a count and no board is compared as a count.
    timeout : float or None
        Seconds allowed per run (60 by default); the program and every process
        it started are then killed. None waits for ever.
    max_output : int
        Bytes it may print on standard output per run (32 MiB by default); past
        that, the program and every process it started are killed and the run
        fails. Only the last 64 KiB of its standard error are kept.
    name : str, optional
        The label of its rows; the command itself by default.
    cwd : path, optional
        The folder to run it in (a relative program path is found from there).
    base : {None, 0, 1}
        Whether its numbered columns start at 0 or 1; None guesses.
    instance_format : str
        The format an instance is written in for a command that holds
        ``{instance}`` (replaced by the file's path, as ``{n}`` is by the size):
        ``"json"`` (0-based, the PyCSP3 models' form; default), ``"param"``
        (Essence', 1-based), ``"dzn"`` (MiniZinc data for the shipped model),
        ``"cnf"`` (DIMACS, for a SAT solver, whose ``s`` line and model (``v``
        lines of literals) ``parse="auto"`` reads, and whose exit statuses 10 and
        20 are answers), ``"xc"`` (Knuth's exact cover), ``"fzn"`` (FlatZinc, for a
        FlatZinc solver such as ``fzn-gecode``, whose output ``parse="auto"`` then
        reads as FlatZinc's) or ``"xcsp"`` (XCSP3, for an XCSP solver, whose ``s``
        and ``v <instantiation>`` lines are read; ``"xml"`` is another name of it).
        A ``"cnf"`` command may hold ``{proof}``: the path its solver writes a DRAT
        proof to. The file it reads is then the statement of
        :mod:`cpqueens.proofs` (pairwise, no auxiliary variable), and its
        ``s UNSATISFIABLE`` is checked by the independent checker: a proof refused,
        or none written, makes the run wrong (see docs/certify.md).
    time_limit : float, optional
        Seconds the program is told to stop after, through ``{flags}`` in a FlatZinc
        command (``-t`` and its milliseconds; see
        :func:`~cpqueens.checking.flatzinc_flags.flatzinc_flags`). ``{flags}``
        stands for the FlatZinc flags of the question (``-a`` for every solution),
        and is refused in a command of another ``instance_format``.
    ignore : str or sequence of str, optional
        Regular expressions of output lines to leave out (see
        :func:`cpqueens.parse_boards`): its prose, when even a note is too much.
    env : mapping of str to str, optional
        The program's environment. None (the default): it inherits cpqueens' own,
        every variable of it, as any program the user starts does. A mapping: exactly
        those variables and no other, the program found on the mapping's ``PATH``
        (the system's default path when it has none);
        :func:`~cpqueens.programs.running.clean_environment` gives the few a program
        usually needs.

    Examples
    --------
    >>> import sys, cpqueens
    >>> letters = cpqueens.Command([sys.executable, "-c", "print('bdac cadb')"], name="py")
    >>> report = cpqueens.crosscheck(4, [letters, "stack"])
    >>> report.ok, report.rows[0].backend, report.rows[0].compared
    (True, 'py', 'all')
    >>> letters.read(4).boards
    [(1, 3, 0, 2), (2, 0, 3, 1)]
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        parse: str = "auto",
        expect: str | None = None,
        timeout: float | None = 60.0,
        name: str | None = None,
        cwd: str | os.PathLike | None = None,
        base: int | None = None,
        max_output: int = DEFAULT_MAX_OUTPUT,
        ignore: Ignore = None,
        instance_format: str = "json",
        env: Mapping[str, str] | None = None,
        time_limit: float | None = None,
    ):
        self.template = _split(command)
        self.env = None if env is None else check_environment(env)
        self.ignore = compile_ignore(ignore)
        if instance_format not in INSTANCE_FORMATS:
            raise InvalidInputError(
                f"instance_format must be one of: {', '.join(INSTANCE_FORMATS)}; "
                f"got {instance_format!r}"
            )
        self.instance_format = instance_format
        if instance_format == "fzn" and parse == "auto":
            parse = "flatzinc"  # a FlatZinc solver prints what the FlatZinc standard says
        if any(FLAGS in part for part in self.template) and instance_format != "fzn":
            raise InvalidInputError(
                f"{FLAGS} stands for a FlatZinc solver's flags (-a, -t): it needs "
                f'instance_format="fzn", got {instance_format!r}'
            )
        if self.writes_proof and (instance_format != "cnf" or not self.takes_instance):
            raise InvalidInputError(
                f"{PROOF} is where a SAT solver writes its DRAT proof of the DIMACS file "
                f'{{instance}} names: it needs {{instance}} and instance_format="cnf", got '
                f"{instance_format!r}"
            )
        if self.writes_proof:  # refused now, not at the first "no solution"
            from ..proofs.checker import check_checker

            check_checker("dratify")
        if expect is None:  # a SAT solver prints one model
            expect = "some" if instance_format == "cnf" else "all"
        self.time_limit = None if time_limit is None else check_seconds(time_limit, "time_limit")
        check_reading(parse, expect, base)
        if timeout is not None:
            timeout = check_seconds(timeout, "timeout")
            # As for a time limit, a timeout beyond any run (inf) is no timeout.
            timeout = None if timeout >= UNLIMITED_SECONDS else timeout
        if cwd is not None and not Path(cwd).is_dir():
            raise InvalidInputError(f"cwd {os.fspath(cwd)!r} is not a folder")
        if name is not None and not isinstance(name, str):
            raise InvalidTypeError(f"name must be a str, got {type(name).__name__}")
        self.parse = parse
        self.expect = expect
        self.timeout = timeout
        self.max_output = check_int(max_output, "max_output (bytes)", 1)
        self.cwd = None if cwd is None else os.fspath(cwd)
        self.base = base
        spelled = command.strip() if isinstance(command, str) else shlex.join(self.template)
        self.name = name or spelled

    def __repr__(self) -> str:
        return f"Command({self.name!r}, parse={self.parse!r}, expect={self.expect!r})"

    def argv(
        self,
        n: int,
        instance: str | None = None,
        question: str | None = None,
        proof: str | None = None,
    ) -> list[str]:
        """The argument list for board size ``n`` (and the instance file's path), with
        ``{flags}`` the FlatZinc flags of ``question`` (None: the one ``expect`` asks)
        and ``{proof}`` the path a SAT solver writes its proof to.

        >>> Command("./queens --size {n} --all").argv(8)
        ['./queens', '--size', '8', '--all']
        >>> Command("./queens {instance}").argv(8, "/tmp/a.json")
        ['./queens', '/tmp/a.json']
        >>> Command("fzn-gecode {flags} {instance}", instance_format="fzn").argv(8, "q.fzn")
        ['fzn-gecode', '-a', 'q.fzn']
        """
        asked = self.expect if question is None else question
        template = expand_flags(self.template, flatzinc_flags(asked, self.time_limit))
        parts = [part.replace("{n}", str(n)) for part in template]
        if instance is not None:
            parts = [part.replace("{instance}", instance) for part in parts]
        if proof is not None:
            parts = [part.replace(PROOF, proof) for part in parts]
        return parts

    @property
    def instance_suffix(self) -> str:
        """The suffix of the instance files this command is given (``xml`` for XCSP3)."""
        return formats.by_name(self.instance_format).extension.lstrip(".")

    @property
    def told_the_case(self) -> bool:
        """True when the command holds ``{n}`` or ``{instance}``: each run is told what
        to solve."""
        return self.takes_instance or any("{n}" in part for part in self.template)

    @property
    def takes_instance(self) -> bool:
        """True when the command holds ``{instance}``: it reads an instance file."""
        return any("{instance}" in part for part in self.template)

    @property
    def writes_proof(self) -> bool:
        """True when the command holds ``{proof}``: its "no solution" comes with a proof."""
        return any(PROOF in part for part in self.template)

    def run(self, case: int | Instance, question: str | None = None) -> Printed:
        """Run the program for a board size or an instance and return what it printed.

        With ``{instance}`` in the command, the instance (a plain size too) is
        written in ``instance_format`` to a temporary folder and its path put there.
        ``question`` (``all``, ``count``, ``decide``, ``some``) chooses what
        ``{flags}`` stands for; None: what ``expect`` asks. With ``{proof}``, an
        ``s UNSATISFIABLE`` has its proof checked: the verdict is the
        ``certificate`` of what is returned.

        Raises
        ------
        CommandFailedError
            When it cannot be started, exits with a non-zero status (the message
            quotes the end of its standard error), runs out of time or prints more
            than ``max_output`` bytes; or when an instance with given queens or
            blocked squares is asked of a program that takes no ``{instance}``.
        """
        instance = as_instance(case)
        if not self.takes_instance:
            if not instance.plain:
                raise CommandFailedError(
                    f"{describe(instance)}: the command has no {{instance}}, so the program "
                    "cannot be told the queens given and the squares blocked"
                )
            return self._run(self.argv(instance.n, question=question))
        with tempfile.TemporaryDirectory(prefix="cpqueens-") as folder:
            stem = _file_stem(instance.name) or f"queens-{instance.n}"
            path = Path(folder) / f"{stem}.{self.instance_suffix}"
            if not self.writes_proof:
                write_instance(instance, path)
                return self._run(self.argv(instance.n, str(path), question))
            from ..proofs.given import write_statement

            clauses = write_statement(path, instance)  # what the proof is checked against
            proof = path.with_suffix(".drat")
            printed = self._run(self.argv(instance.n, str(path), question, str(proof)))
            return self._proved(printed, instance.n, path, proof, clauses)

    def _proved(
        self, printed: Printed, n: int, formula: Path, proof: Path, clauses: int
    ) -> Printed:
        """``printed`` with the checker's verdict on the proof of its "no solution"."""
        if read_dimacs_output(printed.stdout, n).status != "unsat":
            return printed  # a model is checked as a board; "unknown" claims nothing
        from ..proofs.given import check_given_proof

        certificate = check_given_proof(
            formula, proof, producer=self.name, formula_clauses=clauses,
            seconds_to_prove=printed.elapsed,
        )  # fmt: skip
        return replace(printed, certificate=certificate)

    def _run(self, argv: list[str]) -> Printed:
        """Run it once; how it failed, if it did, as a :class:`CommandFailedError`."""
        printed = run_program(
            argv, timeout=self.timeout, max_output=self.max_output, cwd=self.cwd, env=self.env
        )
        if printed.overflowed:
            raise CommandFailedError(
                f"output larger than {binary_size(self.max_output)} (max_output); the program "
                "was stopped"
            )
        if printed.timed_out:
            raise CommandFailedError(
                f"timed out after {self.timeout:g} s (killed with the processes it started)"
            )
        if printed.unstarted is not None:
            raise CommandFailedError(printed.unstarted)
        answered = self.instance_format == "cnf" and printed.returncode in ANSWER_STATUSES
        if printed.returncode != 0 and not answered:
            raise CommandFailedError(
                exit_message(printed.returncode, printed.stderr, printed.stdout)
            )
        return printed

    def check_program(self) -> None:
        """Refuse a program that cannot be run (missing, a folder, not executable).

        Raises
        ------
        ProgramNotFoundError
            Saying why, in one line; :meth:`run` raises it too.
        """
        check_program(self.template[0], self.cwd, self.env)

    def read(self, case: int | Instance) -> ParsedOutput:
        """Run the program for a size or an instance and read its output with
        :func:`~cpqueens.parse_boards`."""
        instance = as_instance(case)
        return self.parse_output(self.run(instance), instance.n)

    def parse_output(self, printed: Printed, n: int) -> ParsedOutput:
        """What :meth:`read` reads of a run's standard output for board size ``n``,
        with this command's style, base and ``ignore`` patterns."""
        if self.instance_format in XCSP_FORMATS and self.parse == "auto":
            return xcsp_parsed(printed.stdout, n)  # the XCSP competitions' s and v lines
        if self.instance_format == "cnf" and self.parse == "auto":
            return dimacs_parsed(printed.stdout, n)  # the SAT competitions' s and v lines
        return read_output(printed.stdout, n, self.parse, self.base, self.ignore)

    def answer(
        self, printed: Printed, n: int, question: str, *, silence: str | None = None
    ) -> dict[str, Any]:
        """A run's answer to ``question`` (``decide``, ``count``, ``all``), read as its
        format's solvers print it: an XCSP3 solver's ``s`` and ``v`` lines
        (:func:`~cpqueens.outputs.xcsp.xcsp_answer`), else as
        :func:`~cpqueens.outputs.answers.read_answer` reads this command's ``parse``
        (``silence``: what an output with no answer at all says).

        Raises
        ------
        BadOutput
            For an output that answers nothing or contradicts itself.
        """
        if self.instance_format in XCSP_FORMATS and self.parse == "auto":
            return xcsp_answer(printed.stdout, n, question)
        if self.instance_format == "cnf" and self.parse == "auto":
            return dimacs_answer(printed.stdout, n, question)
        return read_answer(printed.stdout, n, question, self.parse, silence=silence)

    def __call__(self, case: int | Instance) -> list[Solution]:
        """The boards the program prints (so it can serve as a reference)."""
        instance = as_instance(case)
        parsed = self.read(instance)
        # A reference must be beyond doubt: an output with anything wrong in it is none.
        if parsed.mixed:
            raise CommandFailedError(f"{self.name} mixes conventions: {parsed.mixed}")
        if parsed.invalid_lines:
            number, text = parsed.invalid_lines[0]
            raise CommandFailedError(
                f"{self.name} printed a line that is not a board of size {instance.n}: "
                f"line {number}: {text.strip()[:60]!r}"
            )
        if not parsed.boards and parsed.count:
            raise CommandFailedError(
                f"{self.name} states a count ({parsed.count}) but prints no board"
            )
        return parsed.boards


def _file_stem(name: str | None) -> str | None:
    """A file name made of an instance's name: letters, digits, ``-``, ``_``, ``.``."""
    if not name:
        return None
    kept = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name).strip(".")
    return kept[:80] or None


def check_reading(parse: str, expect: str, base: int | None) -> None:
    """Refuse an unknown output style, comparison or base, naming the allowed ones."""
    check_style(parse, "parse=")
    if expect not in COMPARISONS:
        raise InvalidInputError(f"expect must be one of: {', '.join(COMPARISONS)}; got {expect!r}")
    check_base(base)


def _split(command: str | Sequence[str]) -> list[str]:
    if isinstance(command, str):
        try:
            parts = shlex.split(command)
        except ValueError as error:
            raise InvalidInputError(f"cannot split the command {command!r}: {error}") from None
    elif isinstance(command, Sequence) and not isinstance(command, bytes):
        parts = [os.fspath(part) for part in command if isinstance(part, (str, os.PathLike))]
        if len(parts) != len(command):
            raise InvalidTypeError(f"an argv list must hold strings, got {command!r}")
    else:
        raise InvalidTypeError(
            f"command must be a str or a list of str, got {type(command).__name__}"
        )
    if not parts:
        raise InvalidInputError(f"the command is empty: {command!r}")
    return parts
