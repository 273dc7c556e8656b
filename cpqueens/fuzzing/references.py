"""The reference a hunt judges answers against: another backend, run in this process.

``"auto"`` picks, for each instance, the first of :data:`AUTO` that is not the target,
takes the instance and is installed: ``exactcover`` (compiled dancing-links style
search, a different algorithm from every other backend), then ``propagate`` and
``stack`` (pure Python). A reference that cannot answer within the time limit leaves
that instance to the relations alone. Answers are remembered, since shrinking asks
the same instances again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from ..errors import InvalidInputError, SearchTimeoutError, UnknownBackendError
from ..instances import Instance
from .judging import Expected
from .targets import Target

#: The backends ``reference="auto"`` chooses from, in order.
AUTO = ("exactcover", "propagate", "stack")

#: Reference answers remembered.
CACHE_SIZE = 4096


class Reference:
    """Answers of a reference backend (or none, for a hunt by relations alone)."""

    def __init__(self, reference: str | None, target: Target):
        from ..solvers import REGISTRY, get_backend

        self.names: tuple[str, ...]
        if reference is None:
            self.names = ()
        elif reference == "auto":
            self.names = tuple(
                name
                for name in AUTO
                if name != target.backend and get_backend(name).info().available
            )
        elif not isinstance(reference, str):
            raise InvalidInputError(
                f"reference must be a backend name, 'auto' or None, got {reference!r}"
            )
        elif reference not in REGISTRY:
            raise UnknownBackendError(reference, REGISTRY)
        elif reference == target.backend:
            raise InvalidInputError(
                f"the reference must be another backend than the target {reference!r}: "
                "a solver cannot vouch for itself"
            )
        else:
            info = get_backend(reference).info()
            if not info.exhaustive:
                raise InvalidInputError(
                    f"{reference!r} cannot be a reference: it does not search the whole "
                    "space (it proves no instance unsatisfiable)"
                )
            self.names = (reference,)
        self.label = (
            None
            if reference is None
            else (reference if reference != "auto" else "auto: " + "/".join(self.names))
        )
        self.cache: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def expected(self, instance: Instance, question: str, limit: float) -> Expected | None:
        """The reference's answer to ``question`` on ``instance``, None when it has none
        within ``limit`` seconds (or no reference takes the instance)."""
        key = (instance, question)
        with self.lock:
            if key in self.cache:
                self.cache.move_to_end(key)
                return self.cache[key]
        name = self._for(instance)
        if name is None:
            return None
        answer = _ask(name, instance, question, limit)
        if answer is not None:
            with self.lock:
                self.cache[key] = answer
                while len(self.cache) > CACHE_SIZE:
                    self.cache.popitem(last=False)
        return answer

    def _for(self, instance: Instance) -> str | None:
        from ..solvers import get_backend

        for name in self.names:
            info = get_backend(name).info()
            if info.max_n is not None and instance.n > info.max_n:
                continue
            if (instance.fixed and not info.fixed) or (instance.blocked and not info.blocked):
                continue
            return name
        return None


def _ask(name: str, instance: Instance, question: str, limit: float) -> Expected | None:
    from .. import api

    try:
        if question == "count":
            total = api.count(instance, backend=name, time_limit=limit)
            return Expected(sat=total > 0, count=total)
        if question == "decide":
            result = api.solve(instance, backend=name, limit=1, time_limit=limit)
            if result.solutions:
                return Expected(sat=True)
            return Expected(sat=False, count=0) if result.satisfiable is False else None
        result = api.solve(instance, backend=name, time_limit=limit)
    except SearchTimeoutError:
        return None
    if not result.complete:
        return None
    boards = frozenset(tuple(board) for board in result.solutions)
    return Expected(sat=bool(boards), count=len(boards), boards=boards)
