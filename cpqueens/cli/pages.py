"""``cpqueens docs``: the documentation's pages, listed and shown in the terminal.

The pages are the Markdown of ``docs/`` that the site is built from: an install ships
them (the wheel's data, under ``share/doc/cpqueens`` of the environment), and a source
checkout has them beside the package. So every "see ``cpqueens docs PAGE``" that a
command's help or a message gives is a page a pip user can read, without a network.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ._common import BadInput, quiet_option

#: Where the pages are looked for, in order: an install's data, then a checkout's docs/.
PLACES = (
    Path(sys.prefix) / "share" / "doc" / "cpqueens",
    Path(__file__).resolve().parents[2] / "docs",
)


def pages_folder() -> Path | None:
    """The folder of the pages (None when neither an install nor a checkout has them)."""
    return next((place for place in PLACES if (place / "index.md").is_file()), None)


def page_names(folder: Path) -> dict[str, Path]:
    """``{name: path}`` of every page, its name its path under the folder, without ``.md``.

    >>> folder = pages_folder()
    >>> names = page_names(folder)
    >>> "getting-started" in names, "how-to/check-a-program" in names
    (True, True)
    """
    return {
        path.relative_to(folder).with_suffix("").as_posix(): path
        for path in sorted(folder.rglob("*.md"))
    }


def page_title(path: Path) -> str:
    """The page's first heading."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return path.stem


@click.command("docs")
@click.argument("page", required=False)
@quiet_option
def docs(page: str | None, quiet: bool) -> None:
    """List the documentation's pages, or show PAGE (as named in the list).

    \b
    Examples:
      cpqueens docs                      # every page, with its title
      cpqueens docs getting-started
      cpqueens docs how-to/check-a-program
      cpqueens docs limits | less

    The pages are the site's sources (Markdown); `pip install ".[docs]" && mkdocs
    build` in a checkout makes the site, with its API and command reference.
    """
    folder = pages_folder()
    if folder is None:
        raise BadInput(
            "the documentation's pages are not installed here: they ship with a pip install "
            "of cpqueens (share/doc/cpqueens) and sit in docs/ of a checkout"
        )
    names = page_names(folder)
    if page is None:
        # With --quiet, the names alone: one a line, for a script to read.
        width = max(map(len, names))
        for name, path in names.items():
            click.echo(name if quiet else f"{name:<{width}}  {page_title(path)}")
        return
    wanted = page.removesuffix(".md").removeprefix("docs/")
    if wanted not in names:
        raise BadInput(f"no page {page!r}; the pages are: {', '.join(names)}")
    click.echo(names[wanted].read_text(encoding="utf-8"), nl=False)
