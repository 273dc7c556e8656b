"""Boards and results draw themselves: SVG that parses, one queen a row, clashes in red."""

import xml.etree.ElementTree as ET

import pytest

import cpqueens
from cpqueens.display.svg import CLASH, QUEEN, to_svg

SVG = "{http://www.w3.org/2000/svg}"


def queens(svg: str) -> list[tuple[float, float, str]]:
    root = ET.fromstring(svg)
    return [
        (float(c.get("cx")), float(c.get("cy")), c.get("fill")) for c in root.iter(f"{SVG}circle")
    ]


@pytest.mark.parametrize("n", [1, 4, 8, 12])
def test_each_queen_is_drawn_on_its_square(n):
    solution = cpqueens.solve(n, limit=1).solution
    drawn = queens(to_svg(solution, cell=10))
    assert [(int(x // 10), int(y // 10)) for x, y, _ in drawn] == [
        (column, row) for row, column in enumerate(solution)
    ]
    assert {fill for *_, fill in drawn} == {QUEEN}
    root = ET.fromstring(to_svg(solution, cell=10))
    assert root.get("width") == root.get("height") == str(10 * n)


def test_attacking_queens_are_red_and_partial_boards_keep_their_size():
    drawn = queens(to_svg((0, 1, 3), n=5, cell=10))
    assert [fill for *_, fill in drawn] == [CLASH, CLASH, QUEEN]
    assert ET.fromstring(to_svg((0, 1, 3), n=5, cell=10)).get("width") == "50"


def test_board_repr_and_text():
    board = cpqueens.Board((1, 3, 0, 2))
    assert str(board) == cpqueens.render((1, 3, 0, 2))
    assert ET.fromstring(board._repr_svg_()).tag == f"{SVG}svg"
    assert board.valid and not cpqueens.Board((0, 1), n=4).valid
    assert cpqueens.Board([2, 0, 3, 1]).queens == (2, 0, 3, 1)


def test_result_draws_its_first_solution():
    result = cpqueens.solve(6, backend="stack")
    assert queens(result._repr_svg_())[0][:2] == (12 * 3, 12)  # (1, ...) at 24 px a square
    page = result._repr_html_()
    assert page.startswith("<div><svg") and "4 solutions" in page and "(1, 3, 5, 0, 2, 4)" in page
    empty = cpqueens.solve(3)
    assert empty._repr_svg_() is None and "no solution" in empty._repr_html_()


# Boards too large to look at. -----------------------------------------------------------


def test_to_svg_and_board_refuse_a_huge_board_at_once():
    from cpqueens.display.svg import MAX_SVG_N

    for draw, name in ((to_svg, "to_svg"), (cpqueens.Board, "Board")):
        with pytest.raises(cpqueens.InvalidInputError) as caught:
            draw(range(200_000))
        assert str(caught.value) == (
            f"a board of n=200000 is too large to draw ({name} draws boards up to "
            f"n={MAX_SVG_N}); print the columns instead, e.g. `cpqueens solve 200000 --json`"
        )
        with pytest.raises(cpqueens.InvalidInputError, match=r"n=301 is too large"):
            draw((0, 2), n=MAX_SVG_N + 1)
    largest = to_svg(range(MAX_SVG_N), cell=2)
    assert len(queens(largest)) == MAX_SVG_N


def _huge_result(n: int) -> cpqueens.Result:
    # A Result as a backend would hand back for a large n, without solving it here.
    solution = tuple(range(1, n, 2)) + tuple(range(0, n, 2))  # valid for n % 6 not 2 or 3
    return cpqueens.Result(
        n=n,
        backend="cpsat",
        solutions=(solution,),
        count=1,
        complete=False,
        stats={},
        elapsed=0.1,
        fixed={},
    )


def test_a_result_too_large_to_draw_shows_its_caption_only():
    result = _huge_result(200_000)
    assert result._repr_svg_() is None
    page = result._repr_html_()
    assert page.startswith("<div><div><code>n=200000")
    assert "too large to draw (n=200000)" in page and "<svg" not in page
    assert len(page) < 1000
    small = _huge_result(10)
    assert cpqueens.is_valid(small.solution)
    assert small._repr_svg_().startswith("<svg") and "first solution" in small._repr_html_()


def test_a_partial_board_is_drawn_whole_and_a_result_repr_is_short():
    board = cpqueens.Board((0, 1, 3), n=5)
    assert str(board).splitlines() == [
        "Q . . . .", ". Q . . .", ". . . Q .", ". . . . .", ". . . . .",
    ]  # fmt: skip
    assert 'width="120" height="120"' in board.to_svg() and board.to_svg().count("<circle") == 3
    text = repr(cpqueens.solve(10))
    assert len(text) < 300 and "722 more" in text and "count=724" in text
