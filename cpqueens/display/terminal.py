"""Text from elsewhere made safe for a terminal: :func:`printable`, the one door.

A label, an instance's name, a command line, a line a program printed or the end of
its standard error come from outside cpqueens. Shown raw, an escape sequence in them
retitles the window or writes to the clipboard (OSC), moves the cursor or clears the
screen (CSI), a bell rings, a carriage return overwrites what was shown, a newline
splits a row of a table in two. Everything the command line shows of such text
passes through :func:`printable` first:

* colour and cursor sequences (CSI: ``ESC [ ... final``, or the one-byte ``\\x9b``)
  are dropped, so a compiler's coloured error reads as its words;
* every other control character is shown as its escape: C0 (``\\x1b``, ``\\x07``;
  ``\\n``, ``\\r``, ``\\t``), DEL and C1 (``\\x7f`` to ``\\x9f``), so an OSC sequence
  is seen, not obeyed; so are the characters that reorder a line (the bidirectional
  overrides and isolates), the Unicode line and paragraph separators, and lone
  surrogates (an undecodable file name), which a terminal cannot be sent;
* with ``multiline=True`` a newline (or CR LF) between lines is kept.

Text that holds none of these comes back unchanged, and :func:`printable` of its own
output changes nothing, so a line may pass it twice.

>>> printable("\\x1b]0;pwned\\x07label\\r\\n")
'\\\\x1b]0;pwned\\\\x07label\\\\r\\\\n'
>>> printable("\\x1b[31merror\\x1b[0m: line 3")
'error: line 3'
>>> printable("first\\r\\nsecond\\x07", multiline=True)
'first\\nsecond\\\\x07'
"""

from __future__ import annotations

import re

# A CSI sequence: ESC [ (or the one-byte C1 CSI), parameter bytes, intermediate
# bytes, one final byte (ECMA-48 5.4).
_CSI = re.compile(r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]")
# What a terminal would act on or cannot be sent: C0, DEL, C1, the characters that
# reorder a line (LRM/RLM/ALM, embeddings, overrides, isolates), the line and
# paragraph separators, and lone surrogates.
_CONTROL = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]"
)
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    character = match[0]
    if character in _NAMED:
        return _NAMED[character]
    code = ord(character)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, multiline: bool = False) -> str:
    """``text`` as a terminal may be sent it: CSI sequences dropped, every other control
    character shown as its escape (``\\x1b``, ``\\n``, ...).

    A single-line field (a label, a cell, a row) shows a newline as ``\\n``; with
    ``multiline=True`` newlines between lines are kept (CR LF read as one newline).

    >>> printable("bell\\x07 and del\\x7f, c1 \\x9d, override \\u202e")
    'bell\\\\x07 and del\\\\x7f, c1 \\\\x9d, override \\\\u202e'
    >>> printable("plain words, ünïcode and 中文") == "plain words, ünïcode and 中文"
    True
    """
    text = _CSI.sub("", str(text))
    if not multiline:
        return _CONTROL.sub(_escape, text)
    lines = text.replace("\r\n", "\n").split("\n")
    return "\n".join(_CONTROL.sub(_escape, line) for line in lines)
