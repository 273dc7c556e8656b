"""Bad input gets a clear error at the call, naming the value and what is allowed."""

import pytest

import cpqueens
from cpqueens.solvers import REGISTRY

FRONTS = [cpqueens.solve, cpqueens.count, cpqueens.solutions]


@pytest.mark.parametrize("front", FRONTS)
@pytest.mark.parametrize("n", [8.0, "8", None, True, [8]])
def test_n_of_the_wrong_type(front, n):
    with pytest.raises(TypeError, match="n must be an integer"):
        front(n)


@pytest.mark.parametrize("front", FRONTS)
@pytest.mark.parametrize("n", [0, -3])
def test_n_too_small_names_the_value(front, n):
    with pytest.raises(ValueError, match=f"n must be a positive integer, got {n}"):
        front(n)


@pytest.mark.parametrize("front", FRONTS)
def test_unknown_backend_lists_the_valid_names(front):
    with pytest.raises(cpqueens.UnknownBackendError) as caught:
        front(8, backend="nope")
    message = str(caught.value)
    assert "'nope'" in message
    assert all(name in message for name in REGISTRY)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("limit", [0, -1])
def test_limit_must_be_positive(backend, limit):
    with pytest.raises(ValueError, match=f"limit must be a positive integer, got {limit}"):
        cpqueens.solve(8, backend=backend, limit=limit)


@pytest.mark.parametrize(
    "fixed, pattern",
    [
        ({8: 0}, "fixed row 8 is off the board"),
        ({0: 8}, "fixed column 8 is off the board"),
        ({-1: 0}, "fixed row -1"),
        ({0: -1}, "fixed column -1"),
    ],
)
def test_fixed_off_the_board(backend, fixed, pattern):
    with pytest.raises(ValueError, match=pattern):
        cpqueens.solve(8, backend=backend, fixed=fixed)


def test_fixed_of_the_wrong_type():
    with pytest.raises(TypeError, match="mapping"):
        cpqueens.solve(8, fixed=5)
    with pytest.raises(TypeError, match="column must be an integer"):
        cpqueens.solve(8, fixed={0: "a"})


def test_errors_come_at_the_call_not_at_iteration():
    with pytest.raises(ValueError):
        cpqueens.solutions(-1)


def test_options_a_backend_cannot_honour():
    with pytest.raises(cpqueens.UnsupportedOptionError, match=r"seed.*random"):
        cpqueens.solve(8, backend="stack", seed=3)
    with pytest.raises(cpqueens.UnsupportedOptionError, match="frobnicate"):
        cpqueens.solve(8, backend="stack", frobnicate=True)


@pytest.mark.parametrize("time_limit", [0, -1.0])
def test_time_limit_must_be_positive(time_limit):
    with pytest.raises(ValueError, match="time_limit"):
        cpqueens.solve(8, time_limit=time_limit)


BOARD_TAKERS = {
    "render": cpqueens.render,
    "render letters": lambda b: cpqueens.render(b, style="letters"),
    "to_letters": cpqueens.to_letters,
    "symmetries": cpqueens.symmetries,
    "canonical": cpqueens.canonical,
    "Board": cpqueens.Board,
    "to_svg": lambda b: cpqueens.Board(b).to_svg(),
}


@pytest.mark.parametrize("take", BOARD_TAKERS.values(), ids=BOARD_TAKERS.keys())
@pytest.mark.parametrize(
    ("board", "error", "words"),
    [
        ((0, 0, 5), ValueError, "column 5 in row 2 is off a board of size 3"),
        ((0, -1), ValueError, "column -1 in row 1 is off a board of size 2"),
        ((), ValueError, "at least one row"),
        (5, TypeError, "sequence of column numbers"),
        ("0123", TypeError, "sequence of column numbers"),
        ((0, "a"), TypeError, "column in row 1 must be an integer"),
        ((0, 1.5), TypeError, "column in row 1 must be an integer"),
    ],
)
def test_a_bad_board_is_named(take, board, error, words):
    with pytest.raises(error, match=words) as caught:
        take(board)
    assert isinstance(caught.value, cpqueens.CPQueensError)


def test_a_board_longer_than_its_size():
    with pytest.raises(cpqueens.InvalidInputError, match="size 2 has 2 rows, got 3 columns"):
        cpqueens.render((0, 1, 0), n=2)
    with pytest.raises(cpqueens.InvalidInputError, match="size 2 has 2 rows, got 3 columns"):
        cpqueens.Board((0, 1, 0), n=2)


def test_symmetries_need_one_queen_per_column():
    with pytest.raises(cpqueens.InvalidInputError, match="repeats column 0"):
        cpqueens.canonical((0, 0, 1))


def test_partial_boards_still_render_and_attacks_are_drawn():
    assert cpqueens.render((1, 3), n=4).count("Q") == 2
    assert cpqueens.render((0, 0, 0)) == "Q . .\nQ . .\nQ . ."
    assert cpqueens.is_valid((0, 0, 5)) is False
    with pytest.raises(cpqueens.InvalidTypeError):
        cpqueens.is_valid(None)


def test_crosscheck_refuses_a_bad_time_limit_at_the_call():
    with pytest.raises(cpqueens.InvalidInputError, match="time_limit"):
        cpqueens.crosscheck(4, ["stack"], time_limit=0)


RECURSIVE = [name for name, backend in REGISTRY.items() if backend.recurses]


@pytest.mark.parametrize("front", FRONTS)
@pytest.mark.parametrize("backend", RECURSIVE)
def test_too_deep_for_recursion_fails_at_the_call(front, backend):
    # solutions() is lazy: the refusal must come before the generator is returned.
    with pytest.raises(cpqueens.InvalidInputError, match="n=6,000 is beyond what backend"):
        front(6000, backend=backend)


def test_some_backend_recurses():
    assert {"recursive", "tree", "propagate"} <= set(RECURSIVE)


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("progress", 3, "progress must be True, False, None or a callable"),
        ("scheduler", 8786, "scheduler must be an address"),
        ("client", object(), "client must be a dask.distributed.Client"),
    ],
)
def test_bitmask_cluster_and_progress_options_fail_at_the_call(option, value, message):
    with pytest.raises(cpqueens.InvalidTypeError, match=message):
        cpqueens.solutions(8, backend="bitmask", **{option: value})


# Integers of any type (numpy's too) are integers; bools and floats are not. ------------

np = pytest.importorskip("numpy")
NUMPY_INTS = [np.int64, np.int32]


@pytest.mark.parametrize("front", FRONTS)
@pytest.mark.parametrize("kind", NUMPY_INTS)
def test_numpy_integers_are_accepted_and_give_the_same_results(front, kind):
    def run(**arguments):
        found = front(arguments.pop("n"), **arguments)
        return found if isinstance(found, int) else list(found)

    plain = {"n": 8, "limit": 5, "fixed": {0: 2, 3: 1}}
    numpy = {"n": kind(8), "limit": kind(5), "fixed": {kind(0): kind(2), kind(3): kind(1)}}
    assert run(**numpy) == run(**plain)
    assert run(n=kind(8), backend="stack") == run(n=8, backend="stack")
    workers = run(n=kind(6), backend="bitmask", workers=kind(2))
    assert workers == run(n=6, backend="bitmask", workers=2)


def test_numpy_integers_come_back_as_plain_ints():
    result = cpqueens.solve(np.int64(6), fixed={np.int32(0): np.int64(1)})
    assert type(result.n) is int
    assert all(type(k) is int and type(v) is int for k, v in result.fixed.items())
    assert result.solutions and all(type(c) is int for s in result.solutions for c in s)
    assert cpqueens.solve(8, backend="random", seed=np.int64(3)).solution == (
        cpqueens.solve(8, backend="random", seed=3).solution
    )


@pytest.mark.parametrize("front", FRONTS)
@pytest.mark.parametrize("flag", [True, False, np.True_, np.False_])
def test_bools_are_not_integers(front, flag):
    with pytest.raises(cpqueens.InvalidTypeError, match="n must be an integer"):
        front(flag)
    with pytest.raises(cpqueens.InvalidTypeError, match="limit must be an integer"):
        front(8, limit=flag)
    with pytest.raises(cpqueens.InvalidTypeError, match="fixed row must be an integer"):
        front(8, fixed={flag: 0})
    with pytest.raises(cpqueens.InvalidTypeError, match="fixed column must be an integer"):
        front(8, fixed={0: flag})
    with pytest.raises(cpqueens.InvalidTypeError, match="seed must be an integer"):
        front(8, backend="random", seed=flag)


@pytest.mark.parametrize("front", FRONTS)
@pytest.mark.parametrize("number", [np.float64(8.0), np.float32(8.0), 8.0])
def test_floats_are_not_integers_even_whole_ones(front, number):
    with pytest.raises(cpqueens.InvalidTypeError, match=r"n must be an integer, got .*8\.0"):
        front(number)
    with pytest.raises(cpqueens.InvalidTypeError, match="workers must be an integer"):
        front(8, backend="bitmask", workers=number)
    with pytest.raises(cpqueens.InvalidTypeError, match="fixed column must be an integer"):
        front(8, fixed={0: number})


def test_a_numpy_board_is_a_board():
    board = np.array([1, 3, 0, 2], dtype=np.int64)
    assert cpqueens.render(board) == cpqueens.render((1, 3, 0, 2))
    assert cpqueens.render(board[:2], n=np.int64(4)) == cpqueens.render((1, 3), n=4)
    assert cpqueens.is_valid(board) and cpqueens.is_valid(board, np.int32(4))
    assert not cpqueens.is_valid(np.array([0, 1]), 2)
    assert cpqueens.canonical(board) == (1, 3, 0, 2)
    assert cpqueens.to_letters(board) == "bdac"
    drawn = cpqueens.Board(board, n=np.int64(4))
    assert drawn.queens == (1, 3, 0, 2) and type(drawn.n) is int and drawn.valid
    assert cpqueens.Board([np.int32(1), np.int32(3), np.int32(0), np.int32(2)]).valid
    with pytest.raises(cpqueens.InvalidTypeError, match="got a 2-D array"):
        cpqueens.render(np.zeros((4, 4), dtype=int))
    with pytest.raises(cpqueens.InvalidTypeError, match="board size n must be an integer"):
        cpqueens.render((1, 3, 0, 2), n=4.0)
    with pytest.raises(cpqueens.InvalidTypeError, match="column in row 0 must be an integer"):
        cpqueens.render([np.True_, 0])
    assert not cpqueens.is_valid(np.array([1.0, 3.0, 0.0, 2.0]))
