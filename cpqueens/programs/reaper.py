"""Run one program, then end every process it started, detached ones included.

:class:`cpqueens.Command` starts a program through this script (standard library
only, run as ``python -S -E reaper.py PROGRAM [ARGS...]``). On Linux the script
makes itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``): a process
the program started and left behind, even one that detached with ``setsid``, is
re-parented to this script instead of to init, so it can be found and killed.

- When the program exits, whatever it started is killed, and the script exits
  with the program's status (a program killed by a signal: the same signal). So
  the program's output is read as soon as it is done, even when it left a
  background process that would hold its output pipe open.
- On SIGTERM (the caller's time limit, output limit or Ctrl-C), the program and
  everything it started are killed, and the script exits.
- A program that cannot be started: one line on standard error, starting with
  ``MARK``, and exit status 127.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys

#: The first words of this script's own error line.
MARK = "cpqueens-run:"
#: Its exit status when the program could not be started.
CANNOT_START = 127
_PR_SET_CHILD_SUBREAPER = 36
_PR_SET_PDEATHSIG = 1


def main(argv: list[str]) -> int:
    _become_subreaper()
    try:
        program = subprocess.Popen(argv, start_new_session=True)
    except OSError as error:
        reason = error.strerror or str(error)
        sys.stderr.write(f"{MARK} cannot run {argv[0]!r}: {reason}\n")
        return CANNOT_START

    def stop(signum: int, frame: object) -> None:
        _end_all(program.pid)
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    # Whoever started this script may be killed outright (a campaign's run at its limit,
    # a process killed with SIGKILL): the program must not outlive it.
    parent = os.getppid()
    _prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # it died before the request was made
        stop(signal.SIGTERM, None)
    returncode = program.wait()
    _end_all(program.pid)
    if returncode < 0:
        # Die of the same signal, so that the caller reads the same status.
        with contextlib.suppress(OSError):  # SIGKILL and SIGSTOP keep their default
            signal.signal(-returncode, signal.SIG_DFL)
        os.kill(os.getpid(), -returncode)
    return returncode


def _become_subreaper() -> None:
    # Elsewhere than Linux the program's process group is all that can be ended.
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)


def _prctl(option: int, value: int) -> None:
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(option, value, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _end_all(group: int) -> None:
    """Kill the program's process group, then every process left to this script."""
    with contextlib.suppress(OSError):
        os.killpg(group, signal.SIGKILL)
    while True:
        try:
            if os.waitpid(-1, os.WNOHANG)[0]:
                continue  # one ended (or was killed): look again
        except ChildProcessError:
            return  # no process of ours is left: nothing to look for in /proc
        for pid in _children():
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        try:
            os.waitpid(-1, 0)  # one of them has died (or a re-parented one appears)
        except ChildProcessError:
            return


def _children() -> list[int]:
    """The processes whose parent is this script (from /proc; none known elsewhere)."""
    me = os.getpid()
    found = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        # "pid (name) state ppid ...": the name may hold spaces and parentheses.
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1 and int(fields[1]) == me:
            found.append(int(entry))
    return found


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
