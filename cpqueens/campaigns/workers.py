"""Where a campaign's runs happen: on sandboxes driven by local threads, or on a Dask
cluster's workers, each run still in a limited process of its own
(:class:`~.isolation.Sandbox`). Both yield ``(key, task, outcome)`` as runs end, and
stop the runs in flight when the caller stops reading (Ctrl-C, an error).
"""

from __future__ import annotations

import itertools
import queue
import threading
from collections.abc import Iterable, Iterator
from typing import Any

from .isolation import Outcome, Sandbox

Task = tuple[dict[str, Any], dict[str, Any]]  # (store key, task for the child)


def locally(tasks: Iterable[Task], warm: list[dict[str, Any]], workers: int) -> Iterator:
    """Run the tasks on ``workers`` sandboxes; yield (key, task, outcome) as they end.

    ``tasks`` is read lazily, in this thread: one task per sandbox at first, then one
    more each time a run ends (so that claiming a run, see :mod:`.claims`, happens
    just before it starts).
    """
    source = iter(tasks)
    first = list(itertools.islice(source, workers))
    if not first:
        return
    jobs: queue.Queue = queue.Queue()
    for item in first:
        jobs.put(item)
    results: queue.Queue = queue.Queue()
    stop = threading.Event()
    boxes: list[Sandbox] = []
    lock = threading.Lock()

    def slot() -> None:
        try:
            box = Sandbox(warm)
        except BaseException as error:  # reported by the main thread
            results.put(error)
            return
        with lock:
            boxes.append(box)
        try:
            while not stop.is_set():
                try:
                    item = jobs.get(timeout=0.2)
                except queue.Empty:
                    continue
                if item is None:
                    return
                key, task = item
                outcome = box.run(task)
                if not stop.is_set():
                    results.put((key, task, outcome))
        except BaseException as error:
            if not stop.is_set():
                results.put(error)
        finally:
            box.close()
            results.put(None)

    threads = [threading.Thread(target=slot, daemon=True) for _ in first]
    for thread in threads:
        thread.start()
    running = len(threads)
    try:
        while running:
            try:
                item = results.get(timeout=0.2)
            except queue.Empty:
                continue
            if item is None:
                running -= 1
            elif isinstance(item, BaseException):
                raise item
            else:
                jobs.put(next(source, None))  # the next run, or the end for this slot
                yield item
    finally:
        stop.set()
        with lock:
            for box in boxes:
                box.kill_current()
        for thread in threads:
            thread.join(timeout=10)


# One sandbox per Dask worker process, kept between runs (keyed by what it warmed).
_WORKER_BOXES: dict[str, Sandbox] = {}
_WORKER_LOCK = threading.Lock()


def run_on_worker(task: dict[str, Any], warm: list[dict[str, Any]]) -> Outcome:
    """Run one task on a Dask worker, in a limited process of that worker's machine."""
    import json

    name = json.dumps(warm, sort_keys=True) + f"/{threading.get_ident()}"
    with _WORKER_LOCK:
        box = _WORKER_BOXES.get(name)
        if box is None or box.process.poll() is not None:
            box = _WORKER_BOXES[name] = Sandbox(warm)
    return box.run(task)


def on_dask(
    tasks: Iterable[Task], warm: list[dict[str, Any]], client: Any, scheduler: Any
) -> Iterator:
    """Run the tasks on a Dask cluster's workers (the ``client``, or one connected to
    ``scheduler``); yield (key, task, outcome) as they end.

    ``tasks`` is read lazily: a few per worker thread of the cluster are in flight at a
    time, and one more is sent each time a run ends.
    """
    from ..parallel.cluster import connect

    source = iter(tasks)
    first = next(source, None)
    if first is None:
        return
    client, owned = connect(client, scheduler)
    try:
        from distributed import as_completed

        threads = sum(client.nthreads().values())
        futures = {}

        def send(item: Task) -> Any:
            future = client.submit(run_on_worker, item[1], warm, pure=False)
            futures[future] = item
            return future

        sent = [send(item) for item in [first, *itertools.islice(source, max(4 * threads, 16))]]
        running = as_completed(sent, loop=client.loop)
        try:
            for future in running:
                key, task = futures.pop(future)
                outcome = future.result()
                item = next(source, None)
                if item is not None:
                    running.add(send(item))
                yield key, task, outcome
        finally:
            for future in futures:
                future.cancel()
    finally:
        if owned:
            client.close()
