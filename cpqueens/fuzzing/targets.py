"""What a hunt asks its target, and how: one run of a solver on one instance, as an
:class:`Answer`, whatever the target is.

A registry backend (with its options) and a program (:class:`~cpqueens.Command`)
run as a campaign's runs do: each in a process of its own forked from a warm one,
under the time limit and a memory limit, its whole process tree killed at the end
(:mod:`cpqueens.campaigns.isolation`), locally or on a Dask cluster's workers. A
function ``f(instance)`` runs in a child forked from this process
(:mod:`.function_runs`), under the same limits. A crash of a native solver is then
one failure of the hunt, never the end of it.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..checking.external import Command
from ..errors import InvalidInputError, InvalidTypeError, UnknownBackendError
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

    def __init__(self, target: Any, time_limit: float, options: Mapping[str, Any] | None = None):
        self.time_limit = time_limit
        self.options: dict[str, Any] = {}
        self.function: Callable | None = None
        self.backend: str | None = None
        self.program: Command | None = None
        self.complete = True  # proves "no solution" and lists every solution
        # (option, value, value before): the other settings that must give the same answer.
        self.alternatives: tuple[tuple[str, Any, Any], ...] = ()
        self.largest = None  # the largest board it takes
        if isinstance(target, str):
            self._backend(target, dict(options or {}))
            return
        if options:
            raise InvalidInputError(
                f"options ({', '.join(f'{k}={v!r}' for k, v in options.items())}) are a "
                "backend's: a program or a function is hunted as it is"
            )
        elif isinstance(target, Command):
            if not target.told_the_case:
                raise InvalidInputError(
                    f"the command {target.name!r} holds neither {{n}} (replaced by the board "
                    "size) nor {instance} (replaced by an instance file's path): every "
                    "instance drawn would get the answer to one question; e.g. "
                    f'"{target.name} {{instance}}"'
                )
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

    def _backend(self, name: str, options: dict[str, Any]) -> None:
        from ..solvers import REGISTRY, get_backend

        if name not in REGISTRY:
            raise UnknownBackendError(name, REGISTRY)
        engine = get_backend(name)
        info = engine.info()
        if not info.available:
            from ..errors import BackendUnavailableError

            raise BackendUnavailableError(f"backend {name!r} needs {info.requires}")
        unknown = sorted(set(options) - set(engine.options))
        if unknown:
            raise InvalidInputError(
                f"backend {name!r} got unknown option(s) {', '.join(unknown)}; its own "
                f"options are: {', '.join(engine.options) or 'none'}"
            )
        engine.check_options(options)  # a bad value fails here, not in every run
        self.backend = name
        self.options = options
        self.label = name + (f" ({_option_words(options)})" if options else "")
        self.alternatives = _alternatives(engine, options)
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

    def task(
        self,
        instance: Instance,
        question: str,
        time_limit: float,
        options: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The isolated run of this target on ``instance`` (a backend with ``options``
        instead of its own, for the ``options`` relation), as a campaign's task."""
        task: dict[str, Any] = {"question": question, "time_limit": time_limit,
                                "memory_limit_mb": MEMORY_LIMIT_MB, "seed": 0}  # fmt: skip
        if self.backend is not None:
            solver: dict[str, Any] = {
                "label": self.label, "backend": self.backend,
                "options": self.options if options is None else options,
            }  # fmt: skip
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
        if self.backend is None:
            return []
        return [{"label": self.label, "backend": self.backend, "options": self.options}]

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
        options = "".join(f", {key}={value!r}" for key, value in self.options.items())
        target = (
            f"cpqueens.{call}({_instance_call(instance)}, backend={self.backend!r}{options}{limit})"
        )
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


def call_function(
    function: Callable,
    instance: Instance,
    question: str,
    limit: float,
    started_child: Callable[[int | None], None] | None = None,
) -> Answer:
    """Call ``function(instance)`` in a child process (:mod:`.function_runs`): a call
    that outlives ``limit`` is ended, with every process it started, and answered as a
    time-out; one that kills its process is a crash."""
    from .function_runs import call_in_child

    def answered(given: Instance) -> Answer:
        # Read in the child: what the function returns may be a generator, which
        # cannot cross to this process; its Answer can.
        return _answer_of_value(function(given), question)

    what, value = call_in_child(answered, instance, limit, MEMORY_LIMIT_MB, started_child)
    if what == "value":
        answer = value
    elif what == "error":
        answer = Answer("crash", message=value)
    else:
        answer = Answer("crash" if what == "memout" else what, message=value)
    if question == "decide" and answer.boards:
        return Answer(answer.status, answer.boards[:1], None, answer.claims)
    return answer


def _answer_of_value(value: Any, question: str) -> Answer:
    """The answer a function's return value gives: solutions, a count or a Result."""
    incomplete = isinstance(value, Result) and not value.complete
    if isinstance(value, Result):
        value = value.solutions
    if value is None:
        return Answer("garbage", message="the function returned None")
    if isinstance(value, int) and not isinstance(value, bool):
        if incomplete:
            return Answer("unknown", message="a count of a search stopped early")
        return Answer("sat" if value else "unsat", count=value)
    try:
        boards = tuple(tuple(board) for board in value)
    except TypeError:
        return Answer("garbage", message=f"the function returned {type(value).__name__}")
    if incomplete and not (question == "decide" and boards):
        # Its search stopped before the end (its time limit): what it lists proves
        # neither "no solution" nor "every solution".
        return Answer("unknown", boards, message="the search stopped early (complete=False)")
    return Answer("sat" if boards else "unsat", boards, len(boards))


def _alternatives(engine: Any, options: dict[str, Any]) -> tuple[tuple[str, Any, Any], ...]:
    """The backend's other settings that must give the same answer, each valid with
    the rest of ``options``: ``(option, value, value before)``."""
    found = []
    for option, values in engine.neutral_options:
        before = options.get(option)  # None: the backend's default
        for value in values:
            if value == options.get(option):
                continue
            try:
                engine.check_options({**options, option: value})
            except InvalidInputError:
                continue  # not with these options (a native encoding needs its solvers)
            found.append((option, value, before))
    return tuple(found)


def _option_words(options: Mapping[str, Any]) -> str:
    return ", ".join(f"{key}={value}" for key, value in options.items())
