"""The HTML report as a reader needs it: a campaign's limits, repeats and spread, the
machine and every solver's version, the spec, times with their zone; and the page as
headless Chromium shows it (its screenshot is left in the test's tmp folder)."""

import re
import shutil
import tomllib

import pytest

import cpqueens
from cpqueens.campaigns.spec import load_spec
from cpqueens.reporting.campaign.solver_programs import programs_of
from cpqueens.reporting.campaign.spec_from_runs import spec_text
from cpqueens.reporting.page.data import build_report, campaign_section
from cpqueens.reporting.page.machine import machine_info
from cpqueens.reporting.page.rendering import to_html, to_markdown
from cpqueens.solvers.installed import program_versions

SPEC = {
    "campaign": {"name": "small", "question": "decide", "time_limit": 7, "memory_limit_mb": 900,
                 "repeats": 2},
    "instances": [
        {"generator": "blocked", "n": [6], "blocked": [4, 10], "seeds": [1, 2]},
        {"generator": "plain", "n": [4, 5]},
    ],
    "solvers": [{"label": "ec", "backend": "exactcover"}, {"backend": "stack"}],
}  # fmt: skip

#: An ISO time with its UTC offset: ``2026-05-09T07:35:25+00:00``.
ZONED = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d"


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    db = tmp_path_factory.mktemp("campaign") / "results.sqlite"
    assert cpqueens.run_campaign(SPEC, db, workers=1).ok
    return db


@pytest.fixture(scope="module")
def report(results):
    import dataclasses

    data = build_report([4, 5], ["stack"], repeat=1, tree_n=3, profile_n=4)
    return dataclasses.replace(data, campaign=campaign_section(results))


def test_the_campaign_section_gives_limits_repeats_hosts_and_zoned_times(report):
    page = to_html(report)
    section = page.split("<h2>Campaign", 1)[1]
    details = dict(re.findall(r"<dt>([^<]*)</dt><dd>([^<]*)</dd>", section))
    assert details["question"] == "decide"
    assert details["time limit"].startswith("7.00 s of wall time per run")
    assert details["memory limit"].startswith("900 MB of resident memory")
    assert details["repeats"] == "2 runs of each instance and solver"
    assert details["runs"] == "24 runs on 6 instances"
    assert "(this machine)" in details["hosts"]
    assert re.fullmatch(f"{ZONED} to {ZONED}", details["runs started"])
    # The report's own time has its zone too.
    assert re.search(f"cpqueens {re.escape(cpqueens.__version__)} on Python [^,]+, {ZONED}", page)


def test_the_campaign_section_gives_the_spread_of_the_repeats(report):
    section = to_html(report).split("<h2>Campaign", 1)[1]
    assert "<th>first quartile</th><th>median</th><th>third quartile</th>" in section
    assert "<th>spread over repeats</th>" in section
    rows = re.findall(r"<tr><td>(ec|stack)</td><td>(\d+)</td>((?:<td>[^<]*</td>){4})</tr>",
                      section)  # fmt: skip
    assert sorted((label, solved) for label, solved, _ in rows) == [("ec", "12"), ("stack", "12")]
    for _, _, cells in rows:
        *times, spread = re.findall(r"<td>([^<]*)</td>", cells)
        assert all(re.fullmatch(r"\d+(\.\d+)? (s|ms|µs|ns)", t) for t in times), times
        assert re.fullmatch(r"\d+%", spread), spread


def test_the_campaign_section_names_every_solver_and_its_versions(report):
    section = to_html(report).split("<h2>Campaign", 1)[1]
    assert "<td>ec</td><td>backend exactcover</td>" in section
    assert "<td>stack</td><td>backend stack</td>" in section
    assert "<th>version of its runs</th><th>programs (found here)</th>" in section


def test_the_machine_section_names_os_python_and_the_solver_programs(report):
    page = to_html(report)
    for what in ("CPU", "OS", "Python", "cpqueens", "solver packages", "solver programs"):
        assert f"<dt>{what}</dt>" in page
    programs = dict(machine_info())["solver programs"]
    if shutil.which("minizinc"):
        assert re.search(r"MiniZinc \d+\.\d+", programs) and re.search(r"Gecode \d", programs)
    if shutil.which("java"):
        assert re.search(r"Java \S+ \d+", programs)


def test_the_programs_of_a_solver_are_the_minizinc_gecode_and_java_it_runs():
    versions = program_versions()
    minizinc = programs_of({"backend": "minizinc", "options": {}})
    assert minizinc == (
        f"MiniZinc {versions.get('MiniZinc', 'not found')}, "
        f"Gecode {versions.get('Gecode', 'not found')}"
    )
    java = programs_of({"command": "java -cp build Queens {instance}"})
    assert java == f"Java {versions.get('Java', 'not found')}"
    assert programs_of({"backend": "stack", "options": {}}) == ""


def test_the_campaign_is_written_back_as_a_spec_that_runs_the_same(report, results, tmp_path):
    page = to_html(report)
    shown = re.search(r'<pre class="spec">(.*?)</pre>', page, re.S)
    assert shown is not None
    import html

    text = html.unescape(shown.group(1))
    assert text == report.campaign.spec
    read = tomllib.loads(text)
    assert read["campaign"] == {"name": "small", "question": "decide", "time_limit": 7.0,
                                "memory_limit_mb": 900, "repeats": 2}  # fmt: skip
    again, first = load_spec(read), load_spec(SPEC)
    assert {i.key for i in again.instances} == {i.key for i in first.instances}
    assert [s.key for s in again.solvers] == [s.key for s in first.solvers]
    assert "```toml\n[campaign]" in to_markdown(report)
    # A campaign of instances that are not every combination: a table each.
    rows = cpqueens.load_results(results)
    some = [row for row in rows if row["params"] != {"n": 6, "blocked": 10, "seed": 2}]
    tables = tomllib.loads(spec_text(some))["instances"]
    assert sorted(len(t.get("seeds", [])) for t in tables if t["generator"] == "blocked") == [
        1, 1, 1
    ]  # fmt: skip


# ----------------------------------------------------------------------------- Chromium


def test_the_report_renders_in_headless_chromium(report, browser, tmp_path):
    from selenium.webdriver.common.by import By

    page = tmp_path / "report.html"
    page.write_text(to_html(report), encoding="utf-8")
    browser.get(page.as_uri())
    assert browser.find_element(By.TAG_NAME, "h1").text == "cpqueens report, n = 4..5"
    headings = [h.text for h in browser.find_elements(By.TAG_NAME, "h2")]
    assert "Machine" in headings
    assert any(h.startswith("Campaign") for h in headings)
    # The limits as the reader sees them, laid out (not hidden, not empty).
    terms = {dt.text: dt for dt in browser.find_elements(By.CSS_SELECTOR, "dl.machine dt")}
    limit = terms["time limit"].find_element(By.XPATH, "following-sibling::dd[1]")
    assert limit.is_displayed() and limit.text.startswith("7.00 s")
    assert "memory limit" in terms and "solver programs" in terms
    spec = browser.find_element(By.CSS_SELECTOR, "pre.spec")
    assert spec.is_displayed() and "time_limit = 7.0" in spec.text
    # Every picture decoded (a broken data URI has no natural width).
    images = browser.find_elements(By.TAG_NAME, "img")
    assert len(images) >= 4
    widths = [browser.execute_script("return arguments[0].naturalWidth", img) for img in images]
    assert all(width > 0 for width in widths), widths
    # Nothing wider than the window: the tables scroll in their own boxes.
    overflow = browser.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []
    shot = tmp_path / "report.png"
    browser.set_window_size(1280, browser.execute_script("return document.body.scrollHeight"))
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    print(f"screenshot: {shot}")
