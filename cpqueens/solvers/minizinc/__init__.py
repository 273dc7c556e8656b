"""The ``minizinc`` backend: the shipped MiniZinc model, or a user's own, solved by
the MiniZinc toolchain's solvers.

Map: ``backend`` (the backend: the model and the instance's data handed to
``minizinc``, its solutions read), ``models`` (a user's own model checked and run),
``solvers`` (MiniZinc's solvers found here, and their versions).
"""

from .backend import MiniZincBackend

__all__ = ["MiniZincBackend"]
