"""HTML and Markdown written alike: the pieces of a report page and the links to its pictures.

A section of the report is written once, as calls on a markup (:data:`HTML` or
:data:`MARKDOWN`), each call giving the blocks of one piece in that language: a
heading, a paragraph, a table, a picture, (what, value) pairs. A picture is linked by
a :data:`Link`: :func:`embed` puts it in the text as a data URI, a
:class:`PicturesBeside` collects it as a file in a folder beside the document.

>>> HTML.heading("Machine"), MARKDOWN.heading("Machine")
('<h2>Machine</h2>', '## Machine')
>>> HTML.pairs([("CPU", "x86")]), MARKDOWN.pairs([("CPU", "x86")])
(['<dl class="machine"><dt>CPU</dt><dd>x86</dd></dl>'], ['- **CPU**: x86'])
"""

from __future__ import annotations

import base64
import html
import urllib.parse
from collections.abc import Callable, Sequence

from ...display.cells import code_fence, markdown_text
from ...display.svg import to_svg
from ..tables import Grid, format_grid

#: Turns a picture (file name, bytes) into the address the document links it by.
Link = Callable[[str, bytes], str]


def embed(name: str, data: bytes) -> str:
    """The :data:`Link` of a one-file document: the picture as a data URI."""
    mime = "image/svg+xml" if name.endswith(".svg") else "image/png"
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


class PicturesBeside:
    """The :data:`Link` of a document whose pictures are files in a folder beside it.

    Collects ``{relative path: bytes}`` in :attr:`files` and links each picture by
    its relative path (quoted as a URL needs).

    >>> beside = PicturesBeside("report_files")
    >>> beside("tree 5.png", b"..."), list(beside.files)
    ('report_files/tree%205.png', ['report_files/tree 5.png'])
    """

    def __init__(self, folder: str) -> None:
        self.folder = folder.strip("/")
        self.files: dict[str, bytes] = {}

    def __call__(self, name: str, data: bytes) -> str:
        path = f"{self.folder}/{name}"
        self.files[path] = data
        return urllib.parse.quote(path)


def _board_svg(n: int, solution: Sequence[int]) -> str:
    """A sample board as SVG, its squares smaller on larger boards."""
    return to_svg(solution, cell=max(12, 160 // n))


class Html:
    """The pieces as HTML elements; a page joins them with newlines."""

    joiner = "\n"

    def heading(self, text: str, level: int = 2) -> str:
        return f"<h{level}>{html.escape(text)}</h{level}>"

    def text(self, text: str) -> str:
        return f"<p>{html.escape(text)}</p>"

    def note(self, text: str) -> str:
        """A line in small print, below what it speaks of."""
        return f"<p><small>{html.escape(text)}</small></p>"

    def alarm(self, text: str) -> str:
        """A line the reader must not miss (a disagreement, a wrong answer)."""
        return f"<p><strong>{html.escape(text)}</strong></p>"

    def table(self, grid: Grid) -> str:
        # In a box of its own that scrolls: a wide table never widens the page.
        return f'<div class="wide">{format_grid(grid, "html")}</div>'

    def picture(self, alt: str, url: str, caption: str = "", kind: str = "plot") -> list[str]:
        """A picture: a plot takes the content column's full width, a tree its own size at most."""
        text = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
        return [f'<figure class="{kind}"><img alt="{html.escape(alt)}" src="{url}">{text}</figure>']

    def pairs(self, pairs: Sequence[tuple[str, str]]) -> list[str]:
        """(what, value) pairs as a definition list; nothing for none."""
        items = "".join(
            f"<dt>{html.escape(what)}</dt><dd>{html.escape(value)}</dd>" for what, value in pairs
        )
        return [f'<dl class="machine">{items}</dl>'] if items else []

    def code(self, text: str, language: str, kind: str) -> str:
        return f'<pre class="{kind}">{html.escape(text)}</pre>'

    def boards(self, boards: Sequence[tuple[int, Sequence[int]]], link: Link) -> str:
        """Sample boards side by side, each drawn inline as SVG with its columns below."""
        figures = "".join(
            f"<figure>{_board_svg(n, solution)}"
            f"<figcaption>n={n}: {html.escape(str(solution))}</figcaption></figure>"
            for n, solution in boards
        )
        return f'<div class="boards">{figures}</div>'


class Markdown:
    """The pieces as Markdown blocks; a document joins them with blank lines.

    Every text is written through :func:`~cpqueens.display.cells.markdown_text`, so a
    label, a name or a line a program printed reads as its characters: no ``|``
    splits a table row, no ``<img onerror=...>`` becomes HTML, no newline starts a
    block; a code block's fence is longer than any run of backticks inside it.

    >>> MARKDOWN.alarm("! <img src=x onerror=alert(1)>|x"), MARKDOWN.code("a ```", "toml", "")
    ('**! &lt;img src=x onerror=alert(1)&gt;\\\\|x**', '````toml\\na ```\\n````')
    """

    joiner = "\n\n"

    def heading(self, text: str, level: int = 2) -> str:
        return f"{'#' * level} {markdown_text(text)}"

    def text(self, text: str) -> str:
        return markdown_text(text, starts_block=True)

    def note(self, text: str) -> str:
        return markdown_text(text, starts_block=True)

    def alarm(self, text: str) -> str:
        return f"**{markdown_text(text)}**"

    def table(self, grid: Grid) -> str:
        return format_grid(grid, "markdown")

    def picture(self, alt: str, url: str, caption: str = "", kind: str = "plot") -> list[str]:
        text = [markdown_text(caption, starts_block=True)] if caption else []
        return [f"![{markdown_text(alt)}]({url})", *text]

    def pairs(self, pairs: Sequence[tuple[str, str]]) -> list[str]:
        items = [f"- **{markdown_text(what)}**: {markdown_text(value)}" for what, value in pairs]
        return ["\n".join(items)] if items else []

    def code(self, text: str, language: str, kind: str) -> str:
        fence = code_fence(text)
        ending = "" if text.endswith("\n") else "\n"
        return f"{fence}{language}\n{text}{ending}{fence}"

    def boards(self, boards: Sequence[tuple[int, Sequence[int]]], link: Link) -> str:
        """Sample boards, each an SVG picture linked by ``link``."""
        return "\n".join(
            f"![n={n}: {solution}]({link(f'board-{n}.svg', _board_svg(n, solution).encode())})"
            for n, solution in boards
        )


#: The two markups a report is written in.
HTML = Html()
MARKDOWN = Markdown()
Markup = Html | Markdown
