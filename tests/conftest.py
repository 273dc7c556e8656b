"""Fixtures over the backend registry, and what makes a skip a failure in CI.

On a user's machine a test that cannot run here (a backend's package, a program, a
compiler missing) is a skip that says what it needs. CI sets ``CPQUEENS_STRICT_SKIPS=1``
(``.ci/run``): there every skip is a failure, but for the deliberate ones, the skips a
test makes by design, whose reasons :data:`DELIBERATE` recognises. That holds for the
doctests of the package too (a doctest that needs a missing backend is skipped from
here: :func:`pytest_collection_modifyitems`).
"""

from __future__ import annotations

import os
import re
import shutil
import signal

import pytest
from _pytest.doctest import DoctestItem
from backend_sets import ENUMERATING, EXHAUSTIVE, FINDERS, missing, params

from cpqueens.solvers import REGISTRY

#: Files kept as published (PyCSP3's models among them), never collected: a model file
#: is a program run with its data, not a module to import.
collect_ignore = ["data"]

#: The variable CI sets to make every skip but the deliberate ones a failure.
STRICT = "CPQUEENS_STRICT_SKIPS"

#: Reasons of the skips a test makes by design, which stay skips in CI: a test that
#: skips on purpose starts its reason with "by design: "; a command of the docs that the
#: page marks as not to be run (test_docs_commands.py) is skipped as "...: not run: ...".
DELIBERATE = re.compile(r"^by design: |: not run: ")


def strict() -> bool:
    return os.environ.get(STRICT, "").strip().lower() not in ("", "0", "no", "false")


def pytest_configure(config):
    # Started in the background by a script, the tests inherit SIGINT ignored, and
    # Python then never raises KeyboardInterrupt, here or in the children the Ctrl-C
    # tests start (they inherit it too): a handler installed here is reset to the
    # default in each child, which then turns SIGINT into KeyboardInterrupt again.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    # A plugin object, not hooks of this file: a conftest's test hooks apply to the
    # tests below its folder only, and the doctests of cpqueens/ are not.
    if strict() and not config.pluginmanager.has_plugin("cpqueens-strict-skips"):
        config.pluginmanager.register(StrictSkips(), "cpqueens-strict-skips")


def _reason(longrepr) -> str:
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


def _failure(reason: str) -> str:
    return (
        f"{STRICT} is set (as in CI), and this skip is not a deliberate one: {reason}\n"
        "Install what it needs (.ci/run says what CI installs), or, for a skip the test "
        'makes by design, start its reason with "by design: " (tests/conftest.py).'
    )


class StrictSkips:
    """Turns every skip that is not deliberate, of a test or of a whole module, into a
    failure that says what was missing."""

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        if report.skipped and not hasattr(report, "wasxfail"):
            reason = _reason(report.longrepr)
            if not DELIBERATE.search(reason):
                report.outcome = "failed"
                report.longrepr = _failure(reason)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_make_collect_report(self, collector):
        outcome = yield
        report = outcome.get_result()
        if report.skipped:
            reason = _reason(report.longrepr)
            if not DELIBERATE.search(reason):
                report.outcome = "failed"
                report.longrepr = _failure(reason)


#: ``backend="name"`` in a doctest's examples: the doctest needs that backend.
_DOCTEST_BACKEND = re.compile(r"""backend\s*=\s*["']([a-z_]+)["']""")


#: The test files whose every test runs a solver program, drives a browser, starts a
#: Dask cluster or takes long; the fixtures and backends that do so mark the tests
#: using them too.
MARKED_FILES = {
    "programs": {"test_ace.py", "test_ace_faults.py", "test_minizinc_models.py",
                 "test_flatzinc.py", "test_flatzinc_solvers.py", "test_campaign_model_files.py",
                 "test_solver_listing.py"},
    "browser": {"test_report_browser.py", "test_tree_explorer_browser.py"},
    "dask": {"test_campaigns_dask.py", "test_distributed.py", "test_cluster_errors.py"},
    # Every documented command run end to end, and numba's kernels compiled from cold.
    "slow": {"test_docs_commands.py", "test_docs_outputs.py", "test_first_call.py"},
}  # fmt: skip
MARKING_FIXTURES = {"browser": "browser", "cluster": "dask"}
#: The markers that keep a test out of the fast tier (``-m fast``).
TIERS = {"programs", "browser", "dask", "slow"}
#: The backends that run a program of the system (the JVM, MiniZinc).
PROGRAM_BACKENDS = {name for name, backend in REGISTRY.items() if backend.programs}


def _marks(item) -> set[str]:
    """The tier markers of a test: by its file, its fixtures and its backend."""
    marks = {mark for mark, files in MARKED_FILES.items() if item.path.name in files}
    marks |= {mark for name, mark in MARKING_FIXTURES.items() if name in item.fixturenames}
    params = getattr(getattr(item, "callspec", None), "params", {})
    if any(isinstance(value, str) and value in PROGRAM_BACKENDS for value in params.values()):
        marks.add("programs")
    if isinstance(item, DoctestItem) and item.dtest is not None:
        source = "".join(example.source for example in item.dtest.examples)
        if set(_DOCTEST_BACKEND.findall(source)) & PROGRAM_BACKENDS:
            marks.add("programs")  # an example that runs ACE's JVM or MiniZinc
    return marks


def pytest_collection_modifyitems(config, items):
    """Each test gets its tier markers (``programs``, ``browser``, ``dask``, ``slow``:
    see :data:`MARKED_FILES`), and a test with none of them ``fast``, so that
    ``-m fast`` is the fast tier.
    A doctest of the package that uses a backend this machine cannot run is a skip
    that says so (some guard with ``if ready``, which would pass having checked
    nothing). Called for every item collected, the package's doctests among them."""
    for item in items:
        marks = _marks(item) | {mark.name for mark in item.iter_markers() if mark.name in TIERS}
        for mark in marks:
            item.add_marker(getattr(pytest.mark, mark))
        if not marks:
            item.add_marker(pytest.mark.fast)  # no program, browser, cluster or long run
        if not isinstance(item, DoctestItem) or item.dtest is None:
            continue
        wanted = {
            name
            for example in item.dtest.examples
            for name in _DOCTEST_BACKEND.findall(example.source)
        }
        for name in sorted(wanted):
            reason = missing(name) if name in REGISTRY else None
            if reason is not None:
                item.add_marker(pytest.mark.skip(reason=f"doctest of backend {name!r}: {reason}"))
                break


@pytest.fixture(params=params(EXHAUSTIVE))
def backend(request):
    """Every registered exhaustive backend, by name: a new one is tested by being
    registered; one that cannot run here is a skip of its own that says why."""
    return request.param


@pytest.fixture(params=params(ENUMERATING))
def enumerating_backend(request):
    """Every registered exhaustive backend that lists solutions (not only counts them)."""
    return request.param


@pytest.fixture(params=params(FINDERS))
def finder(request):
    """Every registered backend that finds solutions without searching the whole space
    (a construction, a local search): it has tests of its own, from the registry too."""
    return request.param


@pytest.fixture(scope="module")
def cluster():
    """A Dask LocalCluster of two worker processes on this machine, one thread each."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as local:
        yield local


CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


@pytest.fixture
def browser(tmp_path):
    """Debian's headless Chromium through its chromedriver; nothing is downloaded."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="needs selenium (the test extra)")
    from selenium.webdriver.chrome.service import Service

    for program in (CHROMIUM, CHROMEDRIVER):
        if not os.access(program, os.X_OK):
            pytest.skip(f"needs {program}: apt-get install chromium chromium-driver")
    # Selenium Manager would fetch a browser or driver it misses: forbid it.
    os.environ["SE_OFFLINE"] = "true"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--window-size=1280,2000", f"--user-data-dir={tmp_path / 'profile'}"):  # fmt: skip
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    try:
        yield driver
    finally:
        driver.quit()
