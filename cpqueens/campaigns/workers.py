"""Where a campaign's runs happen: on sandboxes driven by local threads, or on a Dask
cluster's workers, each run still in a limited process of its own
(:class:`~.isolation.Sandbox`). Both yield ``(key, task, outcome)`` as runs end, and
stop the runs in flight when the caller stops reading (Ctrl-C, an error).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from typing import Any

from .isolation import Outcome, Sandbox

Task = tuple[dict[str, Any], dict[str, Any]]  # (store key, task for the child)


def locally(todo: list[Task], warm: list[dict[str, Any]], workers: int) -> Iterator:
    """Run the tasks on ``workers`` sandboxes; yield (key, task, outcome) as they end."""
    if not todo:
        return
    jobs: queue.Queue = queue.Queue()
    for item in todo:
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
                    key, task = jobs.get_nowait()
                except queue.Empty:
                    return
                outcome = box.run(task)
                if not stop.is_set():
                    results.put((key, task, outcome))
        except BaseException as error:
            if not stop.is_set():
                results.put(error)
        finally:
            box.close()
            results.put(None)

    threads = [threading.Thread(target=slot, daemon=True) for _ in range(min(workers, len(todo)))]
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


def on_dask(todo: list[Task], warm: list[dict[str, Any]], client: Any, scheduler: Any) -> Iterator:
    """Run the tasks on a Dask cluster's workers (the ``client``, or one connected to
    ``scheduler``); yield (key, task, outcome) as they end."""
    from ..parallel.cluster import connect

    if not todo:
        return
    client, owned = connect(client, scheduler)
    try:
        from distributed import as_completed

        futures = {}
        for key, task in todo:
            future = client.submit(run_on_worker, task, warm, pure=False)
            futures[future] = (key, task)
        try:
            for future in as_completed(list(futures), loop=client.loop):
                key, task = futures.pop(future)
                yield key, task, future.result()
        finally:
            for future in futures:
                future.cancel()
    finally:
        if owned:
            client.close()
