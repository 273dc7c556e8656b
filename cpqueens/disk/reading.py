"""Reading files: only regular files, never more than the format can need.

Every file cpqueens takes (instances, a program's output given to ``verify``,
tree files, campaign specs) is read by :func:`read_bytes` or :func:`read_text`.
A FIFO, a device such as ``/dev/zero``, a socket or a folder is refused before it
is read (a FIFO would wait forever for a writer, a device never ends), and so is a
file larger than ``limit`` bytes, from its size on disk, before a byte of it is
read. Errors name the file as the caller gave it.

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "eight.param").write_bytes(b"\\xef\\xbb\\xbfletting n be 8\\n")
>>> read_text(folder / "eight.param", what="an instance", limit=MEGABYTE)
'letting n be 8\\n'
>>> read_text("/dev/zero", what="an instance", limit=MEGABYTE)
Traceback (most recent call last):
...
cpqueens.errors.InvalidInputError: cannot read '/dev/zero': it is a character device, \
not a regular file
"""

from __future__ import annotations

import os
import stat
from typing import IO

from ..errors import InvalidInputError

MEGABYTE = 2**20
#: The byte-order mark that editors on Windows put at the start of UTF-8 files.
BYTE_ORDER_MARK = b"\xef\xbb\xbf"
_KINDS = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def size_text(size: int) -> str:
    """A number of bytes in the largest unit that keeps it whole-ish.

    >>> size_text(100 * MEGABYTE), size_text(1536), size_text(12)
    ('100 MB', '1.5 kB', '12 bytes')
    """
    for unit, scale in (("GB", 2**30), ("MB", MEGABYTE), ("kB", 2**10)):
        if size >= scale:
            return f"{size / scale:.3g} {unit}"
    return f"{size} bytes"


def read_bytes(path: str | os.PathLike, *, what: str, limit: int) -> bytes:
    """Return the bytes of the regular file ``path``, refusing anything else and any
    file of more than ``limit`` bytes (``what`` names the file's kind in the message).
    """
    source = os.fspath(path)
    _check_kind(source, _stat(source))
    # O_NONBLOCK: were the file swapped for a FIFO since the check, opening it
    # returns at once instead of waiting for a writer; fstat then refuses it.
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(source, flags)
    except OSError as error:
        raise _cannot_read(source, error) from None
    with os.fdopen(descriptor, "rb") as handle:
        info = os.fstat(descriptor)
        _check_kind(source, info)
        if info.st_size > limit:
            raise _too_large(source, what, limit, f"it holds {size_text(info.st_size)}")
        return _read_at_most(handle, source, what, limit)


def read_text(path: str | os.PathLike, *, what: str, limit: int) -> str:
    """Return the file as UTF-8 text (a byte-order mark at its start dropped), read
    by :func:`read_bytes`; a byte that is not UTF-8 is named with its line."""
    return decode(read_bytes(path, what=what, limit=limit), os.fspath(path))


def read_stream(stream: IO, *, name: str, what: str, limit: int) -> bytes | str:
    """Read an open stream (standard input, say) to its end, refusing it once it
    gives more than ``limit`` bytes or characters."""
    return _read_at_most(stream, name, what, limit)


def decode(data: bytes, source: str) -> str:
    """``data`` as UTF-8 text without its byte-order mark, or an error naming the
    line of the first byte that is not UTF-8.

    >>> decode(b"one\\ntwo \\xff", "out.txt")
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: cannot read 'out.txt': line 2: byte 8 (0xff) is \
not UTF-8 text
    """
    if data.startswith(BYTE_ORDER_MARK):
        data = data[len(BYTE_ORDER_MARK) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise InvalidInputError(
            f"cannot read {source!r}: line {line}: byte {error.start} "
            f"({data[error.start]:#04x}) is not UTF-8 text"
        ) from None


def _stat(source: str) -> os.stat_result:
    try:
        return os.stat(source)
    except OSError as error:
        raise _cannot_read(source, error) from None


def _check_kind(source: str, info: os.stat_result) -> None:
    if stat.S_ISREG(info.st_mode):
        return
    if stat.S_ISDIR(info.st_mode):
        raise InvalidInputError(f"cannot read {source!r}: it is a folder")
    kind = next((name for test, name in _KINDS if test(info.st_mode)), "not a file")
    raise InvalidInputError(f"cannot read {source!r}: it is {kind}, not a regular file")


def _read_at_most(handle: IO, source: str, what: str, limit: int) -> bytes | str:
    # A file can grow while it is read (a log still being written): never more
    # than limit + 1, which is enough to know that it is too large.
    data = handle.read(limit + 1)
    if len(data) > limit:
        raise _too_large(source, what, limit, "it goes on past that")
    return data


def _too_large(source: str, what: str, limit: int, found: str) -> InvalidInputError:
    return InvalidInputError(
        f"cannot read {source!r}: {what} is at most {size_text(limit)}, and {found}"
    )


def _cannot_read(source: str, error: OSError) -> InvalidInputError:
    if isinstance(error, FileNotFoundError):
        reason = "no such file"
    elif isinstance(error, IsADirectoryError):
        reason = "it is a folder"
    else:
        reason = (error.strerror or str(error)).lower()
    return InvalidInputError(f"cannot read {source!r}: {reason}")
