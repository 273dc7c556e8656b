"""JSON and TOML text parsed strictly: a repeated key or a nesting too deep to
parse is an error naming the file (and the line), never a silent choice or a
``RecursionError``.

>>> load_json('{"n": 8, "n": 9}', "eight.json")
Traceback (most recent call last):
...
cpqueens.errors.InvalidInputError: eight.json:1: the key 'n' is given twice in one object
>>> load_json("[" * 100_000, "deep.json")
Traceback (most recent call last):
...
cpqueens.errors.InvalidInputError: deep.json:1: nested deeper than the 500 levels any \
file of cpqueens needs
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

from ..errors import InvalidInputError

#: Deeper nesting than this is refused where the parser would run out of stack.
MAX_DEPTH = 500


def load_json(text: str, source: str) -> Any:
    """Parse JSON ``text`` read from ``source``; repeated keys and deep nesting refused.

    A ``json.JSONDecodeError`` is left to the caller, who knows what the file was
    meant to hold.
    """
    try:
        return json.loads(text, object_pairs_hook=lambda pairs: _one_each(pairs, text, source))
    except RecursionError:
        raise _too_deep(text, source) from None


def load_toml(text: str, source: str) -> dict[str, Any]:
    """Parse TOML ``text`` read from ``source`` (a repeated key is already an error
    in TOML: :class:`tomllib.TOMLDecodeError`, left to the caller)."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise _too_deep(text, source) from None


def _one_each(pairs: list[tuple[str, Any]], text: str, source: str) -> dict[str, Any]:
    record = dict(pairs)
    if len(record) < len(pairs):
        seen: set[str] = set()
        repeated = next(key for key, _ in pairs if key in seen or seen.add(key))
        # The line of the key's second mention in the text (a good guess: the
        # decoder does not say where an object's pairs were).
        mentions = [m.start() for m in re.finditer(re.escape(json.dumps(repeated)) + r"\s*:", text)]
        line = text.count("\n", 0, mentions[1]) + 1 if len(mentions) > 1 else None
        raise _located(source, line, f"the key {repeated!r} is given twice in one object")
    return record


def _located(source: str, line: int | None, message: str) -> InvalidInputError:
    return InvalidInputError(f"{source}{'' if line is None else f':{line}'}: {message}")


def _too_deep(text: str, source: str) -> InvalidInputError:
    # Found again by a plain scan (only on this rare path): the first line where
    # the brackets outside strings open more than MAX_DEPTH levels.
    depth, line, quote, escaped = 0, 1, "", False
    for char in text:
        if char == "\n":
            line += 1
        if quote:
            if escaped:
                escaped = False
            elif char == "\\" and quote == '"':
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                break
        elif char in "]}":
            depth -= 1
    return _located(
        source, line, f"nested deeper than the {MAX_DEPTH} levels any file of cpqueens needs"
    )
