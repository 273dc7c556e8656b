"""Counting on a Dask cluster: a LocalCluster of two worker processes on this machine."""

import os
import signal
import threading
import time

import pytest
from known_counts import A000170

import cpqueens

distributed = pytest.importorskip("distributed")
pytest.importorskip("numba")


def test_counts_on_the_cluster_are_exact(cluster):
    with distributed.Client(cluster) as client:
        for n in (10, 11, 12):
            assert cpqueens.count(n, backend="bitmask", client=client) == A000170[n]
        assert cpqueens.count(10, backend="bitmask", client=client, unique=True) == 92
    assert cpqueens.count(11, backend="bitmask", scheduler=cluster.scheduler_address) == 2680


def test_a_worker_lost_mid_run_does_not_change_the_count(cluster):
    with distributed.Client(cluster) as client:
        client.wait_for_workers(2)
        victim = next(iter(client.scheduler_info()["workers"]))
        victim_pid = client.run(os.getpid, workers=[victim])[victim]
        progress, killed_at = [], []

        def kill_when_started():
            while not progress or progress[-1] == 0:
                time.sleep(0.005)
            killed_at.append(progress[-1])
            # SIGKILL: the worker dies without a word; the scheduler must notice the
            # lost connection and run its tasks again elsewhere.
            os.kill(victim_pid, signal.SIGKILL)

        killer = threading.Thread(target=kill_when_started, daemon=True)
        killer.start()
        total = cpqueens.count(
            15, backend="bitmask", client=client, progress=lambda done, of: progress.append(done)
        )
        killer.join(timeout=10)
        assert total == A000170[15]
        assert killed_at and killed_at[0] < progress[-1], "the worker died after the count"
        assert victim not in client.scheduler_info()["workers"]


def test_client_and_scheduler_are_checked(cluster):
    with pytest.raises(TypeError, match=r"client must be a dask\.distributed\.Client"):
        cpqueens.count(8, backend="bitmask", client="tcp://nowhere:1")
    with distributed.Client(cluster) as client, pytest.raises(TypeError, match="not both"):
        cpqueens.count(8, backend="bitmask", client=client, scheduler=cluster.scheduler_address)
