"""What ``--backends`` names: registry backends (each checked to be usable here) and
Python functions ``MODULE:FUNCTION`` (or ``file.py:FUNCTION``), imported and wrapped
as cross-check backends; and the environment ``--clean-env`` and ``--env`` give the
``--command`` programs."""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..solvers import REGISTRY
from . import ranges
from ._common import BadInput, check_backend


def backend_choice(text: str) -> list[Any]:
    """The backends named in ``--backends``: registry names (each checked to be usable)
    and Python functions named ``MODULE:FUNCTION``, loaded."""
    chosen: list[Any] = []
    for name in ranges.parse_backends(text, list(REGISTRY)):
        chosen.append(load_function(name) if ":" in name else check_backend(name))
    return chosen


def load_function(spec: str) -> Callable[[Any], Any]:
    """The Python function named ``MODULE:FUNCTION`` (or ``file.py:FUNCTION``), as a
    crosscheck backend labelled ``spec``; a one-line error naming it when it cannot be.

    The module is imported from the current folder or sys.path; a file, as ``python
    file.py`` runs it, with its own folder on sys.path (so it imports its neighbours).
    A function of one
    argument is called as the Python API calls it (with n, or the instance); one that
    takes two is called ``f(n, fixed)``, ``fixed`` a dict row -> column.
    """
    spec = spec.strip()
    module_name, _, attribute = (part.strip() for part in spec.partition(":"))
    where = f"--backends {spec!r}"
    try:
        module = _import(module_name)
    except ModuleNotFoundError as error:
        missing = error.name or module_name
        if module_name == missing or module_name.startswith(missing + "."):
            raise BadInput(
                f"{where}: no module named {module_name!r} in the current folder or on sys.path"
            ) from None
        raise BadInput(
            f"{where}: importing {module_name!r} failed: no module named {missing!r}"
        ) from None
    except BadInput:
        raise
    except (Exception, SystemExit) as error:
        raise BadInput(
            f"{where}: importing {module_name!r} failed: {type(error).__name__}: {error}"
        ) from None
    target: Any = module
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise BadInput(f"{where}: module {module_name!r} has no {attribute!r}") from None
    if not callable(target):
        raise BadInput(
            f"{where}: {attribute!r} is a {type(target).__name__}, not a function f(n) -> solutions"
        )
    return _as_backend(target, spec)


def _import(module_name: str) -> Any:
    """Import a module by name from the current folder or sys.path, or a ``.py`` file."""
    importlib.invalidate_caches()  # a module written a moment ago is found
    if module_name.endswith(".py"):
        path = Path(module_name)
        if not path.is_file():
            raise BadInput(f"--backends: no file {module_name!r}")
        found = importlib.util.spec_from_file_location(path.stem, path)
        if found is None or found.loader is None:
            raise BadInput(f"--backends: cannot import {module_name!r}")
        module = importlib.util.module_from_spec(found)
        # As `python file.py` runs it: its folder first on sys.path, for the whole run
        # (a function may import its neighbours when called, not only when loaded).
        folder = str(path.resolve().parent)
        if folder not in sys.path:
            sys.path.insert(0, folder)
        found.loader.exec_module(module)
        return module
    folder = os.getcwd()
    added = folder not in sys.path and "" not in sys.path
    if added:
        sys.path.insert(0, folder)
    try:
        return importlib.import_module(module_name)
    finally:
        if added:
            with contextlib.suppress(ValueError):
                sys.path.remove(folder)


def _as_backend(function: Callable[..., Any], label: str) -> Callable[[Any], Any]:
    """``function`` called as a crosscheck backend: f(case), or f(n, fixed) when it
    needs two arguments."""
    from ..instances import as_instance

    try:
        parameters = inspect.signature(function).parameters.values()
        needed = sum(
            p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
            for p in parameters
        )
    except (TypeError, ValueError):  # a builtin without a signature: called with n
        needed = 1

    def run(case: Any) -> Any:
        if needed >= 2:
            instance = as_instance(case)
            return function(instance.n, instance.fixed_rows)
        return function(case)

    run.__name__ = label
    return run


def program_environment(clean: bool, pairs: tuple[str, ...]) -> dict[str, str] | None:
    """The environment of the --command programs: None (this one, inherited) unless
    --clean-env or --env says otherwise.

    >>> program_environment(False, ()) is None
    True
    >>> program_environment(True, ("OMP_NUM_THREADS=1", "X=a=b"))["X"]
    'a=b'
    """
    from ..programs.running import clean_environment

    if not clean and not pairs:
        return None
    given = {}
    for pair in pairs:
        name, equals, value = pair.partition("=")
        if not equals or not name:
            raise BadInput(f"--env takes NAME=VALUE, got {pair!r}")
        given[name] = value
    return clean_environment(given) if clean else {**os.environ, **given}
