"""Glob patterns matched without following links into folders.

A campaign spec names its instance files by patterns (``files = "instances/**/*.json"``).
Python's :func:`glob.glob` follows a symbolic link to a folder into it, so a link that
points back up makes ``**`` walk forever (a folder holding two such links: 2^40 paths
before the system's link limit). :func:`match_files` walks the folder below the
pattern's fixed part with :func:`os.walk`, which never enters a linked folder (as a
folder of instances is read, :mod:`cpqueens.instances.bundles`), and stops past
``most`` matches.

The pattern language is glob's: ``*`` and ``?`` within one name, ``[...]`` classes,
``**`` as a whole part for any number of folders (none included); a name starting
with a dot is matched only by a part that starts with a dot.

>>> import tempfile
>>> root = Path(tempfile.mkdtemp())
>>> for name in ("a.json", "sub/b.json", "sub/deeper/c.json", "sub/.hidden.json"):
...     (root / name).parent.mkdir(parents=True, exist_ok=True)
...     _ = (root / name).write_text("{}")
>>> (root / "sub" / "loop").symlink_to(root)    # a link back up: not entered
>>> [Path(p).relative_to(root).as_posix() for p in match_files(str(root / "**/*.json"))]
['a.json', 'sub/b.json', 'sub/deeper/c.json']
>>> [Path(p).name for p in match_files(str(root / "sub/*.json"))]
['b.json']
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..errors import InvalidInputError

#: The most files one pattern may match.
MOST_MATCHES = 200_000

_MAGIC = re.compile(r"[*?\[]")


def match_files(pattern: str, most: int = MOST_MATCHES) -> list[str]:
    """The paths ``pattern`` matches, sorted; linked folders are not entered."""
    parts = Path(pattern).parts
    fixed = next((k for k, part in enumerate(parts) if _MAGIC.search(part)), len(parts))
    root = Path(*parts[:fixed]) if fixed else Path(os.curdir)
    if fixed == len(parts):
        return [pattern] if os.path.lexists(pattern) else []
    wanted = re.compile(_translate(parts[fixed:]))
    # A trailing ** also matches the folders before it, as glob gives them: "sub/".
    folders_too = None
    if parts[-1] == "**":
        if len(parts) - fixed == 1:
            folders_too = re.compile("")  # the fixed folder itself
        else:
            folders_too = re.compile(_translate(parts[fixed:-1]))
    found: list[str] = []

    def add(path: str) -> None:
        found.append(path)
        if len(found) > most:
            raise InvalidInputError(f"the pattern {pattern!r} matches more than {most:,} files")

    if folders_too is not None and folders_too.pattern == "" and root.is_dir():
        add(os.path.join(str(root), ""))
    for folder, folders, files in os.walk(root, followlinks=False):
        below = os.path.relpath(folder, root)
        for name in sorted(folders + files):
            relative = name if below == os.curdir else f"{below}/{name}".replace(os.sep, "/")
            shown = str(root / relative) if fixed else relative
            if wanted.fullmatch(relative):
                add(shown)
            below_a_match = folders_too is not None and folders_too.pattern and name in folders
            if below_a_match and folders_too.fullmatch(relative):
                add(os.path.join(shown, ""))
    return sorted(found)


def _translate(parts: tuple[str, ...]) -> str:
    """A regular expression for a relative path, ``/``-separated, of these parts."""
    pieces = []
    for number, part in enumerate(parts):
        last = number == len(parts) - 1
        if part == "**":
            # Any number of folders (none included); at the end, anything below too.
            pieces.append("(?:(?!\\.)[^/]+/)*" + ("(?!\\.)[^/]+" if last else ""))
            continue
        hidden = "" if part.startswith(".") else "(?!\\.)"
        pieces.append(hidden + _translate_part(part) + ("" if last else "/"))
    return "".join(pieces)


def _translate_part(part: str) -> str:
    """One name's pattern: ``*`` and ``?`` never cross a ``/``."""
    out, i = [], 0
    while i < len(part):
        char = part[i]
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = part.find("]", i + 2 if part[i + 1 : i + 2] in ("!", "]") else i + 1)
            if end == -1:
                out.append(re.escape(char))
            else:
                inner = part[i + 1 : end]
                if inner.startswith("!"):
                    inner = "^" + inner[1:]
                out.append("[" + inner.replace("\\", "\\\\") + "]")
                i = end
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)
