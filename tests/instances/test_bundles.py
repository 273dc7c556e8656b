"""Folders and archives of instance files, as CSPLib and PyCSP3 ship them."""

from __future__ import annotations

import io
import os
import tarfile
import zipfile

import pytest
from click.testing import CliRunner

import cpqueens
from cpqueens.campaigns.spec import load_spec
from cpqueens.cli import cli
from cpqueens.errors import InvalidInputError
from cpqueens.instances import bundles

FILES = {
    "set/a.param": b"letting n = 4\n",
    "set/deeper/b.json": b'{"n": 5, "blocks": [[0, 0]]}',
    "set/c.dzn": b"n = 6;\n",
    "set/README": b"Three instances.\n",
    "set/LICENSE.txt": b"Free.\n",
    "set/make.py": b"print('hello')\n",
    "set/.DS_Store": b"\x00\x01",
    "__MACOSX/set/._a.param": b"\x00\x05\x16\x07",
}
READ = ["a", "c", "b"]  # in the order of their paths: set/c.dzn, then set/deeper/b.json


def zipped(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()


def tarred(files: dict[str, bytes], mode: str = "w:gz") -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode=mode) as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


@pytest.fixture
def folder(tmp_path):
    for name, data in FILES.items():
        path = tmp_path / "unpacked" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return tmp_path / "unpacked"


def test_a_folder(folder):
    found = cpqueens.read_instances(folder)
    assert [inst.name for inst in found] == READ
    assert cpqueens.Instance(5, blocked=[(0, 0)]) in list(found)
    assert {os.path.basename(name) for name, _ in found.skipped} == {
        "README", "LICENSE.txt", "make.py", ".DS_Store", "._a.param"
    }  # fmt: skip


@pytest.mark.parametrize(
    ("name", "pack"),
    [
        ("set.zip", zipped),
        ("set.tar.gz", tarred),
        ("set.tgz", tarred),
        ("set.tar.xz", lambda files: tarred(files, "w:xz")),
        ("set.tar.bz2", lambda files: tarred(files, "w:bz2")),
        ("set.tar", lambda files: tarred(files, "w")),
    ],
)
def test_an_archive(tmp_path, name, pack):
    (tmp_path / name).write_bytes(pack(FILES))
    found = cpqueens.read_instances(tmp_path / name)
    assert [inst.name for inst in found] == READ
    assert found.sources[0] == str(tmp_path / name / "set/a.param")
    reasons = dict(found.skipped)
    assert reasons[str(tmp_path / name / "__MACOSX/set/._a.param")].startswith("a macOS")
    assert reasons[str(tmp_path / name / "set/make.py")] == ".py names no instance format read"


def test_a_broken_instance_is_an_error_not_a_skip(tmp_path):
    (tmp_path / "set.zip").write_bytes(zipped({"a.param": b"letting n = 4", "b.json": b"{"}))
    with pytest.raises(InvalidInputError, match=r"set\.zip/b\.json:1: not valid JSON"):
        cpqueens.read_instances(tmp_path / "set.zip")


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"PK\x03\x04 cut short", "it is not a readable archive"),
        (zipped({"README": b"nothing here"}), "no instance file in"),
    ],
)
def test_archives_that_hold_no_instance(tmp_path, content, words):
    (tmp_path / "set.zip").write_bytes(content)
    with pytest.raises(InvalidInputError, match=words):
        cpqueens.read_instances(tmp_path / "set.zip")


def test_a_member_that_unpacks_past_the_bound(tmp_path, monkeypatch):
    monkeypatch.setattr(bundles, "MAX_INSTANCE_FILE", 1000)
    (tmp_path / "bomb.zip").write_bytes(zipped({"a.param": b"letting n = 4" + b" " * 5000}))
    words = r"a\.param unpacks to 4\.9 kB, more than an instance file may be \(1000 bytes\)"
    with pytest.raises(InvalidInputError, match=words):
        cpqueens.read_instances(tmp_path / "bomb.zip")


def test_links_and_devices_in_a_tar_are_never_followed(tmp_path):
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w") as archive:
        link = tarfile.TarInfo("evil.param")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        archive.addfile(link)
        good = tarfile.TarInfo("a.param")
        good.size = len(b"letting n = 4")
        archive.addfile(good, io.BytesIO(b"letting n = 4"))
    (tmp_path / "set.tar").write_bytes(out.getvalue())
    assert [inst.name for inst in cpqueens.read_instances(tmp_path / "set.tar")] == ["a"]


def test_one_file_is_not_a_bundle(tmp_path):
    cpqueens.write_instance(cpqueens.Instance(4), tmp_path / "a.param")
    with pytest.raises(InvalidInputError, match="neither a folder nor an archive"):
        cpqueens.read_instances(tmp_path / "a.param")


def test_crosscheck_takes_an_archive(tmp_path):
    (tmp_path / "set.tar.gz").write_bytes(tarred(FILES))
    result = CliRunner().invoke(
        cli, ["crosscheck", "--instance", str(tmp_path / "set.tar.gz"), "--backends", "stack"]
    )
    assert result.exit_code == 0, result.output
    assert "skipped" in result.stderr and "README" in result.stderr
    assert result.stdout.count("agree") >= 1


def test_a_campaign_reads_an_archive(tmp_path):
    (tmp_path / "set.zip").write_bytes(zipped(FILES))
    spec = {
        "campaign": {"time_limit": 5},
        "instances": [{"files": str(tmp_path / "set.zip")}],
        "solvers": [{"backend": "stack"}],
    }
    loaded = load_spec(spec)
    labels = [instance.label for instance in loaded.instances]
    assert [os.path.basename(label) for label in labels] == ["a.param", "c.dzn", "b.json"]
