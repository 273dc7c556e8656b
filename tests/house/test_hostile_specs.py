"""Campaign specs that ask for too much, or for something that cannot be: priced when
read, before anything is built (boards beyond every solver, generators that would
visit too many squares, too many runs), each refused in one line with the number and
the bound, in well under a second; every key checked when read; a campaign whose runs
all end in an error says so and fails."""

from __future__ import annotations

import json
import textwrap
import time

import pytest
from click.testing import CliRunner

import cpqueens
from cpqueens.campaigns import pricing
from cpqueens.campaigns import spec as spec_module
from cpqueens.campaigns.spec import load_spec
from cpqueens.cli import cli
from cpqueens.cli.campaigns import RUNS_FAILED
from cpqueens.errors import InvalidInputError

PROGRAM = {"label": "mine", "command": "./mysolver {instance}"}  # any size: not priced


def spec(instances: list[dict], solvers: list[dict], **campaign) -> dict:
    return {"campaign": {"time_limit": 5, **campaign}, "instances": instances,
            "solvers": solvers}  # fmt: skip


def toml(data: dict) -> str:
    """The spec as TOML (tables of plain values only, as these tests write them)."""

    def value(v: object) -> str:
        return json.dumps(v)

    lines = ["[campaign]"] + [f"{k} = {value(v)}" for k, v in data["campaign"].items()]
    for kind in ("instances", "solvers"):
        for table in data[kind]:
            lines.append(f"[[{kind}]]")
            lines += [f"{k} = {value(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"


@pytest.fixture
def no_generator(monkeypatch):
    """Any instance built fails the test: a refusal must come before."""

    def refuse(*args, **kwargs):
        raise AssertionError("an instance was built before the spec was priced")

    for name in ("random_blocked", "random_completion", "Instance", "read_instance"):
        monkeypatch.setattr(spec_module, name, refuse)


HUGE = [
    (
        spec([{"generator": "plain", "n": [1, 1_000_000_000]}], [{"backend": "stack"}]),
        ["[[instances]] #1", "n=1,000,000,000", "n=20,000 (stack)"],
    ),
    (
        spec([{"generator": "blocked", "n": [100_000], "blocked": [1]}], [{"backend": "stack"}]),
        ["n=100,000 is beyond every solver", "n=20,000"],
    ),
    (
        spec([{"generator": "blocked", "n": [100_000], "blocked": [1]}], [PROGRAM]),
        ["visits every square", "10,000,000,000 squares", "bound of 4,000,000"],
    ),
    (
        spec([{"generator": "completion", "n": [3000], "queens": [10]}], [PROGRAM]),
        ["'completion' visits every square", "9,000,000 squares"],
    ),
    (
        spec([{"generator": "plain", "n": [4]}], [{"backend": "stack"}], repeats=1_000_000_000),
        [
            "1,000,000,000 runs",
            "(1 instance x 1 solver x 1,000,000,000 repeats)",
            "bound of 1,000,000 runs",
        ],
    ),
    (
        spec(
            [
                {
                    "generator": "blocked",
                    "n": list(range(4, 1004)),
                    "blocked": list(range(1000)),
                    "seeds": list(range(1000)),
                }
            ],
            [{"backend": "stack"}],
        ),
        ["squares in all", "bound of 20,000,000"],
    ),
    (
        spec(
            [{"generator": "plain", "n": list(range(1, 2001))}],
            [{"backend": "stack"}, {"backend": "bitmask"}, {"backend": "exactcover"}],
            repeats=200,
        ),
        ["1,200,000 runs", "(2,000 instances x 3 solvers x 200 repeats)"],
    ),
    (
        spec(
            [
                {
                    "generator": "blocked",
                    "n": [1000],
                    "blocked": [10, 20, 30],
                    "seeds": list(range(8)),
                }
            ],
            [{"backend": "cpsat"}],
        ),
        ["24,000,000 squares in all"],
    ),
]


@pytest.mark.parametrize(("data", "words"), HUGE)
def test_a_spec_is_priced_before_anything_is_built(tmp_path, no_generator, data, words):
    started = time.perf_counter()
    with pytest.raises(InvalidInputError) as caught:
        load_spec(data)
    assert time.perf_counter() - started < 0.5
    for word in words:
        assert word in str(caught.value), str(caught.value)


@pytest.mark.parametrize(("data", "words"), HUGE[:5])
def test_the_command_refuses_a_costly_spec_in_one_line(tmp_path, data, words):
    (tmp_path / "c.toml").write_text(toml(data))
    started = time.perf_counter()
    result = CliRunner().invoke(cli, ["campaign", "run", str(tmp_path / "c.toml"),
                                      "--db", str(tmp_path / "r.sqlite")])  # fmt: skip
    assert time.perf_counter() - started < 1.0
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {tmp_path / 'c.toml'}: "), lines
    for word in words:
        assert word in lines[0]
    assert not (tmp_path / "r.sqlite").exists()


def test_the_bounds_are_what_the_messages_say():
    assert pricing.MAX_RUNS == 1_000_000
    assert int(pricing.MAX_SQUARES**0.5) ** 2 == pricing.MAX_SQUARES


@pytest.mark.slow
def test_a_board_one_solver_takes_is_run_and_the_others_say_why_not(tmp_path):
    data = spec([{"generator": "plain", "n": [40]}],
                [{"backend": "stack"}, {"backend": "bitmask"}])  # fmt: skip
    report = cpqueens.run_campaign(data, tmp_path / "r.sqlite", workers=1)
    assert [(e["solver"], e["errors"]) for e in report.errors] == [("bitmask", 1)]
    assert "n <= 32" in report.errors[0]["reason"]


def test_a_file_instance_beyond_every_solver_is_refused_naming_it(tmp_path):
    # exactcover takes n <= 1,000
    (tmp_path / "big.json").write_text('{"n": 1001, "blocks": [], "queens": []}')
    data = spec([{"files": str(tmp_path / "*.json")}], [{"backend": "exactcover"}])
    with pytest.raises(InvalidInputError, match=r"big\.json: n=1,001 is beyond every solver"):
        load_spec(data)


def test_a_glob_over_a_folder_with_links_looping_back_up_ends_at_once(tmp_path):
    # Python's glob follows linked folders: two links back up made ** walk 2^40 paths.
    folder = tmp_path / "instances" / "deep"
    folder.mkdir(parents=True)
    for n in (4, 5):
        (folder / f"q{n}.json").write_text(f'{{"n": {n}, "blocks": [], "queens": []}}')
    (folder / "up").symlink_to(tmp_path)
    (folder / "again").symlink_to(tmp_path / "instances")
    data = spec([{"files": str(tmp_path / "instances" / "**" / "*.json")}],
                [{"backend": "stack"}])  # fmt: skip
    started = time.monotonic()
    loaded = load_spec(data)
    assert time.monotonic() - started < 5
    assert sorted(item.instance.n for item in loaded.instances) == [4, 5]


@pytest.mark.parametrize(
    "pattern",
    ["*.json", "**/*.json", "sub/**", "**/c?.json", "sub/[ab]*.json", "sub/[!a]*", "**",
     ".hidden/*", "sub/**/x*", "*/*.txt"],
)  # fmt: skip
def test_the_spec_glob_matches_what_python_glob_matches_where_no_link_is(tmp_path, pattern):
    import glob

    from cpqueens.disk.globbing import match_files

    for name in ("a.json", "b.txt", "sub/a1.json", "sub/b2.json", "sub/c3.txt",
                 "sub/deeper/c4.json", "sub/deeper/x5.json", ".hidden/h.json",
                 "sub/.dot.json", "other/z.txt"):  # fmt: skip
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}")
    full = str(tmp_path / pattern)
    assert match_files(full) == sorted(glob.glob(full, recursive=True))


def test_from_solution_completions_are_not_priced_by_the_square():
    data = spec([{"generator": "completion", "n": [3000], "queens": [0], "seeds": [1],
                  "from_solution": True}], [{"backend": "stack"}])  # fmt: skip
    assert [item.instance.n for item in load_spec(data).instances] == [3000]


# --- every key checked when read ------------------------------------------------------


def test_a_bad_parse_style_is_refused_when_the_spec_is_read(tmp_path):
    data = spec([{"generator": "plain", "n": [4]}], [{**PROGRAM, "parse": "bogus"}])
    with pytest.raises(InvalidInputError) as caught:
        load_spec(data)
    message = str(caught.value)
    assert message.startswith("[[solvers]] 'mine': ")
    assert "parse='bogus'" in message and "choose one of: auto, grid" in message
    (tmp_path / "c.toml").write_text(toml(data))
    result = CliRunner().invoke(cli, ["campaign", "run", str(tmp_path / "c.toml"),
                                      "--db", str(tmp_path / "r.sqlite")])  # fmt: skip
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "parse='bogus'" in result.stderr
    assert not (tmp_path / "r.sqlite").exists()


def test_a_campaign_whose_runs_all_end_in_an_error_fails_and_says_so(tmp_path):
    (tmp_path / "c.toml").write_text(
        textwrap.dedent("""
        [campaign]
        time_limit = 5
        [[instances]]
        generator = "plain"
        n = [4, 5]
        [[solvers]]
        label = "mine"
        command = "./no-such-solver {instance}"
        """)
    )
    db = tmp_path / "r.sqlite"
    result = CliRunner().invoke(cli, ["campaign", "run", str(tmp_path / "c.toml"), "--db",
                                      str(db), "-q"])  # fmt: skip
    assert result.exit_code == RUNS_FAILED, result.output
    first = result.stdout.splitlines()[0]
    assert first.startswith("ERROR: all 2 runs ended in an error (by mine) in campaign 'c'")
    assert "nothing was answered" in first
    assert "no wrong answer" not in result.output
    result = CliRunner().invoke(cli, ["campaign", "summary", str(db)])
    assert result.exit_code == RUNS_FAILED
    assert result.stdout.splitlines()[0] == (
        "ERROR: all 2 runs ended in an error (by mine): nothing was answered"
    )
    report = cpqueens.run_campaign(tmp_path / "c.toml", db)
    assert not report.ok and "no wrong answer" not in report.headline()


def test_an_unknown_key_anywhere_is_refused_naming_it():
    for data, where in [
        ({**spec([{"generator": "plain", "n": [4]}], [{"backend": "stack"}]), "extra": 1},
         "the spec"),
        (spec([{"generator": "plain", "n": [4], "blocked": [1]}], [{"backend": "stack"}]),
         "[[instances]] #1"),
        (spec([{"generator": "plain", "n": [4]}], [{"backend": "stack"}], colour="red"),
         "[campaign]"),
    ]:  # fmt: skip
        with pytest.raises(InvalidInputError, match=r"unknown key") as caught:
            load_spec(data)
        assert str(caught.value).startswith(where)


def test_counting_does_not_depend_on_the_size_of_the_lists():
    sizes = list(range(1, 20_001))
    data = spec([{"generator": "plain", "n": sizes}], [{"backend": "stack"}],
                repeats=100)  # fmt: skip
    started = time.perf_counter()
    with pytest.raises(InvalidInputError, match=r"2,000,000 runs"):
        load_spec(data)
    assert time.perf_counter() - started < 0.5
