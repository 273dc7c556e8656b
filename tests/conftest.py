import pytest

from cpqueens.solvers import REGISTRY

ENUMERATING = [name for name, backend in REGISTRY.items() if backend.enumerates]


def usable(name):
    """Skip the test, saying why, when a backend's package or program is missing here."""
    backend = REGISTRY[name]
    if not backend.is_available():
        try:
            backend.require()
        except ImportError as missing:
            pytest.skip(str(missing))
        pytest.skip(f"backend {name!r} is not available here")
    return name


@pytest.fixture(params=list(REGISTRY))
def backend(request):
    """Every registered backend, by name: a new backend is tested by being registered."""
    return usable(request.param)


@pytest.fixture(params=ENUMERATING)
def enumerating_backend(request):
    """Every registered backend that lists solutions (not only counts them)."""
    return usable(request.param)
