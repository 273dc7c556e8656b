"""Bug: blocked squares in the last column are ignored (an off-by-one in the loop
that marks blocked squares, which stops one column short)."""

import base


class Solver(base.Solver):
    def free(self, row, column):
        return column == self.n - 1 or super().free(row, column)


if __name__ == "__main__":
    base.main(Solver)
