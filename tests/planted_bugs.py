"""Plant each of six bugs in a copy of the package and see which test catches it.

A test suite is only as good as the bugs it catches. Each bug below is one small
edit of the kind real code gets wrong, planted in a copy of this checkout (the
checkout itself is never touched); the suite, or its fast tier, then runs on the
copy and stops at its first failure, which is the test that caught the bug.

    python tests/planted_bugs.py              # each bug against the fast tier
    python tests/planted_bugs.py --tier all   # against the whole suite
    python tests/planted_bugs.py --only propagation

Prints a line a bug (caught by which test, in how many seconds, or MISSED) and
exits 1 when any bug is missed. A bug planted in a kernel has that kernel compiled
again, so a bug takes a minute or more.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The fast tier, as the README gives it.
FAST = "fast"


@dataclass(frozen=True)
class Bug:
    name: str
    what: str
    path: str
    old: str
    new: str


BUGS = (
    Bug(
        "counting-kernel",
        "the class count forgets that a quarter turn's inverse fixes the same solutions",
        "cpqueens/solvers/bitmask/counting.py",
        "            fixed_points += half + 2 * quarter\n",
        "            fixed_points += half + quarter\n",
    ),
    Bug(
        "kernel-blocked-squares",
        "the bitmask kernel takes the first row's free squares for every row's",
        "cpqueens/solvers/bitmask/kernels.py",
        "    avail[row] = allowed[row] & ~(cols[row] | left[row] | right[row])\n",
        "    avail[row] = (allowed[row] | allowed[0]) & ~(cols[row] | left[row] | right[row])\n",
    ),
    Bug(
        "reader-offset",
        "chess squares' ranks read from 0 instead of 1 (a2 as row 2)",
        "cpqueens/outputs/layouts.py",
        "            (int(rank) - 1, COLUMN_OF[file.lower()]) for file, rank in",
        "            (int(rank), COLUMN_OF[file.lower()]) for file, rank in",
    ),
    Bug(
        "output-judge",
        "a board printed twice is not a duplicate (only three times is)",
        "cpqueens/checking/judging/faults.py",
        "    duplicated = sorted(b for b, times in valid.items() if times > 1)\n",
        "    duplicated = sorted(b for b, times in valid.items() if times > 2)\n",
    ),
    Bug(
        "tree-count",
        "a dead end on the first row is not counted",
        "cpqueens/trees/explicit/summary.py",
        '            dead_ends += bool(data["dead_end"])\n',
        '            dead_ends += bool(data["dead_end"]) and data["depth"] > 1\n',
    ),
    Bug(
        "propagation",
        "forward checking prunes one diagonal only",
        "cpqueens/engines/propagation.py",
        "else full & ~(bit | (bit << abs(other - row)) | (bit >> abs(other - row)))",
        "else full & ~(bit | (bit << abs(other - row)))",
    ),
)


def copy_checkout(target: Path) -> None:
    """The checkout's files as git knows them (tracked, and new ones not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode().split("\0")  # fmt: skip
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    # numba's cache beside the sources, times kept: only the kernels of the file a bug
    # is planted in are compiled again (numba checks each source file's time and size).
    for cached in (ROOT / "cpqueens").rglob("__pycache__/*.nb[ic]"):
        copy = target / cached.relative_to(ROOT)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(cached, copy)


def plant(folder: Path, bug: Bug) -> None:
    path = folder / bug.path
    text = path.read_text()
    if text.count(bug.old) != 1:
        sys.exit(f"{bug.name}: the line to change is not once in {bug.path}; update this script")
    path.write_text(text.replace(bug.old, bug.new))


def hunt(bug: Bug, tier: str) -> tuple[str | None, float]:
    """The first test that fails with ``bug`` planted (None: none did), and the seconds."""
    with tempfile.TemporaryDirectory(prefix=f"planted-{bug.name}-") as scratch:
        folder = Path(scratch)
        copy_checkout(folder)
        plant(folder, bug)
        # The copy's package first, for the tests and for every child they start.
        env = {**os.environ, "PYTHONPATH": str(folder)}
        env.pop("NUMBA_CACHE_DIR", None)
        argv = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-rf"]
        if tier == "fast":
            argv += ["-m", FAST]
        started = time.perf_counter()
        done = subprocess.run(argv, cwd=folder, env=env, capture_output=True, text=True)
        seconds = time.perf_counter() - started
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", done.stdout, re.MULTILINE)
    if done.returncode == 0:
        return None, seconds
    return (failed[0] if failed else f"pytest exit status {done.returncode}"), seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tier", choices=("fast", "all"), default="fast")
    parser.add_argument("--only", action="append", choices=[bug.name for bug in BUGS])
    args = parser.parse_args()
    missed = 0
    for bug in BUGS:
        if args.only and bug.name not in args.only:
            continue
        caught, seconds = hunt(bug, args.tier)
        verdict = f"caught by {caught}" if caught else "MISSED"
        missed += caught is None
        print(f"{bug.name:<24} {bug.what}: {verdict} ({seconds:.0f} s)", flush=True)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
