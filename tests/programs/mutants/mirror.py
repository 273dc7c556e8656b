"""Bug: a symmetry-breaking shortcut applied to asymmetric instances. The first row
tries only the left half of the columns and every board found is printed with its
mirror image, even when squares are blocked or queens given."""

import base


class Solver(base.Solver):
    def first_row_columns(self):
        return range((self.n + 1) // 2)

    def solutions(self):
        found = super().solutions()
        mirrored = [
            tuple(self.n - 1 - c for c in board) for board in found if 2 * board[0] + 1 != self.n
        ]
        return found + mirrored


if __name__ == "__main__":
    base.main(Solver)
