"""Running the independent checker: dratify (with its native engine when installed),
or drat-trim when asked for and found, in a process of its own under a time and a
memory limit. Its verdict is read from what it prints; a checker that is missing,
crashes, prints nothing readable or runs out of time gives no verdict, and says so.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from ..errors import BackendUnavailableError, CommandFailedError, InvalidInputError
from ..programs.running import run_program

#: The checkers :func:`check` runs.
CHECKERS = ("dratify", "drat-trim")
#: dratify's engines: its Rust one (from cdclkit-native), its pure-Python one, or the
#: Rust one when installed.
ENGINES = ("auto", "native", "python")
_CHILD = str(Path(__file__).with_name("_check_child.py"))
#: The most a checker may print: a verdict is a line.
VERDICT_BYTES = 2**20
#: What installs the checkers.
INSTALL = {"dratify": "pip install dratify cdclkit-native", "drat-trim": "build drat-trim"}


@dataclass(frozen=True)
class Verdict:
    """What the checker said: ``verdict`` (see :data:`.certificate.VERDICTS`), its
    words, the checker's name and version, and the seconds it took."""

    verdict: str
    words: str
    checker: str
    seconds: float


def check_checker(checker: object, engine: object = "auto") -> None:
    """Refuse an unknown checker or engine, or one that is not installed, naming what
    installs it."""
    if checker not in CHECKERS:
        raise InvalidInputError(f"checker must be one of {', '.join(CHECKERS)}; got {checker!r}")
    if engine not in ENGINES:
        raise InvalidInputError(f"engine must be one of {', '.join(ENGINES)}; got {engine!r}")
    if checker == "dratify" and importlib.util.find_spec("dratify") is None:
        raise BackendUnavailableError(
            f"certifying needs the checker dratify; install it with: {INSTALL['dratify']}"
        )
    if checker == "drat-trim" and shutil.which("drat-trim") is None:
        raise BackendUnavailableError("checker 'drat-trim' is not on the PATH")


def check(
    formula: Path, proof: Path, *, checker: str, engine: str, seconds: float, memory_mb: int
) -> Verdict:
    """Check ``proof`` against ``formula`` with ``checker`` in a child process."""
    start = time.perf_counter()
    if checker == "drat-trim":
        argv = ["drat-trim", str(formula), str(proof)]
    else:
        # -P: no folder but the installed packages on its path (dratify is one).
        argv = [sys.executable, "-P", _CHILD, str(formula), str(proof), engine, str(memory_mb)]
    ran = _run(argv, seconds)
    took = time.perf_counter() - start
    name = checker
    if ran is None:
        return Verdict("timed out", f"no verdict within {seconds:g} s", name, took)
    returncode, stdout, stderr = ran
    if checker == "drat-trim":
        return _drat_trim(stdout, returncode, took)
    if returncode != 0:
        words = _exit_words(returncode, stderr)
        if "MemoryError" in stderr:
            words = f"out of its memory limit of {memory_mb:,} MB; {words}"
        return Verdict("checker failed", words, name, took)
    try:
        said = json.loads(stdout.strip().splitlines()[-1])
        ok, reason = said["ok"], str(said["reason"])
    except (ValueError, IndexError, KeyError, TypeError):
        said = f"unreadable verdict: {stdout[:200]!r}"
        return Verdict("checker failed", said, name, took)
    name = f"dratify {said.get('version', '')} ({said.get('engine', '')})".replace("  ", " ")
    return Verdict("proved" if ok is True else "refused", reason, name, took)


def _drat_trim(stdout: str, returncode: int, took: float) -> Verdict:
    lines = [line.strip() for line in stdout.splitlines()]
    if "s VERIFIED" in lines:
        return Verdict("proved", "s VERIFIED", "drat-trim", took)
    if "s NOT VERIFIED" in lines:
        why = next((line for line in lines if line.startswith("c ")), "s NOT VERIFIED")
        return Verdict("refused", why, "drat-trim", took)
    return Verdict("checker failed", f"no s line (exit status {returncode})", "drat-trim", took)


def _run(argv: list[str], seconds: float) -> tuple[int, str, str] | None:
    """Run the checker as every program is run (:func:`~cpqueens.programs.running.run_program`:
    it and whatever it starts ended at its deadline or on Ctrl-C); None when it ran
    out of time."""
    try:
        printed = run_program(argv, timeout=seconds, max_output=VERDICT_BYTES)
    except CommandFailedError as error:  # not found, or refused by the system
        return 127, "", str(error)
    if printed.timed_out:
        return None
    if printed.unstarted is not None:
        return 127, "", printed.unstarted
    return printed.returncode, printed.stdout, printed.stderr


def _exit_words(returncode: int, stderr: str) -> str:
    """How the checker ended, and the end of what it said."""
    if returncode < 0:
        what = f"killed by signal {signal.Signals(-returncode).name}"
    else:
        what = f"exited with status {returncode}"
    tail = [line.strip()[:200] for line in stderr.splitlines() if line.strip()][-3:]
    return f"{what}; standard error ends: {' | '.join(tail)}" if tail else what
