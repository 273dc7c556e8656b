"""``cpqueens bench``: the backends timed side by side.

Map: ``runs`` (a bench run: every backend and size, repeats, medians, refusals said at
the call), ``tables`` (its text for the terminal and the report), ``plot`` (its
picture: time against n, a line per backend).
"""
