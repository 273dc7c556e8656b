"""The package's shape: the public face, the one-way flow of imports, every command's help."""

import ast
import importlib
import pathlib
import pkgutil
import re

import pytest
from click.testing import CliRunner

import cpqueens
from cpqueens.cli import cli

PACKAGE = pathlib.Path(cpqueens.__file__).parent
GROUND_FLOOR = {"api", "arguments", "result", "board", "columns", "errors", "_version"}
FAMILIES = {
    "engines", "trees", "checking", "campaigns", "reporting", "parallel", "cli", "solvers",
    "instances", "disk", "display", "fuzzing", "proofs", "outputs", "programs",
}  # fmt: skip


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


def _module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(dotted: str) -> bool:
    path = PACKAGE.parent.joinpath(*dotted.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _imports(path: pathlib.Path) -> set[str]:
    """The cpqueens modules that ``path`` imports (at its top or inside a function)."""
    module = _module_name(path)
    package = module.split(".") if path.stem == "__init__" else module.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                source = ".".join([*base, *(node.module.split(".") if node.module else [])])
            else:
                source = node.module or ""
            # ``from . import kernels`` imports the module kernels, not the package.
            submodules = {f"{source}.{alias.name}" for alias in node.names}
            found |= {name for name in submodules if _is_module(name)} or {source}
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.split(".")[0] == "cpqueens" and name != module}


#: The floors of the package, lowest first. A module may import its own unit (a
#: ground-floor module, or a family) and any unit on a lower floor, nothing else:
#: two units on one floor know nothing of each other.
FLOORS = (
    {"errors", "_version"},
    {"disk", "arguments", "columns"},
    {"board"},
    {"display"},
    {"instances", "outputs", "programs"},
    {"result"},
    {"engines", "parallel"},
    {"solvers", "trees"},
    {"proofs"},
    {"api"},
    {"checking"},
    {"campaigns"},
    {"reporting", "fuzzing"},
    {""},  # the public face, cpqueens/__init__.py
    {"cli"},
    {"__main__"},
)
RANK = {unit: floor for floor, units in enumerate(FLOORS) for unit in units}


def _unit(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _graph() -> dict[str, set[str]]:
    return {_module_name(path): _imports(path) for path in PACKAGE.rglob("*.py")}


def test_every_unit_has_a_floor():
    assert {_unit(module) for module in _graph()} <= set(RANK)


@pytest.mark.slow
def test_imports_only_go_down():
    upward = []
    for module, imported in _graph().items():
        for name in imported:
            mine, theirs = _unit(module), _unit(name)
            if mine != theirs and RANK[theirs] >= RANK[mine]:
                upward.append(f"{module} imports {name}")
    assert not upward, "\n".join(upward)


def test_no_import_circle():
    graph = _graph()
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for name in sorted(graph.get(module, ())):
            if state.get(name) == 1:
                circle = [*path[path.index(name) :], name] if name in path else [module, name]
                pytest.fail("import circle: " + " -> ".join(circle))
            if name not in state:
                visit(name, [*path, name])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])


def test_the_trees_share_nothing_with_the_backends():
    # The plain tree is the cross-check's reference: it must not run the code it checks.
    for path in (PACKAGE / "trees").rglob("*.py"):
        for name in _imports(path):
            assert _unit(name) not in {"solvers", "api"}, f"{path} imports {name}"


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


def test_every_command_takes_quiet():
    import click

    from cpqueens.cli import cli

    def commands(group: click.Group, path: str):
        for name, command in group.commands.items():
            if isinstance(command, click.Group):
                yield from commands(command, f"{path}{name} ")
            else:
                yield f"{path}{name}", command

    lacking = [
        name
        for name, command in commands(cli, "")
        if not any("--quiet" in getattr(p, "opts", ()) and "-q" in p.opts for p in command.params)
    ]
    assert not lacking, f"commands without -q/--quiet: {lacking}"


# One idea a module, checked once, drawn once. ------------------------------------------

#: A module longer than this is flagged: past a few screens it likely holds two jobs.
#: A room is judged by its one job, which its family's docstring map names.
MAX_MODULE_LINES = 700


def _modules() -> list[pathlib.Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_no_module_holds_more_than_one_screenful_of_ideas():
    long = {
        str(path.relative_to(PACKAGE)): lines
        for path in _modules()
        if (lines := len(path.read_text().splitlines())) > MAX_MODULE_LINES
    }
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


def _packages() -> list[pathlib.Path]:
    return sorted(path.parent for path in PACKAGE.rglob("__init__.py") if path.parent != PACKAGE)


def _backend_rooms() -> set[pathlib.Path]:
    """The module or folder of each registered backend, and the module of each
    instance format: the backend registry and the formats' table are their maps
    (``cpqueens backends`` and ``cpqueens generate --help`` list them with what each
    is), so a backend is added as its room and two lines of the registry, a format
    as its module and one row of the table, and no page names them by hand."""
    from cpqueens.instances.formats import INSTANCE_FORMATS
    from cpqueens.solvers import REGISTRY

    rooms = set()
    for backend in REGISTRY.values():
        parts = type(backend).__module__.split(".")
        if parts[:2] == ["cpqueens", "solvers"] and len(parts) > 2:
            room = PACKAGE / "solvers" / parts[2]
            rooms.add(room if room.is_dir() else room.with_suffix(".py"))
    for fmt in INSTANCE_FORMATS:
        for function in (fmt.writer, fmt.reader):
            parts = getattr(function, "__module__", "").split(".")
            if parts[:3] == ["cpqueens", "instances", "formats"] and parts[3:] != ["records"]:
                room = PACKAGE.joinpath("instances", "formats", *parts[3:4])
                rooms.add(room if room.is_dir() else room.with_suffix(".py"))
    return rooms


@pytest.mark.parametrize("folder", _packages(), ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_each_family_s_map_names_every_room(folder):
    # A family's docstring is its map: every module and every folder of it, by name.
    doc = importlib.import_module(_module_name(folder / "__init__.py")).__doc__ or ""
    backends = _backend_rooms()
    rooms = [p.stem for p in folder.glob("*.py") if p.stem != "__init__" and p not in backends]
    rooms += [
        p.name for p in folder.iterdir() if (p / "__init__.py").exists() and p not in backends
    ]
    unnamed = [room for room in rooms if f"``{room}``" not in doc and f":mod:`.{room}`" not in doc]
    assert not unnamed, f"{folder.relative_to(PACKAGE)}/__init__.py does not name {unnamed}"


@pytest.mark.slow
def test_no_block_of_more_than_ten_lines_stands_twice():
    from shapes import repeated_blocks

    pairs = [f"{a[0]}:{a[1]}-{a[2]} ~ {b[0]}:{b[1]}-{b[2]}" for a, b in repeated_blocks(PACKAGE)]
    assert not pairs, "blocks that stand twice:\n" + "\n".join(pairs[:20])


def test_the_trees_use_only_networkx_public_api():
    private = re.compile(r"\._(node|succ|pred|adj)\b")
    found = [
        f"{path.relative_to(PACKAGE)}:{number}"
        for path in _modules()
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if private.search(line)
    ]
    assert not found, f"networkx's private attributes used at {found}"


#: Names under which the CLI would hold the board sizes or instances of a command.
_CASES = {"cases", "sizes", "ns", "instances"}


def test_the_cli_does_not_loop_over_sizes_itself():
    # The library takes every size and instance in one call and reports progress
    # through callbacks; a loop here would run the library's loop a second time.
    loops = []
    for path in (PACKAGE / "cli").glob("*.py"):
        if path.name == "ranges.py":  # the parser that makes the list of sizes
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.For | ast.comprehension):
                iterated = node.iter
                if isinstance(iterated, ast.Name) and iterated.id in _CASES:
                    loops.append(f"{path.name}: for ... in {iterated.id}")
    assert not loops, loops


#: Words of the shared checkers' refusals (cpqueens/arguments.py): another module that
#: says them has written the check again.
_CHECKER_WORDS = ("number of seconds", "must be a positive integer", "must be an integer")


def test_values_are_checked_by_the_shared_checkers():
    again = []
    for path in _modules():
        if path.name == "arguments.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Raise) and node.exc is not None:
                text = ast.unparse(node.exc)
                again += [f"{path.relative_to(PACKAGE)}:{node.lineno}: {word!r}"
                          for word in _CHECKER_WORDS if word in text]  # fmt: skip
    assert not again, "checks written again:\n" + "\n".join(again)


def test_the_architecture_page_names_every_module():
    page = (PACKAGE.parent / "docs" / "architecture.md").read_text()
    backends = _backend_rooms()
    unnamed = []
    for path in _modules():
        relative = path.relative_to(PACKAGE)
        if path in backends or any(room in path.parents for room in backends):
            continue  # the registry names the backends (see _backend_rooms)
        if path.name == "__init__.py" and relative.parent != pathlib.Path("."):
            continue  # a family's docstring says what lives there (tested above)
        folder = relative.parent.as_posix()
        named = f"`{relative.as_posix()}`" in page or (
            folder != "." and f"`{folder}/`" in page and f"`{path.name}`" in page
        )
        if not named:
            unnamed.append(relative.as_posix())
    assert not unnamed, f"docs/architecture.md does not name {unnamed}"
