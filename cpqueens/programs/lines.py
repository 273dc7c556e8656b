"""A program run as a process of its own, its output read line by line as it comes.

The program (ACE on its JVM, ACE compiling a user's model, the SAT solvers' child
process) is started as every program is (:func:`~.running.start_program`: through the
reaper script, in a session of its own, away from the terminal's Ctrl-C), with an
empty standard input or the bytes it is given there. Its standard output is read on a thread and
handed over one line at a time, so each solution can be checked and yielded as soon
as it is printed; the end of standard error is kept for a failure's message. The
program and everything below it are frozen, then killed
(:func:`~cpqueens.programs.process_trees.kill_tree`) at the deadline, on Ctrl-C, when
the caller stops reading (a ``limit`` reached), and once it has ended, so that no
JVM and no child of one outlives the call.

>>> import sys
>>> with LineProcess([sys.executable, "-c", "print('s SATISFIABLE')"]) as program:
...     printed = list(program.lines(deadline=None))
>>> printed, program.returncode, program.killed
(['s SATISFIABLE'], 0, False)
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import IO

from ..errors import CommandFailedError, SolverError
from .process_trees import kill_tree
from .running import end_program, start_program, unstarted

#: The longest line read (bytes): a solution of n = 1000 takes about 5 kB.
MAX_LINE = 4 * 2**20
#: How much of the end of standard error is kept (bytes).
STDERR_KEEP = 16 * 2**10
# Seconds between two looks at the clock while no line comes.
_TICK = 0.1
_EOF = None
# Seconds to read what is left in the pipe once the program has ended.
_DRAIN = 1.0


class LineTooLong(SolverError):
    """The program printed a line longer than :data:`MAX_LINE`."""


class LineProcess:
    """``argv`` started at once; its lines read with :meth:`lines`; killed on exit."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        input: bytes | None = None,
    ):
        self.argv = list(argv)
        try:
            self.process = start_program(self.argv, cwd=cwd, env=env, piped_input=input is not None)
        except CommandFailedError as error:  # not found, not executable: the solver's fault
            raise SolverError(str(error)) from None
        if input is not None:
            threading.Thread(target=self._write, args=(input,), daemon=True).start()
        self.killed = False
        self._lines: queue.Queue[str | SolverError | None] = queue.Queue()
        self._stderr = bytearray()
        assert self.process.stdout is not None and self.process.stderr is not None
        self._readers = [
            threading.Thread(target=self._read_lines, args=(self.process.stdout,), daemon=True),
            threading.Thread(target=self._read_tail, args=(self.process.stderr,), daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    def lines(self, deadline: float | None) -> Iterator[str]:
        """Each line of standard output (without its end), until the output ends or
        ``deadline`` (a :func:`time.monotonic` reading) passes; then the program is
        killed and :attr:`killed` set."""
        ended_at = None
        while True:
            wait = _TICK
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    self.kill()
                    return
                wait = min(_TICK, left)
            try:
                line = self._lines.get(timeout=wait)
            except queue.Empty:
                if ended_at is None and self._ended():
                    # Ended, and something it left behind holds the pipe open: its group
                    # is killed, and what the pipe still holds is read.
                    ended_at = time.monotonic()
                    kill_tree(self.process.pid)
                elif ended_at is not None and time.monotonic() - ended_at > _DRAIN:
                    return  # held open by a process that left its group: the output is over
                continue
            if line is _EOF:
                self._refuse_unstarted()
                return
            if isinstance(line, LineTooLong):
                self.kill()
                raise line
            yield line

    def wait(self, deadline: float | None) -> None:
        """Wait for the program to end (it is left to be collected by :meth:`close`,
        so that its process group is still its own); kill it at ``deadline``."""
        while not self._ended():
            if deadline is not None and time.monotonic() >= deadline:
                self.kill()
                return
            time.sleep(0.01)

    def kill(self) -> None:
        """Kill the program and every process below it."""
        if not self._ended():
            self.killed = True
        kill_tree(self.process.pid)

    @property
    def returncode(self) -> int | None:
        """The program's exit status once closed (negative: killed by a signal)."""
        return self.process.returncode

    def stderr_tail(self) -> str:
        """The end of standard error, once the program has ended."""
        self._readers[1].join(1.0)
        return bytes(self._stderr).decode("utf-8", errors="replace")

    def close(self) -> None:
        """Kill whatever is left of the program (its whole tree), and collect it."""
        # Before it is collected: its pid, and its process group's, are still its own.
        kill_tree(self.process.pid)
        end_program(self.process)
        for reader in self._readers:
            reader.join(1.0)

    def _ended(self, wait: float = 0.0) -> bool:
        """Whether the program has ended (waiting up to ``wait`` seconds), without
        collecting it: its pid, and its process group's, stay its own."""
        give_up = time.monotonic() + wait
        while True:
            if self.process.returncode is not None:
                return True
            if not hasattr(os, "waitid"):
                return self.process.poll() is not None
            try:
                flags = os.WEXITED | os.WNOHANG | os.WNOWAIT
                found = os.waitid(os.P_PID, self.process.pid, flags)
            except ChildProcessError:
                return True
            if found is not None:
                return True
            if time.monotonic() >= give_up:
                return False
            time.sleep(0.01)

    def __enter__(self) -> LineProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _refuse_unstarted(self) -> None:
        """Raise the reaper's line when the program could not be started at all."""
        if not self._ended(wait=1.0):
            return
        status = self.exit_status()
        why = unstarted(status, self.stderr_tail()) if status is not None else None
        if why is not None:
            raise SolverError(why)

    def exit_status(self) -> int | None:
        """The exit status of the ended program (negative: the signal that killed it),
        read without collecting it; None while it runs."""
        if self.process.returncode is not None:
            return self.process.returncode
        try:
            found = os.waitid(os.P_PID, self.process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return None
        if found is None:
            return None
        return found.si_status if found.si_code == os.CLD_EXITED else -found.si_status

    def _write(self, data: bytes) -> None:
        assert self.process.stdin is not None
        with contextlib.suppress(OSError, ValueError):  # it ended without reading it all
            self.process.stdin.write(data)
        with contextlib.suppress(OSError, ValueError):
            self.process.stdin.close()

    def _read_lines(self, pipe: IO[bytes]) -> None:
        try:
            while line := pipe.readline(MAX_LINE + 1):
                if len(line) > MAX_LINE:
                    size = f"{MAX_LINE // 2**20} MB"
                    self._lines.put(LineTooLong(f"{self.argv[0]} printed a line over {size}"))
                    return
                self._lines.put(line.decode("utf-8", errors="replace").rstrip("\r\n"))
        except (OSError, ValueError):  # the pipe broke or was closed: its end
            pass
        finally:
            self._lines.put(_EOF)

    def _read_tail(self, pipe: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            while chunk := pipe.read1(2**14):  # type: ignore[attr-defined]
                self._stderr += chunk
                del self._stderr[:-STDERR_KEEP]
