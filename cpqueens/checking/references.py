"""The reference a cross-check compares with, and the door's check that it can be had.

The reference is the decision tree's solution set (:func:`cpqueens.decision_tree`),
or what a backend, a function or a program returns, checked to hold nothing but
solutions; for a decision, its answer with a witness. Before any work, the door
refuses a reference that could not be had: a decision tree too large to build, or
an instance whose every solution would take too long to list.

>>> check_tree_reference(Instance(14))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
cpqueens.errors.TreeTooLargeError: the decision-tree reference is too large for n=14 ...
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..board import Solution
from ..errors import CommandFailedError, InvalidInputError, SolverError, TreeTooLargeError
from ..instances import Instance
from ..outputs.answers import BadOutput
from ..solvers import listing_backends
from .cases import Case, as_board, describe, solves
from .external import Command
from .judging.decision import Decision, reference_decision
from .judging.run_judge import Runner, answer_of, decision_by

#: The most search nodes the reference may need to list every solution of an
#: instance (its backtracking tree, estimated), beyond the decision tree's own guard.
MAX_ENUMERATION_NODES = 20_000_000
#: What to do instead of listing every solution of an instance, by default.
DECIDE_INSTEAD = "compare the decision instead (question='decide', the default for an instance)"


def tree_solutions_of(case: Case) -> set[Solution]:
    """The solutions of ``case`` read off its decision tree."""
    from ..trees.explicit.build import decision_tree, tree_solutions

    return tree_solutions(decision_tree(case.instance))


def backend_solutions(label: str, run: Runner | Command) -> Callable[[Case], set[Solution]]:
    """The solutions a backend, a function or a program returns as the reference,
    each checked to solve the case: everything is judged against them."""

    def reference_solutions(case: Case) -> set[Solution]:
        answer = answer_of(run, case)
        if isinstance(answer, (str, bytes)) or not isinstance(answer, Iterable):
            raise SolverError(
                f"the reference {label!r} returned {type(answer).__name__} for "
                f"{describe(case.instance)}, not an iterable of boards"
            )
        boards = {as_board(b) for b in answer}
        wrong = next((b for b in boards if not solves(b, case.instance)), None)
        if wrong is not None:
            raise SolverError(
                f"the reference {label!r} returned {wrong!r} for {describe(case.instance)}, "
                "not a solution"
            )
        return boards

    return reference_solutions


def tree_decider(solutions_of: Callable[[Case], set[Solution]]) -> Callable[[Case], Decision]:
    """The decision tree's decision of a case: its solution set (``solutions_of``)
    says it, the least solution its witness."""

    def from_tree(case: Case) -> Decision:
        found = solutions_of(case)
        return Decision("sat" if found else "unsat", (min(found),) if found else ())

    return from_tree


def backend_decider(label: str, run: Runner | Command) -> Callable[[Case], Decision]:
    """A backend's, function's or program's decision of a case as the reference, its
    witness checked (:func:`~cpqueens.checking.judging.decision.reference_decision`)."""

    def decide(case: Case) -> Decision:
        try:
            decision = decision_by(run, case)
        except (CommandFailedError, BadOutput) as error:
            raise SolverError(
                f"the reference {label!r} failed on {describe(case.instance)}: {error}"
            ) from None
        return reference_decision(decision, label, case.instance)

    return decide


def check_reference(cases: Sequence[Case], reference: Any) -> None:
    """The door's check of the reference: refuse, before any work, a decision tree too
    large for the largest plain size, and an instance whose every solution the
    reference would search too long to list (every instance, with the tree).

    Raises
    ------
    TreeTooLargeError, InvalidInputError
        See :func:`check_tree_reference` and :func:`check_enumerable`.
    """
    tree = isinstance(reference, str) and reference == "tree"
    sized = [case.instance for case in cases if case.sized]
    if tree and sized:
        check_tree_reference(max(sized, key=lambda instance: instance.n))
    for case in cases:
        if case.sized or not (tree or case.question == "all"):
            continue
        if not tree:
            check_enumerable(case.instance, reference)
            continue
        # The tree lists every solution even to decide: a backend is the way out.
        way = _DECIDE_WITH_BACKEND if case.question == "all" else _NAME_BACKEND
        check_enumerable(case.instance, reference, _backend_instead(case.instance.n, way))


def check_tree_reference(board: Instance) -> None:
    """Refuse a decision-tree reference too large to build for the plain ``board``,
    naming a backend that could be the reference instead.

    Raises
    ------
    InvalidInputError
        For ``n`` beyond the largest tree (1,000).
    TreeTooLargeError
        For a tree of more than :data:`~cpqueens.trees.explicit.size.DEFAULT_MAX_NODES` nodes.
    """
    from ..trees.explicit.size import DEFAULT_MAX_NODES, MAX_TREE_N

    n = board.n
    instead = _backend_instead(n)
    if n > MAX_TREE_N:  # before a tuple of n rows is made: it may not fit
        raise InvalidInputError(
            f"the decision-tree reference is too large for n={n:,} (trees go up to "
            f"n={MAX_TREE_N:,}); {instead}"
        )
    nodes, at_least = enumeration_nodes(board, DEFAULT_MAX_NODES)
    if nodes is not None and nodes > DEFAULT_MAX_NODES:
        about = "at least" if at_least else "about"
        raise TreeTooLargeError(
            f"the decision-tree reference is too large for n={n} ({about} {nodes:,} "
            f"nodes, at most {DEFAULT_MAX_NODES:,}; a partial tree, cut at a max_depth, "
            f"lists no solution set); {instead}",
            estimate=nodes,
            max_nodes=DEFAULT_MAX_NODES,
            at_least=at_least,
        )


def check_enumerable(instance: Instance, reference: Any, instead: str = DECIDE_INSTEAD) -> None:
    """Refuse, before any search, to list every solution of an instance whose
    reference would search more than it can: the decision tree past its guard, a
    backend past :data:`MAX_ENUMERATION_NODES` nodes (estimated, never built).

    Raises
    ------
    InvalidInputError
        Saying how far the reference would search, and ``instead``.
    """
    from ..trees.explicit.size import DEFAULT_MAX_NODES, MAX_TREE_N

    budget = DEFAULT_MAX_NODES if reference == "tree" else MAX_ENUMERATION_NODES
    nodes, _ = enumeration_nodes(instance, budget)
    if nodes is None or nodes > budget:
        about = f"more than {MAX_TREE_N:,} rows" if nodes is None else f"about {nodes:,} nodes"
        who = "the decision tree" if reference == "tree" else f"the reference {reference!r}"
        raise InvalidInputError(
            f"comparing every solution of {describe(instance)} needs {who} to search {about} "
            f"(at most {budget:,}); {instead}, or use a smaller instance"
        )


def enumeration_nodes(instance: Instance, budget: int) -> tuple[int | None, bool]:
    """The estimated nodes of the backtracking tree of ``instance`` (at least
    ``budget`` when it is surely larger), and whether that is only a bound from
    below; None for a board too large for a tree at all."""
    from ..trees.explicit.nodes import blocked_rows
    from ..trees.explicit.size import MAX_TREE_N, estimate_tree_size

    if instance.n > MAX_TREE_N:
        return None, False
    blocked = blocked_rows(instance.blocked_set, instance.n) if instance.blocked else None
    size = estimate_tree_size(
        instance.n, instance.fixed_per_row(), max_nodes=budget, blocked=blocked
    )
    return size.graph_nodes, size.lower_bound


def reference_backends(n: int) -> list[str]:
    """The backends that list every solution of a board of size ``n``, the plain
    backtracker first: those that can be the reference where the tree cannot.

    >>> reference_backends(8)[0], reference_backends(30_000)
    ('stack', [])
    """
    return sorted(listing_backends(n), key=lambda name: name != "stack")


_NAME_BACKEND = "name a backend as the reference instead"
_DECIDE_WITH_BACKEND = "compare the decision (question='decide') with a backend as the reference"


def _backend_instead(n: int, way: str = _NAME_BACKEND) -> str:
    able = reference_backends(n)
    if not able:
        return f"no backend lists every solution of n={n:,}: the reference cannot be had"
    return f"{way}, e.g. reference={able[0]!r}"
