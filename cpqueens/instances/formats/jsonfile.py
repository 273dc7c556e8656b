"""JSON instance files (``.json``), 0-based, in the form the PyCSP3 models read::

    {"n": 5, "blocks": [[0, 0], [1, 3]], "queens": [[2, 2]]}

``blocks`` and ``queens`` may be left out (no blocked square, no queen given);
any other key is refused, so that a misspelt ``block`` is not silently read as
no blocked square at all. An Excluded Diagonals instance (CSPLib problem 79) also
carries its ``diagonals``, ``[k, kind]`` pairs in order, beside the blocked squares
they make (so that a program reading ``blocks`` alone still has the whole problem);
the reader checks that the two agree.

>>> from cpqueens import Instance
>>> text = format_json(Instance(5, fixed={2: 2}, blocked=[(1, 3), (0, 0)]))
>>> text
'{"n": 5, "blocks": [[0, 0], [1, 3]], "queens": [[2, 2]]}\\n'
>>> parse_json(text, "x.json")
Instance(n=5, fixed=((2, 2),), blocked=((0, 0), (1, 3)))
"""

from __future__ import annotations

import json
import re
from json import scanner
from typing import Any

from ...arguments import as_int, check_n
from ...disk.structured import load_json
from ...errors import InvalidInputError, InvalidTypeError
from ..instance import Instance
from .text import SquareAt, check_queens, line_of, located

#: The keys of an instance file: the board size, the blocked squares, the queens
#: given in advance.
KEYS = ("n", "blocks", "queens", "diagonals")


def json_record(instance: Instance) -> dict[str, Any]:
    """The instance as a JSON file holds it: ``n``, ``blocks`` and ``queens`` as 0-based
    ``[row, column]`` pairs, and an Excluded Diagonals instance's ``diagonals``."""
    record: dict[str, Any] = {
        "n": instance.n,
        "blocks": [list(square) for square in instance.blocked],
        "queens": [list(square) for square in instance.fixed],
    }
    if instance.diagonals is not None:
        record["diagonals"] = [list(diagonal) for diagonal in instance.diagonals]
    return record


def format_json(instance: Instance) -> str:
    """The instance as one line of JSON, squares as 0-based ``[row, column]`` pairs."""
    return json.dumps(json_record(instance)) + "\n"


def parse_json(text: str, source: str = "<text>") -> Instance:
    """Read a JSON instance file's text; ``source`` names it in errors.

    The plain (fast) decoder reads the file; only when a value is refused is the
    text read again, keeping where each list starts, to name the line.
    """
    try:
        record = load_json(text, source)
    except json.JSONDecodeError as error:
        raise located(source, error.lineno, f"not valid JSON: {error.msg}") from None
    try:
        return _instance(record, text, source, located_lists=False)
    except _Refused:
        pass
    return _instance(_decode_located(text), text, source, located_lists=True)


class _Refused(Exception):
    """A value is wrong: read the text again to say on which line."""


def _instance(record: Any, text: str, source: str, *, located_lists: bool) -> Instance:
    def refuse(line: int | None, message: str) -> InvalidInputError:
        if not located_lists:
            raise _Refused
        return located(source, line, message)

    if not isinstance(record, dict):
        raise refuse(1, 'an instance file holds one JSON object, e.g. {"n": 8}')
    for key in record:
        if key not in KEYS:
            raise refuse(
                _key_line(text, key),
                f"unknown key {key!r}; an instance file gives {', '.join(KEYS)}",
            )
    if "n" not in record:
        raise refuse(line_of(text, text.find("{")), 'the board size is missing: no "n" key')
    n = as_int(record["n"])
    if n is None:
        raise refuse(
            _key_line(text, "n"), f"n must be a whole number, got {json.dumps(record['n'])}"
        )
    try:
        n = check_n(n)
    except InvalidInputError as error:
        raise refuse(_key_line(text, "n"), str(error)) from None
    squares: dict[str, list[SquareAt]] = {}
    for key, what in (("blocks", "blocked square"), ("queens", "given queen")):
        pairs = record.get(key, [])
        if not isinstance(pairs, list):
            raise refuse(_key_line(text, key), f"{key} must be a list of [row, column] pairs")
        squares[key] = []
        for pair in pairs:
            line = line_of(text, pair.start) if isinstance(pair, _List) else None
            numbers = [as_int(value) for value in pair] if isinstance(pair, list) else []
            if len(numbers) != 2 or None in numbers:
                raise refuse(
                    line,
                    f"a {what} must be a [row, column] pair of whole numbers, "
                    f"got {json.dumps(pair)}",
                )
            row, column = numbers
            if not (0 <= row < n and 0 <= column < n):
                raise refuse(
                    line,
                    f"{what} [{row}, {column}] is off the board: rows and columns run "
                    f"0..{n - 1} in a JSON file (counted from 0)",
                )
            squares[key].append(((row, column), line))
    check_queens(squares["queens"], squares["blocks"], refuse, base=0)
    fixed = [square for square, _ in squares["queens"]]
    blocked = [square for square, _ in squares["blocks"]]
    if "diagonals" not in record:
        return Instance(n, fixed=fixed, blocked=blocked)
    diagonals = record["diagonals"]
    if not isinstance(diagonals, list):
        raise refuse(_key_line(text, "diagonals"), "diagonals must be a list of [k, kind] pairs")
    try:  # the diagonals checked, and the blocked squares against theirs
        return Instance(
            n, fixed=fixed, blocked=blocked if "blocks" in record else None, diagonals=diagonals
        )
    except (InvalidInputError, InvalidTypeError) as error:
        raise refuse(_key_line(text, "diagonals"), str(error)) from None


class _List(list):
    """A JSON list that remembers where in the text it starts."""

    start = 0


def _decode_located(text: str) -> Any:
    """Decode ``text`` again with the pure-Python scanner, each list a :class:`_List`."""
    decoder = json.JSONDecoder()
    plain = decoder.parse_array

    def parse_array(state: tuple[str, int], scan_once: Any) -> tuple[list, int]:
        values, end = plain(state, scan_once)
        located_list = _List(values)
        located_list.start = state[1] - 1  # state[1] is just past the '['
        return located_list, end

    decoder.parse_array = parse_array  # type: ignore[assignment]
    decoder.scan_once = scanner.py_make_scanner(decoder)
    return decoder.decode(text)


def _key_line(text: str, key: str) -> int | None:
    """The line of the first ``"key":`` in ``text`` (keys are read where written)."""
    match = re.search(rf'"{re.escape(key)}"\s*:', text)
    return None if match is None else line_of(text, match.start())
