"""The outputs the docs show are what the commands print (docs/regenerate.py --check)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("cc") is None, reason="the docs compile examples/queens.c")
def test_the_docs_show_what_the_commands_print():
    done = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "regenerate.py"), "--check", "--skip-slow"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
