"""The tree explorer as a reader uses it, in headless Chromium (Debian's, through its
chromedriver; skipped, saying why, without them): the node count, the board and
figures of a node clicked, subtrees expanded, failed subtrees hidden, solution after
solution, the three views, the domains of a propagated tree, zoom and pan, another
solver's labels shown as text and never run, and a tree of 856,189 nodes opened in
a few seconds. Any error on the browser's console fails the test."""

from __future__ import annotations

import time

import numpy as np
import pytest
from test_tree_explorer import HOSTILE, generic_tree

import cpqueens
from cpqueens.trees.compact.tree import CUT, SOLUTION
from cpqueens.trees.pictures.explorer import write_explorer


def opened(driver, tree, path, **options):
    """Write ``tree``'s page, open it, wait until its first view is drawn."""
    write_explorer(tree, path, **options)
    start = time.monotonic()
    driver.get(path.as_uri())
    while driver.execute_script("return document.body.dataset.ready") != "1":
        assert time.monotonic() - start < 30, "the page never got ready"
        assert no_console_errors(driver, raise_=False) == [], "the page failed"
        time.sleep(0.05)
    return time.monotonic() - start


def no_console_errors(driver, raise_=True):
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    if raise_:
        assert errors == []
    return errors


def wait_for(condition, seconds=10.0) -> bool:
    """Whether ``condition()`` came true within ``seconds``."""
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def by_id(driver, name):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, name)


def drawn(driver, selector="g.node"):
    """The ids of the nodes drawn in the node-link view (or matching ``selector``)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0]), g => +g.dataset.id)", selector
    )


def click_node(driver, node):
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, f'g.node[data-id="{node}"] path.mark').click()


def board(driver, n):
    """The queens the board shows, a column a row (-1 where none)."""
    queens = driver.execute_script(
        "return Array.from(document.querySelectorAll('#board .queen'),"
        " q => [+q.dataset.row, +q.dataset.col])"
    )
    columns = [-1] * n
    for row, col in queens:
        assert columns[row] == -1
        columns[row] = col
    return tuple(columns)


def figures(driver):
    return driver.execute_script(
        "return Object.fromEntries(Array.from(document.querySelectorAll('#figures dd'),"
        " d => [d.dataset.figure, d.textContent]))"
    )


@pytest.fixture(scope="module")
def tree8():
    return cpqueens.compact_tree(8)


def test_count_board_and_figures_of_a_clicked_node(browser, tree8, tmp_path):
    opened(browser, tree8, tmp_path / "tree.html")
    # Nodes are counted below the root, as everywhere.
    assert int(by_id(browser, "node-count").text.replace(",", "")) == len(tree8.parent) - 1
    assert by_id(browser, "solution-count").text == "92"
    sizes, solutions = tree8.subtree_sizes(), tree8.solutions_below()
    # The first view shows the levels that fit; a click opens a node's children.
    click_node(browser, int(tree8.children(0)[3]))
    node = next(i for i in drawn(browser) if tree8.depth[i] == 2 and sizes[i] > 1)
    click_node(browser, node)
    assert by_id(browser, "selected-id").get_attribute("data-value") == str(node)
    assert board(browser, 8) == tree8.placement(node)
    shown = figures(browser)
    assert shown["depth"] == "2" and shown["label"] == tree8.label(node)
    assert shown["nodes below"] == f"{sizes[node] - 1:,}"
    assert shown["solutions below"] == f"{solutions[node]:,}"
    # Hovering another node shows it for as long as the pointer stays there.
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    other = next(i for i in drawn(browser) if tree8.depth[i] == 1)
    mark = browser.find_element(By.CSS_SELECTOR, f'g.node[data-id="{other}"] path.mark')
    ActionChains(browser).move_to_element(mark).perform()
    assert board(browser, 8) == tree8.placement(other) and figures(browser)["depth"] == "1"
    ActionChains(browser).move_to_element(by_id(browser, "figures")).perform()
    assert board(browser, 8) == tree8.placement(node)
    no_console_errors(browser)


def test_a_collapsed_subtree_expands_on_click_and_collapses_again(browser, tree8, tmp_path):
    opened(browser, tree8, tmp_path / "tree.html")
    before = drawn(browser)
    # The top levels only: the rest as markers that give their node count.
    assert 1 + 8 <= len(before) < 400
    folded = drawn(browser, 'g.node[data-collapsed="1"]')
    node = folded[len(folded) // 2]
    count = browser.execute_script(
        f"return document.querySelector('g.node[data-id=\"{node}\"] text.count').textContent"
    )
    assert count == f"{tree8.subtree_sizes()[node] - 1:,}"
    click_node(browser, node)
    after = drawn(browser)
    assert set(tree8.children(node).tolist()) <= set(after) and len(after) > len(before)
    by_id(browser, "collapse-selected").click()
    assert sorted(drawn(browser)) == sorted(before)
    no_console_errors(browser)


@pytest.mark.parametrize("max_depth", [None, 4])
def test_hide_failed_draws_only_subtrees_that_did_not_fail(browser, max_depth, tmp_path):
    tree = cpqueens.compact_tree(6, max_depth=max_depth)
    opened(browser, tree, tmp_path / "tree.html")
    sizes = tree.subtree_sizes()

    def failed(i):
        below = tree.status[i : i + sizes[i]]
        return not np.isin(below, (SOLUTION, CUT)).any()

    before = drawn(browser)
    assert any(failed(i) for i in before)
    by_id(browser, "hide-failed").click()
    hidden = drawn(browser)
    assert hidden and not any(failed(i) for i in hidden) and len(hidden) < len(before)
    # A subtree cut off by max_depth did not fail: it stays.
    assert (max_depth is None) == all(tree.solutions_below()[i] > 0 for i in hidden)
    by_id(browser, "hide-failed").click()
    assert sorted(drawn(browser)) == sorted(before)
    no_console_errors(browser)


def test_next_solution_walks_the_solutions_in_search_order(browser, tree8, tmp_path):
    from selenium.webdriver.common.by import By

    opened(browser, tree8, tmp_path / "tree.html")
    expected = np.flatnonzero(tree8.status == SOLUTION)[:3].tolist()
    for node in expected:
        by_id(browser, "next-solution").click()
        assert by_id(browser, "selected-id").get_attribute("data-value") == str(node)
        shown = board(browser, 8)
        assert -1 not in shown and shown == tree8.placement(node)
        assert cpqueens.is_valid(shown)
        # Its path is revealed: the node is drawn, selected.
        assert drawn(browser, "g.node.selected") == [node]
    # The keys walk from there: up to a node with two children, down, right, left.
    from selenium.webdriver.common.keys import Keys

    walk, at = [], node
    while len(tree8.children(at)) < 2:
        at = int(tree8.parent[at])
        walk.append((Keys.ARROW_UP, at))
    first, second = tree8.children(at)[:2].tolist()
    walk += [(Keys.ARROW_DOWN, first), (Keys.ARROW_RIGHT, second), (Keys.ARROW_LEFT, first)]
    for key, expected in walk:
        browser.find_element(By.TAG_NAME, "body").send_keys(key)
        assert by_id(browser, "selected-id").get_attribute("data-value") == str(expected)
        assert drawn(browser, "g.node.selected") == [expected]
    no_console_errors(browser)


def test_the_three_views_each_draw(browser, tree8, tmp_path):
    opened(browser, tree8, tmp_path / "tree.html")
    ink = (
        "const c = document.getElementById(arguments[0]);"
        "const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
        "let s = 0; for (let i = 3; i < d.length; i += 4) s += d[i] > 0; return s;"
    )
    for view in ("icicle", "pixel"):
        by_id(browser, f"view-{view}").click()
        canvas = by_id(browser, f"{view}-view")
        assert canvas.is_displayed() and not by_id(browser, "tree-view").is_displayed()
        assert int(canvas.get_attribute("data-drawn")) > 0
        assert browser.execute_script(ink, f"{view}-view") > 1000
        # A click on the canvas selects the node under it (the root at the top left).
        canvas.click()
        assert by_id(browser, "selected-id").get_attribute("data-value") != ""
    by_id(browser, "view-tree").click()
    assert by_id(browser, "tree-view").is_displayed() and len(drawn(browser)) > 8
    assert not by_id(browser, "pixel-view").is_displayed()
    no_console_errors(browser)


def test_a_propagated_tree_shows_the_remaining_domains(browser, tmp_path):
    tree = cpqueens.compact_tree(6, propagation="forward")
    opened(browser, tree, tmp_path / "forward.html")
    node = int(tree.children(0)[1])
    click_node(browser, node)
    assert board(browser, 6) == tree.placement(node)
    marks = browser.execute_script(
        "return Array.from(document.querySelectorAll('#board .domain'),"
        " d => [+d.dataset.row, +d.dataset.col])"
    )
    placed = tree.placement(node)
    expected = {
        (r, c)
        for r in range(6)
        if placed[r] < 0
        for c in range(6)
        if int(tree.domains[node, r]) >> c & 1
    }
    assert expected and {tuple(m) for m in marks} == expected
    no_console_errors(browser)


def test_zoom_and_pan_in_every_view(browser, tree8, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions.wheel_input import ScrollOrigin

    opened(browser, tree8, tmp_path / "tree.html")
    layer = "return document.querySelector('#tree-view .zoom-layer').getAttribute('transform')"
    first = browser.execute_script(layer)
    for view in ("tree", "icicle", "pixel"):
        by_id(browser, f"view-{view}").click()
        area = by_id(browser, f"{view}-view")
        ActionChains(browser).move_to_element(area).click_and_hold().move_by_offset(
            60, 40
        ).release().perform()
        # Zoom in near the top, where the drawing starts.
        near_top = ScrollOrigin.from_element(area, 0, 100 - int(area.size["height"]) // 2)
        ActionChains(browser).scroll_from_origin(near_top, 0, -300).perform()
        if view == "tree":
            assert browser.execute_script(layer) != first
        else:
            assert int(area.get_attribute("data-drawn")) > 0
    no_console_errors(browser)


def test_labels_of_another_solver_are_text_and_never_run(browser, tmp_path):
    from selenium.webdriver.common.by import By

    # The test can see a handler run: the label written raw into a page runs it.
    raw = tmp_path / "raw.html"
    raw.write_text(f"<!DOCTYPE html><title>raw</title><body>{HOSTILE[0]}</body>")
    browser.get(raw.as_uri())
    assert wait_for(lambda: browser.execute_script("return window.__xss") == 1)
    browser.get_log("browser")  # the control's picture that failed to load: read, dropped
    tree = generic_tree()
    opened(browser, tree, tmp_path / "generic.html", title=HOSTILE[0])
    # Drawn beside the nodes (cut short), whole in their tooltips.
    shown = browser.execute_script(
        "return Array.from(document.querySelectorAll('g.node'), g =>"
        " [g.querySelector('text.label').textContent, g.querySelector('title').textContent])"
    )
    assert [title for _, title in shown] == tree.labels
    assert all(title.startswith(text.rstrip("\u2026")) for text, title in shown)
    assert browser.find_elements(By.TAG_NAME, "img") == []
    assert browser.find_elements(By.CSS_SELECTOR, "#views b, #note b") == []
    assert by_id(browser, "title").text == HOSTILE[0] and browser.title == HOSTILE[0]
    # No board for a generic tree: its note instead, as text.
    assert not by_id(browser, "board").is_displayed()
    assert by_id(browser, "note").text == tree.note
    click_node(browser, 1)
    assert figures(browser)["label"] == HOSTILE[0]
    assert not wait_for(lambda: browser.execute_script("return window.__xss") is not None, 1.0)
    no_console_errors(browser)


def test_a_merged_tree_has_a_legend_of_its_sides(browser, tmp_path):
    tree = cpqueens.compact_tree(6)
    side = np.arange(tree.number_of_nodes()) % 3
    opened(browser, tree, tmp_path / "merged.html", side=side)
    legend = by_id(browser, "legend").text
    counts = np.bincount(side[1:])  # the nodes below the root, as the pictures count
    for name, count in zip(("in both", "only in a", "only in b"), counts, strict=True):
        assert f"{name} ({count:,})" in legend
    fills = browser.execute_script(
        "return Object.fromEntries(Array.from(document.querySelectorAll('g.node'),"
        " g => [g.dataset.id, g.querySelector('path.mark').getAttribute('fill')]))"
    )
    assert len({fills[str(i)] for i in range(3)}) == 3
    click_node(browser, 2)
    assert figures(browser)["side"] == "only in b"
    no_console_errors(browser)


def test_a_tree_of_856189_nodes_opens_in_a_few_seconds(browser, tmp_path):
    tree = cpqueens.compact_tree(12)
    assert tree.number_of_nodes() == 856_189
    seconds = opened(browser, tree, tmp_path / "twelve.html")
    first_draw = int(browser.execute_script("return document.body.dataset.firstDrawMs"))
    assert int(by_id(browser, "node-count").get_attribute("data-value")) == 856_188
    # Aggregated: a few hundred elements, not one per node.
    assert len(drawn(browser)) < 1000
    timings = {}
    for view in ("pixel", "icicle", "tree"):
        start = time.monotonic()
        by_id(browser, f"view-{view}").click()
        timings[view] = time.monotonic() - start
    start = time.monotonic()
    by_id(browser, "next-solution").click()
    timings["next solution"] = time.monotonic() - start
    print(f"n=12 page: opened in {seconds:.2f} s (script {first_draw} ms), "
          + ", ".join(f"{k} {v:.2f} s" for k, v in timings.items()))  # fmt: skip
    assert seconds < 10 and max(timings.values()) < 3
    no_console_errors(browser)
