"""Solvers in any language, run as programs: a :class:`Command` is a crosscheck backend.

The program runs once per board size with ``{n}`` in its command replaced by the
size, an empty standard input and no shell. What it prints on standard output is
read by :func:`cpqueens.parse_boards`, up to ``max_output`` bytes; the end of what it
prints on standard error is kept for the message when it fails. Every way a program
can fail (not found, a non-zero exit, a timeout, too much output, nothing readable)
becomes a row with a message, never a traceback.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any

from ..arguments import check_int
from ..board import Solution
from ..display.numbers import plural
from ..errors import (
    CommandFailedError,
    InvalidInputError,
    InvalidTypeError,
    ProgramNotFoundError,
)
from ..instances import Instance
from ._reaper import CANNOT_START, MARK
from .cases import Case, describe, size_of
from .parsing import (
    BASES,
    ORIGIN_TEXT,
    STYLES,
    Ignore,
    Origin,
    ParsedOutput,
    compile_ignore,
    parse_boards,
)
from .verdicts import (
    COMPARISONS,
    EXAMPLES,
    CrossCheckRow,
    Fault,
    error_row,
    has_faults,
    sort_faults,
)

#: How many of the last lines of standard error a failure message quotes.
STDERR_LINES = 3
#: The formats ``{instance}`` files can be written in (suffixes).
INSTANCE_FORMATS = ("json", "param", "dzn", "cnf", "xc")
#: The most a program may print on standard output (bytes) before it is stopped: every
#: solution of n=13 printed as grids (about 24 MiB) fits, and a program that never
#: stops printing would otherwise fill the memory.
DEFAULT_MAX_OUTPUT = 32 * 2**20
#: How much of the end of standard error is kept (bytes): the message quotes its last
#: lines, and the rest is dropped so that a chatty program never blocks on a full pipe.
STDERR_KEEP = 64 * 2**10
# Bytes asked of a pipe at a time.
_CHUNK = 64 * 2**10
# Seconds to wait for the program to end after being told to, and for its pipes to close.
_REAP = 5.0
# The script that runs each program and ends what it leaves behind.
_REAPER = str(Path(__file__).with_name("_reaper.py"))


@dataclass(frozen=True)
class Printed:
    """What one run of a program printed, and how it ended."""

    argv: tuple[str, ...]
    stdout: str
    stderr: str
    returncode: int
    elapsed: float


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
    expect : {"all", "some", "count"}
        ``"all"``: it prints every solution, so a missing one is a fault.
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
        ``"cnf"`` (DIMACS) or ``"xc"`` (Knuth's exact cover).
    ignore : str or sequence of str, optional
        Regular expressions of output lines to leave out (see
        :func:`cpqueens.parse_boards`): its prose, when even a note is too much.

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
        expect: str = "all",
        timeout: float | None = 60.0,
        name: str | None = None,
        cwd: str | os.PathLike | None = None,
        base: int | None = None,
        max_output: int = DEFAULT_MAX_OUTPUT,
        ignore: Ignore = None,
        instance_format: str = "json",
    ):
        self.template = _split(command)
        self.ignore = compile_ignore(ignore)
        if instance_format not in INSTANCE_FORMATS:
            raise InvalidInputError(
                f"instance_format must be one of: {', '.join(INSTANCE_FORMATS)}; "
                f"got {instance_format!r}"
            )
        self.instance_format = instance_format
        check_reading(parse, expect, base)
        if timeout is not None and (
            isinstance(timeout, bool)
            or not isinstance(timeout, (int, float))
            or not math.isfinite(timeout)
            or timeout <= 0
        ):
            raise InvalidInputError(
                f"timeout must be a positive number of seconds or None, got {timeout!r}"
            )
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

    def argv(self, n: int, instance: str | None = None) -> list[str]:
        """The argument list for board size ``n`` (and the instance file's path).

        >>> Command("./queens --size {n} --all").argv(8)
        ['./queens', '--size', '8', '--all']
        >>> Command("./queens {instance}").argv(8, "/tmp/a.json")
        ['./queens', '/tmp/a.json']
        """
        parts = [part.replace("{n}", str(n)) for part in self.template]
        if instance is not None:
            parts = [part.replace("{instance}", instance) for part in parts]
        return parts

    @property
    def takes_instance(self) -> bool:
        """True when the command holds ``{instance}``: it reads an instance file."""
        return any("{instance}" in part for part in self.template)

    def run(self, case: Case) -> Printed:
        """Run the program for a board size or an instance and return what it printed.

        With ``{instance}`` in the command, the instance (a plain size too) is
        written in ``instance_format`` to a temporary folder and its path put there.

        Raises
        ------
        CommandFailedError
            When it cannot be started, exits with a non-zero status (the message
            quotes the end of its standard error), runs out of time or prints more
            than ``max_output`` bytes; or when an instance with given queens or
            blocked squares is asked of a program that takes no ``{instance}``.
        """
        if not self.takes_instance:
            if isinstance(case, Instance) and (case.fixed or case.blocked):
                raise CommandFailedError(
                    f"{describe(case)}: the command has no {{instance}}, so the program "
                    "cannot be told the queens given and the squares blocked"
                )
            return self._run(self.argv(size_of(case)))
        from ..instances import write_instance

        instance = case if isinstance(case, Instance) else Instance(case)
        with tempfile.TemporaryDirectory(prefix="cpqueens-") as folder:
            stem = _file_stem(instance.name) or f"queens-{instance.n}"
            path = Path(folder) / f"{stem}.{self.instance_format}"
            write_instance(instance, path)
            return self._run(self.argv(instance.n, str(path)))

    def _run(self, argv: list[str]) -> Printed:
        start = time.perf_counter()
        process = self._start(argv)
        deadline = None if self.timeout is None else start + self.timeout
        out, err, in_time = _collect(process, deadline, self.max_output)
        if out.overflowed:
            raise CommandFailedError(
                f"output larger than {_size(self.max_output)} (max_output); the program was stopped"
            )
        if not in_time:
            raise CommandFailedError(
                f"timed out after {self.timeout:g} s (killed with the processes it started)"
            )
        elapsed = time.perf_counter() - start
        stderr = bytes(err.data).decode("utf-8", errors="replace")
        if process.returncode == CANNOT_START and stderr.startswith(MARK):
            raise CommandFailedError(stderr[len(MARK) :].strip())
        if process.returncode != 0:
            raise CommandFailedError(_exit_message(process.returncode, stderr))
        return Printed(
            argv=tuple(argv),
            stdout=bytes(out.data).decode("utf-8", errors="replace"),
            stderr=stderr,
            returncode=process.returncode,
            elapsed=elapsed,
        )

    def _start(self, argv: list[str]) -> subprocess.Popen:
        """Start the program through the reaper script, or say in one line why it cannot be."""
        _check_program(argv[0], self.cwd)
        try:
            return subprocess.Popen(
                [sys.executable, "-S", "-E", _REAPER, *argv],
                stdin=subprocess.DEVNULL,  # a program waiting for a key goes on at once
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.cwd,
                start_new_session=True,  # away from the terminal's Ctrl-C: we stop it
            )
        except OSError as error:
            raise CommandFailedError(f"cannot run {argv[0]!r}: {error}") from None

    def check_program(self) -> None:
        """Refuse a program that cannot be run (missing, a folder, not executable).

        Raises
        ------
        ProgramNotFoundError
            Saying why, in one line; :meth:`run` raises it too.
        """
        _check_program(self.template[0], self.cwd)

    def read(self, case: Case) -> ParsedOutput:
        """Run the program for a size or an instance and read its output with
        :func:`parse_boards`."""
        n = size_of(case)
        return parse_boards(self.run(case).stdout, n, self.parse, self.base, ignore=self.ignore)

    def __call__(self, case: Case) -> list[Solution]:
        """The boards the program prints (so it can serve as a reference)."""
        n = size_of(case)
        parsed = self.read(case)
        # A reference must be beyond doubt: an output with anything wrong in it is none.
        if parsed.mixed:
            raise CommandFailedError(f"{self.name} mixes conventions: {parsed.mixed}")
        if parsed.invalid_lines:
            number, text = parsed.invalid_lines[0]
            raise CommandFailedError(
                f"{self.name} printed a line that is not a board of size {n}: "
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
    if parse not in STYLES:
        raise InvalidInputError(
            f"unknown output style parse={parse!r}; choose one of: {', '.join(STYLES)}"
        )
    if expect not in COMPARISONS:
        raise InvalidInputError(f"expect must be one of: {', '.join(COMPARISONS)}; got {expect!r}")
    if isinstance(base, bool) or base not in BASES:
        raise InvalidInputError(f"base must be None, 0 or 1, got {base!r}")


def check_command(
    command: Command, case: Case, expected: set[Solution], *, label: str | None = None
) -> CrossCheckRow:
    """Run ``command`` for a size or an instance and compare its output with
    ``expected``, as a row."""
    label = command.name if label is None else label
    n = size_of(case)
    start = time.perf_counter()
    try:
        printed = command.run(case)
    except CommandFailedError as error:
        elapsed = time.perf_counter() - start
        return error_row(n, label, str(error), len(expected), elapsed, compared=command.expect)
    parsed = parse_boards(printed.stdout, n, command.parse, command.base, ignore=command.ignore)
    return judge_output(
        parsed,
        n,
        expected,
        label=label,
        parse=command.parse,
        expect=command.expect,
        elapsed=printed.elapsed,
        case=case,
    )


def judge_output(
    parsed: ParsedOutput,
    n: int,
    expected: set[Solution],
    *,
    label: str,
    parse: str = "auto",
    expect: str = "all",
    elapsed: float = 0.0,
    case: Case | None = None,
) -> CrossCheckRow:
    """Compare what was read from a program's output with the reference, as a row.

    Every faulty board keeps where it was printed (``row.faults``, each with its
    :class:`~cpqueens.checking.parsing.Origin`): its line, its text and its base.
    ``case`` is the instance checked, when it is one.
    """
    compared = expect
    if parse == "count" or (parse == "auto" and not parsed.boards and parsed.count is not None):
        compared = "count"
    reference_count = len(expected)
    if compared == "count":
        stated = parsed.count if parsed.count is not None else len(parsed.boards) or None
        if stated is None:
            message = _unread_message(parsed, n, "a count")
            return error_row(n, label, message, reference_count, elapsed, compared=compared)
        faults = sort_faults(n, [], set())
        if stated != reference_count:
            detail = f"states {plural(stated, 'solution')}, the reference has {reference_count:,}"
            faults["faults"] = (Fault("wrong count", None, detail=detail),)
        return CrossCheckRow(
            n=n,
            backend=label,
            count=stated,
            reference_count=reference_count,
            agrees=stated == reference_count,
            elapsed=elapsed,
            compared=compared,
            **faults,
        )
    if parsed.mixed:
        return error_row(
            n,
            label,
            f"mixed conventions: {parsed.mixed}",
            reference_count,
            elapsed,
            count=len(parsed.boards),
            compared=compared,
            **_notes(parsed),
        )
    if not parsed.boards and not parsed.invalid_lines and expected:
        message = _unread_message(parsed, n, "a board")
        return error_row(n, label, message, reference_count, elapsed, compared=compared)
    # No board and no solution to find (n = 2, 3): "no solution" in any words agrees.
    faults = sort_faults(n, parsed.boards, expected, compared, case=case, origin=parsed.origin)
    faults["invalid_count"] += len(parsed.invalid_lines)
    if parsed.invalid_lines:
        unread = [
            Fault("not a board", None, _line_origin(parsed, number), f"not a board of size {n}")
            for number, _ in parsed.invalid_lines
        ]
        faults["faults"] = (*unread, *faults["faults"])
        if faults["hint"] and "every board" in faults["hint"]:
            # Lines that are no board at all: not every board is only shifted.
            faults["hint"] = faults["hint"].replace("every board", "every invalid board")
    if faults["hint"] and parsed.base == 1:
        faults["hint"] = None  # read as 1-based already: the shift is not the answer
    elif faults["hint"]:
        faults["hint"] += " (read them with base=1, --base 1 on the command line)"
    row = CrossCheckRow(
        n=n,
        backend=label,
        count=len(parsed.boards),
        reference_count=reference_count,
        agrees=not has_faults(faults),
        elapsed=elapsed,
        compared=compared,
        invalid_lines=parsed.invalid_lines[:EXAMPLES],
        stated_count=parsed.count,
        **_notes(parsed),
        **faults,
    )
    if row.miscounted:
        claimed = (
            f"printed {plural(row.count, 'board')}"
            if compared == "all"
            else f"the reference has {reference_count:,}"
        )
        detail = f"states {plural(parsed.count or 0, 'solution')}, {claimed}"
        wrong = Fault("wrong count", None, detail=detail)
        return replace(row, agrees=False, faults=(*row.faults, wrong))
    return row


def _line_origin(parsed: ParsedOutput, number: int) -> Origin:
    """Where a line that is no board was printed: its number (from 1) and its text."""
    text = parsed.lines[number - 1] if number <= len(parsed.lines) else None
    if text is not None and len(text) > ORIGIN_TEXT:
        text = text[: ORIGIN_TEXT - 3] + "..."
    return Origin(number, number, text, None, None)


def _notes(parsed: ParsedOutput) -> dict[str, Any]:
    return {"notes": parsed.notes[:EXAMPLES], "note_count": len(parsed.notes)}


def _unread_message(parsed: ParsedOutput, n: int, what: str) -> str:
    if not parsed.skipped:
        return "printed nothing on standard output"
    first = parsed.skipped[0].strip()
    first = first if len(first) <= 80 else first[:77] + "..."
    return f"nothing in its output could be read as {what} of size {n}; first line: {first!r}"


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


class _Drain:
    """One pipe of the program, read to its end on a thread of its own.

    Each pipe has its reader, so that neither can fill up and block the program, and
    at most ``keep`` bytes are held: the first ones (standard output: one byte more
    sets ``overflowed`` and ends the reading, and the program is then stopped), or
    with ``tail=True`` the last ones (standard error, whose end a message quotes).
    """

    def __init__(self, pipe: IO[bytes], keep: int, *, tail: bool, wake: threading.Event):
        self.data = bytearray()
        self.overflowed = False
        self.done = threading.Event()
        self.thread = threading.Thread(
            target=self._read, args=(pipe, keep, tail, wake), daemon=True
        )
        self.thread.start()

    def _read(self, pipe: IO[bytes], keep: int, tail: bool, wake: threading.Event) -> None:
        try:
            # read1 returns what the pipe holds now (up to _CHUNK) instead of waiting
            # for a full chunk, so a slow printer is read as it goes.
            while chunk := pipe.read1(_CHUNK):  # type: ignore[attr-defined]
                self.data += chunk
                if len(self.data) > keep:
                    if not tail:
                        self.overflowed = True
                        return
                    del self.data[:-keep]
        except (OSError, ValueError):  # the pipe broke or was closed: its end
            pass
        finally:
            pipe.close()
            self.done.set()
            wake.set()


def _collect(
    process: subprocess.Popen, deadline: float | None, max_output: int
) -> tuple[_Drain, _Drain, bool]:
    """Read both pipes until the program ends, stopping it at the deadline or on overflow.

    Returns the two drains (standard output, standard error) and whether the program
    ended before the deadline. When the deadline came first, or the output drain says
    ``overflowed``, the program and everything it started have been killed.
    """
    wake = threading.Event()
    assert process.stdout is not None and process.stderr is not None
    out = _Drain(process.stdout, max_output, tail=False, wake=wake)
    err = _Drain(process.stderr, STDERR_KEEP, tail=True, wake=wake)
    threading.Thread(target=_wake_at_exit, args=(process, wake), daemon=True).start()
    try:
        in_time = _wait(process, out, wake, deadline)
    except BaseException:  # Ctrl-C: leave no program running behind
        _end(process, (out, err))
        raise
    if out.overflowed or not in_time:
        _end(process, (out, err))
    else:
        # The reaper has ended everything the program started: the pipes are closing.
        _join(out, err)
    return out, err, in_time


def _wake_at_exit(process: subprocess.Popen, wake: threading.Event) -> None:
    process.wait()
    wake.set()


def _wait(
    process: subprocess.Popen, out: _Drain, wake: threading.Event, deadline: float | None
) -> bool:
    """Wait until the program has ended, or has printed too much.

    Returns False when the deadline came first. The output drain and a thread
    waiting on the process set ``wake``, so the wait ends at once, and it never
    lasts past the deadline.
    """
    while True:
        wake.clear()  # before looking, so that an event meanwhile wakes the wait
        if out.overflowed or process.poll() is not None:
            return True
        remaining = _remaining(deadline)
        if remaining == 0:
            return False
        wake.wait(remaining)


def _remaining(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.0, deadline - time.perf_counter())


def _end(process: subprocess.Popen, drains: Sequence[_Drain] = ()) -> None:
    """Stop the program and everything it started, then collect what is left of it.

    The reaper script ends them on SIGTERM; should it not exit in time, its own
    process group is killed.
    """
    try:
        process.terminate()
        process.wait(_REAP)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    except ProcessLookupError:
        pass
    _join(*drains)


def _join(*drains: _Drain) -> None:
    # A process that escaped the reaper (only possible where there is no subreaper)
    # may hold a pipe open: its reader, a daemon thread, is then left to end with it.
    give_up = time.perf_counter() + _REAP
    for drain in drains:
        drain.thread.join(_remaining(give_up))


def _check_program(program: str, cwd: str | None) -> None:
    """Say why ``program`` cannot be run, before anything is started."""
    where = f" in {cwd}" if cwd else ""
    if os.sep in program or (os.altsep and os.altsep in program):
        path = Path(cwd or ".") / program
        if path.is_dir():
            raise ProgramNotFoundError(f"cannot run {program!r}: it is a folder, not a program")
        if not path.exists():
            raise ProgramNotFoundError(f"program not found: {program!r}{where}")
        if not os.access(path, os.X_OK):
            raise ProgramNotFoundError(
                f"cannot run {program!r}: permission denied (is it executable?)"
            )
    elif shutil.which(program) is None:
        raise ProgramNotFoundError(f"program not found: {program!r} (not on the PATH)")


def _size(nbytes: int) -> str:
    """``nbytes`` in the largest binary unit that divides it.

    >>> _size(32 * 2**20), _size(65536), _size(1000)
    ('32 MiB', '64 KiB', '1,000 bytes')
    """
    for unit, name in ((2**30, "GiB"), (2**20, "MiB"), (2**10, "KiB")):
        if nbytes % unit == 0:
            return f"{nbytes // unit} {name}"
    return f"{nbytes:,} bytes"


_SIZE = re.compile(r"\s*(\d+)\s*([kmg]?)(?:i?b)?\s*", re.IGNORECASE)


def parse_size(text: str, name: str = "size") -> int:
    """A number of bytes from ``"1000"``, ``"64K"``, ``"32M"`` or ``"1G"`` (powers of 1024).

    ``KiB``, ``KB`` and ``k`` mean the same; ``name`` names the value in the error.

    >>> parse_size("64K"), parse_size("32MiB"), parse_size("1000")
    (65536, 33554432, 1000)
    >>> parse_size("12X", "--max-output")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: --max-output must be a positive number of bytes, ...
    """
    match = _SIZE.fullmatch(text) if isinstance(text, str) else None
    if match is None or int(match[1]) < 1:
        raise InvalidInputError(
            f"{name} must be a positive number of bytes, optionally with K, M or G "
            f"(powers of 1024), e.g. 64M; got {text!r}"
        )
    return int(match[1]) * 1024 ** " kmg".index(match[2].lower() or " ")


def _exit_message(returncode: int, stderr: str) -> str:
    if returncode < 0:
        try:
            what = f"killed by signal {signal.Signals(-returncode).name}"
        except ValueError:
            what = f"killed by signal {-returncode}"
    else:
        what = f"exited with status {returncode}"
    tail = [line.strip()[:200] for line in stderr.splitlines() if line.strip()][-STDERR_LINES:]
    if not tail:
        return f"{what}; nothing on standard error"
    return f"{what}; standard error ends: {' | '.join(tail)}"
