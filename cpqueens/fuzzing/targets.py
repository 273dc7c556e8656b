"""What a hunt asks its target, and how: one run of a solver on one instance, as an
:class:`Answer`, whatever the target is.

A registry backend and a program (:class:`~cpqueens.Command`) run as a campaign's runs
do: each in a process of its own forked from a warm one, under the time limit and a
memory limit, its whole process tree killed at the end (:mod:`cpqueens.campaigns.isolation`),
locally or on a Dask cluster's workers. A crash of a native solver is then one
failure of the hunt, never the end of it. A function ``f(instance)`` runs in a thread
of this process: it is timed, but cannot be stopped, only abandoned.
"""

from __future__ import annotations

import shlex
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..checking.external import Command
from ..errors import InvalidTypeError, UnknownBackendError
from ..instances import Instance
from ..programs.process_trees import exit_words
from ..result import Result
from ..solvers.run import TIME_LIMIT_SLACK, TIME_LIMIT_SLACK_SHARE

#: The faults of a target, each a kind of failure of its own.
FAULTS = ("crash", "timeout", "garbage", "endless output")

#: Memory allowed to one run of a target, in MiB.
MEMORY_LIMIT_MB = 4096


@dataclass(frozen=True)
class Answer:
    """What a target answered on one instance.

    ``status`` is ``"sat"``, ``"unsat"``, ``"unknown"`` or a fault of :data:`FAULTS`;
    ``boards`` the boards it gave (every one for ``all``, one for ``decide``), as given
    (a board may be malformed); ``count`` the number of solutions it states or lists;
    ``claims`` what it printed that claims a board and is none; ``message`` what went
    wrong, for a fault.
    """

    status: str
    boards: tuple[tuple, ...] = ()
    count: int | None = None
    claims: tuple[str, ...] = ()
    message: str = ""

    @property
    def fault(self) -> bool:
        return self.status in FAULTS

    @property
    def definite(self) -> bool:
        return self.status in ("sat", "unsat")


class Target:
    """A solver under test: its label, what it can be asked, and how to run it."""

    def __init__(self, target: Any, time_limit: float):
        self.time_limit = time_limit
        self.function: Callable | None = None
        self.backend: str | None = None
        self.program: Command | None = None
        self.complete = True  # proves "no solution" and lists every solution
        self.largest = None  # the largest board it takes
        if isinstance(target, str):
            self._backend(target)
        elif isinstance(target, Command):
            target.check_program()
            self.program = target
            self.label = target.name
        elif callable(target):
            self.function = target
            self.label = getattr(target, "__name__", None) or repr(target)
        else:
            raise InvalidTypeError(
                "target must be a backend name, a cpqueens.Command or a function "
                f"f(instance) -> solutions, got {type(target).__name__}"
            )

    def _backend(self, name: str) -> None:
        from ..solvers import REGISTRY, get_backend

        if name not in REGISTRY:
            raise UnknownBackendError(name, REGISTRY)
        info = get_backend(name).info()
        if not info.available:
            from ..errors import BackendUnavailableError

            raise BackendUnavailableError(f"backend {name!r} needs {info.requires}")
        self.backend = self.label = name
        self.complete = info.exhaustive
        self.largest = info.max_n
        self.takes_given = info.fixed
        self.takes_blocked = info.blocked

    @property
    def plain_only(self) -> bool:
        """True for a program told only the board size ({n}, no {instance})."""
        return self.program is not None and not self.program.takes_instance

    @property
    def kind(self) -> str:
        return "backend" if self.backend else "command" if self.program else "function"

    @property
    def instance_format(self) -> str:
        """The format of the files a failure is written in for this target."""
        return self.program.instance_format if self.program else "json"

    def accepts(self, instance: Instance) -> bool:
        """Whether the target takes this instance at all (a backend's limits)."""
        if self.program is not None:
            return self.program.takes_instance or instance.plain  # {n}: a size, nothing else
        if self.backend is None:
            return True
        if self.largest is not None and instance.n > self.largest:
            return False
        if instance.fixed and not self.takes_given:
            return False
        return not (instance.blocked and not self.takes_blocked)

    def task(self, instance: Instance, question: str, time_limit: float) -> dict[str, Any]:
        """The isolated run of this target on ``instance``, as a campaign's task."""
        task: dict[str, Any] = {"question": question, "time_limit": time_limit,
                                "memory_limit_mb": MEMORY_LIMIT_MB, "seed": 0}  # fmt: skip
        if self.backend is not None:
            solver: dict[str, Any] = {"label": self.label, "backend": self.backend, "options": {}}
            # A backend may run past its time limit by the slack the library promises
            # (docs/limits.md): only a run past that is a time-out of the backend.
            task["grace"] = max(TIME_LIMIT_SLACK, TIME_LIMIT_SLACK_SHARE * time_limit) + 0.5
        else:
            solver = {"label": self.label, "program": self.program, "silence": "unsat"}
            if instance.diagonals is not None and self.instance_format != "json":
                # Another format would write an Excluded Diagonals file (CSPLib 79's
                # own form), which a program of that format need not read: its squares.
                instance = Instance(instance.n, blocked=instance.blocked)
        return {**task, "instance": instance, "solver": solver}

    def warm(self) -> list[dict[str, Any]]:
        """What the warm process loads before forking runs (a backend's imports)."""
        return [{"label": self.label, "backend": self.backend}] if self.backend else []

    def reproduce(self, instance: Instance, question: str, path: str | None = None) -> str:
        """The command line or Python call that shows the target's answer again."""
        if self.program is not None:
            file = (
                path or f"INSTANCE.{self.instance_format}" if self.program.takes_instance else None
            )
            return shlex.join(self.program.argv(instance.n, file))
        if self.function is not None:
            return f"{self.label}({_instance_call(instance)})"
        call = {"all": "solve", "decide": "solve", "count": "count"}[question]
        limit = ", limit=1" if question == "decide" else ""
        target = f"cpqueens.{call}({_instance_call(instance)}, backend={self.backend!r}{limit})"
        return f'python -c "import cpqueens; print({target})"'


def _instance_call(instance: Instance) -> str:
    parts = [str(instance.n)]
    if instance.fixed:
        parts.append(f"fixed={dict(instance.fixed)!r}")
    if instance.blocked:
        parts.append(f"blocked={list(instance.blocked)!r}")
    return f"cpqueens.Instance({', '.join(parts)})"


def answer_of(outcome: Any) -> Answer:
    """The :class:`Answer` of an isolated run's outcome."""
    if outcome.ended == "timeout":
        return Answer("timeout", message=f"no answer within the time limit ({outcome.wall:.1f} s)")
    if outcome.ended == "memout":
        return Answer("crash", message=f"ran out of memory ({outcome.peak_mb:.0f} MiB)")
    if outcome.ended == "crashed":
        return Answer("crash", message=f"the run died ({exit_words(outcome.exit)})")
    return answer_from_dict(outcome.answer)


def answer_from_dict(answer: dict[str, Any]) -> Answer:
    """The :class:`Answer` of what :func:`cpqueens.campaigns.execute.execute` returned."""
    error = answer.get("error")
    if error is not None:
        return Answer(_fault_of(error), message=error)
    boards = tuple(tuple(board) for board in answer.get("solutions") or ())
    return Answer(answer["answer"], boards, answer.get("count"),
                  tuple(answer.get("invalid") or ()))  # fmt: skip


def _fault_of(message: str) -> str:
    if message.startswith("timed out") or "SearchTimeoutError" in message:
        return "timeout"
    if message.startswith("output larger than"):
        return "endless output"
    if message.startswith("bad output"):
        return "garbage"
    return "crash"


def call_function(function: Callable, instance: Instance, question: str, limit: float) -> Answer:
    """Call ``function(instance)`` in a thread; a call that outlives ``limit`` is left
    running (a function cannot be stopped) and answered as a time-out."""
    box: dict[str, Any] = {}

    def call() -> None:
        try:
            value = function(instance)
            if isinstance(value, Result):
                value = value.solutions
            if isinstance(value, int) and not isinstance(value, bool):
                box["answer"] = Answer("sat" if value else "unsat", count=value)
                return
            boards = tuple(tuple(board) for board in value)
            box["answer"] = Answer("sat" if boards else "unsat", boards, len(boards))
        except BaseException as error:  # the function's crash is the hunt's finding
            box["answer"] = Answer("crash", message=f"{type(error).__name__}: {error}")

    thread = threading.Thread(target=call, daemon=True, name="cpqueens-fuzz-call")
    started = time.monotonic()
    thread.start()
    thread.join(limit)
    if thread.is_alive():
        return Answer("timeout", message=f"no answer within {time.monotonic() - started:.1f} s")
    answer = box["answer"]
    if question == "decide" and answer.boards:
        return Answer(answer.status, answer.boards[:1], None, answer.claims)
    return answer
