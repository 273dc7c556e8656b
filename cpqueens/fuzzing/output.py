"""A hunt's findings on disk: each shrunk instance in the target's own format and in
JSON, and ``report.json``, the whole report (each failure's reproduce line naming the
file written for it)."""

from __future__ import annotations

import os
import shlex
from dataclasses import replace
from pathlib import Path

from ..checking.external import Command
from ..disk.writing import check_folder, write_atomic
from ..instances import Instance, write_instance
from .report import FuzzReport


def write_findings(
    report: FuzzReport, folder: str | os.PathLike, program: Command | None = None
) -> list[Path]:
    """Write every failure's instance (``bug-K.json``, and ``bug-K.FORMAT`` in the
    program's format; ``bug-K-partner.*`` for a relation's second instance) and
    ``report.json`` into ``folder``; return the paths written."""
    where = check_folder(folder, "the hunt's findings")
    where.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    failures = []
    for number, failure in enumerate(report.failures, 1):
        stem = f"bug-{number}"
        paths = _write(where, stem, failure.instance, program)
        written += paths
        if failure.partner is not None:
            written += _write(where, f"{stem}-partner", failure.partner, program)
        if program is not None and program.takes_instance:
            failure = replace(
                failure, reproduce=shlex.join(program.argv(failure.instance.n, str(paths[-1])))
            )
        failures.append(failure)
    shown = replace(report, failures=failures)
    written.append(write_atomic(where / "report.json", shown.to_json() + "\n"))
    report.failures[:] = failures
    return written


def _write(folder: Path, stem: str, instance: Instance, program: Command | None) -> list[Path]:
    paths = [folder / f"{stem}.json"]
    write_instance(instance, paths[0])
    if program is not None and program.takes_instance and program.instance_format != "json":
        path = folder / f"{stem}.{program.instance_suffix}"
        write_instance(instance, path)  # its format told by the suffix, as a Command writes it
        paths.append(path)
    return paths
