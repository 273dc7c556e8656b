"""Counting on a Dask cluster that is not there: a cpqueens error naming the address."""

import socket
import threading
import time

import pytest
from click.testing import CliRunner

import cpqueens
from cpqueens.cli import cli
from cpqueens.errors import InvalidInputError
from cpqueens.parallel.cluster import check_cluster, cluster_threads, run_on_dask, scheduler_of

distributed = pytest.importorskip("distributed")
pytest.importorskip("numba")


def _event_loops() -> int:
    return sum(thread.name == "IO loop" for thread in threading.enumerate())


@pytest.mark.parametrize(
    ("address", "words"),
    [
        ("garbage", "missing port number"),
        ("", "missing port number"),
        ("foo://host:1", "unknown address scheme 'foo'"),
    ],
)
def test_a_scheduler_address_that_is_no_address(address, words):
    import dask

    default, loops = dask.config.get("scheduler", None), _event_loops()
    with pytest.raises(InvalidInputError) as caught:
        cpqueens.count(8, backend="bitmask", scheduler=address)
    message = str(caught.value)
    assert f"scheduler {address!r} is not the address of a dask scheduler" in message
    assert words in message and "tcp://host:8786" in message
    # The client that failed is closed: no event loop left running, no default changed.
    assert dask.config.get("scheduler", None) == default
    deadline = time.monotonic() + 10
    while _event_loops() > loops:
        assert time.monotonic() < deadline, "the failed client's event loop lives on"
        time.sleep(0.05)


def test_the_cli_says_it_in_one_line():
    result = CliRunner().invoke(cli, ["count", "8", "-b", "bitmask", "--scheduler", "garbage"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.stderr.startswith("Error: scheduler 'garbage' is not the address")
    assert result.stderr.count("\n") == 1


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_scheduler_that_cannot_be_reached():
    import dask

    address = f"tcp://127.0.0.1:{_closed_port()}"
    with (
        dask.config.set({"distributed.comm.timeouts.connect": "0.5s"}),
        pytest.raises(InvalidInputError) as caught,
    ):
        cpqueens.count(8, backend="bitmask", scheduler=address)
    assert f"cannot connect to the dask scheduler at {address!r}" in str(caught.value)


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as local:
        yield local


@pytest.fixture(params=["cluster", "address"])
def closed_client(request, cluster):
    target = cluster if request.param == "cluster" else cluster.scheduler_address
    client = distributed.Client(target)
    client.close()
    return client


def test_a_closed_client_is_refused_naming_its_scheduler(cluster, closed_client):
    expected = f"the dask client of the scheduler at {cluster.scheduler_address!r} is closed"
    with pytest.raises(InvalidInputError) as caught:
        cpqueens.count(8, backend="bitmask", client=closed_client)
    assert str(caught.value) == f"{expected}; open a new distributed.Client"
    with pytest.raises(InvalidInputError, match="is closed"):
        check_cluster(client=closed_client)


def test_a_client_closed_after_the_check(cluster, closed_client):
    # Closed between the check and the run: still a cpqueens error, not an AttributeError.
    with pytest.raises(InvalidInputError, match=r"is closed; open a new distributed\.Client"):
        cluster_threads(closed_client)
    with pytest.raises(InvalidInputError, match=r"is closed; open a new distributed\.Client"):
        list(run_on_dask(abs, [], closed_client))


def test_an_open_client_still_counts(cluster):
    with distributed.Client(cluster) as client:
        assert cpqueens.count(8, backend="bitmask", client=client) == 92
        assert scheduler_of(client) == f"the scheduler at {cluster.scheduler_address!r}"
