"""Running independent pieces of work at once: a local process pool, a Dask cluster,
and the progress bars that follow them.
"""
