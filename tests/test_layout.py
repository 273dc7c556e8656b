"""The package's shape: the public face, the one-way flow of imports, every command's help."""

import ast
import importlib
import pathlib
import pkgutil

import pytest
from click.testing import CliRunner

import cpqueens
from cpqueens.cli import cli

PACKAGE = pathlib.Path(cpqueens.__file__).parent
GROUND_FLOOR = {"api", "arguments", "result", "board", "svgboard", "errors", "_files", "_version"}
FAMILIES = {"engines", "trees", "checking", "reporting", "parallel", "cli", "solvers"}


@pytest.mark.parametrize("name", cpqueens.__all__)
def test_every_public_name_imports(name):
    namespace: dict = {}
    exec(f"from cpqueens import {name}", namespace)
    assert namespace[name] is getattr(cpqueens, name)


def test_top_level_holds_only_the_ground_floor():
    modules = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__", "__main__"}
    assert modules <= GROUND_FLOOR
    packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert packages == FAMILIES


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_each_family_says_what_lives_there(family):
    doc = importlib.import_module(f"cpqueens.{family}").__doc__
    assert doc and doc.strip()


def test_no_module_bears_the_name_of_an_exported_function():
    exported = {name for name in cpqueens.__all__ if callable(getattr(cpqueens, name))}
    for info in pkgutil.walk_packages([str(PACKAGE)], "cpqueens."):
        assert info.name.rsplit(".", 1)[-1] not in exported, info.name


def _imports(path: pathlib.Path) -> set[str]:
    """The cpqueens modules that ``path`` imports, as absolute dotted names."""
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    package = module.split(".")[:-1] if path.stem != "__init__" else module.split(".")
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                found.add(".".join([*base, *(node.module.split(".") if node.module else [])]))
            elif node.module:
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.split(".")[0] == "cpqueens"}


@pytest.mark.parametrize(
    ("family", "forbidden"),
    [
        ("solvers", {"trees", "checking", "reporting", "cli"}),
        ("trees", {"checking", "reporting", "cli"}),
        ("checking", {"reporting", "cli"}),
        ("reporting", {"cli"}),
        ("parallel", {"trees", "checking", "reporting", "cli", "solvers"}),
    ],
)
def test_imports_flow_one_way(family, forbidden):
    for path in (PACKAGE / family).rglob("*.py"):
        for name in _imports(path):
            parts = name.split(".")
            assert len(parts) < 2 or parts[1] not in forbidden, f"{path} imports {name}"


def _commands(group, prefix=()):
    for name, command in group.commands.items():
        yield (*prefix, name)
        if hasattr(command, "commands"):
            yield from _commands(command, (*prefix, name))


@pytest.mark.parametrize("command", [(), *_commands(cli)], ids=lambda c: " ".join(c) or "cpqueens")
def test_every_command_has_help(command):
    result = CliRunner().invoke(cli, [*command, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.output
