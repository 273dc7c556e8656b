"""What a hunt has done, kept so that it can be resumed: the instances tried (by their
index in the seed's draws), how many per family and size, and the failures.

Kept in a JSON file (``hunt.json`` in the output folder of ``cpqueens fuzz``), written
whole or not at all (a new file renamed over the old) at most every
:data:`SAVE_EVERY` seconds, after each failure and at the end: a hunt stopped at any
moment loses at most the last few seconds of instances, never a failure it reported.
A file of another hunt (another target, question, seed, families or largest board)
is refused, not mixed in, and a file is checked as any input is before it is used: its
shape, its numbers, and the indices tried, which are kept as the runs the file holds
(never expanded one by one: a run edited to span 10^18 indices costs nothing).
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..disk.reading import MEGABYTE, read_text
from ..disk.structured import load_json
from ..disk.writing import write_atomic
from ..errors import InvalidInputError
from .families import Drawn
from .report import FuzzFailure, FuzzReport

#: The most seconds between two saves of a hunt's state.
SAVE_EVERY = 2.0

#: The largest state file read back.
MAX_STATE = 64 * MEGABYTE

#: The most runs of indices tried a state file may hold (a hunt's runs number about
#: its failures and skipped instances; a file with more was not written by a hunt).
MAX_RUNS = 1_000_000

#: The largest index a state file may name.
MAX_INDEX = 2**62


class HuntState:
    """The indices tried and the failures found, saved to ``path`` (None: kept in memory)."""

    def __init__(self, path: str | os.PathLike | None, settings: dict[str, Any]):
        self.path = None if path is None else Path(path)
        self.settings = settings
        self.done: set[int] = set()  # tried by this run of the hunt
        self.runs: list[tuple[int, int]] = []  # tried by the earlier ones: [first, last]
        self.lock = threading.Lock()
        self.saved = time.monotonic()
        self.earlier: dict[str, Any] | None = None
        if self.path is not None and self.path.exists():
            self.earlier = self._read()
            self.runs = _checked_runs(self.earlier.get("done", []), self.path)

    def _read(self) -> dict[str, Any]:
        data = load_json(read_text(self.path, what="hunt state", limit=MAX_STATE), str(self.path))
        if not isinstance(data, dict) or data.get("format") != "cpqueens-fuzz":
            raise InvalidInputError(f"{self.path} is not a cpqueens hunt's state file")
        theirs = data.get("settings", {})
        if not isinstance(theirs, dict):
            raise _malformed(self.path, "its settings are not a table")
        if theirs != self.settings:
            differ = sorted(key for key in self.settings if theirs.get(key) != self.settings[key])
            raise InvalidInputError(
                f"{self.path} holds another hunt (its {', '.join(differ) or 'settings'} differ: "
                f"{', '.join(f'{k}={theirs.get(k)!r}' for k in differ)}); give another output "
                "folder, or remove it to start again"
            )
        return data

    def resume(self, report: FuzzReport) -> None:
        """Put the earlier runs' tries and failures into ``report``."""
        if self.earlier is None:
            return
        tried = self.earlier.get("tried", 0)
        if not _count(tried):
            raise _malformed(self.path, f"tried is {tried!r}")
        report.tried = tried
        by_family = self.earlier.get("by_family", {})
        if not isinstance(by_family, dict) or not all(
            isinstance(sizes, dict) and all(_size(n) and _count(k) for n, k in sizes.items())
            for sizes in by_family.values()
        ):
            raise _malformed(self.path, "by_family is not {family: {n: count}}")
        for family, sizes in by_family.items():
            report.by_family[str(family)] = {int(n): k for n, k in sizes.items()}
        found = self.earlier.get("failures", []), self.earlier.get("timeouts", [])
        if not all(isinstance(items, list) for items in found):
            raise _malformed(self.path, "its failures are not a list")
        for item in found[0] + found[1]:
            try:
                failure = FuzzFailure.from_dict(item)
            except InvalidInputError as error:
                raise _malformed(self.path, f"a failure's instance: {error}") from None
            except (KeyError, TypeError, ValueError, AttributeError) as error:
                raise _malformed(self.path, f"a failure: {type(error).__name__}: {error}") from None
            merge(report, failure)

    def pending(self) -> Iterator[int]:
        """The indices not tried yet, in order (the earlier runs' skipped whole)."""
        index, run = 0, 0
        while True:
            while run < len(self.runs) and self.runs[run][1] < index:
                run += 1
            if run < len(self.runs) and self.runs[run][0] <= index:
                index = self.runs[run][1] + 1
                continue
            if index not in self.done:
                yield index
            index += 1

    def tried(self, drawn: Drawn, failure: FuzzFailure | None, report: FuzzReport) -> None:
        """Count one instance examined (with the failure it showed, if any)."""
        with self.lock:
            self.done.add(drawn.index)
            report.tried += 1
            sizes = report.by_family.setdefault(drawn.family, {})
            sizes[drawn.instance.n] = sizes.get(drawn.instance.n, 0) + 1
            if failure is not None:
                merge(report, failure)
        if failure is not None or time.monotonic() - self.saved > SAVE_EVERY:
            self.save(report)

    def skipped(self, drawn: Drawn) -> None:
        """An instance the target does not take (too large, or of a kind it cannot hold)."""
        with self.lock:
            self.done.add(drawn.index)

    def save(self, report: FuzzReport) -> None:
        if self.path is None:
            return
        with self.lock:
            done = _merged(self.runs, _ranges(self.done))
            data = {"format": "cpqueens-fuzz", "settings": self.settings,
                    "done": done, **report.to_dict()}  # fmt: skip
            self.saved = time.monotonic()
            write_atomic(self.path, json.dumps(data, indent=1))


def merge(report: FuzzReport, failure: FuzzFailure) -> None:
    """Add ``failure`` to the report (a time-out to its time-outs): one already there
    with the same key is seen once more; the lists stay smallest first."""
    found = report.failures if failure.wrong else report.timeouts
    for number, known in enumerate(found):
        if known.key == failure.key:
            found[number] = replace(known, seen=known.seen + 1)
            return
    found.append(failure)
    found.sort(key=lambda f: (f.flaky, not f.confirmed, f.size, f.kind))


def _ranges(indices: set[int]) -> list[list[int]]:
    """Indices as [first, last] runs, so that a long hunt's file stays small."""
    runs: list[list[int]] = []
    for index in sorted(indices):
        if runs and runs[-1][1] == index - 1:
            runs[-1][1] = index
        else:
            runs.append([index, index])
    return runs


def _merged(earlier: list[tuple[int, int]], new: list[list[int]]) -> list[list[int]]:
    """The runs of both lists as one list of disjoint runs, in order."""
    merged: list[list[int]] = []
    for first, last in sorted([*map(list, earlier), *new]):
        if merged and first <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    return merged


def _checked_runs(runs: Any, path: Path | None) -> list[tuple[int, int]]:
    """The runs of indices tried a state file holds, checked: a list of at most
    :data:`MAX_RUNS` pairs ``[first, last]`` of indices, 0 <= first <= last."""

    if not isinstance(runs, list):
        raise _malformed(path, "done is not a list of [first, last] runs")
    if len(runs) > MAX_RUNS:
        raise _malformed(path, f"{len(runs):,} runs of indices tried, more than {MAX_RUNS:,}")
    checked = []
    for run in runs:
        if not (
            isinstance(run, list)
            and len(run) == 2
            and all(_count(index) and index <= MAX_INDEX for index in run)
            and run[0] <= run[1]
        ):
            raise _malformed(path, f"a run of indices tried is {str(run)[:40]}")
        checked.append((run[0], run[1]))
    return [tuple(run) for run in _merged(checked, [])]  # type: ignore[misc]


def _malformed(path: Path | None, what: str) -> InvalidInputError:
    return InvalidInputError(
        f"{path} is not a hunt's state as cpqueens writes it ({what}); remove it to start again"
    )


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _size(text: Any) -> bool:
    return isinstance(text, str) and text.isdigit() and 1 <= int(text) <= 10_000
