"""The documentation site: built strictly, offline, complete, and readable in a browser.

``mkdocs build --strict`` (the site's one extra, ``pip install ".[docs]"``) fails on a
broken link or anchor, a page left out of the navigation, a docstring it cannot read,
or a public name whose object it cannot find. The built pages fetch nothing (no font,
no script from elsewhere), name every public name of ``cpqueens`` and every command,
and open from the file system in headless Chromium with no console error.
"""

from __future__ import annotations

import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import cpqueens

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    pytest.importorskip("mkdocs", reason="needs the docs extra: pip install '.[docs]'")
    folder = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(folder)],
        cwd=ROOT, capture_output=True, text=True, env=env, timeout=600,
    )  # fmt: skip
    assert build.returncode == 0, build.stderr[-3000:]
    return folder


def pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if p.name != "404.html")


def test_the_site_builds_strictly_and_fetches_nothing(site):
    remote = re.compile(r"""<(?:script|link|img|iframe)\b[^>]*(?:src|href)=["'](?:https?:)?//""")
    for page in pages(site):
        text = page.read_text(encoding="utf-8")
        assert not remote.search(text), f"{page.name} loads something from the network"
        assert "fonts.googleapis" not in text and "fonts.gstatic" not in text


def test_every_public_name_and_command_is_in_the_reference(site):
    api = (site / "reference" / "api.html").read_text(encoding="utf-8")
    headings = set(re.findall(r'<h3 id="([^"]+)"', api))
    missing = [
        name for name in cpqueens.__all__
        if not any(anchor.split(".")[-1] == name for anchor in headings)
    ]  # fmt: skip
    assert not missing, f"the API reference lacks {missing}"
    from cpqueens.cli import cli

    reference = (site / "reference" / "cli.html").read_text(encoding="utf-8")
    for name in cli.commands:
        assert f"cpqueens {name}</code>" in reference, name


def test_each_public_name_has_a_docstring_with_a_runnable_example():
    # The doctests of every module run in the suite (--doctest-modules): an example
    # here is one that runs. Solution is a type alias: its docstring is the string under
    # its assignment in cpqueens/board.py, which the site shows.
    lacking = [
        name for name in cpqueens.__all__
        if name != "Solution" and ">>>" not in (inspect.getdoc(getattr(cpqueens, name)) or "")
    ]  # fmt: skip
    assert not lacking, f"no example in the docstring of {lacking}"
    board = (ROOT / "cpqueens" / "board.py").read_text(encoding="utf-8")
    assert re.search(r'^Solution = .*\n"""[^"]*>>>', board, re.MULTILINE)


def test_the_built_pages_open_with_no_console_error(site, browser):
    opened = 0
    for page in pages(site):
        browser.get(page.as_uri())
        errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == [], f"{page.relative_to(site)}: {errors}"
        opened += 1
    assert opened >= 25
    # The search box works from the file system, offline.
    from selenium.webdriver.common.by import By

    browser.get((site / "index.html").as_uri())
    browser.find_element(By.CSS_SELECTOR, "label.md-search__icon, .md-search__input").click()
    box = browser.find_element(By.CSS_SELECTOR, ".md-search__input")
    box.send_keys("crosscheck")
    import time

    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        found = browser.find_elements(By.CSS_SELECTOR, ".md-search-result__item")
        if found:
            break
        time.sleep(0.2)
    assert found, "the search found nothing for 'crosscheck'"


def test_the_pages_are_shown_by_cpqueens_docs():
    from click.testing import CliRunner

    from cpqueens.cli import cli

    listed = CliRunner().invoke(cli, ["docs"])
    assert listed.exit_code == 0 and "how-to/check-a-program" in listed.output
    shown = CliRunner().invoke(cli, ["docs", "how-to/check-a-program"])
    assert shown.output == (ROOT / "docs" / "how-to" / "check-a-program.md").read_text()
    refused = CliRunner().invoke(cli, ["docs", "nope"])
    assert refused.exit_code == 2 and "the pages are: " in refused.output


def shown_texts() -> list[tuple[str, str]]:
    """(where, text) of what a user reads: every command's help, and every string
    literal of the package that is no docstring (messages, help texts)."""
    import ast

    import click

    from cpqueens.cli import cli

    texts = []

    def walk(command, path, parent):
        context = click.Context(command, info_name=path[-1], parent=parent)
        texts.append((" ".join(path) + " --help", command.get_help(context)))
        if isinstance(command, click.Group):
            for name in command.list_commands(context):
                walk(command.get_command(context, name), [*path, name], context)

    walk(cli, ["cpqueens"], None)
    for path in sorted((ROOT / "cpqueens").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }  # fmt: skip
        for node in ast.walk(tree):
            is_text = isinstance(node, ast.Constant) and isinstance(node.value, str)
            if is_text and id(node) not in docstrings:
                texts.append((f"{path.relative_to(ROOT)}:{node.lineno}", node.value))
    return texts


def test_help_and_messages_point_to_pages_a_pip_user_has():
    """No help text or message names docs/*.md, which a pip install does not have: they
    name `cpqueens docs PAGE`, and every PAGE they name exists."""
    from cpqueens.cli.pages import page_names, pages_folder

    names = page_names(pages_folder())
    stale, unknown = [], []
    for where, text in shown_texts():
        stale += [f"{where}: {m[0]}" for m in re.finditer(r"\bdocs/[\w/-]+\.md", text)]
        unknown += [
            f"{where}: {m[0]}" for m in re.finditer(r"cpqueens docs ([\w/-]+)", text)
            if m[1] not in names
        ]  # fmt: skip
    assert not stale, "texts still naming docs/*.md:\n" + "\n".join(stale)
    assert not unknown, "pages named that do not exist:\n" + "\n".join(unknown)
