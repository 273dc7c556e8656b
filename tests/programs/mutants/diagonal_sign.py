"""Bug: a diagonal sign error. The second diagonal test is written r + c as the first,
so the r - c diagonals are never checked."""

import base


class Solver(base.Solver):
    def attacks(self, r1, c1, r2, c2):
        return c1 == c2 or r1 + c1 == r2 + c2 or r1 + c1 == r2 + c2


if __name__ == "__main__":
    base.main(Solver)
