"""Run the commands shown in the docs and put their real output under them.

    python docs/regenerate.py              # rewrite the outputs in docs/*.md and README.md
    python docs/regenerate.py --check      # exit 1, with a diff, when an output is stale
    python docs/regenerate.py --check docs/cli.md --skip-slow

In every ```console block, a line ``$ COMMAND`` is run with bash (``cpqueens`` as
installed, in a scratch folder that holds links to ``examples/`` and ``docs/`` (a
command writing ``docs/NAME.png`` redraws a picture of the docs) and is kept for the
whole page, so a file one command writes is there for the next) and the lines up to
the next ``$`` line are its output, standard output and standard error as a terminal
shows them. A block right after ``<!-- output: not run -->`` is left as written (a
cluster address, a program of the reader's own); after ``<!-- output: slow -->`` it
is run but not by ``--skip-slow`` (the test suite's mode); after
``<!-- output: varies -->`` it is run and written but never checked (how far a run
gets before a time limit, timing tables). ``--check`` compares with times, dates
and machine figures masked, so only a change of what a command says makes a page
stale.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
NOT_RUN, SLOW = "<!-- output: not run -->", "<!-- output: slow -->"
#: Run and written, never compared: what it prints depends on the machine's speed.
VARIES = "<!-- output: varies -->"
MARKS = (NOT_RUN, SLOW, VARIES)
#: What differs from run to run and is masked by --check.
VOLATILE = [
    (re.compile(r"\d[\d,]*(\.\d+)?(e[-+]?\d+)?\s?(s|ms|µs|ns)\b"), "<time>"),
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d"), "<date>"),
    (re.compile(r"load \d+(\.\d+)?"), "load <load>"),
    (re.compile(r'"(elapsed|wall|seconds)": [-+\d.e]+'), r'"\1": <time>'),
    (re.compile(r" +$", re.MULTILINE), ""),
]
TIMEOUT = 600


def blocks(text: str) -> list[tuple[int, int, str]]:
    """(first line, last line, mark) of every console block: its lines between the fences."""
    lines = text.splitlines()
    found, start, mark = [], None, ""
    for number, line in enumerate(lines):
        if start is None and line.strip() == "```console":
            previous = next((x.strip() for x in reversed(lines[:number]) if x.strip()), "")
            start, mark = number + 1, previous if previous in MARKS else ""
        elif start is not None and line.strip() == "```":
            found.append((start, number, mark))
            start = None
    return found


def run(command: str, folder: Path) -> str:
    """The output of one command line, as a terminal shows it (no colours, no bars)."""
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1", TERM="dumb")
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    try:
        done = subprocess.run(
            ["bash", "-c", command], cwd=folder, env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return f"(no output within {TIMEOUT} s)"
    return done.stdout.rstrip("\n")


def regenerate(page: Path, *, skip_slow: bool, checking: bool = False) -> str:
    """The page with every console block's outputs replaced by what the commands print.

    Blocks run in page order in one scratch folder, so a file written by one
    command is there for the next, as for a reader following the page.
    """
    text = page.read_text(encoding="utf-8")
    lines = text.splitlines()
    with tempfile.TemporaryDirectory(prefix="cpqueens-docs-") as scratch:
        folder = Path(scratch)
        (folder / "examples").symlink_to(ROOT / "examples")
        # A command that writes docs/NAME.png redraws the page's picture from code.
        (folder / "docs").symlink_to(ROOT / "docs")
        index = 0
        while True:
            pending = [b for b in blocks("\n".join(lines)) if b[0] >= index]
            if not pending:
                break
            start, end, mark = pending[0]
            skipped = mark == NOT_RUN or (mark in (SLOW, VARIES) and skip_slow)
            if not skipped and not (checking and mark == VARIES):
                new = _rerun(lines[start:end], folder)
                lines[start:end] = new
                end = start + len(new)
            index = end + 1
    return "\n".join(lines) + ("\n" if text.endswith("\n") else "")


def _rerun(block: list[str], folder: Path) -> list[str]:
    out: list[str] = []
    for line in block:
        if line.startswith("$ "):
            out.append(line)
            printed = run(line[2:], folder)
            if printed:
                out.extend(printed.splitlines())
    return out


def masked(text: str) -> str:
    for pattern, replacement in VOLATILE:
        text = pattern.sub(replacement, text)
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="*", type=Path, help="default: README.md and docs/*.md")
    parser.add_argument("--check", action="store_true", help="report stale outputs, write nothing")
    parser.add_argument("--skip-slow", action="store_true", help=f"leave blocks after {SLOW}")
    args = parser.parse_args()
    stale = 0
    for page in [path.resolve() for path in args.pages] or PAGES:
        old = page.read_text(encoding="utf-8")
        new = regenerate(page, skip_slow=args.skip_slow, checking=args.check)
        if args.check:
            if masked(old) != masked(new):
                stale += 1
                diff = difflib.unified_diff(
                    masked(old).splitlines(), masked(new).splitlines(),
                    f"{page} (written)", f"{page} (printed now)", lineterm="",
                )  # fmt: skip
                print("\n".join(diff))
        elif new != old:
            page.write_text(new, encoding="utf-8")
            print(f"updated {page.relative_to(ROOT)}")
    if args.check and stale:
        print(f"\n{stale} page(s) show outputs the commands no longer print: "
              "run python docs/regenerate.py")  # fmt: skip
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
