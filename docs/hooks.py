"""MkDocs hooks of cpqueens' site (named in mkdocs.yml, left out of the site itself).

The API reference lists every public name of ``cpqueens`` (its ``__all__``), grouped
by what a reader does with it, each documented from its own docstring by
mkdocstrings: the page is written from the package, so a name added to ``__all__`` is
in the reference at the next build and none can be missing. A name whose object
cannot be found fails the build.
"""

from __future__ import annotations

import importlib
import inspect

from mkdocs.exceptions import PluginError

#: The reference's sections: the family a public name comes from, its title and what
#: it is for. The errors are a section of their own, whatever their family.
SECTIONS = {
    "api": ("Solving and counting", "Solve, count and list the backends."),
    "result": ("Results", "What every backend returns."),
    "board": ("Boards", "Boards as tuples of columns: checked, drawn, turned."),
    "columns": ("Boards", ""),
    "display": ("Boards", ""),
    "checking": ("Checking solvers", "Cross-check programs, functions and outputs."),
    "outputs": ("Reading solvers' outputs", "Boards and answers read from what solvers print."),
    "instances": ("Instances", "Blocked squares, queens given, the field's files."),
    "proofs": ("Certified answers", "Answers backed by a proof an independent checker accepts."),
    "campaigns": ("Campaigns", "Solvers on instance families, each run isolated."),
    "fuzzing": ("Bug hunting", "Generated instances, checked and shrunk."),
    "trees": ("Decision trees", "The search tree: built, counted, drawn, written, compared."),
    "errors": ("Errors", "Every error cpqueens raises is a `CPQueensError`."),
}
#: The marker in reference/api.md that the sections replace.
MARKER = "<!-- every public name -->"
#: The marker in reference/cli.md that the commands' help replaces.
COMMANDS = "<!-- every command -->"
#: The width the help is wrapped to, as a terminal of that many columns shows it.
HELP_WIDTH = 80


def public_names() -> dict[str, list[tuple[str, str]]]:
    """``{section title: [(name, import path of its object)]}``, in ``__all__``'s order."""
    import cpqueens

    sections: dict[str, list[tuple[str, str]]] = {title: [] for title, _ in SECTIONS.values()}
    for name in cpqueens.__all__:
        obj = getattr(cpqueens, name, None)
        if obj is None:
            raise PluginError(f"cpqueens.__all__ names {name!r}, which cpqueens does not have")
        module = getattr(obj, "__module__", "") or ""
        if not module.startswith("cpqueens."):
            module = _defining_module(name)
        family = "errors" if inspect.isclass(obj) and issubclass(obj, Exception) else (
            module.split(".")[1]
        )  # fmt: skip
        if family not in SECTIONS:
            raise PluginError(f"cpqueens.{name} comes from {module}: give its family a section")
        # A type alias (Solution) is documented where it is named, not as what it is.
        own = getattr(obj, "__qualname__", name)
        path = f"{module}.{own if own.split('.')[-1] == name else name}"
        sections[SECTIONS[family][0]].append((name, path))
    return {title: names for title, names in sections.items() if names}


def _defining_module(name: str) -> str:
    """The module of cpqueens that defines ``name`` (a type alias has no __module__)."""
    import cpqueens

    for module_name in ("cpqueens.board", "cpqueens.result", "cpqueens.api"):
        module = importlib.import_module(module_name)
        if getattr(module, name, None) is getattr(cpqueens, name):
            return module_name
    raise PluginError(f"cannot tell which module of cpqueens defines {name!r}")


def reference_markdown() -> str:
    """The sections of the API reference, one mkdocstrings block a name."""
    about = {title: words for title, words in SECTIONS.values() if words}
    parts = []
    for title, names in public_names().items():
        parts.append(f"## {title}\n")
        if about.get(title):
            parts.append(f"{about[title]}\n")
        parts.extend(f"::: {path}\n" for _, path in names)
    return "\n".join(parts)


def commands_markdown() -> str:
    """Each command's ``--help`` as the terminal shows it, a section each, groups first
    and their commands under them: read from the click commands, so never stale."""
    import click

    from cpqueens.cli import cli

    parts = []

    def walk(command: click.Command, path: list[str], parent: click.Context | None) -> None:
        name = " ".join(path)
        width = {"terminal_width": HELP_WIDTH, "max_content_width": HELP_WIDTH}
        context = click.Context(command, info_name=path[-1], parent=parent, **width)
        level = "#" * min(4, len(path) + 1)
        parts.append(f"{level} `{name}`\n\n```text\n{command.get_help(context)}\n```\n")
        if isinstance(command, click.Group):
            for sub in command.list_commands(context):
                walk(command.get_command(context, sub), [*path, sub], context)

    walk(cli, ["cpqueens"], None)
    return "\n".join(parts)


def on_page_markdown(markdown: str, page, config, files) -> str:
    for source, marker, made in (("reference/api.md", MARKER, reference_markdown),
                                 ("reference/cli.md", COMMANDS, commands_markdown)):  # fmt: skip
        if page.file.src_uri == source:
            if marker not in markdown:
                raise PluginError(f"{source} has lost its marker {marker!r}")
            return markdown.replace(marker, made())
    return markdown
