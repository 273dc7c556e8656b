"""Text from elsewhere in a Markdown document or a spreadsheet's cell, shown as written.

A label, an instance's name or a line a program printed may hold what a Markdown
renderer or a spreadsheet acts on. In a Markdown table a ``|`` splits the row, ``<img
onerror=...>`` is raw HTML that a CommonMark renderer passes to the browser, and
``*``, ``_``, ``[`` or a backtick change how the rest reads; :func:`markdown_text` is
the one helper every Markdown table cell and every piece of Markdown text passes,
so that it shows exactly its characters. In a CSV file opened in a spreadsheet, a
cell that starts with ``=``, ``+``, ``-`` or ``@`` is run as a formula
(``=HYPERLINK(...)``): :func:`spreadsheet_cell` quotes it, as OWASP's guard against
CSV injection does, and leaves numbers numbers.

>>> markdown_text('<img src=x onerror="alert(1)">|pipe')
'&lt;img src=x onerror="alert(1)"&gt;\\\\|pipe'
>>> spreadsheet_cell('=HYPERLINK("http://evil")'), spreadsheet_cell("-3"), spreadsheet_cell(-3)
('\\'=HYPERLINK("http://evil")', '-3', -3)
"""

from __future__ import annotations

import html
import re
from typing import Any

from .terminal import printable

# The characters with a meaning inline in CommonMark (and GFM's tables and
# strikethrough) that plain text may hold: each is written backslash-escaped.
_INLINE = re.compile(r"([\\`*_\[\]|~#])")
# What would open a block at the start of a paragraph: a list item, a thematic break,
# an ordered list item ("3. ", "3) "). ``#`` and ``>`` are escaped everywhere.
_BLOCK_START = re.compile(r"^([-+=])|^(\d{1,9})([.)])(?=\s|$)")
# Whitespace that would end a table row or a paragraph's line.
_LINE_BREAKS = re.compile(r"\r\n|[\n\r\t\v\f]")


def markdown_text(text: str, *, starts_block: bool = False) -> str:
    """``text`` as Markdown that renders as exactly its characters, on one line.

    ``\\``, backticks, ``*``, ``_``, ``[``, ``]``, ``|``, ``~`` and ``#`` are
    backslash-escaped; ``<``, ``>`` and ``&`` written as entities, so no raw HTML,
    autolink or entity gets through; a line break becomes a space and any other
    control character its visible escape (``\\x1b``). ``starts_block=True`` (a
    paragraph of its own) also escapes what would make it a list or a rule.

    >>> markdown_text("a_b *c* [d](e) `f` # g")
    'a\\\\_b \\\\*c\\\\* \\\\[d\\\\](e) \\\\`f\\\\` \\\\# g'
    >>> markdown_text("two\\nlines"), markdown_text("- item", starts_block=True)
    ('two lines', '\\\\- item')
    """
    text = printable(_LINE_BREAKS.sub(" ", str(text)))
    text = html.escape(_INLINE.sub(r"\\\1", text), quote=False)
    if starts_block:
        text = _BLOCK_START.sub(lambda m: f"\\{m[1]}" if m[1] else f"{m[2]}\\{m[3]}", text)
    return text


def code_fence(text: str) -> str:
    """The backtick fence that no run of backticks in ``text`` can close.

    >>> code_fence("a = 1"), code_fence("``` inside")
    ('```', '````')
    """
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


# A cell a spreadsheet runs as a formula starts with one of these (OWASP's list).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# A plain number, which a spreadsheet reads as a number and runs nothing of.
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def spreadsheet_cell(value: Any) -> Any:
    """``value`` for a CSV cell: text that a spreadsheet would run as a formula gets a
    leading ``'``; numbers, and text that is a plain number (``-3``), stay as they are.

    >>> spreadsheet_cell("@SUM(A1)"), spreadsheet_cell("\\tx"), spreadsheet_cell("plain")
    ("'@SUM(A1)", "'\\tx", 'plain')
    """
    if not isinstance(value, str) or not value.startswith(_FORMULA_START):
        return value
    return value if _NUMBER.fullmatch(value) else "'" + value


def html_table(grid: list[list[Any]]) -> str:
    """A grid as an HTML table, its first row the heading; every cell escaped (a label
    or a note may come from another solver's file).

    >>> html_table([["what", "value"], ["label", "<b>"]])
    '<table><thead><tr><th>what</th><th>value</th></tr></thead><tbody><tr><td>label</td><td>&lt;b&gt;</td></tr></tbody></table>'
    """

    def cells(row: list[Any], tag: str) -> str:
        return "".join(f"<{tag}>{html.escape(str(cell))}</{tag}>" for cell in row)

    head = f"<thead><tr>{cells(grid[0], 'th')}</tr></thead>"
    body = "".join(f"<tr>{cells(row, 'td')}</tr>" for row in grid[1:])
    return f"<table>{head}<tbody>{body}</tbody></table>"
