"""Campaigns on a Dask cluster: each run still isolated on its worker, results back in
the client's SQLite file, a worker lost mid-campaign costing only its runs in flight."""

import os
import signal
import threading
import time

import pytest

import cpqueens

distributed = pytest.importorskip("distributed")


SPEC = {
    "campaign": {"time_limit": 10, "name": "dask"},
    "instances": [{"generator": "blocked", "n": [8], "blocked": [10, 30], "seeds": [1, 2, 3]}],
    "solvers": [{"backend": "stack"}, {"backend": "exactcover"}],
}


def test_campaign_on_the_cluster_matches_local_runs(cluster, tmp_path):
    remote = cpqueens.run_campaign(SPEC, tmp_path / "remote.sqlite",
                                   scheduler=cluster.scheduler_address)  # fmt: skip
    local = cpqueens.run_campaign(SPEC, tmp_path / "local.sqlite", workers=2)
    assert local.ok
    assert remote.ok and remote.ran == 12
    answers = [
        sorted((r["instance"], r["solver"], r["verdict"]) for r in cpqueens.load_results(db))
        for db in (tmp_path / "remote.sqlite", tmp_path / "local.sqlite")
    ]
    assert answers[0] == answers[1]
    hosts = {r["host"] for r in cpqueens.load_results(tmp_path / "remote.sqlite")}
    assert len(hosts) == 1  # the worker's host name, recorded with the run


def test_a_worker_lost_mid_campaign_costs_only_its_runs(cluster, tmp_path):
    spec = {**SPEC, "campaign": {"time_limit": 10, "name": "lost"},
            "instances": [{"generator": "plain", "n": list(range(4, 16))}],
            "solvers": [{"backend": "stack"}]}  # fmt: skip
    with distributed.Client(cluster) as client:
        client.wait_for_workers(2)
        victim = next(iter(client.scheduler_info()["workers"]))
        victim_pid = client.run(os.getpid, workers=[victim])[victim]
        seen = []

        def kill_after_first_run():
            while not seen or seen[-1][0] == 0:
                time.sleep(0.005)
            os.kill(victim_pid, signal.SIGKILL)

        killer = threading.Thread(target=kill_after_first_run, daemon=True)
        killer.start()
        report = cpqueens.run_campaign(
            spec, tmp_path / "r.sqlite", client=client,
            progress=lambda done, total, failures: seen.append((done, total)),
        )  # fmt: skip
        killer.join(timeout=10)
    assert report.ok and report.ran == 12
    rows = cpqueens.load_results(tmp_path / "r.sqlite")
    assert len(rows) == 12 and all(r["verdict"] == "sat" for r in rows)
