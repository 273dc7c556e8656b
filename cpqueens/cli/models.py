"""``crosscheck --model FILE.mzn``: a MiniZinc model of the user's own as one more row.

Each model runs through the ``minizinc`` backend (``model=FILE``), with the options
``-O KEY=VALUE`` gives (``base=1``, ``solver=...``, ``output=...``) and the
cross-check's ``--time-limit``; it is checked when the command starts, so a model
that cannot run is one line and exit status 2 before anything is compared.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from . import ranges
from ._common import BadInput

#: The row label of a model: the backend, and the file as the user named it.
LABEL = "minizinc:{}"


def model_option(function: Callable) -> Callable:
    """``--model FILE.mzn`` (repeatable) and ``-O KEY=VALUE`` for its options."""
    function = click.option(
        "-O",
        "--option",
        "model_options",
        multiple=True,
        metavar="KEY=VALUE",
        help="An option of the --model rows' minizinc backend, e.g. -O base=1 for a model "
        "numbered from 1, -O solver=gecode (repeatable).",
    )(function)
    return click.option(
        "--model",
        "models",
        multiple=True,
        metavar="FILE.mzn",
        help="A MiniZinc model of your own to check (cpqueens docs external, 'Your own MiniZinc "
        "model'), run by the minizinc backend. Repeatable.",
    )(function)


def model_runners(
    models: tuple[str, ...], pairs: tuple[str, ...], time_limit: float | None
) -> list[Callable[[Any], Any]]:
    """A function per model, labelled ``minizinc:FILE``, each checked before it runs."""
    from ..solvers import get_backend

    options = ranges.parse_options(pairs)
    if options and not models:
        raise BadInput("-O KEY=VALUE sets options of the --model rows, and none was given")
    backend = get_backend("minizinc")
    runners = []
    for model in models:
        chosen = {**options, "model": model}
        backend.require()
        backend.check_options(chosen)
        runners.append(_runner(LABEL.format(model), chosen, time_limit))
    return runners


def _runner(label: str, options: dict[str, Any], time_limit: float | None) -> Callable:
    def run(given: Any) -> Any:
        from ..api import solve

        return solve(given, backend="minizinc", time_limit=time_limit, **options)

    run.__name__ = label  # the cross-check labels a function by its name
    return run
