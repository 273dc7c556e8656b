import pytest

from cpqueens.solvers import REGISTRY

ENUMERATING = [name for name, backend in REGISTRY.items() if backend.enumerates]


@pytest.fixture(params=list(REGISTRY))
def backend(request):
    """Every registered backend, by name: a new backend is tested by being registered."""
    return request.param


@pytest.fixture(params=ENUMERATING)
def enumerating_backend(request):
    """Every registered backend that lists solutions (not only counts them)."""
    return request.param
