"""What a hunt has done, kept so that it can be resumed: the instances tried (by their
index in the seed's draws), how many per family and size, and the failures.

Kept in a JSON file (``hunt.json`` in the output folder of ``cpqueens fuzz``), written
whole or not at all (a new file renamed over the old) at most every
:data:`SAVE_EVERY` seconds, after each failure and at the end: a hunt stopped at any
moment loses at most the last few seconds of instances, never a failure it reported.
A file of another hunt (another target, question, seed, families or largest board)
is refused, not mixed in.
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


class HuntState:
    """The indices tried and the failures found, saved to ``path`` (None: kept in memory)."""

    def __init__(self, path: str | os.PathLike | None, settings: dict[str, Any]):
        self.path = None if path is None else Path(path)
        self.settings = settings
        self.done: set[int] = set()
        self.lock = threading.Lock()
        self.saved = time.monotonic()
        self.earlier: dict[str, Any] | None = None
        if self.path is not None and self.path.exists():
            self.earlier = self._read()
            self.done = set(_expand(self.earlier.get("done", [])))

    def _read(self) -> dict[str, Any]:
        data = load_json(read_text(self.path, what="hunt state", limit=MAX_STATE), str(self.path))
        if not isinstance(data, dict) or data.get("format") != "cpqueens-fuzz":
            raise InvalidInputError(f"{self.path} is not a cpqueens hunt's state file")
        theirs = data.get("settings", {})
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
        report.tried = self.earlier.get("tried", 0)
        for family, sizes in self.earlier.get("by_family", {}).items():
            report.by_family[family] = {int(n): k for n, k in sizes.items()}
        for item in self.earlier.get("failures", []) + self.earlier.get("timeouts", []):
            merge(report, FuzzFailure.from_dict(item))

    def pending(self) -> Iterator[int]:
        """The indices not tried yet, in order."""
        index = 0
        while True:
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
            data = {"format": "cpqueens-fuzz", "settings": self.settings,
                    "done": _ranges(self.done), **report.to_dict()}  # fmt: skip
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


def _expand(runs: Any) -> Iterator[int]:
    for first, last in runs:
        yield from range(int(first), int(last) + 1)
