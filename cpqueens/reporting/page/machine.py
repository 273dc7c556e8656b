"""The machine a report ran on: what a reader needs to judge the times it shows.

:func:`machine_info` gives the CPU, the cores, the load, Python, the OS, cpqueens,
the solver packages each backend is built on and the solver programs found here, as
(what, value) pairs.

>>> cpu_model() != ""
True
"""

from __future__ import annotations

import os
import platform
import sys
from collections.abc import Sequence
from typing import Any

from ..._version import __version__
from ...display.numbers import thousands
from ...solvers.installed import program_versions


def cpu_model() -> str:
    """The processor's name (``/proc/cpuinfo``, else :func:`platform.processor`)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            for line in info:
                if line.lower().startswith("model name"):
                    return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "-"


def _load() -> str:
    try:
        one, five, fifteen = os.getloadavg()
    except (AttributeError, OSError):  # not on Windows
        return "-"
    return f"{one:.2f}, {five:.2f}, {fifteen:.2f} (1, 5 and 15 minutes)"


def package_of(backend: str) -> str | None:
    """The pip package a registry backend is built on (from its ``install_hint``), or None.

    >>> package_of("cpsat"), package_of("stack"), package_of("no such backend")
    ('ortools', None, None)
    """
    from ...solvers import REGISTRY

    engine = REGISTRY.get(backend)
    return None if engine is None else engine.package


def machine_info(backends: Sequence[Any] = ()) -> list[tuple[str, str]]:
    """What a reader of a shared report needs to judge its times, as (what, value) pairs.

    The CPU model (``/proc/cpuinfo``, else :func:`platform.processor`), the cores,
    the load average now, Python, the OS, cpqueens, for each backend the version of
    the solver package it is built on (``-`` for a backend built on none), and the
    versions of the solver programs found on the PATH (MiniZinc and its solvers such
    as Gecode, Java: :func:`~cpqueens.solvers.installed.program_versions`).
    """
    from ...solvers import REGISTRY

    names = [b if isinstance(b, str) else getattr(b, "name", str(b)) for b in backends]
    packages = []
    for name in dict.fromkeys(names):
        package = package_of(name)
        if package is None:
            version = "-"
        else:
            version = f"{package} {REGISTRY[name].package_version or 'not installed'}"
        packages.append(f"{name}: {version}")
    return [
        ("CPU", cpu_model()),
        ("cores", thousands(os.cpu_count())),
        ("load average", _load()),
        ("Python", f"{platform.python_implementation()} {platform.python_version()}"),
        ("OS", platform.platform(terse=True) or sys.platform),
        ("cpqueens", __version__),
        ("solver packages", "; ".join(packages) or "-"),
        ("solver programs", _programs()),
    ]


def _programs() -> str:
    found = program_versions()
    return "; ".join(f"{name} {version}" for name, version in found.items()) or "none found"
