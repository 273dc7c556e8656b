"""Running independent pieces of work at once: a local process pool, a Dask cluster,
and the progress bars that follow them.

Map: ``pool`` (independent tasks run in this process or a process pool, with progress
and a deadline), ``cluster`` (independent tasks run on a Dask distributed cluster),
``progress`` (progress bars, shown only when stderr is a terminal).
"""
