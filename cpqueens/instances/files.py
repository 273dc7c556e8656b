"""Reading and writing instance files, the format told by the file's extension.

=========  ==========================  ===========  =====================
format     extensions                  squares      read / write
=========  ==========================  ===========  =====================
essence    .param, .eprime-param,      from 1       read and write
           none (text opens letting)
json       .json                       from 0       read and write
dzn        .dzn                        from 0       read and write
cnf        .cnf                        (variables)  write, for SAT solvers
xc         .xc                         from 0       write, for Knuth's DLX
=========  ==========================  ===========  =====================

Errors name the file and, for a file that cannot be read, the line.

>>> import pathlib, tempfile, cpqueens
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> inst = cpqueens.Instance(6, fixed={0: 1}, blocked=[(2, 2)])
>>> path = cpqueens.write_instance(inst, folder / "six.param")
>>> back = cpqueens.read_instance(path)
>>> back == inst, back.name
(True, 'six')
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from ..disk.reading import MEGABYTE, decode, read_bytes
from ..disk.writing import check_path, write_atomic
from ..errors import InvalidInputError, InvalidTypeError
from ._text import located
from .dzn import format_dzn, parse_dzn
from .essence import format_essence, looks_like_essence, parse_essence
from .instance import Instance
from .jsonfile import format_json, parse_json
from .xc import format_xc

#: Every format, and the extension a file of it is written with.
FORMATS: dict[str, str] = {
    "essence": ".param",
    "json": ".json",
    "dzn": ".dzn",
    "cnf": ".cnf",
    "xc": ".xc",
}
#: The largest instance file read: an instance of the largest board any backend
#: takes, every row's queen given, is far smaller.
MAX_INSTANCE_FILE = 100 * MEGABYTE
#: The formats read back; cnf and xc lose the board's shape and are written only.
READABLE = ("essence", "json", "dzn")
_EXTENSIONS: dict[str, str] = {
    ".param": "essence",
    ".eprime-param": "essence",
    ".json": "json",
    ".dzn": "dzn",
    ".cnf": "cnf",
    ".xc": "xc",
}
_READERS: dict[str, Callable[[str, str], Instance]] = {
    "essence": parse_essence,
    "json": parse_json,
    "dzn": parse_dzn,
}


def format_of(path: str | os.PathLike, *, reading: bool = False) -> str:
    """The format a file's extension names (one of :data:`FORMATS`).

    A file read with no extension is taken for an Essence' file; whether it is
    one is seen by :func:`read_instance`.

    >>> format_of("x.eprime-param"), format_of("x.DZN")
    ('essence', 'dzn')
    >>> format_of("x.txt")
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: cannot tell the instance format of 'x.txt' from its \
extension '.txt'; allowed extensions: .param, .eprime-param, .json, .dzn, .cnf, .xc
    """
    suffix = check_path(path, "instance").suffix.lower()
    if reading and suffix == "":
        return "essence"
    fmt = _EXTENSIONS.get(suffix)
    if fmt is None:
        allowed = [ext for ext, name in _EXTENSIONS.items() if not reading or name in READABLE]
        raise InvalidInputError(
            f"cannot tell the instance format of {str(path)!r} from its extension "
            f"{suffix or '(none)'!r}; allowed extensions: {', '.join(allowed)}"
        )
    if reading and fmt not in READABLE:
        readable = [ext for ext, name in _EXTENSIONS.items() if name in READABLE]
        raise InvalidInputError(
            f"cannot read an instance from {str(path)!r}: {suffix} files are only written; "
            f"instances are read from {', '.join(readable)} files"
        )
    return fmt


def read_instance(path: str | os.PathLike) -> Instance:
    """Read an instance file; its format is told by the extension (see :data:`FORMATS`).

    Parameters
    ----------
    path : str or os.PathLike
        An Essence' parameter file (``.param``, ``.eprime-param``, or no extension
        and text that opens with ``letting``), a JSON file (``.json``) or MiniZinc
        data (``.dzn``).

    Returns
    -------
    Instance
        Named after the file's stem (``blocked-8.param`` gives ``"blocked-8"``).

    Raises
    ------
    InvalidInputError
        Naming the file, and the line where the file is wrong.
    """
    source = os.fspath(check_path(path, "instance"))
    format_of(source, reading=True)  # an extension that is no instance: refused unread
    data = read_bytes(source, what="an instance file", limit=MAX_INSTANCE_FILE)
    return instance_from_bytes(data, source)


def instance_from_bytes(data: bytes, source: str) -> Instance:
    """The instance in ``data``, the bytes of the file named ``source`` (whose
    extension tells the format, as for :func:`read_instance`): the one reading of
    every instance file, on disk or in an archive.

    >>> instance_from_bytes(b"letting n = 6", "archive.zip/six.param")
    Instance(n=6, name='six')
    """
    fmt = format_of(source, reading=True)
    text = decode(data, source)
    target = Path(source)
    if target.suffix == "" and not looks_like_essence(text):
        raise located(
            source,
            None,
            "a file without an extension is read as Essence' and must open with "
            "'letting'; name it .param, .json or .dzn",
        )
    instance = _READERS[fmt](text, source)
    return Instance(instance.n, fixed=instance.fixed, blocked=instance.blocked, name=target.stem)


def format_instance(instance: Instance, fmt: str) -> str:
    """The text of ``instance`` in the format ``fmt`` (a key of :data:`FORMATS`).

    >>> import cpqueens
    >>> print(format_instance(cpqueens.Instance(4, blocked=[(0, 0)]), "json"), end="")
    {"n": 4, "blocks": [[0, 0]], "queens": []}
    """
    if not isinstance(instance, Instance):
        raise InvalidTypeError(f"instance must be an Instance, got {type(instance).__name__}")
    if fmt == "essence":
        return format_essence(instance)
    if fmt == "json":
        return format_json(instance)
    if fmt == "dzn":
        return format_dzn(instance)
    if fmt == "xc":
        return format_xc(instance)
    if fmt == "cnf":
        return _dimacs(instance)
    raise InvalidInputError(f"unknown instance format {fmt!r}; formats: {', '.join(FORMATS)}")


def parse_instance(text: str, fmt: str, source: str = "<text>") -> Instance:
    """Read an instance from ``text`` in a readable format (essence, json or dzn).

    >>> parse_instance("letting n = 4 $ a comment", "essence")
    Instance(n=4)
    """
    if not isinstance(text, str):
        raise InvalidTypeError(f"text must be a str, got {type(text).__name__}")
    reader = _READERS.get(fmt)
    if reader is None:
        raise InvalidInputError(
            f"cannot read instances in format {fmt!r}; readable: {', '.join(READABLE)}"
        )
    return reader(text, source)


def write_instance(
    instance: Instance, path: str | os.PathLike, *, format: str | None = None
) -> Path:
    """Write ``instance`` to ``path``, whole or not at all, in the format its extension names.

    Parameters
    ----------
    instance : Instance
        The instance to write.
    path : str or os.PathLike
        ``.param`` or ``.eprime-param`` (Essence', 1-based), ``.json`` (0-based),
        ``.dzn`` (data for ``queens.mzn``), ``.cnf`` (DIMACS, for SAT solvers) or
        ``.xc`` (exact cover, for Knuth's DLX programs).
    format : str, optional
        One of :data:`FORMATS`, for a path whose extension says nothing.

    Returns
    -------
    pathlib.Path
        The path written.
    """
    if format is None:
        fmt = format_of(path)
    elif format not in FORMATS:
        raise InvalidInputError(
            f"unknown instance format {format!r}; formats: {', '.join(FORMATS)}"
        )
    else:
        fmt = format
    return write_atomic(path, format_instance(instance, fmt))


def _dimacs(instance: Instance) -> str:
    """The CNF formula of the instance, the ``sat`` backend's own (pysat is loaded here)."""
    from . import cnf

    return cnf.dimacs(instance)
