"""Running one program under limits, and measuring how it went: nothing here judges.

:func:`run_program` starts a program through the reaper script (:mod:`.reaper`,
which ends everything the program starts), with an empty standard input and no
shell, reads both its pipes on threads of their own, and stops it at its deadline
or once it has printed more than it may. It hands back a :class:`Printed`: what
the program printed, its exit status, the seconds it took, and whether a limit
stopped it. What that means (a failure, an answer) is for :class:`cpqueens.Command`
and the judges of the checking family to say.

>>> import sys
>>> done = run_program([sys.executable, "-c", "print('bdac')"], timeout=30, max_output=100)
>>> done.stdout, done.returncode, done.timed_out, done.overflowed
('bdac\\n', 0, False, False)
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..display.terminal import printable
from ..errors import CommandFailedError, InvalidInputError, InvalidTypeError, ProgramNotFoundError
from . import reaper
from .reaper import CANNOT_START, MARK

#: How many of the last lines of standard error a failure message quotes.
STDERR_LINES = 3
#: How much of the end of standard error is kept (bytes): a failure message quotes its
#: last lines, and the rest is dropped so that a chatty program never blocks on a full pipe.
STDERR_KEEP = 64 * 2**10
# Bytes asked of a pipe at a time.
_CHUNK = 64 * 2**10
# Seconds to wait for the program to end after being told to, and for its pipes to close.
_REAP = 5.0
# The script that runs each program and ends what it leaves behind.
_REAPER = str(Path(__file__).with_name("reaper.py"))
# True in a process of its own that reaps what its programs leave (see start_directly).
_DIRECT = False
# How the script is started. Python, started in the C locale, sets LC_CTYPE=C.UTF-8 in
# its own environment (PEP 538), which the program would inherit: these lines put
# back the program's own LC_CTYPE (the first argument: "=" and its value, or "-" for
# none), then run the script as a script.
_START_REAPER = (
    "import os, runpy, sys\n"
    "ctype = sys.argv.pop(1)\n"
    "if ctype == '-': os.environ.pop('LC_CTYPE', None)\n"
    "else: os.environ['LC_CTYPE'] = ctype[1:]\n"
    f"sys.argv[0] = {_REAPER!r}\n"
    "runpy.run_path(sys.argv[0], run_name='__main__')\n"
)


@dataclass(frozen=True)
class Printed:
    """What one run of a program printed, and how it ended.

    ``stdout`` holds at most ``max_output`` bytes (decoded), ``stderr`` the end of
    standard error; ``timed_out`` and ``overflowed`` say that a limit stopped the
    program (its status then says nothing of its own).
    """

    argv: tuple[str, ...]
    stdout: str
    stderr: str
    returncode: int
    elapsed: float
    timed_out: bool = False
    overflowed: bool = False
    #: The checker's verdict on the proof a SAT solver wrote of "no solution" (a
    #: :class:`~cpqueens.Certificate`), for a command with ``{proof}``; else None.
    certificate: Any = None

    @property
    def unstarted(self) -> str | None:
        """Why the program could not be started (the reaper's line), or None."""
        return unstarted(self.returncode, self.stderr)


def run_program(
    argv: Sequence[str],
    *,
    timeout: float | None,
    max_output: int,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
) -> Printed:
    """Run ``argv`` in ``cwd`` until it ends, ``timeout`` seconds pass (None: no
    limit) or it prints more than ``max_output`` bytes; the program and every
    process it started are then killed. ``env`` is its whole environment (None:
    this process's own), and its ``PATH`` is where the program is looked for.

    Raises
    ------
    ProgramNotFoundError
        When the program is missing, a folder or not executable (see
        :func:`check_program`).
    CommandFailedError
        When the operating system refuses to start it.
    """
    start = time.perf_counter()
    process = start_program(argv, cwd=cwd, env=env)
    deadline = None if timeout is None else start + timeout
    out, err, in_time = _collect(process, deadline, max_output)
    return Printed(
        argv=tuple(argv),
        stdout=bytes(out.data).decode("utf-8", errors="replace"),
        stderr=bytes(err.data).decode("utf-8", errors="replace"),
        returncode=process.returncode,
        elapsed=time.perf_counter() - start,
        timed_out=not in_time,
        overflowed=out.overflowed,
    )


#: What a program asked a short question (its version) may take, and print.
QUESTION_SECONDS = 10.0
QUESTION_BYTES = 65536


def program_says(argv: Sequence[str], timeout: float = QUESTION_SECONDS) -> str | None:
    """What a program prints on both streams when asked a short question (``--version``),
    or None when it cannot be run or does not answer in ``timeout`` seconds: run as
    every program is (:func:`run_program`), its whole tree ended should it hang.

    >>> import sys
    >>> program_says([sys.executable, "-c", "print('3.11')"]).strip()
    '3.11'
    >>> program_says(["./no-such-program"]) is None
    True
    """
    try:
        printed = run_program(argv, timeout=timeout, max_output=QUESTION_BYTES)
    except CommandFailedError:  # not found, not executable, refused by the system
        return None
    if printed.timed_out or printed.unstarted is not None:
        return None
    return printed.stdout + printed.stderr


def start_directly() -> None:
    """Start programs directly from now on, this process their reaper.

    For a process that exists only to run one task and is itself watched and ended
    as a whole (a campaign's or a hunt's isolated run, :mod:`cpqueens.campaigns.warm_process`):
    it becomes the child subreaper the reaper script would be, and ends what each
    program leaves, so that a run does not pay for starting a Python interpreter
    (about 35 ms) before its program.
    """
    global _DIRECT
    reaper._become_subreaper()
    _DIRECT = True


def start_program(
    argv: Sequence[str],
    *,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
    piped_input: bool = False,
    buffered: bool = True,
    keep_stderr: bool = True,
) -> subprocess.Popen:
    """Start ``argv`` the one way every program is started: through the reaper script
    (:mod:`.reaper`: the program and whatever it starts are ended with it, and when
    this process dies), in a session of its own (away from the terminal's Ctrl-C: the
    caller stops it), no shell, its output and error on pipes (its error dropped
    unless ``keep_stderr``), an empty standard input unless ``piped_input``; or say
    in one line why it cannot be started. End it with :func:`end_program`.

    >>> import sys
    >>> program = start_program([sys.executable, "-c", "print(6)"])
    >>> program.stdout.read(), program.wait()
    (b'6\\n', 0)
    >>> end_program(program)
    """
    argv = list(argv)
    check_program(argv[0], cwd, env)
    stdin = subprocess.PIPE if piped_input else subprocess.DEVNULL
    stderr = subprocess.PIPE if keep_stderr else subprocess.DEVNULL
    # Unbuffered on request: a reply must not wait in a Python buffer while select()
    # watches the pipe for it.
    bufsize = -1 if buffered else 0
    if _DIRECT:
        try:
            return subprocess.Popen(argv, stdin=stdin, stdout=subprocess.PIPE,
                                    stderr=stderr, cwd=cwd,
                                    env=None if env is None else dict(env),
                                    start_new_session=True, bufsize=bufsize)  # fmt: skip
        except OSError as error:
            reason = error.strerror or str(error)
            raise CommandFailedError(f"cannot run {argv[0]!r}: {reason}") from None
    given = os.environ if env is None else env
    ctype = "=" + given["LC_CTYPE"] if "LC_CTYPE" in given else "-"
    try:
        return subprocess.Popen(
            # Isolated (-I: no environment variables, no user site, and not the working
            # folder on its path): nothing where the user stands is imported.
            [sys.executable, "-I", "-S", "-c", _START_REAPER, ctype, *argv],
            stdin=stdin,  # a program waiting for a key goes on at once
            stdout=subprocess.PIPE,
            stderr=stderr,
            cwd=cwd,
            env=None if env is None else dict(env),
            start_new_session=True,  # away from the terminal's Ctrl-C: we stop it
            bufsize=bufsize,
        )
    except OSError as error:
        raise CommandFailedError(f"cannot run {argv[0]!r}: {error}") from None


def python_module(module: str, *args: str) -> list[str]:
    """The command that runs ``python -m module`` in a child interpreter that leaves the
    working folder off its path (``-P``): a ``struct.py`` or ``contextlib.py`` where
    the user stands is never imported in place of the standard library's. Give it
    :func:`python_environment`, which names where this cpqueens is.

    >>> python_module("cpqueens.campaigns.warm_process")[1:]
    ['-P', '-m', 'cpqueens.campaigns.warm_process']
    """
    return [sys.executable, "-P", "-m", module, *args]


def python_environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """This process's environment (with ``extra``), the folder that holds this
    cpqueens first on ``PYTHONPATH``: a child started by :func:`python_module` imports
    the same cpqueens, installed or not, and nothing from the working folder."""
    env = dict(os.environ)
    env.update(extra or {})
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def unstarted(returncode: int | None, stderr: str) -> str | None:
    """Why a program started by :func:`start_program` could not run (the reaper's
    line), or None.

    >>> unstarted(127, "cpqueens-run: cannot run 'x': Exec format error")
    "cannot run 'x': Exec format error"
    """
    if returncode == CANNOT_START and stderr.startswith(MARK):
        return stderr[len(MARK) :].strip()
    return None


def check_program(program: str, cwd: str | None, env: Mapping[str, str] | None = None) -> None:
    """Say why ``program`` cannot be run, before anything is started; a bare name is
    looked for on ``env``'s ``PATH`` (None: this process's own).

    >>> check_program("./no-such-program", None)
    Traceback (most recent call last):
    ...
    cpqueens.errors.ProgramNotFoundError: program not found: './no-such-program'
    """
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
    elif shutil.which(program, path=_search_path(env)) is None:
        raise ProgramNotFoundError(f"program not found: {program!r} (not on the PATH)")


def _search_path(env: Mapping[str, str] | None) -> str | None:
    """Where a bare program name is looked for: ``env``'s PATH, as the program's
    start looks it up (the system's default path when it has none)."""
    if env is None:
        return None
    return env.get("PATH", os.defpath)


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
        if _DIRECT:
            reaper._end_all(process.pid)  # this process is the reaper
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


def end_program(process: subprocess.Popen) -> None:
    """Stop a program started by :func:`start_program` and everything it started,
    then collect it (nothing is left running or unreaped)."""
    _end(process)


def _end(process: subprocess.Popen, drains: Sequence[_Drain] = ()) -> None:
    """Stop the program and everything it started, then collect what is left of it.

    The reaper script ends them on SIGTERM; should it not exit in time, its own
    process group is killed. Started directly, they are killed here.
    """
    if _DIRECT:
        reaper._end_all(process.pid)
        with contextlib.suppress(ChildProcessError):
            process.wait()
        _join(*drains)
        return
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


def exit_message(returncode: int, stderr: str, stdout: str = "") -> str:
    """Why a program failed: its exit status or signal, and the end of what it said,
    on standard error, or on standard output when it wrote its reason there.

    >>> exit_message(1, "", "Usage: queens N\\nN must be at least 4\\n")
    'exited with status 1; nothing on standard error; standard output ends: Usage: \
queens N | N must be at least 4'
    """
    if returncode < 0:
        try:
            what = f"killed by signal {signal.Signals(-returncode).name}"
        except ValueError:
            what = f"killed by signal {-returncode}"
    else:
        what = f"exited with status {returncode}"
    tail = _last_lines(stderr)
    if tail:
        return f"{what}; standard error ends: {tail}"
    # A program that exits on its own with its reason on standard output ("N must be
    # at least 4"): quoted. A killed one's output is whatever it had printed by then.
    said = _last_lines(stdout) if returncode > 0 else ""
    if said:
        return f"{what}; nothing on standard error; standard output ends: {said}"
    return f"{what}; nothing on standard error"


def _last_lines(text: str) -> str:
    """The last few non-blank lines of ``text``, joined by `` | ``: shown on a terminal
    and in reports, so their control characters escaped and their colours dropped."""
    lines = (printable(line.strip()[:200]).strip() for line in text.splitlines())
    return " | ".join([line for line in lines if line][-STDERR_LINES:])


#: What :func:`clean_environment` keeps of cpqueens' own environment (and every
#: ``LC_*``): where programs are found, the home folder, the user, the language and
#: time zone, the folder for temporary files.
CLEAN_ENV = ("PATH", "HOME", "USER", "LANG", "TZ", "TMPDIR")


def clean_environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """A small environment for a program: of cpqueens' own, only the variables of
    :data:`CLEAN_ENV` and ``LC_*``; then ``extra`` (set or replaced).

    >>> import os
    >>> sorted(clean_environment({"OMP_NUM_THREADS": "1"})) == sorted(
    ...     {*(n for n in os.environ if n in CLEAN_ENV or n.startswith("LC_")), "OMP_NUM_THREADS"})
    True
    """
    kept = {
        name: value
        for name, value in os.environ.items()
        if name in CLEAN_ENV or name.startswith("LC_")
    }
    return {**kept, **check_environment(extra or {})}


def check_environment(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` as a dict once every name and value is a str an environment can hold.

    >>> check_environment({"A=B": "1"})
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: env: 'A=B' cannot name an environment variable \
(no '=', no NUL, not empty)
    """
    if not isinstance(env, Mapping):
        raise InvalidTypeError(f"env must be a mapping of str to str, got {type(env).__name__}")
    for name, value in env.items():
        if not isinstance(name, str) or not isinstance(value, str):
            raise InvalidTypeError(f"env must map str to str, got {name!r}: {type(value).__name__}")
        if not name or "=" in name or "\0" in name:
            raise InvalidInputError(
                f"env: {name!r} cannot name an environment variable (no '=', no NUL, not empty)"
            )
        if "\0" in value:
            raise InvalidInputError(f"env: the value of {name} holds a NUL character")
    return dict(env)
