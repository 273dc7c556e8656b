"""Ctrl-C in the middle of a search: a child process, SIGINT, and what came out."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass


@dataclass
class Interrupted:
    """What the child printed, how it ended, and how long after the signal it did."""

    out: str
    err: str
    returncode: int
    seconds: float


def interrupt_solve(warm: str, call: str, *, after: float) -> Interrupted:
    """Run ``warm`` in a child (imports, compiled kernels), then ``call`` (a solve),
    and send SIGINT ``after`` seconds into it.

    The child prints ``interrupted`` when ``call`` raises KeyboardInterrupt, and
    ``returned`` with what ``call`` gave when it returns instead.
    """
    code = textwrap.dedent(
        f"""
        import cpqueens
        {warm}
        print("ready", flush=True)
        try:
            answer = {call}
        except KeyboardInterrupt:
            print("interrupted", flush=True)
        else:
            print("returned", answer, flush=True)
        """
    )
    child = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert child.stdout.readline().strip() == "ready"
    time.sleep(after)
    sent = time.monotonic()
    os.kill(child.pid, signal.SIGINT)
    out, err = child.communicate(timeout=30)
    return Interrupted(out, err, child.returncode, time.monotonic() - sent)
