"""The one result type every backend's ``solve`` returns."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .board import Solution


@dataclass(frozen=True)
class Result:
    """The outcome of :func:`cpqueens.solve`, the same for every backend.

    Attributes
    ----------
    n : int
        Board size.
    backend : str
        Registry name of the backend that ran.
    solutions : tuple of tuple of int
        The solutions found, in the order the backend produced them; each is the
        0-based column of the queen in each row.
    count : int
        Number of solutions found (``len(solutions)`` for enumerating backends).
    complete : bool
        True when the search ran to the end, so ``solutions`` is every solution;
        False when ``limit`` or ``time_limit`` stopped it early, or the backend
        could not vouch for completeness.
    stats : Mapping
        Search effort: ``nodes`` and ``attempts`` for the backtrackers, the solver's
        own figures for the others.
    elapsed : float
        Wall-clock seconds the search took.
    fixed : Mapping
        The pre-placed queens, row -> column.
    blocked : tuple of (int, int)
        The squares no queen could occupy, sorted.
    satisfiable : bool or None
        True when a solution was found; False when the search ran to the end and
        proved there is none; None when it stopped (a time limit) before knowing.
        ``solve(instance, limit=1).satisfiable`` is the decision question.

    Examples
    --------
    >>> import cpqueens
    >>> result = cpqueens.solve(6)
    >>> result.count, result.complete, result.solutions[0]
    (4, True, (1, 3, 5, 0, 2, 4))
    """

    n: int
    backend: str
    solutions: tuple[Solution, ...]
    count: int
    complete: bool
    stats: Mapping[str, Any]
    elapsed: float
    fixed: Mapping[int, int]
    blocked: tuple[tuple[int, int], ...] = ()

    @property
    def satisfiable(self) -> bool | None:
        """True: a solution was found; False: proved none; None: not known (stopped).

        >>> import cpqueens
        >>> cpqueens.solve(3).satisfiable, cpqueens.solve(4, limit=1).satisfiable
        (False, True)
        """
        if self.count > 0:
            return True
        return False if self.complete else None

    @property
    def solution(self) -> Solution | None:
        """The first solution found, or None when there is none."""
        return self.solutions[0] if self.solutions else None

    def __len__(self) -> int:
        return len(self.solutions)

    def __iter__(self):
        return iter(self.solutions)

    def summary(self) -> str:
        """One line: size, backend, count, completeness, effort and time.

        >>> import cpqueens
        >>> cpqueens.solve(6, backend="stack").summary().split(" in ")[0]
        'n=6, backend stack: 4 solutions, complete, 152 nodes'
        """
        plural = "" if self.count == 1 else "s"
        parts = [f"n={self.n}, backend {self.backend}: {self.count:,} solution{plural}"]
        parts.append("complete" if self.complete else "incomplete")
        if self.stats.get("nodes") is not None:
            parts.append(f"{self.stats['nodes']:,} nodes")
        if self.fixed:
            parts.append("fixed " + ",".join(f"{r}:{c}" for r, c in self.fixed.items()))
        return ", ".join(parts) + f" in {self.elapsed:.3g} s"

    def _repr_svg_(self) -> str | None:
        # The drawing lives in svgboard; imported here so result.py stays a plain record.
        from .svgboard import to_svg

        # None (no picture) rather than an error: a notebook must never fail on display.
        if self.solution is None or not self._drawable():
            return None
        return to_svg(self.solution, self.n)

    def _repr_html_(self) -> str:
        import html

        picture = self._repr_svg_() or ""
        caption = html.escape(self.summary())
        if self.solution is not None and self._drawable():
            caption += f"; first solution {html.escape(str(self.solution))}"
        elif self.solution is not None:
            caption += f"; too large to draw (n={self.n}), result.solution holds the columns"
        return f"<div>{picture}<div><code>{caption}</code></div></div>"

    def _drawable(self) -> bool:
        from .svgboard import MAX_SVG_N

        return self.n <= MAX_SVG_N
