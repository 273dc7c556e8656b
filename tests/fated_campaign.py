"""A campaign where each solver meets a different fate, for the tests of its plots: the
README's solvers from elsewhere in small. Two backends answer, a "model" prints a board
that solves nothing, and ACE finds no Java to run on (the PATH an empty folder), as
where it is not installed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import cpqueens

#: The campaign: blocked boards of n = 6 (and plain boards, for more instances),
#: decided by four solvers. Its name and limits are those of the docs' campaigns.
SPEC = """
[campaign]
name = "solvers-from-elsewhere"
time_limit = 5
memory_limit_mb = 2000
[[instances]]
generator = "blocked"
n = [6]
blocked = [4, 8, 12]
seeds = [1, 2]
{plain}
[[solvers]]
backend = "stack"
[[solvers]]
backend = "exactcover"
[[solvers]]
label = "my-model"
command = "{python} {liar} {{instance}}"
[[solvers]]
label = "ace"
backend = "ace"
"""

PLAIN = '[[instances]]\ngenerator = "plain"\nn = [4, 5]'

#: A solver that prints the same board, a wrong one, for every instance.
LIAR = 'print("s SATISFIABLE")\nprint("v 0 1 2 3 4 5")\n'


def run_fated_campaign(folder: Path, plain: bool = False) -> Path:
    """Run the campaign in ``folder``; return its results file."""
    (folder / "liar.py").write_text(LIAR)
    spec = folder / "c.toml"
    text = SPEC.format(plain=PLAIN if plain else "", python=sys.executable, liar=folder / "liar.py")
    spec.write_text(text)
    with pytest.MonkeyPatch.context() as patch:
        (folder / "bin").mkdir()
        patch.setenv("PATH", str(folder / "bin"))
        patch.delenv("CPQUEENS_JAVA", raising=False)
        report = cpqueens.run_campaign(spec, folder / "r.sqlite", workers=2)
    assert report.wrong and report.errors, report.headline()
    return folder / "r.sqlite"
