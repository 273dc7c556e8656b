"""Every option a backend declares answer-neutral (``neutral_options``, what the bug
hunter's ``options`` relation varies) gives the same solutions with every value, checked
from the registry against the stack backend's answer."""

from __future__ import annotations

import pytest
from backend_sets import case

import cpqueens
from cpqueens.errors import InvalidInputError
from cpqueens.solvers import REGISTRY

INSTANCES = [
    cpqueens.Instance(6, blocked=[(0, 1), (2, 3)]),
    cpqueens.Instance(7, fixed={1: 3}),
    cpqueens.Instance(4, blocked=[(0, 1), (0, 2)]),  # no solution
]

CASES = [
    case(name, option, value, id=f"{name}-{option}={value}")
    for name, backend in REGISTRY.items()
    for option, values in backend.neutral_options
    for value in values
]


@pytest.mark.parametrize(("name", "option", "value"), CASES)
def test_each_value_of_a_neutral_option_gives_the_same_solutions(name, option, value):
    backend = REGISTRY[name]
    assert option in backend.options
    options = _valid_with(backend, {option: value})
    for instance in INSTANCES:
        if instance.fixed and not backend.supports_fixed:
            continue
        if instance.blocked and not backend.supports_blocked:
            continue
        expected = set(cpqueens.solutions(instance, backend="stack"))
        found = cpqueens.solutions(instance, backend=name, **options)
        assert set(found) == expected, f"{name} with {options} on {instance!r}"


def _valid_with(backend, options: dict) -> dict:
    """``options``, with a solver that takes them when the default one does not (a
    native cardinality encoding needs a solver with cardinality constraints)."""
    for solver in (None, *backend.solvers_here()):
        chosen = options if solver is None else {**options, "solver": solver}
        try:
            backend.check_options(chosen)
        except InvalidInputError:
            continue
        return chosen
    raise AssertionError(f"no solver of {backend.name} takes {options}")


def test_the_options_relation_covers_every_backend_with_a_choice_of_search():
    # A backend whose options include a search strategy or an encoding declares it.
    for name, backend in REGISTRY.items():
        declared = {option for option, _ in backend.neutral_options}
        for option in ("search", "encoding", "consistency", "propagation", "order"):
            if option in backend.options:
                assert option in declared, f"{name}'s {option} is not in neutral_options"
