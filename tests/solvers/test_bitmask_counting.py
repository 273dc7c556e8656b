"""The constellation counter, shape by shape, against solutions listed by another search.

The counter jumps over pre-placed rows and changes with where they fall, so every
rotation of every constellation at n = 5..12 is counted and compared with the
solutions that the listing kernel (a plain row-by-row search, which knows nothing
of constellations) finds with the same border queens. The classes below name the
shapes that a specialised routine would handle, so that a failure says which one.
"""

from collections import Counter
from functools import cache

import numpy as np
import pytest
from known_counts import A000170

import cpqueens

pytest.importorskip("numba")

from cpqueens.solvers.bitmask import counting
from cpqueens.solvers.bitmask.constellations import start_constellations

SIZES = range(5, 13)


def half_turn(n, a, b, c, d):
    m = n - 1
    return m - b, m - a, m - d, m - c


CLASSES = {
    # the queen of the last row, by its distance to the nearest corner
    "last-row queen in a corner": lambda n, a, b, c, d: min(b, n - 1 - b) == 0,
    "last-row queen next to a corner": lambda n, a, b, c, d: min(b, n - 1 - b) == 1,
    "last-row queen two from a corner": lambda n, a, b, c, d: min(b, n - 1 - b) == 2,
    "last-row queen far from corners": lambda n, a, b, c, d: min(b, n - 1 - b) >= 3,
    # where the queens of columns 0 and n-1 fall
    "corner queen in the first row": lambda n, a, b, c, d: c == 0 or d == 0,
    "pre-placed rows adjacent (jump of 3)": lambda n, a, b, c, d: abs(c - d) == 1,
    "pre-placed row right after the first": lambda n, a, b, c, d: 1 in (c, d),
    "pre-placed row right before the last": lambda n, a, b, c, d: n - 2 in (c, d),
    "column 0 queen above column n-1 queen": lambda n, a, b, c, d: 0 < c < d < n - 1,
    "column n-1 queen above column 0 queen": lambda n, a, b, c, d: 0 < d < c < n - 1,
    "fixed by a half turn": lambda n, *sig: sig == half_turn(n, *sig),
}


def rotations(n, signature):
    a, b, c, d = (int(x) for x in signature)
    images = []
    for _ in range(4):
        images.append((a, b, c, d))
        a, b, c, d = n - 1 - c, n - 1 - d, b, a
    return images


@cache
def solutions_by_border(n):
    """How many solutions each border (a, b, c, d) has, from the listing kernel."""
    return Counter(
        (s[0], s[-1], s.index(0), s.index(n - 1)) for s in cpqueens.solutions(n, backend="bitmask")
    )


@cache
def every_rotation(n):
    return [image for sig in start_constellations(n).signatures for image in rotations(n, sig)]


@pytest.mark.parametrize("shape", list(CLASSES))
def test_counter_matches_listed_solutions_in_each_class(shape):
    belongs = CLASSES[shape]
    checked = 0
    for n in SIZES:
        expected = solutions_by_border(n)
        for image in every_rotation(n):
            if belongs(n, *image):
                solutions, nodes = counting.count_constellation(n, *image)
                assert solutions == expected[image], (n, image)
                assert nodes >= solutions
                checked += 1
    assert checked >= 10, f"too few constellations of the class {shape!r}"


@pytest.mark.parametrize("n", SIZES)
def test_weighted_constellations_add_up_to_every_solution(n):
    expected = solutions_by_border(n)
    assert sum(expected.values()) == A000170[n]
    table = start_constellations(n)
    per_constellation = [expected[tuple(int(x) for x in sig)] for sig in table.signatures]
    weights = 8 // table.group_orders
    assert int(np.dot(per_constellation, weights)) == A000170[n]
    solutions, _, nodes = counting.count_constellations(
        n, table.signatures, table.syms, table.group_orders
    ).tolist()
    assert solutions == A000170[n] and nodes > 0


@pytest.mark.parametrize("n", [8, 11, 12])
def test_searched_rotation_is_a_rotation_with_the_same_solutions(n):
    for sig in start_constellations(n).signatures:
        chosen = counting.searched_rotation(n, *(int(x) for x in sig))
        assert chosen in rotations(n, sig)
        assert min(chosen[1], n - 1 - chosen[1]) == min(
            min(q, n - 1 - q) for q in (int(x) for x in sig)
        ), "the queen nearest a corner goes to the last row"
        assert counting.count_constellation(n, *chosen)[0] == solutions_by_border(n)[chosen]


def test_searched_rotation_visits_fewer_nodes_than_the_smallest_image():
    n = 12
    smallest = [tuple(int(x) for x in sig) for sig in start_constellations(n).signatures]
    searched = [counting.searched_rotation(n, *sig) for sig in smallest]

    def nodes(images):
        return sum(counting.count_constellation(n, *image)[1] for image in images)

    assert nodes(searched) < 0.75 * nodes(smallest)


def test_an_empty_free_row_means_no_solutions():
    # n = 4: the constellation (0, 1, 0, 2) leaves row 1 without a square.
    assert counting.count_constellation(4, 0, 1, 0, 2) == (0, 0)
    # and the one of 4 queens' two solutions pre-places every row
    assert counting.count_constellation(4, 1, 2, 2, 1) == (1, 1)


@pytest.mark.parametrize("n", SIZES)
def test_symmetric_solutions_of_symmetric_constellations(n):
    # The pair search against the listed solutions of the same border, tested one by one.
    from cpqueens.solvers.bitmask.symmetric import count_symmetric

    listed = [s for s in cpqueens.solutions(n, backend="bitmask")]
    table = start_constellations(n)
    allowed, queens = np.zeros(n, np.int64), np.zeros(n, np.int64)
    checked = 0
    for sig, sym in zip(table.signatures, table.syms, strict=True):
        if not sym:
            continue
        border = tuple(int(x) for x in sig)
        mine = [s for s in listed if (s[0], s[-1], s.index(0), s.index(n - 1)) == border]
        half = sum(s == tuple(n - 1 - c for c in reversed(s)) for s in mine)
        quarter = sum(all(s[s[r]] == n - 1 - r for r in range(n)) for s in mine)
        counting.border_allowed(n, *border, allowed)
        assert count_symmetric(n, allowed, queens) == (half, quarter), border
        checked += 1
    assert checked > 0


def _free(mask, c, lf, rt):
    return mask & ~(c | lf | rt)


def test_last_rows_counted_without_visiting_them_match_a_plain_walk():
    # The closed form of the last two rows and the register walk of the one before,
    # against every placement tried one by one, on random masks and queens so far.
    rng = np.random.default_rng(7)
    for _ in range(400):
        n = int(rng.integers(4, 20))
        masks = [int(x) for x in rng.integers(0, 1 << n, size=3)]
        gaps = [int(x) for x in rng.integers(1, 4, size=2)]
        c, lf, rt = (int(x) for x in rng.integers(0, 1 << n, size=3) & rng.integers(0, 1 << n))
        first = _free(masks[0], c, lf, rt)
        expected_pairs = expected_triples = 0
        for p in range(n):
            if not first >> p & 1:
                continue
            c1, lf1, rt1 = c | 1 << p, (lf | 1 << p) << gaps[0], (rt | 1 << p) >> gaps[0]
            middle = _free(masks[1], c1, lf1, rt1)
            for q in range(n):
                if not middle >> q & 1:
                    continue
                bit = 1 << q
                last = _free(masks[2], c1 | bit, (lf1 | bit) << gaps[1], (rt1 | bit) >> gaps[1])
                expected_triples += bin(last).count("1")
            # the pairs of the first two rows alone, the second being the last
            second = _free(masks[1], c | 1 << p, (lf | 1 << p) << gaps[0], (rt | 1 << p) >> gaps[0])
            expected_pairs += bin(second).count("1")
        assert counting._pairs(c, lf, rt, first, gaps[0], masks[1]) == expected_pairs
        found, _ = counting._last_three(c, lf, rt, first, gaps[0], masks[1], gaps[1], masks[2])
        assert found == expected_triples
