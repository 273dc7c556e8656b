"""One run, as it happens inside its own process: ask the solver, report what it said.

Nothing here is trusted: the process that started the run checks every solution
against the instance (:mod:`.verify`) before a status is written. This side only
tells what the solver answered (``sat``, ``unsat`` or ``unknown``), with the boards,
the count, the effort stats and the time it took.
"""

from __future__ import annotations

import time
from typing import Any

from ..errors import CommandFailedError, CPQueensError, SearchTimeoutError, WrongSolutionError
from ..outputs.answers import BadOutput


def execute(task: dict[str, Any]) -> dict[str, Any]:
    """Run one task and return the solver's answer as plain data.

    The task holds the ``instance`` (an :class:`~cpqueens.Instance`, checked when the
    campaign was read), the ``question``, the ``time_limit``, the ``solver`` and a
    ``seed``.

    The answer holds ``answer`` (sat, unsat or unknown), ``solutions`` (the boards
    to check: one for ``decide``, all for ``all``), ``count``, ``stats``,
    ``solve_seconds`` and ``solver_version``; or ``error`` (one line) or
    ``memout`` (the run ran out of memory inside Python).
    """
    started = time.perf_counter()
    try:
        if task["solver"].get("backend") is not None:
            out = _run_backend(task)
        else:
            out = _run_command(task)
    except MemoryError:
        return {"memout": True, "solve_seconds": time.perf_counter() - started}
    except KeyboardInterrupt:
        raise
    except WrongSolutionError as error:
        # A backend that caught its solver's board wrong: the board goes to the
        # parent's check like any answer, so that the run is judged wrong, not failed.
        out = {"answer": "sat", "solutions": [list(error.board)], "stats": {}}
    except CommandFailedError as error:
        out = {"error": _one_line(str(error))}
    except BadOutput as error:
        out = {"error": _one_line(f"bad output: {error}")}
    except CPQueensError as error:
        out = {"error": _one_line(f"{type(error).__name__}: {error}")}
    except Exception as error:  # a crash inside a solver: a run's error, not the campaign's
        out = {"error": _one_line(f"crashed: {type(error).__name__}: {error}")}
    out["solve_seconds"] = time.perf_counter() - started
    return out


def _run_backend(task: dict[str, Any]) -> dict[str, Any]:
    from .. import api
    from ..solvers import get_backend

    solver = task["solver"]
    instance = task["instance"]
    options = dict(solver.get("options", {}))
    if task.get("seed") is not None and get_backend(solver["backend"]).randomized:
        options.setdefault("seed", task["seed"])
    limit = task["time_limit"]
    question = task["question"]
    version = backend_version(solver["backend"])
    if question == "count":
        try:
            total = api.count(instance, backend=solver["backend"], time_limit=limit, **options)
        except SearchTimeoutError as error:
            return {"answer": "unknown", "partial_count": error.partial, "stats": {},
                    "solver_version": version}  # fmt: skip
        return {"answer": "sat" if total else "unsat", "count": total, "stats": {},
                "solver_version": version}  # fmt: skip
    result = api.solve(
        instance,
        backend=solver["backend"],
        limit=1 if question == "decide" else None,
        time_limit=limit,
        **options,
    )
    stats = _plain(result.stats)
    solutions = [list(s) for s in result.solutions]
    if question == "decide":
        if solutions:
            answer = "sat"
        elif result.satisfiable is False:
            answer = "unsat"
        else:
            answer = "unknown"
        return {"answer": answer, "solutions": solutions[:1], "stats": stats,
                "solver_version": version}  # fmt: skip
    if not result.complete:
        return {"answer": "unknown", "partial_count": len(solutions), "stats": stats,
                "solver_version": version}  # fmt: skip
    return {"answer": "sat" if solutions else "unsat", "solutions": solutions,
            "count": len(solutions), "stats": stats, "solver_version": version}  # fmt: skip


def _run_command(task: dict[str, Any]) -> dict[str, Any]:
    from ..checking.external import Command

    solver = task["solver"]
    instance = task["instance"]
    # The process that started this run enforces the time limit by killing the whole
    # tree; the command's own timeout is a backstop a little later. A hunt hands over
    # the user's Command itself (``program``), with every setting it was given.
    command = solver.get("program") or Command(
        solver["command"],
        timeout=task["time_limit"] + 5.0,
        cwd=solver.get("folder"),
        instance_format=solver.get("format", "json"),
        parse=solver.get("parse", "auto"),
        name=solver.get("label"),
        time_limit=task["time_limit"],  # a FlatZinc solver's {flags}: -t
    )
    printed = command.run(instance, question=task["question"])
    # ``silence``: what an output with no answer at all says (a hunt's programs print
    # nothing when there is no solution, as a cross-check reads them).
    answer = command.answer(printed, instance.n, task["question"], silence=solver.get("silence"))
    answer["stats"] = {}
    if printed.certificate is not None:  # a SAT solver's proof of its "no solution"
        proof = printed.certificate
        answer["proof"] = {"verdict": proof.verdict, "words": proof.words}
        answer["stats"]["proof"] = {"verdict": proof.verdict, "bytes": proof.proof_bytes,
                                    "check_seconds": round(proof.seconds_to_check, 3)}  # fmt: skip
    return answer


def backend_version(name: str) -> str | None:
    """The package a backend runs on and its version, e.g. ``"ortools 9.12"`` (None for
    the pure-Python ones). Read once per backend (:attr:`Backend.package_version`), so
    that the warm process reads it and its children inherit it."""
    from ..solvers import get_backend

    engine = get_backend(name)
    version = engine.package_version
    return None if version is None else f"{engine.package} {version}"


def _plain(stats: dict[str, Any]) -> dict[str, Any]:
    """The stats that are plain JSON values (numbers, strings, lists of numbers)."""
    kept = {}
    for key, value in stats.items():
        if isinstance(value, (bool, int, float, str)) or value is None:
            kept[key] = value
        elif isinstance(value, (list, tuple)) and all(isinstance(v, (int, float)) for v in value):
            kept[key] = list(value)
    return kept


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= 300 else line[:297] + "..."
