from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import brute_force

import cpqueens
from cpqueens.board import (
    attacking_pairs,
    canonical,
    from_letters,
    is_valid,
    orbit_size,
    render,
    symmetries,
    to_letters,
)

SOLUTIONS_8 = sorted(brute_force(8))


def test_article_001_example_is_a_solution():
    assert from_letters("cgbhfdae") == (2, 6, 1, 7, 5, 3, 0, 4)
    assert is_valid(from_letters("cgbhfdae"))


@pytest.mark.parametrize(
    "placement",
    [(0, 0), (0, 1), (0, 2, 4, 1), (1, 3, 0), (1, 3, 0, 4), (0, 4, 7, 5, 2, 6, 1, 9), (True,)],
)
def test_invalid_placements_are_rejected(placement):
    assert not is_valid(placement)


def test_is_valid_checks_size():
    assert is_valid((1, 3, 0, 2))
    assert not is_valid((1, 3, 0, 2), n=5)
    assert not is_valid((1, 3, 0, 2.0))


def test_attacking_pairs_names_rows():
    assert attacking_pairs((0, 2, 1)) == [(1, 2)]
    assert attacking_pairs((0, 3, 1, 0)) == [(0, 3), (2, 3)]
    assert attacking_pairs((1, 3, 0, 2)) == []


@given(st.sampled_from(SOLUTIONS_8))
def test_symmetries_of_a_solution_are_solutions(solution):
    images = symmetries(solution)
    assert len(images) == 8
    assert all(is_valid(image) for image in images)
    assert all(canonical(image) == canonical(solution) for image in images)
    assert orbit_size(solution) in (1, 2, 4, 8)


@given(st.permutations(list(range(7))))
def test_symmetries_form_a_group(perm):
    images = set(symmetries(tuple(perm)))
    for image in images:
        assert set(symmetries(image)) == images


def test_fundamental_classes_of_8():
    classes = {canonical(s) for s in SOLUTIONS_8}
    assert len(classes) == 12
    assert sum(orbit_size(c) for c in classes) == 92


@given(st.sampled_from(SOLUTIONS_8))
def test_letters_round_trip(solution):
    assert from_letters(to_letters(solution)) == solution


@pytest.mark.parametrize("text", ["", "cgbhfdai", "ab1", "a" * 27])
def test_bad_letters_are_refused(text):
    with pytest.raises(cpqueens.InvalidInputError):
        from_letters(text)


def test_render_styles():
    solution = (1, 3, 0, 2)
    assert render(solution) == ". Q . .\n. . . Q\nQ . . .\n. . Q ."
    assert render(solution, "zero-plus").splitlines()[0] == "+ 0 + +"
    assert render(solution, "x-dash").splitlines()[2] == "x - - -"
    assert render(solution, "letters") == "bdac"
    with pytest.raises(cpqueens.InvalidInputError, match="grid"):
        render(solution, "fancy")


# Boards too large to look at are refused before anything is drawn. ---------------------


def test_render_refuses_a_board_too_large_to_draw_at_once():
    from cpqueens.board import MAX_RENDER_N

    huge = range(200_000)  # len() is all render may look at: the columns are not read
    message = (
        "a board of n=200000 is too large to draw (render draws boards up to n=1000); "
        "print the columns instead, e.g. `cpqueens solve 200000 --json`"
    )
    for style in ("grid", "zero-plus", "letters"):
        with pytest.raises(cpqueens.InvalidInputError) as caught:
            render(huge, style=style)
        assert str(caught.value) == message
    with pytest.raises(cpqueens.InvalidInputError, match=r"n=1000000000 is too large"):
        render((0, 2), n=10**9)
    largest = render(range(MAX_RENDER_N), n=MAX_RENDER_N)
    assert largest.count("Q") == MAX_RENDER_N and len(largest.splitlines()) == MAX_RENDER_N


class _Huge(Sequence):
    """A sequence of a billion rows whose columns cannot be read: only len() may be."""

    def __len__(self):
        return 10**9

    def __getitem__(self, row):
        raise AssertionError("the columns were read before the size was checked")


def test_the_size_check_reads_no_column():
    with pytest.raises(cpqueens.InvalidInputError, match="n=1000000000 is too large"):
        render(_Huge())


def test_a_board_longer_than_its_size_fails_at_once_without_quoting_every_column():
    with pytest.raises(cpqueens.InvalidInputError) as caught:
        render(range(500), n=4)
    assert str(caught.value) == "a board of size 4 has 4 rows, got 500 columns"
