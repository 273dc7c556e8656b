"""The rules of n-queens, recognised in what an XCSP3 file's constraints say.

One variable a row holds the column of its queen, so the rows are all different by
construction; what the constraints must say is the rest, exactly:

- **the columns**: for every two rows i < j, ``q[i] != q[j]``;
- **the diagonals r + c**: ``q[i] + i != q[j] + j``;
- **the diagonals r - c**: ``q[i] - i != q[j] - j``;
- **blocked squares** (``q[r] != c``) and **given queens** (``q[r] == c``), any number.

Each constraint comes here already read as linear forms
(:mod:`~cpqueens.instances.formats.xcsp.expressions`), and is placed as pieces of those
rules: a condition between two rows is one pair of one family (``q[i] - q[j] != d``
is the columns' for d = 0 and a diagonal's for d = +-(j - i)); an allDifferent over
``q[r] + e[r]`` is, for every two of its terms, such a condition, and whole families
at once (``allDifferent(q[i] + i)`` is every pair of the diagonals r + c). A
condition that is none of them raises :class:`NotARule`. Once every constraint is
placed, each family must hold for every two rows: one that does not (a diagonal
family left out, a pair forgotten) is no n-queens problem, and is refused.

>>> board = Rules(4)
>>> board.clique([(r, 0) for r in range(4)])
>>> board.clique([(r, r) for r in range(4)])
>>> board.missing()
'no constraint keeps two queens off one diagonal r - c (q[0] - 0 != q[1] - 1 is missing)'
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from .expressions import Atom, NotARule

#: The families of pairs: the same column, a diagonal r + c, a diagonal r - c.
FAMILIES = ("column", "diagonal r + c", "diagonal r - c")
#: The most pairs that constraints not covering a whole family may list (each is
#: remembered one bit a pair): past it the file is refused, not read for minutes.
MAX_PAIRS = 20_000_000
#: The largest board whose pairs are remembered one by one (a bit a pair and family).
MAX_PAIRWISE_N = 20_000


class Rules:
    """What the constraints read so far say about a board of ``n`` rows."""

    def __init__(self, n: int, array: str = "q"):
        self.n = n
        self.array = array
        self.blocked: set[tuple[int, int]] = set()
        self.given: dict[int, int] = {}
        self._full = [False, False, False]
        self._bits: list[bytearray | None] = [None, None, None]
        self._count = [0, 0, 0]
        self._budget = MAX_PAIRS
        self._total = n * (n - 1) // 2

    # --- one condition at a time --------------------------------------------------

    def atom(self, atom: Atom) -> None:
        """Place one condition read from an intension."""
        terms = atom.form.terms
        if len(terms) == 1:
            self._unary(atom)
        elif len(terms) == 2 and atom.kind == "ne":
            (i, a), (j, b) = terms
            if a != -b:
                raise NotARule(f"{self._show(atom)} weighs the two rows differently")
            if atom.form.const % a:
                raise NotARule(f"{self._show(atom)} can never be false")
            self.pair(i, j, -atom.form.const // a)
        elif not terms:
            raise NotARule(f"{self._show(atom)} compares numbers only")
        else:
            many = "two rows with eq" if len(terms) == 2 else f"{len(terms)} rows at once"
            raise NotARule(f"{self._show(atom)} ties {many}")

    def _unary(self, atom: Atom) -> None:
        ((row, a),) = atom.form.terms
        if atom.kind in ("ne", "eq"):
            if atom.form.const % a:
                never = "false" if atom.kind == "ne" else "true"
                raise NotARule(f"{self._show(atom)} can never be {never}")
            column = self._column(-atom.form.const // a, atom)
            if atom.kind == "ne":
                self.blocked.add((row, column))
            else:
                self.give(row, column)
            return
        columns = set()
        for number in atom.values:
            shifted = number - atom.form.const
            if shifted % a:
                raise NotARule(f"{self._show(atom)}: {number} is no column of row {row}")
            columns.add(self._column(shifted // a, atom))
        if atom.kind == "notin":
            self.blocked.update((row, column) for column in columns)
        elif len(columns) == 1:
            self.give(row, next(iter(columns)))
        else:
            self.allowed(row, columns)

    def _column(self, column: int, atom: Atom | None = None) -> int:
        if not 0 <= column < self.n:
            what = f"{self._show(atom)}: " if atom is not None else ""
            raise NotARule(f"{what}column {column} is off the board (columns run 0..{self.n - 1})")
        return column

    def give(self, row: int, column: int) -> None:
        """A queen given on ``(row, column)``."""
        self._column(column)
        if self.given.get(row, column) != column:
            raise NotARule(
                f"a second queen given on row {row} (columns {self.given[row]} and {column})"
            )
        self.given[row] = column

    def allowed(self, row: int, columns: Iterable[int]) -> None:
        """Only ``columns`` allowed on ``row``: its other squares blocked."""
        kept = set(columns)
        self.blocked.update((row, c) for c in range(self.n) if c not in kept)

    def pair(self, i: int, j: int, d: int) -> None:
        """The condition ``q[i] - q[j] != d``."""
        if i == j:
            raise NotARule(f"{self.array}[{i}] is compared with itself")
        if i > j:
            i, j, d = j, i, -d
        if d == 0:
            family = 0
        elif d == j - i:
            family = 1
        elif d == i - j:
            family = 2
        else:
            raise NotARule(
                f"{self.array}[{i}] - {self.array}[{j}] != {d} forbids the queens of rows "
                f"{i} and {j} to stand {abs(d)} columns apart, which no rule of n-queens "
                f"does (the columns forbid 0, the diagonals {j - i})"
            )
        if not self._full[family]:
            self._set(family, [(i, j)], 1)

    def clique(self, terms: list[tuple[int, int]]) -> None:
        """allDifferent of ``q[row] + offset`` for each ``(row, offset)`` of ``terms``."""
        rows = [row for row, _ in terms]
        if len(set(rows)) != len(rows):
            twice = next(row for row in rows if rows.count(row) > 1)
            raise NotARule(f"{self.array}[{twice}] stands twice in one allDifferent")
        groups: list[dict[int, list[int]]] = [defaultdict(list) for _ in FAMILIES]
        for row, offset in terms:
            groups[0][offset].append(row)
            groups[1][offset - row].append(row)
            groups[2][offset + row].append(row)
        placed = sum(len(g) * (len(g) - 1) // 2 for family in groups for g in family.values())
        if placed != len(terms) * (len(terms) - 1) // 2:
            raise NotARule(self._stray(terms))
        for family, keyed in enumerate(groups):
            for members in keyed.values():
                if len(members) == self.n and self.n > 1:
                    self._full[family] = True
                elif len(members) > 1 and not self._full[family]:
                    members.sort()
                    self._set(family, _pairs(members), len(members) * (len(members) - 1) // 2)

    def _stray(self, terms: list[tuple[int, int]]) -> str:
        """Why an allDifferent is no set of queens' rules: two terms no rule relates."""
        for k, (i, e) in enumerate(terms[:2000]):
            for j, f in terms[k + 1 : k + 2001]:
                if f - e not in (0, j - i, i - j):
                    first = f"{self.array}[{i}]" + (f" + {e}" if e else "")
                    second = f"{self.array}[{j}]" + (f" + {f}" if f else "")
                    return (
                        f"it makes {first} and {second} differ, which no rule of n-queens "
                        f"asks (rows {i} and {j} share a diagonal when their columns differ "
                        f"by {abs(j - i)})"
                    )
        return "two of its terms are related by no rule of n-queens"

    def _set(self, family: int, pairs: Iterable[tuple[int, int]], count: int) -> None:
        self._budget -= count
        if self._budget < 0:
            raise NotARule(
                f"the constraints list more than {MAX_PAIRS:,} pairs of rows one by one; "
                "state each family with one allDifferent"
            )
        bits = self._bits[family]
        if bits is None:
            if self.n > MAX_PAIRWISE_N:
                raise NotARule(
                    f"a board of {self.n} rows stated pair by pair is not read (at most "
                    f"{MAX_PAIRWISE_N}); state each family with one allDifferent"
                )
            bits = self._bits[family] = bytearray((self._total + 7) // 8)
        n = self.n
        added = 0
        for i, j in pairs:
            index = i * n - i * (i + 1) // 2 + j - i - 1
            mask = 1 << (index & 7)
            if not bits[index >> 3] & mask:
                bits[index >> 3] |= mask
                added += 1
        self._count[family] += added

    # --- the whole ----------------------------------------------------------------

    def missing(self) -> str | None:
        """What the constraints fail to say for a board of n-queens, or None."""
        for family, name in enumerate(FAMILIES):
            if self.n < 2 or self._full[family] or self._count[family] == self._total:
                continue
            i, j = self._first_missing(family)
            q = self.array
            shown = (
                f"{q}[{i}] != {q}[{j}]",
                f"{q}[{i}] + {i} != {q}[{j}] + {j}",
                f"{q}[{i}] - {i} != {q}[{j}] - {j}",
            )[family]
            if self._count[family] == 0:
                return f"no constraint keeps two queens off one {name} ({shown} is missing)"
            return f"no constraint keeps the queens of rows {i} and {j} off one {name} ({shown})"
        return None

    def _first_missing(self, family: int) -> tuple[int, int]:
        bits = self._bits[family]
        index = 0
        if bits is not None:
            byte = bits.translate(_NOT_FULL).find(1)
            index = byte * 8 + next(b for b in range(8) if not bits[byte] >> b & 1)
        i = 0
        while index >= self.n - 1 - i:
            index -= self.n - 1 - i
            i += 1
        return i, i + 1 + index

    def _show(self, atom: Atom) -> str:
        text = atom.form.show(self.array)
        if atom.kind in ("ne", "eq"):
            return f"{text} {'!=' if atom.kind == 'ne' else '=='} 0"
        return f"{text} {atom.kind} {{{', '.join(map(str, atom.values))}}}"


def _pairs(members: list[int]) -> Iterable[tuple[int, int]]:
    for k, i in enumerate(members):
        for j in members[k + 1 :]:
            yield i, j


_NOT_FULL = bytes(0 if b == 255 else 1 for b in range(256))
