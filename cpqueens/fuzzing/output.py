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
    program's format; ``bug-K-partner.*`` for a relation's second instance), every
    time-out's (``timeout-K.*``) and ``report.json`` into ``folder``; return the paths
    written."""
    where = check_folder(folder, "the hunt's findings")
    where.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for found, prefix in ((report.failures, "bug"), (report.timeouts, "timeout")):
        for number, failure in enumerate(found, 1):
            stem = f"{prefix}-{number}"
            paths = _write(where, stem, failure.instance, program)
            written += paths
            if failure.partner is not None:
                written += _write(where, f"{stem}-partner", failure.partner, program)
            if program is not None and program.takes_instance:
                argv = program.argv(failure.instance.n, str(paths[-1]))
                found[number - 1] = replace(failure, reproduce=shlex.join(argv))
    written.append(write_atomic(where / "report.json", report.to_json() + "\n"))
    return written


def _write(folder: Path, stem: str, instance: Instance, program: Command | None) -> list[Path]:
    paths = [folder / f"{stem}.json"]
    write_instance(instance, paths[0])
    if program is not None and program.takes_instance and program.instance_format != "json":
        path = folder / f"{stem}.{program.instance_suffix}"
        write_instance(instance, path)  # its format told by the suffix, as a Command writes it
        paths.append(path)
    return paths
