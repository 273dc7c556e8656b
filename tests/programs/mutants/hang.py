"""Bug: a hang on one size. On a board of size 4 it waits for ever (a loop whose exit
condition is never met for that size)."""

import time

import base


class Solver(base.Solver):
    def solutions(self):
        while self.n == 4:
            time.sleep(1)
        return super().solutions()


if __name__ == "__main__":
    base.main(Solver)
