"""Bug: a counter that overflows. It prints only the number of solutions
(``Total: 2``), kept in a three-bit field, so it counts modulo 8: the ten solutions
of n = 5 print as 2."""

import base


class Solver(base.Solver):
    def output(self):
        count = 0
        for _ in self.solutions():
            count = (count + 1) & 0b111
        return f"Total: {count}"  # a bare 0 or 1 would read as a board when n = 1


if __name__ == "__main__":
    base.main(Solver)
