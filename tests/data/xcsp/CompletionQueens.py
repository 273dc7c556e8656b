from pycsp3 import *

n, queens, blocks = data

q = VarArray(size=n, dom=range(n))

satisfy(
    [q[i] == j for (i, j) in queens],
    [q[i] != j for (i, j) in blocks],
    AllDifferent(q),
    AllDifferent(q[i] + i for i in range(n)),
    AllDifferent(q[i] - i for i in range(n))
)
