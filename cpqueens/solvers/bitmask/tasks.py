"""The ``bitmask`` counts cut into independent, picklable tasks.

A task is a batch of subproblems (start constellations, or placements of the first
rows when queens are fixed or squares blocked) that :func:`run_task` counts with the
compiled kernels. Tasks carry only numpy arrays, so the same task runs in this
process, in a process pool or on a Dask worker, and the sum of their results never
depends on where.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class CountTask:
    """A batch of subproblems of one board.

    With ``allowed`` None the batch is start constellations (``signatures``,
    ``syms``, ``group_orders`` as in :class:`.constellations.Constellations`);
    otherwise ``prefixes`` lists placements of the first rows and ``allowed[r]`` the
    squares row ``r`` may use (its fixed queen, or its squares that are not blocked).
    """

    n: int
    signatures: np.ndarray | None = None
    syms: np.ndarray | None = None
    group_orders: np.ndarray | None = None
    allowed: np.ndarray | None = None
    prefixes: np.ndarray | None = None

    @property
    def size(self) -> int:
        """How many subproblems the task holds (the unit of progress)."""
        rows = self.signatures if self.allowed is None else self.prefixes
        return len(rows)


@dataclass(frozen=True)
class Tally:
    """What a task found: solutions, classes of solutions (constellations only), nodes."""

    solutions: int = 0
    classes: int = 0
    nodes: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.solutions + other.solutions,
            self.classes + other.classes,
            self.nodes + other.nodes,
        )


def run_task(task: CountTask) -> Tally:
    """Count one task with the compiled kernels (compiling or loading them on first use)."""
    if task.allowed is None:
        from . import counting

        solutions, classes, nodes = counting.count_constellations(
            task.n, task.signatures, task.syms, task.group_orders
        ).tolist()
        return Tally(solutions, classes, nodes)
    from . import kernels

    solutions, nodes = kernels.count_prefixes(task.n, task.allowed, task.prefixes).tolist()
    return Tally(solutions, 0, nodes)


def warm_up() -> None:
    """Compile or load the kernels now, so that no task pays for it (a pool initializer)."""
    from . import counting, kernels

    counting.warm_up()
    kernels.warm_up(listing=False)


def run_all(
    function: Callable[[Any], Any],
    tasks: Sequence[Any],
    *,
    client: Any,
    workers: int,
    advance: Callable[[int], None],
    check: Callable[[], None],
    stoppable: bool,
) -> Iterator[Any]:
    """``function(task)`` for every task, as they finish: on the Dask cluster of
    ``client``, else on a local pool of ``workers`` processes (``stoppable``: even one
    worker runs in a child, so that ``check`` can stop a task that holds minutes of
    work). ``advance(task.size)`` reports progress; ``check`` may raise to stop."""
    if client is not None:
        from ...parallel.cluster import run_on_dask

        return run_on_dask(function, tasks, client, advance=advance, check=check)
    from ...parallel.pool import run_tasks

    return run_tasks(function, tasks, workers=workers, sizes=[task.size for task in tasks],
                     advance=advance, check=check, initializer=warm_up,
                     stoppable=stoppable)  # fmt: skip


def split(items: dict[str, np.ndarray], n: int, batches: int) -> list[CountTask]:
    """Deal the rows of ``items`` round-robin into at most ``batches`` tasks.

    Neighbouring subproblems tend to cost about the same, so dealing them out like
    cards gives batches of similar cost, and the last batch to finish is not a giant.
    """
    # ``allowed`` is shared by every task, one entry per row: not a subproblem.
    length = len(next(value for key, value in items.items() if key != "allowed"))
    batches = max(1, min(batches, length))
    shared = {key: value for key, value in items.items() if key == "allowed"}
    tasks = []
    for start in range(batches):
        part = {
            key: np.ascontiguousarray(value[start::batches])
            for key, value in items.items()
            if key != "allowed"
        }
        tasks.append(CountTask(n=n, **shared, **part))
    return tasks


@dataclass(frozen=True)
class NumberedTask:
    """A task with its number in the count's fixed cut (for a checkpoint)."""

    index: int
    task: CountTask

    @property
    def size(self) -> int:
        return self.task.size


def run_numbered(numbered: NumberedTask) -> tuple[int, Tally]:
    """:func:`run_task`, with the task's number beside what it found."""
    return numbered.index, run_task(numbered.task)
