"""The one result type every backend's ``solve`` returns."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .board import Solution
from .display.numbers import plural, seconds, thousands


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
    certificate : Certificate or None
        With ``certify=True``: what was proved and how (see :func:`cpqueens.certify`).
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
    certificate: Any = None

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
        """One line: size, backend, what was found, effort and time.

        It says plainly how far the search went: "all 4 solutions" when it ran to the
        end, "first solution" or "3 solutions (stopped at the limit)" when ``limit``
        stopped it, "... before the time limit" when the clock did.

        >>> import cpqueens
        >>> cpqueens.solve(6, backend="stack").summary().split(" in ")[0]
        'n=6, backend stack: all 4 solutions, 152 nodes'
        >>> cpqueens.solve(8, backend="stack", limit=1).summary().split(" in ")[0]
        'n=8, backend stack: first solution, 113 nodes'
        >>> cpqueens.solve(3, backend="stack").summary().split(" in ")[0]
        'n=3, backend stack: no solution (the search ran to the end), 5 nodes'
        """
        parts = [f"n={self.n}, backend {self.backend}: {self.found()}"]
        if self.stats.get("nodes") is not None:
            parts.append(plural(self.stats["nodes"], "node"))
        if self.fixed:
            parts.append("fixed " + ",".join(f"{r}:{c}" for r, c in self.fixed.items()))
        return ", ".join(parts) + f" in {seconds(self.elapsed)}"

    def found(self) -> str:
        """What the search found, in words: all, first, some, or none, and why it stopped.

        >>> import cpqueens
        >>> cpqueens.solve(8, limit=3).found()
        '3 solutions (stopped at the limit)'
        """
        if self.complete:
            if self.count == 0:
                return "no solution (the search ran to the end)"
            return (
                "the only solution" if self.count == 1 else f"all {thousands(self.count)} solutions"
            )
        if self.stats.get("timed_out"):
            return f"{plural(self.count, 'solution')} found before the time limit"
        if self.count == 0:
            return "no solution found (the search stopped before the end)"
        if self.count == 1:
            return "first solution"
        return f"{plural(self.count, 'solution')} (stopped at the limit)"

    def __repr__(self) -> str:
        # The head of the solutions and their number: a plain repr of every solution of
        # n = 10 is 23 KB nobody reads.
        shown = ", ".join(str(s) if self.n <= 20 else _head(s) for s in self.solutions[:2])
        more = len(self.solutions) - 2
        solutions = f"({shown}{f', ... {thousands(more)} more' if more > 0 else ''})"
        return (
            f"Result(n={self.n}, backend={self.backend!r}, count={self.count}, "
            f"complete={self.complete}, solutions={solutions}, "
            f"elapsed={self.elapsed:.3g})"
        )

    def _repr_svg_(self) -> str | None:
        # The drawing lives in display.svg; imported here so result.py stays a plain record.
        from .display.svg import to_svg

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
        from .display.svg import MAX_SVG_N

        return self.n <= MAX_SVG_N


def _head(solution: Solution) -> str:
    """The first columns of a long solution."""
    return "(" + ", ".join(map(str, solution[:8])) + f", ... {thousands(len(solution) - 8)} more)"
