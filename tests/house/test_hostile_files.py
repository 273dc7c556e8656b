"""Files handed to cpqueens by bad luck or on purpose: nothing hangs, nothing fills the
memory, every refusal is one line with exit status 2, in well under a second.

Each command runs in a child process with a time-out of its own, so that a probe
that would hang fails the test instead of hanging the suite.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time

import pytest
from processes import alive, tree_pids
from timing import Stopwatch

import cpqueens
from cpqueens.disk.reading import MEGABYTE, read_bytes, read_text
from cpqueens.disk.structured import MAX_DEPTH, load_json, load_toml
from cpqueens.errors import InvalidInputError

HANG = 30  # seconds after which a probe counts as hanging


def cpqueens_cli(*args: str, cwd, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run ``cpqueens ARGS`` in ``cwd`` as a user would; a hang fails the test."""
    try:
        return subprocess.run(
            [sys.executable, "-m", "cpqueens", *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=HANG,
            env={**os.environ, **(env or {})},
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"cpqueens {' '.join(args)} still ran after {HANG} s")


def refused_in_one_line(
    *args: str, cwd, words: str, env: dict | None = None, slack: float = 1.5
) -> str:
    """Run the command; it must end at once, in exit status 2 and one line naming ``words``
    (``slack``: the seconds it may take on a free core, Python's start included)."""
    with Stopwatch() as clock:
        done = cpqueens_cli(*args, cwd=cwd, env=env)
    lines = done.stderr.splitlines()
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert len(lines) == 1 and lines[0].startswith("Error: "), done.stderr
    assert words in lines[0], lines[0]
    assert "Traceback" not in done.stdout + done.stderr
    # A second of work, plus starting Python; stretched when the machine is busy.
    clock.check(0.0, slack=slack, what=f"cpqueens {' '.join(args)}")
    return lines[0]


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "fifo.json").parent.mkdir(exist_ok=True)
    os.mkfifo(tmp_path / "fifo.json")
    os.mkfifo(tmp_path / "fifo.toml")
    os.mkfifo(tmp_path / "fifo.txt")
    with open(tmp_path / "sparse.json", "wb") as sparse:  # 1 GB, taking no room on disk
        sparse.truncate(2**30)
    with open(tmp_path / "sparse.toml", "wb") as sparse:
        sparse.truncate(2**30)
    with open(tmp_path / "sparse.txt", "wb") as sparse:
        sparse.truncate(2**30)
    (tmp_path / "deep.json").write_text('{"n": ' + "[" * 100_000)
    (tmp_path / "deep.toml").write_text("x = " + "[" * 5_000)
    (tmp_path / "twice.json").write_text('{"n": 8,\n "n": 9}\n')
    return tmp_path


# The reader itself ----------------------------------------------------------------------


def test_only_regular_files_are_read(folder):
    for path, kind in [
        (folder / "fifo.json", r"it is a FIFO \(named pipe\), not a regular file"),
        ("/dev/zero", "it is a character device, not a regular file"),
        (folder, "it is a folder"),
        (folder / "absent.json", "no such file"),
    ]:
        with pytest.raises(InvalidInputError, match=f"cannot read '.*': {kind}"):
            read_bytes(path, what="an instance file", limit=MEGABYTE)


def test_the_size_is_judged_before_a_byte_is_read(folder):
    started = time.process_time()
    with pytest.raises(
        InvalidInputError, match="an instance file is at most 1 MB, and it holds 1 GB"
    ):
        read_bytes(folder / "sparse.json", what="an instance file", limit=MEGABYTE)
    assert time.process_time() - started < 0.5


def test_a_file_that_grows_past_the_bound_is_refused(folder):
    path = folder / "small.txt"
    path.write_bytes(b"x" * 100)
    assert read_bytes(path, what="a file", limit=100) == b"x" * 100
    with pytest.raises(InvalidInputError, match="a file is at most 99 bytes"):
        read_bytes(path, what="a file", limit=99)


def test_a_byte_order_mark_is_dropped_and_bad_bytes_named_by_line(folder):
    path = folder / "bom.param"
    path.write_bytes(b"\xef\xbb\xbfletting n be 5\n")
    assert read_text(path, what="x", limit=MEGABYTE) == "letting n be 5\n"
    path.write_bytes(b"letting n be 5\nletting \xff")
    with pytest.raises(InvalidInputError, match=r"line 2: byte 23 \(0xff\) is not UTF-8"):
        read_text(path, what="x", limit=MEGABYTE)


def test_json_repeated_keys_and_deep_nesting():
    with pytest.raises(InvalidInputError, match=r"^a\.json:3: the key 'n' is given twice"):
        load_json('{\n"n": 8,\n"n": 9}', "a.json")
    assert load_json('{"a": {"n": 1}, "b": {"n": 2}}', "a.json") == {"a": {"n": 1}, "b": {"n": 2}}
    deep = "[" * (MAX_DEPTH - 10) + "]" * (MAX_DEPTH - 10)
    assert load_json(deep, "a.json")  # deep, but within what Python parses
    with pytest.raises(InvalidInputError, match=r"^a\.json:2: nested deeper than the 500"):
        load_json('{"n": 8,\n"fixed": ' + "[" * 100_000, "a.json")
    with pytest.raises(InvalidInputError, match=r"^a\.toml:3: nested deeper than the 500"):
        load_toml('a = 1\nb = "[[[["\nc = ' + "[" * 5_000, "a.toml")


# Instance files -------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("fifo.json", "it is a FIFO (named pipe), not a regular file"),
        ("/dev/zero", "it is a character device, not a regular file"),
        ("sparse.json", "an instance file is at most 100 MB, and it holds 1 GB"),
        ("deep.json", "deep.json:1: nested deeper than the 500 levels"),
        ("twice.json", "twice.json:2: the key 'n' is given twice in one object"),
    ],
)
def test_an_instance_file_refused(folder, name, words):
    refused_in_one_line("solve", "--instance", name, cwd=folder, words=words)


@pytest.mark.parametrize("name", ["bom.json", "bom.param", "bom.dzn"])
def test_an_instance_file_with_a_byte_order_mark_is_read(tmp_path, name):
    path = cpqueens.write_instance(cpqueens.Instance(6, fixed={0: 1}), tmp_path / name)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert cpqueens.read_instance(path) == cpqueens.Instance(6, fixed={0: 1})


# Program outputs, tree files, specs -----------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("fifo.txt", "it is a FIFO (named pipe), not a regular file"),
        ("/dev/zero", "it is a character device, not a regular file"),
        ("sparse.txt", "a program's output is at most 256 MB, and it holds 1 GB"),
    ],
)
def test_an_output_given_to_verify_refused(folder, name, words):
    refused_in_one_line("verify", "8", name, cwd=folder, words=words)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("fifo.toml", "it is a FIFO (named pipe), not a regular file"),
        ("sparse.toml", "a campaign spec is at most 10 MB, and it holds 1 GB"),
        ("deep.toml", "deep.toml:1: nested deeper than the 500 levels"),
    ],
)
def test_a_campaign_spec_refused(folder, name, words):
    refused_in_one_line("campaign", "run", name, "--db", "out.sqlite", cwd=folder, words=words)
    assert not (folder / "out.sqlite").exists()


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".json", ".graphml", ".gexf", ".dot"])
def test_a_tree_file_that_is_a_fifo_is_refused(tmp_path, suffix):
    os.mkfifo(tmp_path / f"tree{suffix}")
    code = f"import cpqueens; cpqueens.read_tree({str(tmp_path / f'tree{suffix}')!r})"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=HANG
    )
    assert "InvalidInputError: cannot read" in done.stderr
    assert "it is a FIFO (named pipe), not a regular file" in done.stderr


def test_a_deep_tree_file_is_refused(tmp_path):
    path = tmp_path / "tree.json"
    path.write_text('{"nodes": ' + "[" * 100_000)
    with pytest.raises(InvalidInputError, match="nested deeper than the 500 levels"):
        cpqueens.read_tree(path)


# What Python itself raises on bad input: still one line ---------------------------------


def test_too_many_workers_for_cp_sat(tmp_path):
    pytest.importorskip("ortools")
    refused_in_one_line(
        "count", "6", "-b", "cpsat", "--workers", "20000", cwd=tmp_path,
        words="cpsat takes at most 10,000 workers (CP-SAT's own bound)",
    )  # fmt: skip


@pytest.mark.slow
def test_an_unreachable_scheduler(tmp_path):
    pytest.importorskip("distributed")
    # The scheduler's own short time-out (dask's setting), so that the probe is quick.
    line = refused_in_one_line(
        "count", "10", "-b", "bitmask", "--scheduler", "tcp://127.0.0.1:9", cwd=tmp_path,
        words="cannot connect to the dask scheduler at 'tcp://127.0.0.1:9'",
        env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "0.3s"},
        slack=3.0,  # importing distributed takes a second or more before the 0.3 s probe
    )  # fmt: skip
    assert "0.3 s" in line


@pytest.mark.slow
@pytest.mark.parametrize("timeout", ["1e10", "inf", "1e300"])
def test_huge_timeouts_mean_no_timeout(tmp_path, timeout):
    program = f"{sys.executable} -c \"print('bdac'); print('cadb')\""
    done = cpqueens_cli("crosscheck", "4", "--command", program, "--timeout", timeout, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert cpqueens.Command(["true"], timeout=float(timeout)).timeout is None


# Nothing is run from where the user stands

SHADOWS = ("struct", "contextlib", "json")


@pytest.fixture
def shadowed(tmp_path):
    """A working folder holding modules named as the standard library's, each of
    which leaves a mark when it is imported (and then fails, as a planted file would)."""
    for name in SHADOWS:
        (tmp_path / f"{name}.py").write_text(
            f"open({str(tmp_path / ('imported-' + name))!r}, 'w').close()\n"
            f"raise ImportError('the working folder\\'s {name}.py was imported')\n"
        )
    return tmp_path


def _console_script() -> str:
    # The command users run (python -m cpqueens would put the working folder on the
    # path of the main process itself, by Python's own rule).
    script = os.path.join(os.path.dirname(sys.executable), "cpqueens")
    if not os.path.exists(script):
        pytest.fail(f"the cpqueens command is not installed beside {sys.executable}")
    return script


@pytest.mark.parametrize(
    "args",
    [
        ("fuzz", "--backend", "stack", "--budget", "2", "--max-n", "5", "-q"),
        ("fuzz", "--backend", "sat", "-O", "solver=kissat404", "--budget", "3", "--max-n", "5"),
        ("crosscheck", "1-5", "--backends", "stack", "--command", "printf '' {n}"),
        ("count", "8", "-b", "sat", "-O", "solver=lingeling", "--time-limit", "30"),
    ],
    ids=["fuzz-backend", "sat-child-in-a-hunt", "command-through-the-reaper", "sat-child"],
)
def test_no_child_imports_a_module_from_the_working_folder(shadowed, args):
    done = subprocess.run([_console_script(), *args], cwd=shadowed, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    marks = sorted(path.name for path in shadowed.glob("imported-*"))
    assert marks == [], (marks, done.stdout[-2000:], done.stderr[-2000:])
    assert "Traceback" not in done.stdout + done.stderr
    assert done.returncode in (0, 1), (done.returncode, done.stdout[-2000:], done.stderr)


# Every child ended, whatever ends cpqueens


@pytest.mark.slow
@pytest.mark.parametrize(
    ("n", "backend", "options", "ending"),
    [
        (14, "ace", (), "SIGTERM"),
        (14, "ace", (), "SIGHUP"),
        (14, "sat", ("-O", "solver=lingeling"), "SIGTERM"),  # the SAT solvers' child
        # MiniZinc and fzn-gecode, with their data and FlatZinc files (mzn_data*.json and
        # mznfile*.fzn were left behind before they went in a folder of cpqueens' own).
        (17, "minizinc", ("--fixed", "0:1"), "SIGTERM"),
    ],
    ids=["ace-TERM", "ace-HUP", "sat-child-TERM", "minizinc-TERM"],
)
def test_term_and_hup_end_every_child_and_remove_temporary_files(tmp_path, n, backend,
                                                                  options, ending):  # fmt: skip
    import signal

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    process = subprocess.Popen(
        [_console_script(), "count", str(n), "-b", backend, *options, "--time-limit", "120"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "TMPDIR": str(scratch)},
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while len(tree_pids(process.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)  # until its solver's process runs
    tree = tree_pids(process.pid)
    assert len(tree) >= 2, "the solver's process never started"
    time.sleep(1.0)
    process.send_signal(getattr(signal, ending))
    _, err = process.communicate(timeout=HANG)
    assert process.returncode == 128 + getattr(signal, ending), err
    assert f"ended by {ending}" in err.decode()
    time.sleep(0.5)
    assert [pid for pid in tree if alive(pid)] == []
    assert list(scratch.iterdir()) == []  # its temporary files removed


@pytest.mark.slow
@pytest.mark.parametrize("ending", ["SIGKILL", "SIGTERM"])
def test_isolated_runs_die_with_cpqueens_even_on_kill(tmp_path, ending):
    # A hunt's (and a campaign's) runs are forked from a warm process; a program they
    # start may sleep on. Killed, even with SIGKILL, cpqueens leaves none behind.
    import signal

    process = subprocess.Popen(
        [_console_script(), "fuzz", "--command", "sleep 100 {n}", "--budget", "60",
         "--time-limit", "50", "-q"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        tree = tree_pids(process.pid)
        names = set()
        for pid in tree:
            with contextlib.suppress(OSError), open(f"/proc/{pid}/comm") as comm:
                names.add(comm.read().strip())
        if "sleep" in names:
            break
        time.sleep(0.2)
    assert "sleep" in names, "the program never started"
    process.send_signal(getattr(signal, ending))
    process.communicate(timeout=HANG)
    time.sleep(1.0)
    assert [pid for pid in tree if alive(pid)] == []


def test_a_path_folder_flooded_with_flatzinc_programs_is_counted_not_all_asked(tmp_path):
    from cpqueens.solvers.installed import MOST_FLATZINC

    for number in range(500):
        program = tmp_path / f"fzn-flood{number:03d}"
        program.write_text("#!/bin/sh\necho 1.0\n")
        program.chmod(0o755)
    path = os.pathsep.join([str(tmp_path), os.environ.get("PATH", "")])
    with Stopwatch() as clock:
        done = cpqueens_cli("solvers", cwd=tmp_path, env={"PATH": path})
    assert done.returncode == 0, done.stderr
    asked = {
        line.split()[0].rstrip(":")
        for line in done.stdout.splitlines()
        if line.startswith("fzn-flood")
    }
    assert len(asked) <= MOST_FLATZINC
    assert "more fzn-*" in done.stdout and "not asked" in done.stdout
    clock.check(0.0, slack=20.0, what="cpqueens solvers")


def test_a_process_pool_ends_its_workers_quietly():
    # The pool ends its forked workers with SIGTERM: the handler that turns SIGTERM into
    # a clean exit of the command must not run in them (it printed their tracebacks).
    for _ in range(5):
        done = subprocess.run(
            [_console_script(), "count", "14", "--workers", "2", "--unique"],
            capture_output=True, text=True, timeout=HANG,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "45752" in done.stdout.replace(",", "")
        assert done.stderr.strip() == "" or "Traceback" not in done.stderr, done.stderr
