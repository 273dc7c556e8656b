"""The Python the docs show runs as written.

Every ```python block of README.md and docs/**/*.md runs, a page's blocks one after the
other in one interpreter (a later block uses what an earlier one made), in the page's
scratch folder after the page's commands (tests/house/test_docs_commands.py), so a file
a command writes is there. A block that cannot run as written (a signature, a cluster's
address, a file of the reader's own) says so right above it, in an HTML comment the page
does not show::

    <!-- python: not run (needs a Dask scheduler) -->
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from test_docs_commands import COMMANDS, PAGES, ROOT, page_folder, programs  # noqa: F401

MARKER = re.compile(r"<!--\s*python:\s*not run\s*\((?P<reason>.+)\)\s*-->")
#: Seconds a page's Python may take in all.
SECONDS = 300


def python_blocks(text: str) -> list[tuple[int, str, str]]:
    """(line, code, reason not run or "") of each ```python block, in page order."""
    lines = text.splitlines()
    blocks, start = [], None
    for number, line in enumerate(lines):
        if start is None and line.strip() == "```python":
            start = number + 1
        elif start is not None and line.strip() == "```":
            above = next((x.strip() for x in reversed(lines[: start - 1]) if x.strip()), "")
            marked = MARKER.fullmatch(above)
            blocks.append(
                (start, "\n".join(lines[start:number]), marked["reason"] if marked else "")
            )
            start = None
    return blocks


def _name(page) -> str:
    return str(page.relative_to(ROOT))


PAGES_WITH_PYTHON = [page for page in PAGES if python_blocks(page.read_text(encoding="utf-8"))]


@pytest.mark.parametrize(
    "page",
    [
        pytest.param(p, marks=pytest.mark.xdist_group(str(p.relative_to(ROOT))))
        for p in PAGES_WITH_PYTHON
    ],
    ids=_name,
)
def test_a_page_s_python_runs_as_written(page, page_folder):  # noqa: F811
    name = str(page.relative_to(ROOT))
    folder = page_folder(name)
    last = next((c for c in reversed(COMMANDS) if c.page == name), None)
    if last is not None:
        folder.catch_up(last)  # the page's commands first: the files they write
    blocks = [(line, code) for line, code, reason in python_blocks(page.read_text()) if not reason]
    if not blocks:
        pytest.skip(f"by design: {name}: every Python block is marked not run")
    program = "\n".join(f"print('@@ line {line}', flush=True)\n{code}" for line, code in blocks)
    run = subprocess.run([sys.executable, "-c", program], cwd=folder.folder, text=True,
                         capture_output=True, timeout=SECONDS)  # fmt: skip
    failed_at = ([line for line in run.stdout.splitlines() if line.startswith("@@ line ")]
                 or ["@@ line ?"])[-1][8:]  # fmt: skip
    tail = "\n".join(run.stderr.splitlines()[-12:])
    assert run.returncode == 0, f"{name}: the block at line {failed_at} fails:\n{tail}"


def test_every_python_marker_stands_above_a_python_block():
    for page in PAGES:
        lines = [line.strip() for line in page.read_text(encoding="utf-8").splitlines()]
        for number, line in enumerate(lines):
            if line.startswith("<!-- python:"):
                assert MARKER.fullmatch(line), f"{page.name}:{number + 1}: {line}"
                below = next((x for x in lines[number + 1 :] if x), "")
                assert below == "```python", f"{page.name}:{number + 1}: {line}"
