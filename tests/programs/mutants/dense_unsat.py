"""Bug: an early "unsatisfiable" on dense boards. A heuristic meant to save time says
no solution (prints nothing) as soon as an eighth of the squares or more is blocked."""

import base


class Solver(base.Solver):
    def solutions(self):
        if 8 * len(self.blocked) >= self.n * self.n:
            return []
        return super().solutions()


if __name__ == "__main__":
    base.main(Solver)
