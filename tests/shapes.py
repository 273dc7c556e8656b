"""Blocks of code that stand twice: the same lines, or lines of the same shape with
other names, strings and numbers.

Each line of a module becomes its shape: names become ``N`` (keywords stay), numbers
``0``, strings ``S``. Import statements, lone strings (docstrings), lines of lone
punctuation, comments and the signatures of functions (the front functions share
one signature on purpose: one interface, as scipy.optimize's methods do) are left
out. Two runs of ``length`` kept lines with the same shapes are a repeat, unless the
run is thin: fewer than half of its lines hold six tokens or more.
"""

from __future__ import annotations

import ast
import io
import keyword
import pathlib
import tokenize
from collections.abc import Iterator

Place = tuple[str, int, int]  # path, first line, last line

_PUNCTUATION = set("()[]{},:;.")


def _signature_lines(text: str) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines.update(range(node.lineno, node.body[0].lineno))
    return lines


def _word(token: tokenize.TokenInfo) -> str:
    if token.type == tokenize.NAME:
        return token.string if keyword.iskeyword(token.string) else "N"
    if token.type == tokenize.NUMBER:
        return "0"
    if token.type == tokenize.STRING:
        return "S"
    return token.string


def line_shapes(text: str) -> list[tuple[int, str]]:
    """The kept lines of a module, each as (line number, shape)."""
    words: dict[int, list[str]] = {}
    skipped = _signature_lines(text)
    statement_start, in_import = True, False
    ignored = {tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT}
    ignored |= {tokenize.ENCODING, tokenize.ENDMARKER}
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.NEWLINE:
            statement_start, in_import = True, False
            continue
        if token.type in ignored:
            continue
        if statement_start and token.string in ("import", "from"):
            in_import = True
        statement_start = False
        if in_import:
            skipped.update(range(token.start[0], token.end[0] + 1))
            continue
        words.setdefault(token.start[0], []).append(_word(token))
    return [
        (number, " ".join(line))
        for number, line in sorted(words.items())
        if number not in skipped and line != ["S"] and not set(line) <= _PUNCTUATION
    ]


def repeated_blocks(root: pathlib.Path, length: int = 11) -> Iterator[tuple[Place, Place]]:
    """Pairs of places under ``root`` whose ``length`` kept lines have the same shapes."""
    first_seen: dict[tuple[str, ...], Place] = {}
    for path in sorted(root.rglob("*.py")):
        shapes = line_shapes(path.read_text())
        for start in range(len(shapes) - length + 1):
            run = shapes[start : start + length]
            window = tuple(shape for _, shape in run)
            if sum(len(shape.split()) >= 6 for shape in window) < length // 2:
                continue  # thin: a list of fields, a run of short calls
            place = (str(path.relative_to(root.parent)), run[0][0], run[-1][0])
            earlier = first_seen.setdefault(window, place)
            if earlier is not place and (earlier[0] != place[0] or earlier[2] < place[1]):
                yield earlier, place
