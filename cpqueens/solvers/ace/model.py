"""A user's own PyCSP3 model of n-queens, compiled with the instance's data, for ACE.

``solve(n, backend="ace", model="MyQueens.py")`` runs the model as PyCSP3 runs one,
``python MyQueens.py -data=data.json -output=model.xml``, in a process of its own
(under the call's time limit, killed with its children at the deadline), and hands
the XCSP3 file it writes to ACE in place of cpqueens' own. The interface
(docs/external.md):

- the data, a JSON object of three fields in this order, as PyCSP3's own models of
  the problem read them (``n, queens, blocks = data``): ``n``; ``queens``, the given
  queens as ``[row, column]`` pairs; ``blocks``, the blocked squares as pairs;
- the answer: a one-dimensional array of ``n`` variables, ``q`` unless ``output=``
  names another, the column of each row's queen, and no other variable (ACE lists
  every variable in its solutions).

``base`` (0 or 1, default 0) says once how the model numbers rows and columns: the
data are handed over in it and the columns read back in it. A model that fails
(a Python error, no file written), or whose file declares no such array, is an
error of one line; every board ACE finds with it is checked against the instance,
and a model that misses solutions is caught by the cross-check.

>>> model_data(Problem(4, (None, 3, None, None), blocked=frozenset({(0, 0)})), base=1)
{'n': 4, 'queens': [[2, 4]], 'blocks': [[1, 1]]}
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from ...errors import InvalidInputError, SolverError
from ...programs.lines import LineProcess
from ...programs.process_trees import exit_words
from ..problem import Problem

BASES = (0, 1)
DEFAULT_OUTPUT = "q"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def check_model_options(options: dict[str, Any]) -> None:
    """Refuse, at the call, a model that is no PyCSP3 file here, or a bad base or output."""
    model = options.get("model")
    if model is None:
        extra = sorted({"base", "output"} & set(options))
        if extra:
            raise InvalidInputError(
                f"ace option(s) {', '.join(extra)} describe a model of your own: "
                "give it with model='MyQueens.py'"
            )
        return
    if not isinstance(model, (str, os.PathLike)):
        raise InvalidInputError(f"ace option model must be a path to a .py file, got {model!r}")
    path = Path(model)
    if path.suffix != ".py":
        raise InvalidInputError(
            f"ace option model must be a PyCSP3 model, a .py file; got {str(path)!r}"
        )
    if not path.is_file():
        raise InvalidInputError(f"ace option model: no such file: {str(path)!r}")
    base = options.get("base", 0)
    if isinstance(base, bool) or base not in BASES:
        raise InvalidInputError(
            f"ace option base must be 0 or 1 (how the model numbers rows and columns), got {base!r}"
        )
    output = options.get("output", DEFAULT_OUTPUT)
    if not isinstance(output, str) or not _NAME.fullmatch(output):
        raise InvalidInputError(f"ace option output must be the name of an array, got {output!r}")


def model_data(problem: Problem, base: int) -> dict[str, Any]:
    """The data handed to the model, rows and columns counted from ``base``."""
    queens = [
        [row + base, column + base]
        for row, column in enumerate(problem.fixed)
        if column is not None
    ]
    blocks = [[row + base, column + base] for row, column in sorted(problem.blocked)]
    return {"n": problem.n, "queens": queens, "blocks": blocks}


def compile_model(problem: Problem, folder: str, deadline: float | None) -> Path | None:
    """Run the model on the instance's data; return the XCSP3 file it wrote, or None
    when the deadline came first (the model's process then killed)."""
    options = problem.options
    model = Path(options["model"]).resolve()
    output = options.get("output", DEFAULT_OUTPUT)
    data = Path(folder, "data.json")
    data.write_text(json.dumps(model_data(problem, options.get("base", 0))))
    written = Path(folder, "model.xml")
    argv = [sys.executable, str(model), f"-data={data}", f"-output={written}"]
    with LineProcess(argv, cwd=folder) as compiling:
        for _ in compiling.lines(deadline):
            pass  # PyCSP3's own news
        if not compiling.killed:
            compiling.wait(deadline)
    if compiling.killed:
        return None
    label = f"the PyCSP3 model {model.name}"
    if not written.is_file() or not written.stat().st_size:
        said = [line for line in compiling.stderr_tail().splitlines() if line.strip()]
        last = said[-1].strip()[:120] if said else "nothing on standard error"
        raise SolverError(
            f"{label} wrote no XCSP3 file ({exit_words(compiling.returncode)}): {last}"
        )
    head = written.read_text(errors="replace")[:100_000]
    if not re.search(rf'<array\s+id="{output}"\s+size="\[{problem.n}\]"', head):
        arrays = re.findall(r'<array\s+id="([^"]*)"\s+size="([^"]*)"', head)
        declared = ", ".join(f"{name}{size}" for name, size in arrays) or "none"
        raise SolverError(
            f"{label} declares no array {output} of {problem.n} variables "
            f"(its arrays: {declared}); name the array with output='...'"
        )
    return written
