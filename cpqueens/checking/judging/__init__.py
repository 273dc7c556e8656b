"""Judging: each backend, function or program asked on one case and judged as a row,
its boards sorted into faults, and the rows gathered into the report and said in words.

Map: ``run_judge`` (one backend, function or program on one case, asked and judged as one
row), ``output_judge`` (what a program printed, once parsed, judged as a row),
``decision`` (an instance's decision, cross-checked), ``faults`` (boards sorted into
faults: invalid, repeated, extra, missing), ``verdicts`` (the report: the rows gathered,
and whether they agree), ``row_text`` (the rows in words).
"""
