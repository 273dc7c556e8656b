"""Compressed instance files, as the XCSP competitions distribute them: ``.lzma``,
``.xz`` and ``.gz``, decompressed within a bound.

Decompression stops, and the file is refused, as soon as the text passes the bound
an instance file has (a few hundred bytes of a compression bomb would otherwise
unpack to gigabytes): no more than ``limit + 1`` bytes are ever held. Streams
concatenated in one file (``cat a.gz b.gz``, multi-stream xz) are read in turn, as
``gzip`` and ``xz`` read them; bytes after the last stream that are no stream are
refused.

>>> import gzip
>>> decompress(gzip.compress(b"<instance/>"), "x.xml.gz", limit=100)
b'<instance/>'
>>> decompress(gzip.compress(b"0" * 1000), "bomb.xml.gz", limit=100)
Traceback (most recent call last):
...
cpqueens.errors.InvalidInputError: cannot read 'bomb.xml.gz': decompressed, an instance \
file is at most 100 bytes, and it goes on past that
"""

from __future__ import annotations

import gzip
import lzma
import zlib

from ..disk.reading import size_text
from ..errors import InvalidInputError

#: The compressions read and written, by the last extension of a file's name.
COMPRESSIONS = {".lzma": "xz", ".xz": "xz", ".gz": "gzip"}


def compression_of(name: str) -> str | None:
    """The compression a file name ends in (``"xz"`` or ``"gzip"``), or None.

    >>> compression_of("q.xml.lzma"), compression_of("q.XML.GZ"), compression_of("q.xml")
    ('xz', 'gzip', None)
    """
    lowered = name.lower()
    return next((kind for end, kind in COMPRESSIONS.items() if lowered.endswith(end)), None)


def decompress(data: bytes, source: str, *, limit: int) -> bytes:
    """The bytes ``data`` (the file ``source``, compressed as its name says) stand for,
    refused once they pass ``limit`` bytes or when they are not what the name says."""
    kind = compression_of(source)
    if kind is None:
        return data
    out = bytearray()
    rest = _one_stream(data, kind, out, source, limit)
    while rest:
        if not rest.startswith(_MAGIC[kind]):
            if any(rest):
                raise _broken(source, kind, "bytes after the last stream that are no stream")
            break  # zero padding after the last stream, as xz allows
        rest = _one_stream(rest, kind, out, source, limit)
    return bytes(out)


def compress(data: bytes, name: str) -> bytes:
    """``data`` compressed as the name ``name`` asks (left as it is for no compression).

    >>> decompress(compress(b"abc", "q.xml.lzma"), "q.xml.lzma", limit=10)
    b'abc'
    """
    kind = compression_of(name)
    if kind == "xz":
        return lzma.compress(data, format=lzma.FORMAT_XZ)
    if kind == "gzip":
        return gzip.compress(data, mtime=0)
    return data


_MAGIC = {"xz": b"\xfd7zXZ\x00", "gzip": b"\x1f\x8b"}


def _one_stream(data: bytes, kind: str, out: bytearray, source: str, limit: int) -> bytes:
    """Decompress the stream that opens ``data`` into ``out``; the bytes after it."""
    if kind == "xz":
        # FORMAT_AUTO: PyCSP3's .lzma files are xz streams; older tools wrote the
        # legacy .lzma format, which this reads too.
        decompressor = lzma.LZMADecompressor(format=lzma.FORMAT_AUTO)
    else:
        decompressor = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    try:
        while True:
            room = limit + 1 - len(out)
            if kind == "xz":
                piece = decompressor.decompress(data, max_length=room)
                data = b""
            else:
                piece = decompressor.decompress(data, room)
                data = decompressor.unconsumed_tail
            out += piece
            if len(out) > limit:
                raise InvalidInputError(
                    f"cannot read {source!r}: decompressed, an instance file is at most "
                    f"{size_text(limit)}, and it goes on past that"
                )
            if decompressor.eof:
                return decompressor.unused_data
            if not piece and not data:
                raise _broken(source, kind, "it ends inside the compressed stream")
    except (lzma.LZMAError, zlib.error) as error:
        raise _broken(source, kind, str(error)) from None


def _broken(source: str, kind: str, why: str) -> InvalidInputError:
    return InvalidInputError(f"cannot read {source!r}: not whole {kind} data: {why}")
