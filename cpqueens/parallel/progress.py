"""Progress bars for long terminal work, shown only when stderr is a terminal.

rich is imported only when a bar is actually drawn, so scripts and pipes pay
nothing for it and never see control characters in their output.
"""

from __future__ import annotations

import contextlib
import importlib.util
import sys
from collections.abc import Iterator


class Bar:
    """The handle a command advances; does nothing when no bar is drawn.

    >>> with progress_bar(3, "demo", enabled=False) as bar:
    ...     bar.advance("n=4")
    ...     bar.update(2, 3)
    """

    def __init__(self, progress=None, task=None):
        self._progress = progress
        self._task = task
        self._updated = False

    def advance(self, label: str | None = None) -> None:
        """Count one step done; ``label`` names the step that starts next."""
        if self._progress is not None:
            fields = {} if label is None else {"description": label}
            self._progress.update(self._task, advance=1, **fields)

    def say(self, message: str) -> None:
        """Write a line on stderr: above the bar while one is drawn (never onto it)."""
        if self._progress is not None:
            self._progress.console.print(message, markup=False, highlight=False, soft_wrap=True)
        else:
            print(message, file=sys.stderr, flush=True)

    def describe(self, label: str) -> None:
        """Change the words in front of the bar."""
        if self._progress is not None:
            self._progress.update(self._task, description=label)

    def update(self, done: int, total: int) -> None:
        """Set the bar to ``done`` of ``total``; fits callbacks of the form f(done, total).

        The first call starts the bar there (a resumed count starts part done), so that
        the rate and the time left count only the work done since.
        """
        if self._progress is None:
            return
        if not self._updated:
            self._updated = True
            self._progress.reset(self._task, completed=done, total=total)
        else:
            self._progress.update(self._task, completed=done, total=total)


def wants_bar(quiet: bool) -> bool:
    """True when a progress bar would help: not quiet, and stderr is a terminal."""
    return not quiet and sys.stderr.isatty()


@contextlib.contextmanager
def progress_bar(total: int | None, description: str, *, enabled: bool) -> Iterator[Bar]:
    """Yield a :class:`Bar` of ``total`` steps, drawn on stderr when ``enabled``."""
    if not enabled or importlib.util.find_spec("rich") is None:
        yield Bar()
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(*bar_columns(), console=Console(stderr=True), transient=True) as progress:
        yield Bar(progress, progress.add_task(description, total=total))


def bar_columns() -> tuple:
    """The columns of every bar: what runs, the bar, done of total, rate, elapsed, ETA."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class RateColumn(ProgressColumn):
        def render(self, task):  # steps per second, once rich has measured it
            return Text(f"{task.speed:,.1f}/s" if task.speed else "-/s")

    return (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
