"""A user's own MiniZinc model of n-queens: checked when loaded, given cpqueens' data, read back.

``solve(n, backend="minizinc", model="my.mzn")`` runs ``my.mzn`` where the shipped
``queens.mzn`` would run. The model speaks the shipped model's interface
(docs/external.md, "Your own MiniZinc model"):

- the data, in the shipped model's names, each passed only when the model declares
  it: ``int: n``; ``array[int] of int: fixed`` (the given queens: a column per row,
  ``base - 1`` for a free row); ``int: nblocked`` and ``array[int, int] of int:
  blocked`` (one ``(row, column)`` pair a line); ``bool: fewest_first`` (the
  search, as the ``search`` option asks). ``n`` is required; a model without
  ``fixed`` or ``blocked`` is refused for an instance that has queens given or
  squares blocked, rather than solving another problem;
- the answer: a one-dimensional ``int`` array, ``q`` unless ``output=`` names
  another, the column of each row's queen.

``base`` (0 or 1, default 0, cpqueens' numbering and the shipped model's) says once
how the model numbers rows and columns: the data are handed over in it and the
columns read back in it. MiniZinc's interface gives no domains, so the base cannot
be read from the model; a board that only makes sense in the other base is named
so in the error.

The model is read with ``minizinc --model-interface-only`` (its inputs, outputs and
kind, in about 0.1 s) when a call names it, once per file version and solver in a
process: a model that does not compile, lacks ``n`` or its output, or asks for data
cpqueens does not have is refused in one line, MiniZinc's first error and where.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import CommandFailedError, InvalidInputError, SolverError
from ...programs.running import run_program
from ..problem import Problem

#: The data cpqueens hands a model: name -> (MiniZinc type, number of dimensions).
DATA = {
    "n": ("int", 0),
    "fixed": ("int", 1),
    "nblocked": ("int", 0),
    "blocked": ("int", 2),
    "fewest_first": ("bool", 0),
}
BASES = (0, 1)
DEFAULT_OUTPUT = "q"
#: Seconds MiniZinc may take to read a model's interface before it is killed.
READ_SECONDS = 30.0
#: The most MiniZinc may print of a model's interface (bytes).
INTERFACE_BYTES = 4 * 2**20
_DECLARED = {0: "int", 1: "array[int] of int", 2: "array[int, int] of int"}


@dataclass(frozen=True)
class ModelInterface:
    """What MiniZinc says a model takes and gives: its inputs and outputs, name -> type."""

    path: Path
    inputs: dict[str, tuple[str, int]]
    outputs: dict[str, tuple[str, int]]
    method: str

    def declares(self, name: str) -> bool:
        return name in self.inputs


def model_file(value: object) -> Path:
    """The model file named by the ``model`` option, refused in one line unless it is
    a readable ``.mzn`` file.

    >>> model_file("nowhere/my.mzn")
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: minizinc option model: no file 'nowhere/my.mzn'
    """
    if not isinstance(value, (str, os.PathLike)) or not str(value).strip():
        raise InvalidInputError(f"minizinc option model must be a .mzn file, got {value!r}")
    path, shown = Path(value), repr(str(value))
    if not path.exists():
        raise InvalidInputError(f"minizinc option model: no file {shown}")
    if path.is_dir():
        raise InvalidInputError(f"minizinc option model: {shown} is a folder, not a .mzn file")
    if not path.is_file():  # a device or a pipe would be read for ever
        raise InvalidInputError(f"minizinc option model: {shown} is not a regular file")
    if path.suffix != ".mzn":
        raise InvalidInputError(f"minizinc option model: {shown} is not a MiniZinc model (.mzn)")
    if not os.access(path, os.R_OK):
        raise InvalidInputError(f"minizinc option model: {shown} cannot be read")
    return path.resolve()


def check_base(value: object) -> int:
    """The ``base`` option: 0 or 1 (text from the command line is read too)."""
    if str(value).strip() in ("0", "1") and not isinstance(value, (bool, float)):
        return int(str(value).strip())
    raise InvalidInputError(f"minizinc option base must be 0 or 1, got {value!r}")


def load_model(value: object, solver: str, output: object = DEFAULT_OUTPUT) -> ModelInterface:
    """Check the model named by ``value`` for ``solver`` and return its interface.

    Refused in one line (:class:`InvalidInputError`): a path that is no ``.mzn``
    file, a model MiniZinc cannot compile (its first error, and where), one that
    optimises, lacks ``n``, needs data cpqueens does not give, gives a datum another
    type than cpqueens passes, or has no one-dimensional ``int`` output ``output``.
    """
    path = model_file(value)
    if not isinstance(output, str) or not output.isidentifier():
        raise InvalidInputError(f"minizinc option output must be a MiniZinc name, got {output!r}")
    stat = path.stat()
    interface = _interface(str(path), stat.st_mtime_ns, stat.st_size, solver)
    _check_interface(interface, output)
    return interface


def refuse_unmet_data(interface: ModelInterface, problem: Problem, search: str) -> None:
    """Refuse a problem whose data the model has no name for: it would solve another one."""
    name = interface.path.name
    if problem.has_fixed and not interface.declares("fixed"):
        given = sum(column is not None for column in problem.fixed)
        raise InvalidInputError(
            f"MiniZinc model {name} does not declare the given queens (array[int] of int: "
            f"fixed) and this problem gives {given}: declare fixed (`cpqueens docs external`) or "
            "solve without them"
        )
    if problem.has_blocked and not interface.declares("blocked"):
        raise InvalidInputError(
            f"MiniZinc model {name} does not declare the blocked squares (array[int, int] "
            f"of int: blocked) and this problem blocks {len(problem.blocked)}: declare them "
            "(`cpqueens docs external`) or solve without them"
        )
    if search != "auto" and not interface.declares("fewest_first"):
        raise InvalidInputError(
            f"MiniZinc model {name} does not declare bool: fewest_first, so search="
            f"{search!r} cannot be handed to it: its own solve item decides the search"
        )


def refuse_false_none(problem: Problem, label: str, base: int) -> None:
    r"""Refuse a model's claim that a plain board has no solution: n-queens has some for
    every n but 2 and 3, so the model is wrong, or run in the wrong numbering (a
    model numbered from 0 run with base=1 reads every row as given column 0).

    >>> refuse_false_none(Problem(3, (None,) * 3), "mine", 0)
    >>> try:
    ...     refuse_false_none(Problem(8, (None,) * 8), "mine", 1)
    ... except SolverError as error:
    ...     print(*str(error).split(": ", 1), sep="\n")
    mine found no solution of the 8-queens problem, which has some for every n but 2 and 3
    the model is wrong, or not numbered from 1 (base=1)
    """
    if problem.n in (2, 3) or problem.has_fixed or problem.has_blocked:
        return  # "none" may be right: only a cross-check can tell
    raise SolverError(
        f"{label} found no solution of the {problem.n}-queens problem, which has some for "
        f"every n but 2 and 3: the model is wrong, or not numbered from {base} (base={base})"
    )


def model_data(
    problem: Problem, interface: ModelInterface, base: int, fewest_first: bool
) -> dict[str, Any]:
    """The data the model declares, in its ``base``.

    >>> face = ModelInterface(Path("m.mzn"), {"n": ("int", 0), "fixed": ("int", 1)}, {}, "sat")
    >>> model_data(Problem(4, (None, 2, None, None)), face, 1, False)
    {'n': 4, 'fixed': [0, 3, 0, 0]}
    """
    blocked = sorted(problem.blocked)
    data = {
        "n": problem.n,
        "fixed": [base - 1 if c is None else c + base for c in problem.fixed],
        "nblocked": len(blocked),
        "blocked": [[row + base, column + base] for row, column in blocked],
        "fewest_first": fewest_first,
    }
    return {key: value for key, value in data.items() if interface.declares(key)}


def board_of(values: Any, base: int, label: str) -> list[int]:
    """The model's output array, as cpqueens' 0-based columns."""
    if not isinstance(values, list) or not all(type(v) is int for v in values):
        raise SolverError(f"{label} gave {values!r} as its columns, not a list of integers")
    return [value - base for value in values]


def other_base_hint(board: tuple[int, ...] | list[int], n: int, base: int) -> str:
    """A hint when ``board`` (0-based, read in ``base``) holds the columns of the other
    base: every column one off, the same way.

    >>> other_base_hint([1, 3, 0, 2], 4, 0)
    ''
    >>> other_base_hint([2, 4, 1, 3], 4, 0)
    ' (its columns run 1..4: is the model numbered from 1? pass base=1)'
    """
    values = sorted(board)
    if base == 0 and values == list(range(1, n + 1)):
        return f" (its columns run 1..{n}: is the model numbered from 1? pass base=1)"
    if base == 1 and values == list(range(-1, n - 1)):
        return f" (its columns run 0..{n - 1}: is the model numbered from 0? pass base=0)"
    return ""


def first_error(text: str, path: Path) -> str:
    """MiniZinc's first error in ``text`` (its error stream) as one line, with where.

    >>> first_error('/m/my.mzn:3.21\\nError: type error: no such thing\\n', Path('/m/my.mzn'))
    'my.mzn:3.21: type error: no such thing'
    """
    # Debian's Gecode configuration warns on every run, sometimes mid-line.
    text = re.sub(r"Warning:[^\n]*\n?", "\n", text)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    error = next((line for line in lines if "Error:" in line), lines[0] if lines else "")
    message = error.split("Error:", 1)[-1].strip() or "MiniZinc failed and printed no error"
    place = re.search(r"(?P<file>[^\s:]+\.mzn):(?P<line>\d+)(?P<column>\.\d+(-\d+)?)?", text)
    if place is None:
        return message
    where = f"{place['file']}:{place['line']}{place['column'] or ''}"
    if Path(place["file"]) == path:
        return f"{path.name}:{place['line']}{place['column'] or ''}: {message}"
    hint = ""
    if re.search(r'include\s+"globals\.mzn"', path.read_text(errors="replace")):
        hint = (
            '; this MiniZinc cannot read include "globals.mzn" with its Gecode library '
            '(as Debian ships them): include each constraint, e.g. include "alldifferent.mzn"'
        )
    return f"{message} (in {where}, which {path.name} includes){hint}"


@functools.lru_cache(maxsize=64)
def _interface(path: str, mtime: int, size: int, solver: str) -> ModelInterface:
    """``minizinc --model-interface-only`` on one version of a model (mtime and size)."""
    executable = shutil.which("minizinc") or "minizinc"
    command = [executable, "--solver", solver, "--model-interface-only", path]
    try:
        printed = run_program(command, timeout=READ_SECONDS, max_output=INTERFACE_BYTES)
    except CommandFailedError as error:
        raise SolverError(f"cannot read the model {Path(path).name}: {error}") from None
    if printed.timed_out:
        raise InvalidInputError(
            f"MiniZinc took more than {READ_SECONDS:g} s to read the model {Path(path).name}"
        )
    if printed.overflowed:
        raise SolverError(f"MiniZinc printed more than {INTERFACE_BYTES:,} bytes of interface")
    if printed.returncode != 0:
        error = first_error(printed.stderr, Path(path))
        raise InvalidInputError(f"MiniZinc model {Path(path).name} does not compile: {error}")
    out = printed.stdout
    found = _interface_object(out)
    if found is None:
        raise SolverError(f"MiniZinc printed no interface for the model {Path(path).name}")
    return ModelInterface(
        path=Path(path),
        inputs={k: _kind(v) for k, v in found.get("input", {}).items()},
        outputs={k: _kind(v) for k, v in found.get("output", {}).items()},
        method=str(found.get("method", "sat")),
    )


def _interface_object(text: str) -> dict[str, Any] | None:
    """The interface object MiniZinc printed (one JSON object, maybe among others)."""
    start = text.find("{")
    while start >= 0:
        try:
            found, _ = json.JSONDecoder().raw_decode(text, start)
        except ValueError:
            found = None
        if isinstance(found, dict) and found.get("type") == "interface":
            return found
        start = text.find("{", start + 1)
    return None


def _kind(declared: dict[str, Any]) -> tuple[str, int]:
    """(type, dimensions) of an interface entry; a set or an optional type is its own."""
    kind = str(declared.get("type", "?"))
    if declared.get("set"):
        kind = f"set of {kind}"
    if declared.get("optional"):
        kind = f"opt {kind}"
    return kind, int(declared.get("dim", 0))


def _shown(kind: tuple[str, int]) -> str:
    dims = ", ".join(["int"] * kind[1])
    return f"array[{dims}] of {kind[0]}" if kind[1] else kind[0]


def _check_interface(interface: ModelInterface, output: str) -> None:
    name = interface.path.name
    if interface.method != "sat":
        raise InvalidInputError(
            f"MiniZinc model {name} optimises ({interface.method}); cpqueens asks for "
            "solutions: write solve satisfy"
        )
    unknown = sorted(set(interface.inputs) - set(DATA))
    if unknown:
        raise InvalidInputError(
            f"MiniZinc model {name} needs data cpqueens does not give: {', '.join(unknown)} "
            f"(cpqueens gives {', '.join(DATA)}; see `cpqueens docs external`)"
        )
    if "n" not in interface.inputs:
        raise InvalidInputError(
            f"MiniZinc model {name} does not declare int: n (the board size, given by cpqueens)"
        )
    for key, kind in interface.inputs.items():
        if kind != DATA[key]:
            raise InvalidInputError(
                f"MiniZinc model {name} declares {key} as {_shown(kind)}; cpqueens passes "
                f"{key} as {_shown(DATA[key])}"
            )
    if interface.declares("nblocked") and not interface.declares("blocked"):
        raise InvalidInputError(
            f"MiniZinc model {name} declares nblocked without blocked: declare "
            "array[int, int] of int: blocked too, or neither"
        )
    kind = interface.outputs.get(output)
    if kind is None:
        raise InvalidInputError(
            f"MiniZinc model {name} has no output {output} (the column of each row's "
            "queen): declare it, or name the model's own array with output=NAME"
        )
    if kind != ("int", 1):
        raise InvalidInputError(
            f"MiniZinc model {name} gives {output} as {_shown(kind)}; cpqueens reads the "
            f"columns from an array[int] of int (array[1..n] of var 1..n: {output})"
        )
