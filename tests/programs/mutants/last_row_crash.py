"""Bug: a crash on one shape of input. Each given queen is noted in the row below
it, and a given queen in the last row has no row below: the program dies with an
IndexError."""

import base


class Solver(base.Solver):
    def solutions(self):
        below = [[] for _ in range(self.n - 1)]
        for row, column in self.queens.items():
            below[row].append(column)
        return super().solutions()


if __name__ == "__main__":
    base.main(Solver)
