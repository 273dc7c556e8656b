"""Cross-checking solvers against a reference solution set, and the report of what
disagrees: registry backends, Python callables and external programs alike.
"""
