"""The compiled bitmask backend: constellation counts, classes, workers, progress, laziness."""

import subprocess
import sys

import pytest
from known_counts import A000170, A002562
from reference import brute_force

import cpqueens
from cpqueens.board import canonical
from cpqueens.solvers.bitmask.constellations import start_constellations

pytest.importorskip("numba")


@pytest.mark.slow
@pytest.mark.parametrize("n", range(1, 15))
def test_counts_agree_with_an_independent_backend(n):
    # "stack" is the pure-Python search; at n >= 12 the published counts take over,
    # as checks, so that the suite stays fast.
    expected = cpqueens.count(n, backend="stack") if n <= 11 else A000170[n]
    assert cpqueens.count(n, backend="bitmask") == expected


@pytest.mark.parametrize("n", range(1, 11))
def test_classes_agree_with_canonical_forms_of_another_backend(n):
    classes = {canonical(s) for s in cpqueens.solutions(n, backend="stack")}
    assert cpqueens.count(n, backend="bitmask", unique=True) == len(classes) == A002562[n]


@pytest.mark.parametrize("n", [11, 12, 13, 14])
def test_classes_match_oeis(n):
    assert cpqueens.count(n, backend="bitmask", unique=True) == A002562[n]


def test_constellation_classes_cover_every_constellation():
    # Each class of constellations is as large as 8 / (its symmetry group), and every
    # solution's border queens form exactly one constellation.
    for n in range(4, 9):
        table = start_constellations(n)
        borders = {(s[0], s[-1], s.index(0), s.index(n - 1)) for s in brute_force(n)}
        assert set(table.group_orders.tolist()) <= {1, 2, 4, 8}
        represented = {tuple(sig) for sig in table.signatures.tolist()}
        assert {min_image(n, b) for b in borders} <= represented


def min_image(n, signature):
    m = n - 1
    images = [signature]
    for _ in range(3):
        a, b, c, d = images[-1]
        images.append((m - c, m - d, b, a))
    images += [(m - a, m - b, d, c) for a, b, c, d in images]
    return min(images)


@pytest.mark.parametrize("n", [9, 12])
def test_workers_do_not_change_the_count(n):
    one = cpqueens.count(n, backend="bitmask", workers=1)
    two = cpqueens.count(n, backend="bitmask", workers=2)
    assert one == two == A000170[n]
    fixed = {2: 3}
    assert cpqueens.count(n, backend="bitmask", workers=1, fixed=fixed) == cpqueens.count(
        n, backend="bitmask", workers=2, fixed=fixed
    )


@pytest.mark.parametrize("workers", [1, 2])
def test_progress_callback_counts_up_to_the_total(workers):
    calls = []
    total = cpqueens.count(
        11, backend="bitmask", workers=workers, progress=lambda done, of: calls.append((done, of))
    )
    assert total == A000170[11]
    totals = {of for _, of in calls}
    assert totals == {len(start_constellations(11))}
    dones = [done for done, _ in calls]
    assert dones[0] == 0 and dones[-1] == totals.pop()
    assert dones == sorted(dones)


def test_progress_must_be_a_flag_or_a_callable():
    with pytest.raises(TypeError, match="progress"):
        cpqueens.count(8, backend="bitmask", progress="yes")


def test_progress_bar_off_a_terminal_is_silent(capsys):
    assert cpqueens.count(9, backend="bitmask", workers=1, progress=True) == 352
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    "fixed", [{0: 0}, {5: 2}, {0: 2, 9: 4}, {1: 1, 2: 2}, {0: 3, 1: 5, 2: 7}, {9: 9}]
)
def test_fixed_counts_match_brute_force_filter(fixed):
    expected = sum(1 for s in cpqueens.solutions(10, backend="stack", fixed=fixed))
    assert cpqueens.count(10, backend="bitmask", fixed=fixed) == expected
    assert cpqueens.count(10, backend="bitmask", fixed=fixed, workers=1) == expected


def test_unique_with_fixed_queens_falls_back_to_canonical_forms():
    fixed = {0: 1}
    expected = len({canonical(s) for s in brute_force(8, fixed)})
    assert cpqueens.count(8, backend="bitmask", fixed=fixed, unique=True) == expected


def test_enumeration_is_lexicographic_and_complete():
    found = list(cpqueens.solutions(10, backend="bitmask"))
    assert found == sorted(found) == sorted(cpqueens.solutions(10, backend="stack"))
    assert (
        cpqueens.solve(10, backend="bitmask").stats["nodes"]
        == cpqueens.solve(10, backend="stack").stats["nodes"]
    )


def test_unique_solutions_are_canonical_representatives():
    found = list(cpqueens.solutions(9, backend="bitmask", unique=True))
    assert len(found) == len(set(found)) == A002562[9]
    assert all(canonical(s) == s for s in found)


def test_first_solution_comes_without_finishing_the_search():
    first = next(cpqueens.solutions(24, backend="bitmask"))
    assert cpqueens.is_valid(first)
    assert next(cpqueens.solutions(16, backend="bitmask")) == next(
        cpqueens.solutions(16, backend="stack")
    )


def test_boards_beyond_the_word_size_are_refused():
    with pytest.raises(ValueError, match=r"n=33 is beyond what backend .bitmask. handles"):
        cpqueens.count(33, backend="bitmask")


def test_importing_cpqueens_does_not_import_numba():
    code = "import sys, cpqueens; cpqueens.backends(); print('numba' in sys.modules)"
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert output.strip() == "False"
