"""The shared solver of the mutants: a plain backtracking solver of n-queens with
blocked squares and given queens, and the main that runs it on a JSON instance file.

Each mutant subclasses :class:`Solver` (or wraps :func:`main`) and breaks one thing.
Boards are printed one a line as JSON lists, the column of each row from 0
(``[1, 3, 0, 2]``), a form cpqueens' parser reads as it is by default (a bare ``0``
would also read as a count when n = 1); an instance with no solution prints nothing.

usage: python MUTANT.py INSTANCE.json
"""

from __future__ import annotations

import json
import sys


class Solver:
    """Every solution of an instance, by backtracking row by row."""

    def __init__(self, n: int, queens: dict[int, int], blocked: set[tuple[int, int]]):
        self.n = n
        self.queens = queens
        self.blocked = blocked

    def attacks(self, r1: int, c1: int, r2: int, c2: int) -> bool:
        return c1 == c2 or r1 + c1 == r2 + c2 or r1 - c1 == r2 - c2

    def free(self, row: int, column: int) -> bool:
        return (row, column) not in self.blocked

    def givens_agree(self) -> bool:
        given = sorted(self.queens.items())
        return not any(
            self.attacks(r1, c1, r2, c2)
            for i, (r1, c1) in enumerate(given)
            for r2, c2 in given[i + 1 :]
        )

    def first_row_columns(self) -> range:
        return range(self.n)

    def solutions(self) -> list[tuple[int, ...]]:
        if not self.givens_agree():
            return []
        found: list[tuple[int, ...]] = []
        board: list[int] = []
        given = list(self.queens.items())

        def fits(row: int, column: int) -> bool:
            if any(self.attacks(row, column, r, c) for r, c in enumerate(board)):
                return False
            return not any(self.attacks(row, column, r, c) for r, c in given if r > row)

        def place(row: int) -> None:
            if row == self.n:
                found.append(tuple(board))
                return
            if row in self.queens:
                columns = [self.queens[row]]  # given: checked against the others up front
            else:
                columns = self.first_row_columns() if row == 0 else range(self.n)
                columns = [c for c in columns if self.free(row, c) and fits(row, c)]
            for column in columns:
                board.append(column)
                place(row + 1)
                board.pop()

        place(0)
        return found

    def output(self) -> str:
        return "\n".join(json.dumps(list(board)) for board in self.solutions())


def read(path: str) -> tuple[int, dict[int, int], set[tuple[int, int]]]:
    """The size, the given queens (row -> column) and the blocked squares of a JSON
    instance file as cpqueens writes it (keys n, queens, blocks; squares from 0)."""
    with open(path) as handle:
        data = json.load(handle)
    queens = {row: column for row, column in data.get("queens", [])}
    blocked = {(row, column) for row, column in data.get("blocks", [])}
    return data["n"], queens, blocked


def main(solver: type[Solver] = Solver) -> None:
    n, queens, blocked = read(sys.argv[1])
    text = solver(n, queens, blocked).output()
    if text:
        print(text)


if __name__ == "__main__":
    main()
