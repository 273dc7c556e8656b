"""One self-contained HTML page to explore a search tree in a browser.

:func:`write_explorer` writes a single file that needs nothing else when opened: no
network, no file beside it. The page draws the tree three ways (node-link with
subtrees expanded on demand, icicle, pixel tree), shows the partial board and the
figures of a node, hides failed subtrees and walks from solution to solution. It is
the page of :func:`cpqueens.export_tree` for a ``.html`` path.

Everything is inlined when the file is written: d3 (v7, ISC licence, vendored in
``trees/pictures/static`` with its licence), the page's own script and style
(``trees/pictures/static/explorer.*``), and the tree. The tree goes in as a few base64
columns (parents as int32, rows and columns as int16, statuses as uint8, the domains
of a propagated tree as bit rows), not as an object per node: the script decodes them
to typed arrays and derives depths, subtree sizes and solution counts in one pass
each, so a tree of a million nodes loads in about a second. The drawing never makes
an element per node of a big tree: collapsed subtrees are one marker, and the icicle
and pixel views paint a canvas, aggregated per pixel.

Labels of an imported tree are someone else's text: the script only ever sets them
as text, the data sits in a ``<script type="application/json">`` with ``<``, ``>``
and ``&`` escaped, and a Content-Security-Policy allows no script but the page's own
(by their hashes), so an event handler in a label can never run.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import os
import re
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...disk.writing import atomic_path, check_target
from ...errors import InvalidInputError, TreeTooLargeError

if TYPE_CHECKING:
    import numpy as np

    from ..compact.tree import CompactTree

#: The largest tree the page is written for: past it, the browser's memory and the
#: time to decode would make the page unusable.
MAX_EXPLORER_NODES = 1_000_000

#: The script files of the page, in the order they are inlined.
_SCRIPTS = ("d3.min.js", "explorer-data.js", "explorer-views.js", "explorer.js")


def write_explorer(
    tree: Any,
    path: str | os.PathLike,
    *,
    side: Any = None,
    title: str | None = None,
) -> Path:
    """Write ``tree`` as one self-contained HTML page to explore it in a browser.

    Parameters
    ----------
    tree : CompactTree or networkx.DiGraph
        A search tree: a :class:`~cpqueens.trees.compact.tree.CompactTree` or a tree of
        :func:`cpqueens.decision_tree` (converted with
        :func:`~cpqueens.trees.compact.tree.as_compact`).
    path : str or os.PathLike
        Where to write the page; written whole or not at all.
    side : array of uint8, optional
        For a tree merged from two: per node 0 (in both trees), 1 (only in tree a)
        or 2 (only in tree b). The page colours the nodes by it, with a legend.
    title : str, optional
        The page's title; by default it names the board and the search.

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    TreeTooLargeError
        For a tree of more than :data:`MAX_EXPLORER_NODES` nodes, before anything is
        written: cut it with ``max_depth``.
    InvalidInputError
        For a place that cannot be written, or a ``side`` that does not fit the tree.

    Examples
    --------
    >>> import cpqueens, pathlib, tempfile
    >>> from cpqueens.trees.pictures.explorer import write_explorer
    >>> page = pathlib.Path(tempfile.mkdtemp()) / "tree-6.html"
    >>> write_explorer(cpqueens.decision_tree(6), page).name
    'tree-6.html'
    >>> text = page.read_text(encoding="utf-8")
    >>> text.startswith("<!DOCTYPE html>"), "<title>Search tree, n = 6</title>" in text
    (True, True)
    """
    from ..compact.tree import as_compact

    check_target(path)
    compact = as_compact(tree)
    count = compact.number_of_nodes()
    if count > MAX_EXPLORER_NODES:
        raise TreeTooLargeError(
            f"write_explorer draws trees of at most {MAX_EXPLORER_NODES:,} nodes; this one "
            f"has {count:,}: build it with max_depth=... to explore its top levels",
            count,
            MAX_EXPLORER_NODES,
        )
    data = tree_payload(compact, side=_check_side(side, count), title=title)
    page = explorer_page(data)
    with atomic_path(path) as temporary:
        temporary.write_text(page, encoding="utf-8")
    return Path(path)


def _check_side(side: Any, count: int) -> np.ndarray | None:
    import numpy as np

    if side is None:
        return None
    values = np.asarray(side)
    if values.shape != (count,) or values.dtype.kind not in "uib":
        raise InvalidInputError(
            f"side must hold one integer per node of the tree ({count:,}), "
            f"got an array of shape {values.shape} and type {values.dtype}"
        )
    if count and (values.min() < 0 or values.max() > 2):
        raise InvalidInputError(
            f"side holds 0 (both trees), 1 (only tree a) or 2 (only tree b) per node, "
            f"got values from {values.min()} to {values.max()}"
        )
    return values.astype(np.uint8)


def default_title(tree: CompactTree) -> str:
    """The page's title when none is given: the board and the search.

    >>> from types import SimpleNamespace as Tree
    >>> default_title(Tree(n=8, propagation="forward", order="first-fail"))
    'Search tree, n = 8, forward propagation, first-fail order'
    >>> default_title(Tree(n=None, propagation="none", order="row"))
    'Search tree'
    """
    words = ["Search tree" if tree.n is None else f"Search tree, n = {tree.n}"]
    if getattr(tree, "propagation", "none") not in (None, "none"):
        words.append(f"{tree.propagation} propagation")
    if getattr(tree, "order", "row") not in (None, "row"):
        words.append(f"{tree.order} order")
    return ", ".join(words)


def _b64(values: Any, dtype: str) -> str:
    """The little-endian bytes of ``values`` as ``dtype``, in base64."""
    import numpy as np

    return base64.b64encode(np.ascontiguousarray(values, dtype=dtype).tobytes()).decode("ascii")


def domain_bytes(domains: Any, n: int) -> tuple[int, bytes]:
    """Each row's domain of each node as ``ceil(n / 8)`` little-endian bytes.

    Returns the bytes per domain and all of them, node by node and row by row.

    >>> import numpy as np
    >>> domain_bytes(np.array([[0b101, 0b1000000001]], dtype=np.uint16), 10)
    (2, b'\\x05\\x00\\x01\\x02')
    """
    import numpy as np

    width = max(1, (n + 7) // 8)
    values = np.asarray(domains)
    if values.dtype.kind in "ui" and values.dtype.itemsize >= width:
        raw = values.astype(f"<u{values.dtype.itemsize}").view(np.uint8)
        raw = raw.reshape(*values.shape, values.dtype.itemsize)[..., :width]
        return width, np.ascontiguousarray(raw).tobytes()
    # Wider than a machine word (or Python ints): one row at a time.
    rows = (int(value).to_bytes(width, "little") for value in values.reshape(-1))
    return width, b"".join(rows)


def tree_payload(
    tree: CompactTree, *, side: np.ndarray | None = None, title: str | None = None
) -> dict[str, Any]:
    """What the page's script reads: the figures of the tree and its base64 columns.

    The columns decode (base64, then little-endian) back to the tree's arrays:
    ``parent`` int32, ``row`` and ``column`` int16, ``status``, ``side`` and
    ``classes`` uint8, ``domains`` ``domain_bytes`` bytes per row of each node. The
    classes, their names and colours, the solution ticks' colour and the dither are
    those of :mod:`cpqueens.trees.pictures.arrays`: the page paints the same shares.
    """
    from ..status import STATUS_WORDS
    from .arrays import EDGE_PIXELS, GOLDEN, PALETTES, TICK_COLOUR, node_classes

    # The classes and colours of the static pictures, so that both show the same.
    classes, names = node_classes(tree, side)
    payload: dict[str, Any] = {
        "title": title if title is not None else default_title(tree),
        "nodes": int(tree.number_of_nodes()),
        "n": tree.n,
        "fixed": [[int(r), int(c)] for r, c in sorted(dict(tree.fixed or {}).items())],
        "blocked": [[int(r), int(c)] for r, c in tree.blocked or ()],
        "propagation": tree.propagation,
        "order": tree.order,
        "max_depth": tree.max_depth,
        "note": tree.note,
        "labels": None if tree.labels is None else [str(label) for label in tree.labels],
        "status_names": list(STATUS_WORDS),
        "parent": _b64(tree.parent, "<i4"),
        "row": _b64(tree.row, "<i2"),
        "column": _b64(tree.column, "<i2"),
        "status": _b64(tree.status, "u1"),
        "side": None if side is None else _b64(side, "u1"),
        "classes": _b64(classes, "u1"),
        "class_names": list(names),
        "palette": list(PALETTES[names]),
        "tick_colour": TICK_COLOUR,
        "edge_pixels": EDGE_PIXELS,
        "golden": GOLDEN,
        "domains": None,
        "domain_bytes": 0,
    }
    if tree.domains is not None and tree.n:
        width, raw = domain_bytes(tree.domains, tree.n)
        payload["domains"] = base64.b64encode(raw).decode("ascii")
        payload["domain_bytes"] = width
    return payload


def script_json(data: Any) -> str:
    """``data`` as JSON that can sit inside a ``<script>`` element: ``<``, ``>`` and
    ``&`` escaped, so no text in it can close the element or open a comment.

    >>> script_json({"label": "</script><b>&"})
    '{"label": "\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e\\\\u0026"}'
    """
    text = json.dumps(data, ensure_ascii=True, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@cache
def static_text(name: str) -> str:
    """A file of ``cpqueens/trees/pictures/static`` (d3, the page's script, style and template)."""
    return resources.files(__package__).joinpath("static", name).read_text(encoding="utf-8")


def _hash(script: str) -> str:
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def explorer_page(data: dict[str, Any]) -> str:
    """The whole page for the payload ``data`` of :func:`tree_payload`."""
    scripts = [static_text(name) for name in _SCRIPTS]
    for name, script in zip(_SCRIPTS, scripts, strict=True):
        # A script is inlined raw: it must not hold what would end its element.
        if re.search(r"</script|<!--", script, re.IGNORECASE):
            raise RuntimeError(f"static/{name} cannot be inlined: it holds '</script' or '<!--'")
    parts = {
        "title": html.escape(data["title"]),
        "csp": " ".join(_hash(script) for script in scripts),
        "css": static_text("explorer.css"),
        "data": script_json(data),
        "scripts": "\n".join(f"<script>{script}</script>" for script in scripts),
    }
    # One pass: nothing inserted is read again for placeholders.
    return re.sub(r"@@(\w+)@@", lambda m: parts[m.group(1)], static_text("explorer.html"))
