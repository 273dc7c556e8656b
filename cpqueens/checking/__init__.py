"""Cross-checking solvers against a reference solution set, and the report of what
disagrees: registry backends, Python callables and external programs alike.

The door (:mod:`.compare`: :func:`~cpqueens.crosscheck`, ``check_output``) checks
every argument and turns each size or instance into a :mod:`.cases` ``Case``; the
reference (:mod:`.references`) is priced there too. Then each backend is run and
judged (:mod:`.backend_rows`, :mod:`.decision`); a program is run and measured by
:mod:`.running` through :mod:`.external`'s ``Command``, its output read by
:mod:`.parsing` (:mod:`.readers`, into :mod:`.parsed`) and judged by
:mod:`.output_judge`. Boards are sorted into faults by :mod:`.faults`, the rows
(:mod:`.rows`) gathered in the report (:mod:`.verdicts`) and said in words by
:mod:`.wording`. A campaign run's answer, read by :mod:`.answers`, is judged by
:mod:`.run_verdicts`.
"""
