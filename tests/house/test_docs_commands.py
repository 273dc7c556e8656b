"""The commands the docs tell a reader to type run as the docs say, in the time they state.

Every line of a ```bash block of README.md and docs/*.md is a command; a trailing
``# comment`` is dropped, and of ``pip install ... && COMMAND`` only ``COMMAND`` runs
(the test runs in the installed environment, so a line that only installs is skipped).
A page's commands run in page order with bash, in one scratch folder kept for the whole
page, so a file one command writes is there for the next. The folder holds a link to
``examples/`` and the programs the docs name: ``./myqueens`` and ``./queens``
(examples/queens.c built with ``cc -O2``) and ``./mysolver`` (examples/mysolver.py).

A command must end with exit status 0, within the time the docs state: the comment on
its line ("# a few seconds") or else the paragraph right before its block ("well under a
second"), with slack for a shared machine; where nothing is stated, within
:data:`DEFAULT_SECONDS`. What a command may not do is said before its block, in HTML
comments the page does not show, one a line::

    <!-- commands: not run (needs a Dask cluster) -->
    <!-- commands: `python -m pytest` not run (the test suite runs this test) -->
    <!-- commands: `cpqueens crosscheck` exit status 1 (the program is wrong on purpose) -->

Without a command in backquotes a marker is about every line of the block; with one,
about the lines that begin with it.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
#: Seconds a command may take when the docs state no time: a hanging command fails.
DEFAULT_SECONDS = 120.0
MARKER = re.compile(
    r"<!--\s*commands:\s*(?:`(?P<prefix>[^`]+)`\s+)?"
    r"(?:not run|exit status (?P<status>\d+))\s*\((?P<reason>.+)\)\s*-->"
)
#: A time the docs state, as "well under a second", "a few seconds", "about a minute", "70 s".
STATED = re.compile(
    r"\b(?:(?:well )?under |about |around |within |in )?"
    r"(?P<amount>a few|a|an|one|\d+(?:\.\d+)?)\s+(?P<unit>seconds?|s|minutes?|min)\b"
)
AMOUNTS = {"a few": 5.0, "a": 1.0, "an": 1.0, "one": 1.0}
UNITS = {"s": 1.0, "second": 1.0, "seconds": 1.0, "min": 60.0, "minute": 60.0, "minutes": 60.0}


@dataclasses.dataclass(frozen=True)
class Command:
    """One command line of a page, with what the docs say of it."""

    page: str
    line: int
    written: str
    text: str
    seconds: float
    stated: str
    status: int = 0
    skip: str = ""

    def __str__(self) -> str:
        return f"{self.page}:{self.line} {self.written}"


def stated_seconds(text: str) -> tuple[float, str]:
    """The longest time ``text`` states, in seconds, and the words that state it."""
    found = [
        ((AMOUNTS.get(m["amount"]) or float(m["amount"])) * UNITS[m["unit"]], m[0])
        for m in STATED.finditer(text)
    ]
    return max(found, default=(0.0, ""))


def comment_start(line: str) -> int:
    """Where a trailing ``# comment`` begins (outside quotes), or the line's length."""
    quote = ""
    for index, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1].isspace()):
            return index
    return len(line)


def markers(lines: list[str], fence: int, where: str) -> list[re.Match]:
    """The command markers right above the block that opens at ``lines[fence]``."""
    found = []
    for line in reversed(lines[:fence]):
        if not line.strip():
            continue
        if not line.lstrip().startswith("<!-- commands:"):
            break
        match = MARKER.fullmatch(line.strip())
        if match is None:
            raise ValueError(f"{where}: a commands marker not understood: {line.strip()}")
        found.append(match)
    return found


def paragraph_before(lines: list[str], fence: int) -> str:
    """The prose right above a block, markers left out."""
    text: list[str] = []
    for line in reversed(lines[:fence]):
        if line.lstrip().startswith("<!--") or (not line.strip() and not text):
            continue
        if not line.strip() or line.startswith("```"):
            break
        text.insert(0, line)
    return " ".join(text)


def page_commands(page: Path) -> list[Command]:
    """Every command line of the ```bash blocks of ``page``, in page order."""
    name = str(page.relative_to(ROOT))
    lines = page.read_text(encoding="utf-8").splitlines()
    commands, fence, marks, prose = [], None, [], ""
    for number, line in enumerate(lines):
        if fence is None and line.strip() == "```bash":
            fence, marks = number, markers(lines, number, f"{name}:{number + 1}")
            prose = paragraph_before(lines, number)
            matched: set[int] = set()
        elif fence is not None and line.strip() == "```":
            for index, mark in enumerate(marks):
                if mark["prefix"] and index not in matched:
                    raise ValueError(f"{name}:{fence + 1}: no line begins with {mark['prefix']!r}")
            fence = None
        elif fence is not None and line.strip() and not line.lstrip().startswith("#"):
            cut = comment_start(line)
            written, comment = line[:cut].strip(), line[cut:]
            text, skip = written, ""
            if re.match(r"pip3? install\b", written):
                text = written.partition("&&")[2].strip()
                skip = "" if text else "it only installs packages; the tests run installed"
            seconds, stated = stated_seconds(comment) if comment else (0.0, "")
            if not stated:
                seconds, stated = stated_seconds(prose)
            command = Command(name, number + 1, written, text, seconds, stated, skip=skip)
            for index, mark in enumerate(marks):
                if mark["prefix"] and not text.startswith(mark["prefix"]):
                    continue
                matched.add(index)
                if mark["status"] is not None:
                    command = dataclasses.replace(command, status=int(mark["status"]))
                else:
                    command = dataclasses.replace(command, skip=mark["reason"])
            commands.append(command)
    return commands


COMMANDS = [command for page in PAGES for command in page_commands(page)]


def time_limit(command: Command) -> float:
    """The stated time with slack for a busy 2-core machine, or :data:`DEFAULT_SECONDS`."""
    return 3 * command.seconds + 5 if command.stated else DEFAULT_SECONDS


def run(text: str, folder: Path, seconds: float) -> tuple[int | None, str, str, float]:
    """Exit status (None: stopped at ``seconds``), output, error output and wall time."""
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1", TERM="dumb")
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    start = time.monotonic()
    # A session of its own, so that a command stopped at its limit takes its children along.
    process = subprocess.Popen(
        ["bash", "-c", text], cwd=folder, env=env, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        out, err = process.communicate(timeout=seconds)
        status = process.returncode
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        status = None
    return status, out, err, time.monotonic() - start


@pytest.fixture(scope="session")
def programs(tmp_path_factory):
    """A folder with examples/queens.c built once, as the docs build it."""
    if shutil.which("cc") is None:
        pytest.skip("the docs build examples/queens.c with cc, which is not installed")
    folder = tmp_path_factory.mktemp("programs")
    subprocess.run(
        ["cc", "-O2", "-o", str(folder / "queens"), str(ROOT / "examples" / "queens.c")],
        check=True,
    )
    return folder


class PageFolder:
    """The scratch folder of one page, and which of its commands have run in it."""

    def __init__(self, folder: Path, programs: Path):
        self.folder, self.ran = folder, set()
        (folder / "examples").symlink_to(ROOT / "examples")
        for name in ("queens", "myqueens"):
            shutil.copy2(programs / "queens", folder / name)
        shutil.copy2(ROOT / "examples" / "mysolver.py", folder / "mysolver")
        (folder / "mysolver").chmod(0o755)

    def catch_up(self, command: Command) -> None:
        """Run the page's earlier commands not run yet (a test picked alone with -k)."""
        for earlier in COMMANDS:
            if earlier == command:
                return
            if earlier.page == command.page and not earlier.skip and earlier not in self.ran:
                self.ran.add(earlier)
                run(earlier.text, self.folder, time_limit(earlier))


@pytest.fixture(scope="session")
def page_folder(tmp_path_factory, programs):
    """The folder of a page, made on its first command and kept for the next ones."""
    folders: dict[str, PageFolder] = {}

    def folder(page: str) -> PageFolder:
        if page not in folders:
            made = tmp_path_factory.mktemp(Path(page).stem)
            folders[page] = PageFolder(made, programs)
        return folders[page]

    return folder


@pytest.mark.parametrize(
    # A page's commands on one worker (their scratch folder is the page's): pages apart.
    "command",
    [pytest.param(c, marks=pytest.mark.xdist_group(c.page)) for c in COMMANDS],
    ids=str,
)
def test_a_documented_command_runs_as_the_docs_say(command, page_folder):
    if command.skip:
        pytest.skip(f"{command}: not run: {command.skip}")
    page = page_folder(command.page)
    page.catch_up(command)
    page.ran.add(command)
    limit = time_limit(command)
    status, out, err, elapsed = run(command.text, page.folder, limit)
    said = f"the docs say {command.stated!r}" if command.stated else "the docs state no time"
    tail = "\n".join(err.splitlines()[-20:] or out.splitlines()[-20:])
    assert status is not None, f"{command}\ndid not finish within {limit:.0f} s ({said})\n{tail}"
    assert status == command.status, (
        f"{command}\nexit status {status}, the docs expect {command.status} "
        f"({elapsed:.1f} s)\n{tail}"
    )


def test_every_command_marker_stands_above_a_bash_block():
    """A marker above anything else would be silently ignored (typos fail at collection)."""
    for page in PAGES:
        lines = [line.strip() for line in page.read_text(encoding="utf-8").splitlines()]
        for number, line in enumerate(lines):
            if line.startswith("<!-- commands:"):
                below = (x for x in lines[number + 1 :] if x and not x.startswith("<!-- commands:"))
                assert next(below, "") == "```bash", f"{page.name}:{number + 1}: {line}"


def test_the_readme_s_own_solver_section_runs_line_by_line_and_shows_the_bug(tmp_path):
    """Copied from the README into a clone's folder, each line of "Check your own
    solver" runs as the page says, and the screen shows what the planted bugs get wrong."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Check your own solver")
    end = text.index("\n## ", start)
    first, last = text[:start].count("\n") + 1, text[:end].count("\n") + 1
    section = [c for c in COMMANDS if c.page == "README.md" and first <= c.line <= last]
    assert len(section) >= 5, section
    (tmp_path / "examples").symlink_to(ROOT / "examples")  # the clone's examples/
    screens = {}
    for command in section:
        assert not command.skip, command
        status, out, err, _ = run(command.text, tmp_path, time_limit(command))
        assert status == command.status, f"{command}: exit {status}\n{out}\n{err}"
        screens[command.text] = out + err
    planted = next(s for t, s in screens.items() if "myqueens_bug.py" in t)
    assert "n=4: 0 boards for 2 solutions, 2 missing" in planted
    assert "the program DISAGREES with the reference at n=1, n=4..8" in planted
    diagonal = next(s for t, s in screens.items() if t.startswith("./queens_bug"))
    assert "invalid" in diagonal and "DISAGREES" in diagonal
    right = next(s for t, s in screens.items() if "myqueens.py {n}" in t)
    assert "the program agrees with the reference" in right
