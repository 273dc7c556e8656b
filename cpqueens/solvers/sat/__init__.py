"""The ``sat`` backend: the instance's CNF solved by python-sat's SAT solvers.

Map: ``backend`` (the backend: the formula built, every model listed with blocking
clauses), ``solvers`` (python-sat's solvers, their names and options), ``_child``
(the process a solve runs in, so that a time limit holds and a crash of native code
never takes the caller down).
"""

from .backend import SatBackend

__all__ = ["SatBackend"]
