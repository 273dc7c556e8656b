import pytest

from cpqueens.solvers import REGISTRY

#: Backends that search the whole space: every solution listed, none left means none.
#: A local search (``exhaustive = False``) finds solutions but never proves there is
#: none, and lists only what ``limit`` asks for: it has tests of its own.
EXHAUSTIVE = [name for name, backend in REGISTRY.items() if getattr(backend, "exhaustive", True)]
ENUMERATING = [name for name in EXHAUSTIVE if REGISTRY[name].enumerates]


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


@pytest.fixture(params=EXHAUSTIVE)
def backend(request):
    """Every registered exhaustive backend, by name: a new one is tested by being registered."""
    return usable(request.param)


@pytest.fixture(params=ENUMERATING)
def enumerating_backend(request):
    """Every registered backend that lists solutions (not only counts them)."""
    return usable(request.param)


FINDERS = [name for name in REGISTRY if name not in EXHAUSTIVE]


@pytest.fixture(params=FINDERS)
def finder(request):
    """Every registered backend that finds solutions without searching the whole space
    (a construction, a local search): it has tests of its own, from the registry too."""
    return usable(request.param)


@pytest.fixture(scope="module")
def cluster():
    """A Dask LocalCluster of two worker processes on this machine, one thread each."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as local:
        yield local
