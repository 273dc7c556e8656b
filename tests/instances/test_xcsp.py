"""XCSP3 instance files: PyCSP3's real files read, every form of the rules understood,
cpqueens' own files read back and solved by ACE, bad and hostile files refused."""

from __future__ import annotations

import gzip
import importlib.util
import json
import lzma
import pathlib
import re
import shutil
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor

import pytest
from click.testing import CliRunner
from reference import brute_force
from timing import Stopwatch

import cpqueens
from cpqueens import Instance, InvalidInputError
from cpqueens.cli import cli
from cpqueens.instances import format_instance, parse_instance
from cpqueens.instances.formats.xcsp.document import parse_xcsp
from cpqueens.outputs.answers import read_answer

DATA = pathlib.Path(__file__).parents[1] / "data" / "xcsp"
FIELD = pathlib.Path(__file__).parents[1] / "data" / "field" / "csplib-080"


def from_json(name: str) -> Instance:
    record = json.loads((DATA / name).read_text())
    return Instance(record["n"], fixed=record.get("queens", []), blocked=record.get("blocks", []))


# --- the files PyCSP3 writes (tests/data/xcsp/README.md says how each was made) --------

PYCSP3_FILES = {
    "Queens-8.xml": Instance(8),
    "Queens-8.xml.gz": Instance(8),
    "Queens-v1-6.xml": Instance(6),
    "Queens-v1-5-single.xml": Instance(5),
    "Queens-v2-6.xml": Instance(6),
    "Queens-v2-6.xml.lzma": Instance(6),
    "Queens-5-expanded.xml": Instance(5),
    "Queens-1.xml": Instance(1),
    "BlockedQueens-b6.xml": from_json("b6.json"),
    "CompletionQueens-c8.xml": from_json("c8.json"),
    "CompletionQueens-c8-one.xml": from_json("c8-one.json"),
}


@pytest.mark.parametrize("name", sorted(PYCSP3_FILES))
def test_every_form_pycsp3_writes_is_read(name):
    instance = cpqueens.read_instance(DATA / name)
    assert instance == PYCSP3_FILES[name]
    assert instance.name == name.split(".")[0]


def test_the_xcsp_2022_blocked_queens_instance_is_the_published_one():
    xcsp = cpqueens.read_instance(DATA / "BlockedQueens-28-1449787798.xml.lzma")
    published = cpqueens.read_instance(FIELD / "blockedqueens.28.1449787798.param")
    assert xcsp == published and len(xcsp.blocked) == 595
    assert cpqueens.solve(xcsp, backend="exactcover", limit=1).satisfiable is False


def test_what_is_read_is_solved_as_the_instance_says():
    instance = cpqueens.read_instance(DATA / "CompletionQueens-c8.xml")
    expected = brute_force(8, instance.fixed_rows, instance.blocked)
    assert set(cpqueens.solve(instance, backend="stack", limit=None).solutions) == expected


# --- forms of the rules written by hand: read by what they say --------------------------

EXPECTED = Instance(5, fixed={2: 2}, blocked=[(0, 0), (1, 3)])
HEAD = '<instance format="XCSP3" type="CSP">\n<variables>{variables}</variables>\n'
PLAIN_ARRAY = '<array id="x" size="[5]"> 0..4 </array>'


def _pairs(template: str) -> str:
    return "\n".join(template.format(i=i, j=j, d=j - i) for i in range(5) for j in range(i + 1, 5))


def _file(constraints: str, variables: str = PLAIN_ARRAY) -> str:
    return (
        HEAD.format(variables=variables)
        + f"<constraints>\n{constraints}\n</constraints>\n</instance>"
    )


UNARY = (
    "<intension> ne(x[0],0) </intension> <intension> ne(x[1],3) </intension>\n"
    "<intension> eq(x[2],2) </intension>"
)
FORMS = {
    "lists and compact ranges": UNARY
    + """
        <allDifferent><list> x[0..2] x[3..4] </list></allDifferent>
        <allDifferent> x[0] add(1,x[1]) add(x[2],2) add(x[3],1,2) add(x[4],4) </allDifferent>
        <allDifferent> add(x[0],7) add(x[1],-1,7) add(x[2],-2,7) sub(x[3],-4) add(x[4],3)
        </allDifferent>""",
    "pairs in a block, either order": "<block class='rules'>"
    + UNARY
    + _pairs(
        "<intension> ne(x[{j}],x[{i}]) </intension>"
        "<intension> ne(add(x[{i}],{i}),add(x[{j}],{j})) </intension>"
        "<intension> ne(sub(x[{j}],x[{i}]),{d}) </intension>"
    )
    + "</block>",
    "not, abs, function, mul": UNARY
    + _pairs(
        "<intension><function> not(eq(x[{i}],x[{j}])) </function></intension>"
        "<intension> ne(abs(sub(mul(2,x[{i}]),mul(2,x[{j}]))),mul({d},2)) </intension>"
    ),
    "tables": """
        <extension><list> x[0] </list><conflicts> 0 </conflicts></extension>
        <extension><list> x[1] </list><supports> 0..2 4 </supports></extension>
        <instantiation><list> x[2] </list><values> 2 </values></instantiation>
        """
    + _pairs(
        "<extension><list> x[{i}] x[{j}] </list><conflicts> "
        + "".join(f"({a},{a})" for a in range(5))
        + "{{diagonals}} </conflicts></extension>"
    ),
    "groups": """
        <group><intension> notin(%0,set(%1)) </intension>
          <args> x[0] 0 </args><args> x[1] 3 </args></group>
        <group><intension> in(%0,set(%1)) </intension><args> x[2] 2 </args></group>
        <group><allDifferent> %... </allDifferent><args> x[] </args></group>
        """
    + "<group><intension> and(ne(%0,%1),ne(dist(%0,%1),%2)) </intension>"
    + _pairs("<args> x[{i}] x[{j}] {d} </args>")
    + "</group>",
}


def _tables(text: str) -> str:
    """The diagonal conflicts of each pair of rows, in place of {diagonals}."""

    def fill(match: re.Match) -> str:
        i, j = int(match[1]), int(match[2])
        d = j - i
        pairs = [(a, b) for a in range(5) for b in range(5) if abs(a - b) == d]
        return match[0].replace("{diagonals}", "".join(f"({a},{b})" for a, b in pairs))

    return re.sub(r"x\[(\d)\] x\[(\d)\] </list><conflicts>[^<]*\{diagonals\}", fill, text)


@pytest.mark.parametrize("form", sorted(FORMS))
def test_each_form_of_the_rules_is_understood(form):
    text = _tables(_file(FORMS[form]))
    assert parse_instance(text, "xcsp", "form.xml") == EXPECTED


def test_blocked_squares_in_the_domains():
    variables = (
        '<array id="x" size="[5]"><domain for="x[0]"> 1..4 </domain>'
        '<domain for="x[1]"> 0 1 2 4 </domain><domain for="others"> 0..4 </domain></array>'
    )
    rules = "<intension> eq(x[2],2) </intension><allDifferent> x[] </allDifferent>"
    rules += "<allDifferent> " + " ".join(f"add(x[{r}],{r})" for r in range(5)) + " </allDifferent>"
    rules += "<allDifferent> " + " ".join(f"sub(x[{r}],{r})" for r in range(5)) + " </allDifferent>"
    text = _file(rules, variables)
    assert parse_instance(text, "xcsp") == EXPECTED
    annotated = text.replace(
        "</instance>", "<annotations><decision> x[] </decision></annotations></instance>"
    )
    assert parse_instance(annotated, "xcsp") == EXPECTED


# --- cpqueens' own files --------------------------------------------------------------

SAMPLES = [
    Instance(1),
    Instance(2),
    Instance(8),
    Instance(5, fixed={2: 2}, blocked=[(0, 0)]),
    Instance(6, fixed={0: 1, 5: 4}, blocked=[(1, 3), (2, 2)]),
    cpqueens.random_blocked(12, 40, seed=3),
    cpqueens.random_completion(20, 5, seed=2),
]


@pytest.mark.parametrize("suffix", [".xml", ".xml.lzma", ".xml.xz", ".xml.gz"])
@pytest.mark.parametrize("instance", SAMPLES, ids=repr)
def test_written_then_read_back(tmp_path, suffix, instance):
    path = cpqueens.write_instance(instance, tmp_path / f"case{suffix}")
    back = cpqueens.read_instance(path)
    assert back == instance and back.name == "case"
    assert parse_instance(format_instance(instance, "xcsp"), "xcsp") == instance


def test_compressed_files_are_what_their_names_say(tmp_path):
    instance = SAMPLES[4]
    text = format_instance(instance, "xcsp").encode()
    cpqueens.write_instance(instance, tmp_path / "a.xml.gz")
    cpqueens.write_instance(instance, tmp_path / "a.xml.xz")
    assert gzip.decompress((tmp_path / "a.xml.gz").read_bytes()) == text
    assert lzma.decompress((tmp_path / "a.xml.xz").read_bytes()) == text


@pytest.mark.slow
def test_a_large_board_is_written_and_read_quickly(tmp_path):
    blocked = [(row, (row * 7) % 20_000) for row in range(1, 20_000, 3)]
    instance = Instance(20_000, fixed={0: 5, 9: 100}, blocked=blocked)
    with Stopwatch() as clock:
        back = cpqueens.read_instance(cpqueens.write_instance(instance, tmp_path / "big.xml"))
    assert back == instance
    # About 0.65 s on a free core; the bound leaves room for a busy machine, whose
    # stretch the Stopwatch measures with plain Python and XML work feels more (seen:
    # 2.07 s in a full parallel run), and still catches a reader gone quadratic.
    assert clock.free_core_seconds < 3


@pytest.mark.slow
def test_generate_writes_xcsp_and_solve_answers_in_xcsp(tmp_path):
    runner = CliRunner()
    path = tmp_path / "b10.xml"
    made = runner.invoke(
        cli, ["generate", "blocked", "10", "--blocked", "30", "--seed", "2", "-o", str(path)]
    )
    assert made.exit_code == 0, made.output
    assert cpqueens.read_instance(path) == cpqueens.random_blocked(10, 30, seed=2)
    solved = runner.invoke(cli, ["solve", "--instance", str(path), "-f", "xcsp", "--all", "-q"])
    assert solved.exit_code == 0, solved.output
    assert solved.output.startswith("s SATISFIABLE\nv <instantiation")
    answer = read_answer(solved.output, 10, "all")
    expected = brute_force(10, {}, cpqueens.random_blocked(10, 30, seed=2).blocked)
    assert {tuple(board) for board in answer["solutions"]} == expected
    assert answer["count"] == len(expected) > 1
    none = runner.invoke(cli, ["solve", "3", "-f", "xcsp", "-q"])
    assert none.output == "s UNSATISFIABLE\n"


# --- ACE, the XCSP reference solver, on cpqueens' files ----------------------------------


def ace_command() -> list[str]:
    # Found, not imported: importing pycsp3 compiles a model when the process ends.
    spec = importlib.util.find_spec("pycsp3")
    if spec is None or spec.origin is None:
        pytest.skip("ACE comes in the pycsp3 package: pip install 'cpqueens[ace]'")
    folder = pathlib.Path(spec.origin).parent / "solvers" / "ace"
    jars = sorted(folder.glob("ACE-*.jar"))
    if not jars:
        pytest.skip("pycsp3 is installed without its ACE jar (pycsp3/solvers/ace/ACE-*.jar)")
    java = shutil.which("java")
    if java is None:
        pytest.skip(
            "ACE runs on Java 17: java is not on PATH (apt-get install default-jre-headless)"
        )
    return [java, "-jar", str(jars[-1])]


ACE_CASES = {
    "plain": Instance(8),
    "given and blocked": Instance(8, fixed={0: 0}, blocked=[(1, 2), (5, 5)]),
    "unsatisfiable": cpqueens.random_blocked(10, 55, seed=0),
    "one square": Instance(1),
}


@pytest.fixture(scope="module")
def ace_runs(tmp_path_factory):
    command = ace_command()
    folder = tmp_path_factory.mktemp("ace")

    def run(name: str) -> str:
        path = cpqueens.write_instance(ACE_CASES[name], folder / f"{name.replace(' ', '-')}.xml")
        done = subprocess.run(
            [*command, str(path), "-s=all"], capture_output=True, text=True, timeout=300
        )
        return re.sub(r"\x1b\[[0-9;]*m", "", done.stdout + done.stderr)

    with ThreadPoolExecutor(len(ACE_CASES)) as pool:
        return dict(zip(ACE_CASES, pool.map(run, ACE_CASES), strict=True))


@pytest.mark.slow
@pytest.mark.programs  # ACE on its JVM
@pytest.mark.parametrize("name", sorted(ACE_CASES))
def test_ace_solves_the_files_cpqueens_writes(ace_runs, name):
    output, instance = ace_runs[name], ACE_CASES[name]
    expected = brute_force(instance.n, instance.fixed_rows, instance.blocked)
    status = re.search(r"^s (\w+)", output, re.MULTILINE)
    assert status is not None, output[-2000:]
    assert status[1] == ("SATISFIABLE" if expected else "UNSATISFIABLE")
    assert "d COMPLETE EXPLORATION" in output
    assert int(re.search(r"d FOUND SOLUTIONS\s+(\d+)", output)[1]) == len(expected)
    answer = read_answer(
        "\n".join(re.findall(r"^[sv] .*", output, re.MULTILINE)), instance.n, "decide"
    )
    assert all(tuple(board) in expected for board in answer["solutions"])
    assert len(answer["solutions"]) == (1 if expected else 0)


# --- bad files: one clear error naming the file, at once ---------------------------------

QUEENS_8 = (DATA / "Queens-8.xml").read_text()
V1_6 = (DATA / "Queens-v1-6.xml").read_text()


def first(constraint: str) -> str:
    """Queens-8.xml with ``constraint`` before its own."""
    return QUEENS_8.replace("<constraints>", "<constraints>" + constraint)


def rule(predicate: str) -> str:
    return first(f'<intension id="c7"> {predicate} </intension>')


def swap(old: str, new: str, text: str = QUEENS_8) -> str:
    return text.replace(old, new)


DOWNWARD = re.compile(r"<allDifferent note=\"controlling no two queens on the same downward.*\n")
PAIR = "<args> q[1] q[4] 3 </args>"
BAD = {
    "a diagonal family dropped": (
        DOWNWARD.sub("", QUEENS_8),
        r"bad\.xml: the constraints do not state n-queens: no constraint keeps two queens off "
        r"one diagonal r - c",
    ),
    "a pair forgotten": (
        swap(PAIR, "", V1_6),
        r"no constraint keeps the queens of rows 1 and 4 off one diagonal r \+ c",
    ),
    "a wrong distance": (
        swap(PAIR, "<args> q[1] q[4] 2 </args>", V1_6),
        r"bad\.xml:16: <args>: args q\[1\] q\[4\] 2: q\[1\] - q\[4\] != 2 forbids the queens "
        r"of rows 1 and 4 to stand 2 columns apart",
    ),
    "a constraint that is no rule": (
        rule("or(ne(q[0],1),ne(q[1],2))"),
        r'bad\.xml:5: <intension id="c7">: or\(\.\.\.\) states no rule of n-queens',
    ),
    "a sum": (
        first("\n<sum><list> q[] </list><condition> (eq,28) </condition></sum>"),
        r"bad\.xml:6: <sum>: <sum> is no rule of n-queens",
    ),
    "a row equal to another": (rule("eq(q[0],q[1])"), r'id="c7">: .*ties two rows with eq'),
    "diagonals two apart": (
        swap("add(q[1],1) add(q[2],2)", "add(q[1],2) add(q[2],4)"),
        r"bad\.xml:7: <allDifferent>: it makes q\[0\] and q\[1\] \+ 2 differ",
    ),
    "a domain off the board": (
        swap("0..7", "0..8"),
        r"bad\.xml:3: <array id=\"q\">: the domain holds 8, off the board",
    ),
    "a blocked square off the board": (rule("ne(q[0],9)"), r"column 9 is off the board"),
    "a row off the array": (rule("ne(q[8],1)"), r"q\[8\] is off the array \(rows 0\.\.7\)"),
    "a wrong tag": (swap("instance", "instanse"), r"bad\.xml:1: <instanse>: the root element"),
    "an optimisation problem": (swap('"CSP"', '"COP"'), r"an n-queens instance is a CSP"),
    "a reified constraint": (
        first('<intension reifiedBy="b"> ne(q[0],1) </intension>'),
        r"the attribute reifiedBy='b' is not read",
    ),
    "a board of squares": (swap("[8]", "[8][8]"), r"an array of one dimension is expected"),
    "another variable": (
        swap("</variables>", '<var id="z"> 0..1 </var></variables>'),
        r'<var id="z">: cpqueens reads one array',
    ),
    "two queens on a row": (
        first("<instantiation><list> q[0] q[0] </list><values> 1 2 </values></instantiation>"),
        r"a second queen given on row 0 \(columns 1 and 2\)",
    ),
    "a queen on a blocked square": (
        rule("and(eq(q[3],3),ne(q[3],3))"),
        r"bad\.xml: .*stands on a blocked square",
    ),
    "cut in half": (
        QUEENS_8[: len(QUEENS_8) // 2],
        r"cannot read '.*bad\.xml': line \d+, column \d+: not well-formed XML",
    ),
    "an expression cut short": (rule("ne(q[0],"), r"an expression is expected, got the end"),
    "empty": ("", r"not well-formed XML: no element found"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_file_is_refused_at_once_naming_the_file(tmp_path, case):
    text, pattern = BAD[case]
    path = tmp_path / "bad.xml"
    path.write_text(text)
    with Stopwatch() as clock, pytest.raises(InvalidInputError) as caught:
        cpqueens.read_instance(path)
    assert str(path) in str(caught.value) or "bad.xml" in str(caught.value)
    assert re.search(pattern, str(caught.value)), str(caught.value)
    assert clock.free_core_seconds < 1


def test_a_huge_file_is_refused_by_its_size(tmp_path):
    for name in ("huge.xml", "huge.xml.gz"):
        with open(tmp_path / name, "wb") as sparse:  # 3 GB, taking no room on disk
            sparse.truncate(3 * 2**30)
        with (
            Stopwatch() as clock,
            pytest.raises(InvalidInputError, match=f"{name}'.*at most 100 MB, and it holds 3 GB"),
        ):
            cpqueens.read_instance(tmp_path / name)
        assert clock.free_core_seconds < 1


@pytest.mark.parametrize("suffix", [".xml.gz", ".xml.xz"])
def test_a_compression_bomb_is_refused_past_the_bound(tmp_path, suffix):
    # 101 streams of 1 MB of spaces each, one after another: 101 MB from a few hundred kB.
    megabyte = b" " * 2**20
    one = gzip.compress(megabyte) if suffix == ".xml.gz" else lzma.compress(megabyte)
    path = tmp_path / f"bomb{suffix}"
    path.write_bytes(one * 101)
    with (
        Stopwatch() as clock,
        pytest.raises(InvalidInputError, match="decompressed, an instance file is at most 100 MB"),
    ):
        cpqueens.read_instance(path)
    assert clock.free_core_seconds < 2


@pytest.mark.parametrize("suffix", [".xml.gz", ".xml.lzma"])
def test_a_compressed_file_cut_short_is_refused(tmp_path, suffix):
    whole = cpqueens.write_instance(Instance(30), tmp_path / f"whole{suffix}").read_bytes()
    (tmp_path / f"cut{suffix}").write_bytes(whole[: len(whole) // 2])
    with pytest.raises(InvalidInputError, match=r"cut.* not whole .* data"):
        cpqueens.read_instance(tmp_path / f"cut{suffix}")


# --- hostile XML: no entity, no DTD ------------------------------------------------------

SECRET = "cpqueens-secret-7f3a9"


@pytest.mark.parametrize(
    "doctype",
    [
        '<!DOCTYPE instance [<!ENTITY leak SYSTEM "file://{path}">]>',
        '<!DOCTYPE instance [<!ENTITY % leak SYSTEM "file://{path}"> %leak;]>',
        '<!DOCTYPE instance SYSTEM "file://{path}">',
    ],
)
def test_an_entity_pointing_at_a_local_file_is_never_read(tmp_path, doctype):
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET)
    text = doctype.format(path=secret) + QUEENS_8.replace("0..7", "&leak; 0..7")
    for path in (tmp_path / "leak.xml", tmp_path / "leak.graphml"):
        path.write_text(text)
        reader = cpqueens.read_instance if path.suffix == ".xml" else cpqueens.read_tree
        with pytest.raises(InvalidInputError) as caught:
            reader(path)
        assert SECRET not in str(caught.value) and SECRET not in repr(caught.value.args)
        assert "document type declaration" in str(caught.value)


LAUGHS = "".join(f' <!ENTITY a{k} "' + f"&a{k - 1};" * 10 + '">\n' for k in range(1, 10))
BOMB = (
    """<?xml version="1.0"?>
<!DOCTYPE instance [
 <!ENTITY a0 "lol">
"""
    + LAUGHS
    + """]>
<instance format="XCSP3" type="CSP">
<variables><array id="q" size="[8]"> &a9; </array></variables></instance>
"""
)


def test_an_entity_bomb_is_refused_at_once_in_little_memory(tmp_path):
    path = tmp_path / "bomb.xml"
    path.write_text(BOMB)
    (tmp_path / "bomb.graphml").write_text(BOMB)
    child = textwrap.dedent(
        f"""
        import json, resource, sys, time
        import cpqueens
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        started = time.perf_counter()
        refused = []
        for reader, path in ((cpqueens.read_instance, {str(path)!r}),
                             (cpqueens.read_tree, {str(tmp_path / "bomb.graphml")!r})):
            try:
                reader(path)
            except cpqueens.InvalidInputError as error:
                refused.append(str(error))
        seconds = time.perf_counter() - started
        grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
        print(json.dumps({{"seconds": seconds, "grown_kb": grown, "refused": refused}}))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", child], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert len(report["refused"]) == 2 and all("DOCTYPE instance" in r for r in report["refused"])
    assert report["seconds"] < 1
    assert report["grown_kb"] < 100 * 1024


def test_nesting_too_deep_is_refused_without_a_recursion_error():
    deep = '<instance format="XCSP3" type="CSP">' + "<block>" * 100_000
    with pytest.raises(InvalidInputError, match="nested deeper than 64 levels"):
        parse_instance(deep, "xcsp", "deep.xml")
    predicate = "ne(" * 200 + "q[0]" + ",1)" * 200
    with pytest.raises(InvalidInputError, match=r"deep\.xml:5: <intension>: nested deeper"):
        parse_instance(rule(predicate).replace(' id="c7"', ""), "xcsp", "deep.xml")


def test_encodings_the_file_declares_are_read():
    declared = '<?xml version="1.0" encoding="UTF-16"?>\n' + QUEENS_8
    assert parse_xcsp(declared.encode("utf-16"), "u16.xml") == Instance(8)
    assert parse_xcsp(b"\xef\xbb\xbf" + QUEENS_8.encode(), "bom.xml") == Instance(8)


@pytest.mark.slow
def test_a_program_reading_xcsp3_files_is_cross_checked_on_instances():
    # cpqueens itself as the XCSP solver: it reads the .xml file, answers in s and v lines.
    program = f"{sys.executable} -m cpqueens solve --instance {{instance}} -f xcsp -q -b stack"
    solver = cpqueens.Command(program, instance_format="xml")
    cases = [ACE_CASES["given and blocked"], ACE_CASES["unsatisfiable"]]
    report = cpqueens.crosscheck(cases, [solver], "tree")
    assert [row.answer for row in report.rows] == ["sat", "unsat"]
    assert report.ok
