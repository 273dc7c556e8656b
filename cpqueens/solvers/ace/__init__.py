"""The ``ace`` backend: ACE, the XCSP3 reference solver, run as a Java program.

Map: ``backend`` (the backend: the instance written as XCSP3, ACE run, its answer
read), ``runtime`` (where Java and the jar are found), ``startup`` (the class-data
archive that starts the JVM faster), ``process`` (the JVM's process read line by
line and killed with its tree), ``output`` (its ``s``, ``v`` and ``d`` lines read),
``model`` (a user's own PyCSP3 model compiled with the instance's data).
"""

from .backend import AceBackend

__all__ = ["AceBackend"]
