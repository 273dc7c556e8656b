"""Text from elsewhere, shown as written and never obeyed: labels, instance names, what a
program prints on either pipe, on a terminal, in a Markdown report (rendered by a
CommonMark renderer and opened in Chromium) and in a faults CSV; files written with
the umask's mode; a report's picture folder that is a symbolic link refused; a
program's environment inherited, or exactly the one given."""

from __future__ import annotations

import csv
import dataclasses
import html.parser
import io
import os
import re
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import cpqueens
from cpqueens.cli import cli
from cpqueens.display.cells import markdown_text, spreadsheet_cell
from cpqueens.display.terminal import printable
from cpqueens.reporting.page.data import CampaignSection, build_report
from cpqueens.reporting.page.markup import MARKDOWN
from cpqueens.reporting.page.rendering import campaign_parts, markdown_report, write_markdown
from cpqueens.reporting.tables import format_grid

#: The label of the issue: markup, an event handler and a pipe.
MARKUP = "<img src=x onerror=\"document.title='x'\">|pipe"
#: A window title (OSC), a bell, a carriage return and a newline.
CONTROLS = "\x1b]0;pwned\x07 bell\x07 cr\r over\nnext"
#: Every character that must not reach a terminal raw ("\n" is kept between lines).
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """The command line as a user runs it: its bytes on both pipes, decoded strictly."""
    done = subprocess.run(
        [sys.executable, "-m", "cpqueens", *args], capture_output=True, cwd=cwd, timeout=120
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode(), done.stderr.decode()
    )


# ----------------------------------------------------------------------------- terminal


def test_printable_escapes_every_control_and_drops_colours():
    assert printable(CONTROLS) == "\\x1b]0;pwned\\x07 bell\\x07 cr\\r over\\nnext"
    assert printable("\x1b[1;31merror\x1b[0m \x9b2J") == "error "
    assert printable("del\x7f c1\x85 nul\x00 tab\t rtl\u202e") == (
        "del\\x7f c1\\x85 nul\\x00 tab\\t rtl\\u202e"
    )
    assert printable("one\r\ntwo\x07\n", multiline=True) == "one\ntwo\\x07\n"
    for text in (CONTROLS, MARKUP, "ünïcode 中文 ♛"):
        assert printable(printable(text)) == printable(text)
    assert printable("ünïcode 中文 ♛ a\\b") == "ünïcode 中文 ♛ a\\b"


def test_a_table_row_stays_one_row_on_a_terminal():
    grid = [["solver", "solved"], [CONTROLS, "3"], ["stack", "4"]]
    lines = format_grid(grid).splitlines()
    assert len(lines) == 3 and not RAW.search("\n".join(lines))
    assert lines[1].startswith("\\x1b]0;pwned") and lines[1].endswith("3")


def test_the_report_of_a_crosscheck_shows_labels_as_written():
    def wrong(n):
        return [(1, 3, 0, 2)]

    report = cpqueens.crosscheck(4, {CONTROLS: wrong})
    text = str(report)
    assert not RAW.search(text) and "\\x1b]0;pwned" in text
    # The header, its rule, one row, the line saying what is wrong, the verdict.
    assert len(text.splitlines()) == 5


@pytest.fixture(scope="module")
def hostile_program(tmp_path_factory) -> Path:
    """A program whose every word is hostile: on standard error when it fails, in
    the lines it prints (boards, a note, lines that are no board) when it does not."""
    script = tmp_path_factory.mktemp("programs") / "hostile.py"
    script.write_text(
        textwrap.dedent(
            """\
            import sys
            if sys.argv[1] == "fail":
                sys.stderr.write("warming up\\n\\x1b]0;pwned\\x07\\x1b[2J bell\\x07\\r"
                                 "over\\n\\x9b31mcolour\\n")
                sys.exit(3)
            print("Note: \\x1b]0;pwned\\x07 a bell\\x07\\r over")
            print("1 3 0 2")
            print('=HYPERLINK("http://evil") 1 3 0 2')
            print("-1 -1 -1 -1")
            print("\\x1b]0;pwned\\x07 2 0 3 1")
            """
        )
    )
    return script


@pytest.mark.slow
def test_crosscheck_shows_labels_stderr_and_lines_escaped(hostile_program, tmp_path):
    label = shell_quote(CONTROLS)
    failing = f"{shell_quote(sys.executable)} {hostile_program} fail {label}"
    printing = f"{shell_quote(sys.executable)} {hostile_program} print {label}"
    done = run_cli("crosscheck", "4", "--command", failing, "--command", printing)
    assert done.returncode == 1, done.stderr
    for pipe in (done.stdout, done.stderr):
        assert not RAW.search(pipe), ascii(pipe)
    table, problems = done.stdout.split("\n\n")
    # The header, the reference, a row per program: a newline in a label splits none.
    rows = table.splitlines()
    assert len(rows) == 4 and all("\\x1b]0;pwned" in row for row in rows[2:])
    assert all(line.startswith(("E ", "! ", "  ")) for line in problems.splitlines())
    # The end of standard error, escaped, its colours dropped.
    assert "standard error ends: \\x1b]0;pwned\\x07 bell\\x07 | over | colour" in problems
    # Its prose as it was printed (a carriage return ends a line, as a newline does).
    assert "note, line 1: 'Note: \\x1b]0;pwned\\x07 a bell\\x07'" in done.stdout


@pytest.mark.slow
def test_an_instance_name_and_a_file_name_are_escaped(hostile_program, tmp_path):
    instance = tmp_path / f"x{CONTROLS}.json"
    instance.write_text('{"n": 5, "queens": [[0, 0]]}')
    done = run_cli("crosscheck", "--instance", str(instance), "--backends", "stack")
    assert done.returncode == 0, done.stderr
    assert not RAW.search(done.stdout + done.stderr)
    assert "x\\x1b]0;pwned\\x07 bell\\x07 cr\\r over\\nnext" in done.stdout.splitlines()[0]
    printed = subprocess.run(
        [sys.executable, str(hostile_program), "print"], capture_output=True, check=True
    ).stdout
    output = tmp_path / f"out{CONTROLS}.txt"
    output.write_bytes(printed)
    done = run_cli("verify", "4", str(output))
    assert done.returncode == 1
    assert not RAW.search(done.stdout + done.stderr), ascii(done.stdout)
    assert done.stdout.startswith("n=4, ") and "out\\x1b]0;pwned" in done.stdout.splitlines()[0]
    # The lines that are no board, as they were printed.
    assert "line 6: '\\x1b]0;pwned\\x07 2 0 3 1'  (not a board of size 4)" in done.stdout


def shell_quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


# ----------------------------------------------------------------------------- Markdown


class _Cells(html.parser.HTMLParser):
    """The rows of every table of an HTML page, each a list of its cells' text; and
    every tag met, with its attributes."""

    def __init__(self, page: str):
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self.tags: list[tuple[str, dict]] = []
        self._cell: list[str] | None = None
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def commonmark(text: str) -> str:
    """Markdown as a CommonMark renderer with GFM tables makes it, raw HTML let through
    (markdown-it-py, which rich depends on)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table").render(text)


def _unescaped_pipes(line: str) -> int:
    return len(re.findall(r"(?<!\\)\|", line))


@pytest.mark.parametrize("label", [MARKUP, CONTROLS, "a *b* _c_ `d` [e](f) ~g~ # h \\ & &amp;"])
def test_a_markdown_cell_renders_as_its_text(label):
    table = format_grid([["solver", "solved"], [label, "3"]], "markdown")
    lines = table.splitlines()
    assert len(lines) == 3 and {_unescaped_pipes(line) for line in lines} == {3}
    page = commonmark(table)
    parsed = _Cells(page)
    assert "<img" not in page and not any(tag == "img" for tag, _ in parsed.tags)
    assert parsed.rows == [["solver", "solved"], [_shown(label), "3"]]


def _shown(label: str) -> str:
    """What a reader sees of a label: its characters, a line break as a space and
    any other control character as its escape."""
    return printable(re.sub(r"\r\n|[\n\r\t]", " ", label))


def test_markdown_text_escapes_what_opens_a_block():
    for text in ("- item", "+ item", "3. item", "# heading", "> quote", "---", "***", "==="):
        page = commonmark(markdown_text(text, starts_block=True))
        assert page.strip() == f"<p>{html_escape(text)}</p>", page


def html_escape(text: str) -> str:
    import html

    return html.escape(text, quote=False)


def _hostile_section() -> CampaignSection:
    return CampaignSection(
        source=f"/tmp/{MARKUP}.sqlite",
        campaign=MARKUP,
        summary=(),
        wrong=(f"{MARKUP} on {CONTROLS}: says sat, the reference unsat",),
        cactus_png=b"\x89PNG",
        transition_png=b"",
        details=((MARKUP, CONTROLS),),
        solvers=(("solver", "configuration"), (MARKUP, "command ./x ```")),
        spec=f'[[solvers]]\nlabel = "{MARKUP}"\ncommand = "```"\n',
    )


@pytest.fixture(scope="module")
def hostile_report():
    """A report whose cross-check has a backend and an instance named with markup, one
    of them wrong, and whose campaign section is all markup."""

    def wrong(case):
        return [(1, 3, 0, 2)]

    data = build_report([4], ["stack"], repeat=1, tree_n=3, profile_n=4)
    instance = cpqueens.Instance(5, fixed={0: 0}, name=MARKUP)
    rows = cpqueens.crosscheck([4, instance], {MARKUP: wrong, "stack": "stack"}).rows
    return dataclasses.replace(data, crosscheck_rows=tuple(rows), campaign=_hostile_section())


@pytest.mark.slow
def test_the_markdown_report_keeps_every_row_and_shows_the_labels(hostile_report):
    text, _ = markdown_report(hostile_report, "report_files")
    page = commonmark(text)
    parsed = _Cells(page)
    assert not any("onerror" in attributes for _, attributes in parsed.tags)
    assert not re.search(r"<img src=.?x", page)
    # Every row of the cross-check has the header's cells; the label reads as written.
    check = next(i for i, row in enumerate(parsed.rows) if row[0] == "instance")
    width = len(parsed.rows[check])
    assert [len(row) for row in parsed.rows[check : check + 4]] == [width] * 4
    assert parsed.rows[check][2] == MARKUP  # the instance's column
    assert [row[0] for row in parsed.rows[check + 2 : check + 4]] == [MARKUP, "stack"]
    assert f"! {MARKUP} n=4" in html_unescape(page)
    # The campaign: its title, details, wrong answers, solvers, and the spec whole.
    assert f"Campaign {MARKUP}" in html_unescape(page)
    assert f"{MARKUP} on {_shown(CONTROLS)}: says sat" in html_unescape(page)
    spec = re.search(r'<pre><code class="language-toml">(.*?)</code></pre>', page, re.S)
    assert spec is not None and html_unescape(spec[1]) == hostile_report.campaign.spec


def html_unescape(text: str) -> str:
    import html

    return html.unescape(text)


def test_the_campaign_section_alone_is_escaped_too():
    text = "\n\n".join(campaign_parts(_hostile_section(), MARKDOWN))
    page = commonmark(text)
    assert "<img" not in page.replace('<img src="data:', "")
    assert MARKDOWN.code("a\n```\nb", "toml", "spec") == "````toml\na\n```\nb\n````"


def test_chromium_runs_no_handler_of_a_label(hostile_report, browser, tmp_path):
    from selenium.webdriver.common.by import By

    def opened(body: str) -> str:
        page = tmp_path / "page.html"
        page.write_text(f"<!DOCTYPE html><title>clean</title><body>{body}</body>")
        browser.get(page.as_uri())
        return page.as_uri()

    # The test can see a handler run: a label written raw into a table runs it.
    opened(commonmark(f"| solver |\n|:--|\n| {MARKUP} |\n"))
    assert _title_after(browser, "x") == "x"
    # The report's Markdown, rendered, opened: no picture of a label, no handler run.
    text, _ = markdown_report(hostile_report)
    opened(commonmark(text))
    handled = browser.find_elements(By.CSS_SELECTOR, "img[onerror], img[src='x']")
    assert handled == [] and _title_after(browser, "x", wait=1.0) == "clean"
    cells = [cell.text for cell in browser.find_elements(By.TAG_NAME, "td")]
    assert MARKUP in cells


def _title_after(driver, wanted: str, wait: float = 10.0) -> str:
    """The page's title once it is ``wanted`` or ``wait`` seconds have passed."""
    end = time.monotonic() + wait
    while driver.title != wanted and time.monotonic() < end:
        time.sleep(0.05)
    return driver.title


# ----------------------------------------------------------------------------- CSV


def test_spreadsheet_cells_quote_formulas_and_keep_numbers():
    for formula in ('=HYPERLINK("http://evil")', "+1+1", "-1 -1", "@SUM(A1)", "\t=1", "\r=1"):
        assert spreadsheet_cell(formula) == "'" + formula
    for kept in ("-3", "+2.5", "-1e5", "plain", "", "[0, 1]", -3, 2.5, None):
        assert spreadsheet_cell(kept) == kept


def test_the_faults_csv_quotes_formulas(hostile_program, tmp_path):
    faults = tmp_path / "f.csv"
    command = f"{shell_quote(sys.executable)} {hostile_program} print"
    result = CliRunner().invoke(cli, ["crosscheck", "4", "--command", command,
                                      "--faults", str(faults)])  # fmt: skip
    assert result.exit_code == 1, result.output
    rows = list(csv.DictReader(io.StringIO(faults.read_text())))
    texts = {row["text"] for row in rows if row["text"]}
    assert '\'=HYPERLINK("http://evil") 1 3 0 2' in texts and "'-1 -1 -1 -1" in texts
    assert not any(cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row.values())
    # Numbers stay numbers.
    assert {row["n"] for row in rows} == {"4"} and all(row["line"].isdigit() or not row["line"]
                                                       for row in rows)  # fmt: skip
    # JSON holds the text as printed: no spreadsheet reads it.
    as_json = tmp_path / "f.json"
    CliRunner().invoke(cli, ["crosscheck", "4", "--command", command, "--faults", str(as_json)])
    assert '=HYPERLINK(\\"http://evil\\") 1 3 0 2' in as_json.read_text()


def test_the_libraries_faults_csv_quotes_formulas_too(hostile_program, tmp_path):
    import cpqueens

    program = cpqueens.Command([sys.executable, str(hostile_program), "print"])
    report = cpqueens.crosscheck([4], backends=[program])
    faults = report.write_faults(tmp_path / "f.csv")
    texts = {row["text"] for row in csv.DictReader(io.StringIO(faults.read_text()))}
    assert '\'=HYPERLINK("http://evil") 1 3 0 2' in texts


# ----------------------------------------------------------------------------- files


@pytest.mark.slow
@pytest.mark.parametrize(("umask", "mode"), [(0o077, 0o600), (0o022, 0o644), (0o002, 0o664)])
def test_a_new_file_has_the_mode_the_umask_gives(tmp_path, umask, mode):
    target = tmp_path / "out.txt"
    code = (
        f"import os; os.umask({umask}); "
        "from cpqueens.disk.writing import write_atomic; "
        f"write_atomic({str(target)!r}, 'x')"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
    assert stat.S_IMODE(target.stat().st_mode) == mode


def test_a_file_replaced_keeps_its_mode(tmp_path):
    from cpqueens.disk.writing import write_atomic

    target = tmp_path / "private.txt"
    target.write_text("old")
    target.chmod(0o600)
    write_atomic(target, "new")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600 and target.read_text() == "new"


def test_a_symlinked_picture_folder_is_refused(tmp_path, hostile_report):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "rep_files").symlink_to(elsewhere)
    start = time.monotonic()
    done = run_cli("report", "4", "--backends", "stack", "-o", "rep.md", cwd=tmp_path)
    assert done.returncode == 2 and time.monotonic() - start < 30
    (line,) = done.stderr.splitlines()
    assert "rep_files" in line and "symbolic link" in line
    with pytest.raises(cpqueens.InvalidInputError, match=r"rep_files.*symbolic link"):
        write_markdown(hostile_report, tmp_path / "rep.md")
    assert list(elsewhere.iterdir()) == [] and not (tmp_path / "rep.md").exists()
    (tmp_path / "other_files").write_text("a file")
    with pytest.raises(cpqueens.InvalidInputError, match=r"other_files.*not a folder"):
        write_markdown(hostile_report, tmp_path / "other.md")


# ----------------------------------------------------------------------------- environment

#: A program that shows its environment, and is no Python (which adds LC_CTYPE to its
#: own when it starts in the C locale).
SHOW_ENV = "/usr/bin/env"


def shown_environment(printed: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in printed.splitlines())


def test_a_program_inherits_the_environment_by_default(monkeypatch):
    monkeypatch.setenv("CPQUEENS_SECRET", "inherited")
    printed = cpqueens.Command([SHOW_ENV]).run(4).stdout
    shown = shown_environment(printed)
    # Every variable of this process, as it is. (A native library may set more with
    # setenv, which os.environ does not see but a child inherits: COLUMNS, LINES.)
    assert {name: shown.get(name) for name in os.environ} == dict(os.environ)
    assert shown["CPQUEENS_SECRET"] == "inherited"


def test_a_program_given_an_environment_gets_exactly_it(monkeypatch):
    monkeypatch.setenv("CPQUEENS_SECRET", "inherited")
    for given in ({"ONLY": "this", "PATH": os.environ["PATH"]}, {"LC_CTYPE": "fr"}, {}):
        printed = cpqueens.Command([SHOW_ENV], env=given).run(4).stdout
        assert shown_environment(printed) == given
    # PATH is the mapping's: a bare name is looked for there, and not found.
    with pytest.raises(cpqueens.ProgramNotFoundError, match="not on the PATH"):
        cpqueens.Command("python3 -c pass", env={"PATH": "/nonexistent"}).run(4)
    with pytest.raises(cpqueens.InvalidInputError, match="cannot name"):
        cpqueens.Command("true", env={"A=B": "1"})
    with pytest.raises(cpqueens.InvalidTypeError):
        cpqueens.Command("true", env={"A": 1})


def test_clean_env_and_env_on_the_command_line(monkeypatch, tmp_path):
    import json

    monkeypatch.setenv("CPQUEENS_SECRET", "inherited")
    script, seen = tmp_path / "env.py", tmp_path / "env.json"
    script.write_text(
        "import json, os, sys\n"
        "open(sys.argv[1], 'w').write(json.dumps(dict(os.environ)))\n"
        "print('1 3 0 2'); print('2 0 3 1')\n"
    )
    command = f"{shell_quote(sys.executable)} {script} {seen}"

    def environment(*options: str) -> dict:
        result = CliRunner().invoke(cli, ["crosscheck", "4", "--command", command, *options])
        assert result.exit_code == 0, result.output
        return json.loads(seen.read_text())

    assert environment()["CPQUEENS_SECRET"] == "inherited"
    clean = environment("--clean-env", "--env", "OMP_NUM_THREADS=1")
    assert "CPQUEENS_SECRET" not in clean and clean["OMP_NUM_THREADS"] == "1"
    kept = {"PATH", "HOME", "USER", "LANG", "TZ", "TMPDIR", "OMP_NUM_THREADS"}
    assert {name for name in clean if not name.startswith("LC_")} <= kept
    assert clean["PATH"] == os.environ["PATH"]
    assert environment("--env", "EXTRA=a=b")["EXTRA"] == "a=b"
    result = CliRunner().invoke(cli, ["crosscheck", "4", "--command", command, "--env", "X"])
    assert result.exit_code == 2 and "--env takes NAME=VALUE" in result.output
    result = CliRunner().invoke(cli, ["crosscheck", "4", "--clean-env"])
    assert result.exit_code == 2 and "--clean-env" in result.output


def test_a_campaigns_labels_are_escaped_on_the_terminal_and_in_csv(tmp_path):
    spec = tmp_path / "c.toml"
    spec.write_text(
        textwrap.dedent(
            """\
            [campaign]
            time_limit = 5
            [[instances]]
            generator = "plain"
            n = [4, 5]
            [[solvers]]
            backend = "stack"
            label = "=HYPERLINK(1)\\u001b]0;pwned\\u0007"
            """
        )
    )
    db = tmp_path / "r.sqlite"
    ran = CliRunner().invoke(cli, ["campaign", "run", str(spec), "--db", str(db)])
    shown = CliRunner().invoke(cli, ["campaign", "summary", str(db)])
    for result in (ran, shown):
        assert result.exit_code == 0, result.output
        assert "\x1b" not in result.output and "\x07" not in result.output
        assert "\\x1b]0;pwned\\x07" in result.output
    table = CliRunner().invoke(cli, ["campaign", "summary", str(db), "--csv"]).output
    labels = [row["solver"] for row in csv.DictReader(io.StringIO(table))]
    assert "'=HYPERLINK(1)\x1b]0;pwned\x07" in labels
