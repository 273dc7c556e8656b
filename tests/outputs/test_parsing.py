"""parse_boards: every style render writes reads back, the articles' print-outs, numbers,
JSON, counts; and no text whatever makes it raise anything but a cpqueens error."""

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cpqueens
from cpqueens import parse_boards

RENDER_STYLES = ["grid", "zero-plus", "x-dash", "letters"]
SIX = list(cpqueens.solutions(6))


@pytest.mark.parametrize("style", RENDER_STYLES)
@pytest.mark.parametrize("n", range(1, 9))
def test_every_rendered_board_reads_back(style, n):
    for solution in cpqueens.solutions(n):
        text = cpqueens.render(solution, style)
        assert parse_boards(text, n).boards == [solution]
        named = parse_boards(text, n, style=style)
        assert named.boards == [solution]
        assert named.style == ("letters" if style == "letters" else "grid")


@pytest.mark.parametrize("style", RENDER_STYLES)
def test_a_whole_solution_set_reads_back_in_order(style):
    separator = "\n" if style == "letters" else "\n\n"
    text = separator.join(cpqueens.render(s, style) for s in cpqueens.solutions(8))
    assert parse_boards(text, 8).boards == list(cpqueens.solutions(8))


def test_grids_back_to_back_and_unspaced_and_other_symbols():
    back_to_back = "\n".join(cpqueens.render(s) for s in SIX)
    assert parse_boards(back_to_back, 6).boards == SIX
    unspaced = "\n\n".join(cpqueens.render(s).replace(" ", "") for s in SIX)
    assert parse_boards(unspaced, 6).boards == SIX
    for queen, empty in [("1", "0"), ("#", "_"), ("♛", "□"), ("*", "o")]:
        text = "\n\n".join(cpqueens.render(s).replace("Q", queen).replace(".", empty) for s in SIX)
        assert parse_boards(text, 6).boards == SIX, (queen, empty)


def test_headers_and_prose_are_skipped():
    text = "\n".join(
        [
            "Eight queens, by backtracking.",
            *(f"Solution {k}:\n{cpqueens.render(s)}" for k, s in enumerate(SIX, 1)),
            "Done in 3 ms.",
        ]
    )
    parsed = parse_boards(text, 6)
    assert parsed.boards == SIX and parsed.count is None
    assert parsed.skipped[0] == "Eight queens, by backtracking."
    assert "Solution 2:" in parsed.skipped and parsed.skipped[-1] == "Done in 3 ms."


def test_article_000_print_out():
    # Column by column, "0 " and "+ " cells with a trailing space, numbered "第k种走法".
    blocks = []
    for k, s in enumerate(SIX, 1):
        rows = ["".join("0 " if s[j] == i else "+ " for j in range(6)) for i in range(6)]
        blocks.append(f"第{k}种走法 \n" + "\n".join(rows))
    text = "\n".join(blocks) + "\n\n6皇后问题有4种摆放方法。\n"
    parsed = parse_boards(text, 6)
    # Each board comes back transposed: still a solution, and the set is the same.
    assert set(parsed.boards) == set(SIX) and len(parsed.boards) == 4
    # The closing line states the count: a claim, read as one.
    assert parsed.count == 4 and "6皇后问题有4种摆放方法。" not in parsed.skipped
    assert parse_boards("8皇后问题有92种摆放方法。", 8).boards == []
    # As printed in the article, "/n" stands where a line break was meant.
    literal = "".join(b.replace("\n", "/n") + "/n" for b in blocks) + "/n6皇后问题有4种摆放方法。"
    assert "\n" not in literal
    assert set(parse_boards(literal, 6).boards) == set(SIX)


def test_article_003_print_out():
    # The run shown in the Python random article, as printed there, with the lines around it.
    printed = """$ python eight_queens.py
- - - x - - - -
- - - - - - - x
- - - - x - - -
- - x - - - - -
x - - - - - - -
- - - - - - x -
- x - - - - - -
- - - - - x - -
最后编辑于
"""
    parsed = parse_boards(printed, 8)
    assert parsed.boards == [(3, 7, 4, 2, 0, 6, 1, 5)]
    assert cpqueens.is_valid(parsed.boards[0])
    assert parsed.skipped == ("$ python eight_queens.py", "最后编辑于")


def test_article_001_letters_and_their_order():
    assert parse_boards("cgbhfdae", 8).boards == [(2, 6, 1, 7, 5, 3, 0, 4)]
    # Printed from the last row up: the mirror image, also a solution.
    reversed_words = "\n".join(cpqueens.to_letters(s)[::-1] for s in cpqueens.solutions(8))
    assert set(parse_boards(reversed_words, 8).boards) == set(cpqueens.solutions(8))
    assert parse_boards("1: BDAC\n2: CADB", 4).boards == [(1, 3, 0, 2), (2, 0, 3, 1)]


@pytest.mark.parametrize(
    ("text", "base"),
    [
        ("\n".join(" ".join(str(c + 1) for c in s) for s in SIX), 1),
        ("\n".join(",".join(str(c) for c in s) for s in SIX), 0),
        ("\n".join(f"Solution {k}: {[c + 1 for c in s]}" for k, s in enumerate(SIX, 1)), 1),
        ("\n".join(f"{k}) " + "\t".join(map(str, s)) for k, s in enumerate(SIX)), 0),
        ("\n".join(" ".join(f"({r + 1},{c + 1})" for r, c in enumerate(s)) for s in SIX), 1),
        ("\n".join(" ".join(f"{r} {c}" for r, c in enumerate(s)) for s in SIX), 0),
        (
            "solution,row0,row1,row2,row3,row4,row5\n"
            + "\n".join(f"{k}," + ",".join(map(str, s)) for k, s in enumerate(SIX, 1)),
            0,
        ),
    ],
)
def test_numbers_zero_or_one_based(text, base):
    parsed = parse_boards(text, 6)
    assert parsed.boards == SIX and parsed.base == base and parsed.style == "numbers"
    assert parse_boards(text, 6, style="numbers", base=base).boards == SIX


def test_the_base_can_be_forced_and_is_guessed_board_by_board():
    assert parse_boards("2 4 1 3", 4, base=0).boards == [(2, 4, 1, 3)]
    assert parse_boards("1 3 0 2", 4, base=1).boards == [(0, 2, -1, 1)]
    # One board holds 0, the other holds n and no 0: each is read in its own base.
    mixed = parse_boards("1 3 0 2\n3 1 4 2", 4)
    assert mixed.boards == [(1, 3, 0, 2), (2, 0, 3, 1)] and mixed.base is None


@pytest.mark.parametrize(
    "text",
    [
        json.dumps([list(s) for s in SIX]),
        json.dumps({"n": 6, "count": 4, "solutions": [list(s) for s in SIX]}, indent=2),
        "\n".join(json.dumps({"solution": list(s)}) for s in SIX),
        "\n".join(json.dumps(list(s)) for s in SIX),
        str(SIX),
        json.dumps([["." * c + "Q" + "." * (5 - c) for c in s] for s in SIX]),
        json.dumps([cpqueens.to_letters(s) for s in SIX]),
        json.dumps([list(enumerate(s)) for s in SIX]),
    ],
)
def test_json_lines_python_literals_and_string_grids(text):
    parsed = parse_boards(text, 6)
    assert parsed.boards == SIX and parsed.style == "json"
    assert parse_boards(text, 6, style="json").boards == SIX


def test_cpqueens_own_formats_read_back():
    from cpqueens.reporting.tables import format_solutions

    result = cpqueens.solve(7)
    for fmt in ["grid", "zero-plus", "x-dash", "letters", "json", "csv"]:
        assert parse_boards(format_solutions(result, fmt), 7).boards == list(result.solutions)


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("92", 92),
        ("92\nPress any key to continue...", 92),
        ("counting...\n40\n92\n", 92),
        ('{"n": 8, "count": 92}', 92),
        ("8皇后问题有92种摆放方法。", 92),
        ("Total: 92", 92),
        ("n = 8: 92 solutions in 0.41 s", 92),
        ("solutions found = 92", 92),
        ("Elapsed: 12 s", None),
        ("Checking n = 8 ...", None),
        ("", None),
    ],
)
def test_a_count_is_a_bare_integer_or_a_line_that_states_one(text, count):
    parsed = parse_boards(text, 8)
    assert parsed.boards == [] and parsed.count == count
    assert parsed.style == ("count" if count is not None else None)


def test_a_count_beside_boards_is_kept():
    text = "\n\n".join(cpqueens.render(s) for s in SIX) + "\n\n4"
    parsed = parse_boards(text, 6)
    assert parsed.boards == SIX and parsed.count == 4
    assert parse_boards(text, 6, style="count").boards == []


def test_faulty_boards_are_kept_to_be_reported():
    two_queens = "Q Q . .\n. . . Q\nQ . . .\n. . Q ."
    assert parse_boards(two_queens, 4).boards == [(None, 3, 0, 2)]
    short = "\n\n".join([cpqueens.render((1, 3, 0, 2)), ". Q . .\n. . . Q\nQ . . ."])
    assert parse_boards(short, 4).boards == [(1, 3, 0, 2), (1, 3, 0)]
    assert parse_boards("0 0 0 0", 4).boards == [(0, 0, 0, 0)]
    assert parse_boards("1 3 0", 4, style="numbers").boards == [(1, 3, 0)]
    assert parse_boards("aaaa", 4).boards == [(0, 0, 0, 0)]
    assert parse_boards("[1, 3, 0.5, 2]", 4).boards == [(1, 3, None, 2)]


def test_lines_of_dashes_between_x_dash_boards_are_separators():
    text = "\n".join(cpqueens.render(s, "x-dash") + "\n" + "- " * 6 for s in SIX)
    assert parse_boards(text, 6).boards == SIX
    assert parse_boards(text, 6, style="x-dash").boards == SIX


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"style": "pretty"}, cpqueens.InvalidInputError, "choose one of: auto, grid, zero-plus"),
        ({"base": 2}, cpqueens.InvalidInputError, "base must be None, 0 or 1, got 2"),
        ({"base": True}, cpqueens.InvalidInputError, "base must be None, 0 or 1"),
        ({"n": 0}, cpqueens.InvalidInputError, "n must be a positive integer"),
        ({"text": 42}, cpqueens.InvalidTypeError, "text must be a str or bytes"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    arguments = {"text": "bdac", "n": 4, **kwargs}
    with pytest.raises(error, match=re.escape(match)):
        parse_boards(**arguments)


def test_bytes_are_decoded():
    assert parse_boards("第1种走法\n+ 0 + +\n".encode() + b"\xff\n", 4).boards == [(1,)]


# Any text at all: the reader skips what it cannot read and never raises. -------------

STYLES = list(cpqueens.outputs.boards.STYLES)


def _assert_well_formed(parsed, text):
    assert isinstance(parsed, cpqueens.ParsedOutput)
    assert all(isinstance(board, tuple) for board in parsed.boards)
    assert parsed.count is None or isinstance(parsed.count, int)
    assert parsed.base in (None, 0, 1)
    assert all(line in text for line in parsed.skipped)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.text(
        alphabet=st.sampled_from(list("Q.0+x- \n\t,;:[]{}()\"'1234abcdh第种走法/n|#"))
        | st.characters(),
        max_size=300,
    ),
    n=st.integers(1, 12),
    style=st.sampled_from(STYLES),
    base=st.sampled_from([None, 0, 1]),
)
def test_random_text_never_raises(text, n, style, base):
    _assert_well_formed(parse_boards(text, n, style=style, base=base), text)


@st.composite
def mangled(draw):
    n = draw(st.integers(1, 8))
    found = list(cpqueens.solutions(n)) or [tuple(range(n))]
    style = draw(st.sampled_from([*RENDER_STYLES, "json", "numbers"]))
    boards = draw(st.lists(st.sampled_from(found), min_size=1, max_size=4))
    if style == "json":
        text = json.dumps([list(b) for b in boards])
    elif style == "numbers":
        text = "\n".join(" ".join(str(c + 1) for c in b) for b in boards)
    else:
        text = "\n\n".join(cpqueens.render(b, style) for b in boards)
    chars = list(text)
    for _ in range(draw(st.integers(0, 6))):
        position = draw(st.integers(0, len(chars)))
        action = draw(st.sampled_from(["delete", "insert", "duplicate"]))
        if action == "delete" and position < len(chars):
            del chars[position]
        elif action == "insert":
            chars.insert(position, draw(st.sampled_from(list('Q.0+x-\n [],1"{'))))
        elif position < len(chars):
            chars.insert(position, chars[position])
    return "".join(chars), n


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(case=mangled(), style=st.sampled_from(STYLES))
def test_mangled_output_never_raises(case, style):
    text, n = case
    _assert_well_formed(parse_boards(text, n, style=style), text)


def test_deeply_nested_or_huge_values_are_skipped():
    assert parse_boards("[" * 5000 + "]" * 5000, 4).boards == []
    assert parse_boards("1" * 5000, 4).count is None
    huge = "[1, 3, 0, " + "9" * 5000 + "]"
    assert parse_boards(huge, 4).skipped == (huge,)
