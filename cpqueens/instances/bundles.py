"""Many instance files at once: a folder, or an archive as CSPLib and PyCSP3 ship them.

:func:`read_instances` reads every instance file in a folder (and its subfolders),
in a ``.zip`` archive or a tar archive (``.tar``, ``.tar.gz``/``.tgz``, ``.tar.xz``,
``.tar.bz2``), each exactly as :func:`~cpqueens.read_instance` reads one file. What
is not an instance is skipped with a note saying why: the ``._*`` files and
``__MACOSX`` folders that macOS archives carry, hidden files, ``README``s and
licences, and files whose extension names no instance format. A file that has an
instance's extension but cannot be read is an error, never skipped: a broken
instance is not quietly left out of a benchmark.

An archive is read in memory, never unpacked to disk (so no member's path can
reach outside), member by member, with bounds: an archive file at most
:data:`MAX_ARCHIVE_FILE`, each member at most what an instance file may be, all
members together at most :data:`MAX_UNPACKED`, and at most :data:`MAX_MEMBERS`.

>>> import pathlib, tempfile, zipfile, cpqueens
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> with zipfile.ZipFile(folder / "set.zip", "w") as archive:
...     archive.writestr("set/a.param", "letting n = 4")
...     archive.writestr("set/README", "Two instances")
...     archive.writestr("__MACOSX/set/._a.param", "")
...     archive.writestr("set/b.json", '{"n": 5, "blocks": [[0, 0]]}')
>>> found = read_instances(folder / "set.zip")
>>> [inst.name for inst in found], len(found.skipped)
(['a', 'b'], 2)
>>> found.sources[1].endswith("set.zip/set/b.json"), found.skipped[0][1]
(True, 'a macOS resource file, not an instance')
"""

from __future__ import annotations

import io
import lzma
import os
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..disk.reading import MEGABYTE, read_bytes, size_text
from ..disk.writing import check_path
from ..errors import InvalidInputError
from .files import MAX_INSTANCE_FILE, format_of, instance_from_bytes
from .instance import Instance

#: The largest archive read (it is read whole, then member by member).
MAX_ARCHIVE_FILE = 1024 * MEGABYTE
#: The most bytes all members of one archive may unpack to.
MAX_UNPACKED = 4 * 1024 * MEGABYTE
#: The most members one archive may hold (CSPLib's largest set has about 14,000).
MAX_MEMBERS = 200_000
#: The archive kinds read, by the end of their names.
ARCHIVES = (".zip", ".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2", ".tbz2")
# What a damaged archive raises, from the archive modules and the decompressors.
_BROKEN = (zipfile.BadZipFile, tarfile.TarError, EOFError, OSError, ValueError, zlib.error,
           lzma.LZMAError)  # fmt: skip
_NOT_INSTANCES = ("readme", "license", "licence", "copying", "changelog", "makefile")


@dataclass(frozen=True)
class InstanceFiles:
    """The instances read from a folder or an archive, in name order, the file each
    came from (``sources``: a path, or the archive's path and the member's name),
    and what was skipped: ``(name, reason)`` pairs. Iterates, indexes and counts
    like the tuple of its instances."""

    instances: tuple[Instance, ...]
    sources: tuple[str, ...]
    skipped: tuple[tuple[str, str], ...]

    def __iter__(self) -> Iterator[Instance]:
        return iter(self.instances)

    def __len__(self) -> int:
        return len(self.instances)

    def __getitem__(self, index: int) -> Instance:
        return self.instances[index]


def is_bundle(path: str | os.PathLike) -> bool:
    """True when ``path`` is a folder or names an archive :func:`read_instances` reads."""
    target = check_path(path, "instances")
    return target.is_dir() or target.name.lower().endswith(ARCHIVES)


def read_instances(path: str | os.PathLike, *, diagonals: int | None = None) -> InstanceFiles:
    """Read every instance file in the folder or archive ``path`` (see the module's
    description for what is skipped and the bounds an archive is read within).

    Each instance is named after its file's stem, as :func:`~cpqueens.read_instance`
    names it. A folder or archive with no instance at all is an error. ``diagonals``
    takes the first D diagonals of every file, all Excluded Diagonals files then (a
    set of CSPLib problem 79), as :func:`~cpqueens.read_instance` does of one.

    Examples
    --------
    >>> import pathlib, tempfile, cpqueens
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = cpqueens.write_instance(cpqueens.Instance(4), folder / "a.json")
    >>> _ = cpqueens.write_instance(cpqueens.Instance(5, blocked=[(0, 0)]), folder / "b.dzn")
    >>> _ = (folder / "notes.txt").write_text("not an instance")
    >>> found = cpqueens.read_instances(folder)
    >>> list(found)
    [Instance(n=4, name='a'), Instance(n=5, blocked=((0, 0),), name='b')]
    >>> [pathlib.Path(source).name for source in found.sources]
    ['a.json', 'b.dzn']
    >>> [(pathlib.Path(name).name, why) for name, why in found.skipped]
    [('notes.txt', '.txt names no instance format read')]
    """
    target = check_path(path, "instances")
    source = os.fspath(path)
    if target.is_dir():
        members = _folder_members(target, source)
    elif target.name.lower().endswith(ARCHIVES):
        members = _archive_members(target, source)
    else:
        raise InvalidInputError(
            f"cannot read instances from {source!r}: it is neither a folder nor an archive "
            f"({', '.join(ARCHIVES)}); read one instance file with read_instance"
        )
    instances, sources, skipped = [], [], []
    for name, data in members:
        reason = _not_an_instance(name)
        if reason is not None:
            skipped.append((name, reason))
            continue
        instances.append(instance_from_bytes(data(), name, diagonals=diagonals))
        sources.append(name)
    if not instances:
        raise InvalidInputError(
            f"no instance file in {source!r}"
            + (f" ({len(skipped)} other files skipped)" if skipped else "")
        )
    return InstanceFiles(tuple(instances), tuple(sources), tuple(skipped))


def _not_an_instance(name: str) -> str | None:
    """Why the file ``name`` is skipped, or None when it is read as an instance."""
    path = PurePosixPath(name)
    if path.name.startswith("._") or "__MACOSX" in path.parts:
        return "a macOS resource file, not an instance"
    if path.name.startswith("."):
        return "a hidden file"
    if path.name.lower().split(".")[0] in _NOT_INSTANCES:
        return "documentation, not an instance"
    if path.name.lower().endswith(ARCHIVES):
        return "an archive inside the archive: read it on its own"
    if path.suffix == "":
        return "no extension to tell an instance format by"
    try:
        format_of(name, reading=True)
    except InvalidInputError:
        return f"{path.suffix} names no instance format read"
    return None


def _folder_members(folder: Path, source: str) -> Iterator:
    # os.walk does not follow symbolic links to folders: a link cannot loop or lead
    # the reading outside the folder given.
    for root, folders, files in os.walk(folder):
        folders.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            shown = os.path.join(source, os.path.relpath(path, folder))
            yield shown, _file_reader(path)


def _file_reader(path: str):
    return lambda: read_bytes(path, what="an instance file", limit=MAX_INSTANCE_FILE)


def _archive_members(target: Path, source: str) -> Iterator:
    data = read_bytes(target, what="an archive of instances", limit=MAX_ARCHIVE_FILE)
    try:
        zipped = target.name.lower().endswith(".zip")
        entries = _zip_entries(data) if zipped else _tar_entries(data)
        unpacked = 0
        for count, (name, size, read) in enumerate(entries, 1):
            if count > MAX_MEMBERS:
                raise _refused(source, f"it holds more than {MAX_MEMBERS:,} files")
            shown = os.path.join(source, name)
            if size > MAX_INSTANCE_FILE and _not_an_instance(name) is None:
                raise _refused(
                    source, f"{name} unpacks to {size_text(size)}, more than an instance file "
                    f"may be ({size_text(MAX_INSTANCE_FILE)})",
                )  # fmt: skip
            unpacked += size
            if unpacked > MAX_UNPACKED:
                raise _refused(source, f"it unpacks to more than {size_text(MAX_UNPACKED)}")
            yield shown, _member_reader(read, shown, source)
    except InvalidInputError:  # a ValueError too, but not the archive's fault
        raise
    except _BROKEN as error:
        raise _refused(source, f"it is not a readable archive ({error})") from None


def _member_reader(read, shown: str, source: str):
    def member() -> bytes:
        # The sizes in an archive's headers are the archive's word: read one byte
        # more than an instance file may hold, to see whether it told the truth.
        try:
            data = read(MAX_INSTANCE_FILE + 1)
        except _BROKEN as error:
            raise _refused(source, f"{shown} cannot be unpacked ({error})") from None
        if len(data) > MAX_INSTANCE_FILE:
            raise InvalidInputError(
                f"cannot read {shown!r}: an instance file is at most "
                f"{size_text(MAX_INSTANCE_FILE)}, and it goes on past that"
            )
        return data

    return member


def _zip_entries(data: bytes) -> Iterator:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in sorted(archive.infolist(), key=lambda i: i.filename):
            if not info.is_dir():
                opened = lambda info=info: archive.open(info)  # noqa: E731
                yield info.filename, info.file_size, _opener(opened)


def _tar_entries(data: bytes) -> Iterator:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as archive:
        # Regular files only: a link or a device in an archive is never followed.
        members = [m for m in archive.getmembers() if m.isfile()]
        for member in sorted(members, key=lambda m: m.name):
            opened = lambda member=member: archive.extractfile(member)  # noqa: E731
            yield member.name, member.size, _opener(opened)


def _opener(open_member):
    def read(limit: int) -> bytes:
        with open_member() as handle:
            return handle.read(limit)

    return read


def _refused(source: str, why: str) -> InvalidInputError:
    return InvalidInputError(f"cannot read instances from {source!r}: {why}")
