"""Reading and writing instance files, the format told by the file's extension.

=========  ==========================  ===========  =====================
format     extensions                  squares      read / write
=========  ==========================  ===========  =====================
essence    .param, .eprime-param,      from 1       read and write
           none (text opens letting)   (init: 0)
json       .json                       from 0       read and write
dzn        .dzn                        from 0       read and write
cnf        .cnf                        (variables)  write, for SAT solvers
xc         .xc                         from 0       write, for Knuth's DLX
fzn        .fzn                        from 0       write, for FlatZinc solvers
xcsp       .xml, .xml.lzma, .xml.xz,   from 0       read and write (XCSP3;
           .xml.gz                                  see :mod:`.xcsp`)
=========  ==========================  ===========  =====================

An Excluded Diagonals file (CSPLib problem 79: ``n = ...``, ``numdiags = ...``,
``diags = [[k, kind], ...]``, no ``letting``) is a ``.param`` file too, or a file
without an extension that opens so: it is read with ``diagonals=D``, its first D
diagonals (:mod:`.diagonals`), and an instance made with ``diagonals=`` is written
back as one (as JSON, with its ``diagonals`` beside its blocked squares).

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
from typing import Any

from ..disk.reading import MEGABYTE, decode, read_bytes
from ..disk.writing import check_path, write_atomic
from ..errors import InvalidInputError, InvalidTypeError
from .compressed import compress, compression_of, decompress
from .formats.diagonals import looks_like_diagonals, parse_diagonals
from .formats.essence import looks_like_essence
from .formats.records import INSTANCE_FORMATS, InstanceFormat, by_name
from .formats.text import located
from .instance import Instance

#: Every format, and the extension a file of it is written with.
FORMATS: dict[str, str] = {fmt.name: fmt.extension for fmt in INSTANCE_FORMATS}
#: The largest instance file read: an instance of the largest board any backend
#: takes, every row's queen given, is far smaller.
MAX_INSTANCE_FILE = 100 * MEGABYTE
#: The formats read back; the others are written only, for other solvers.
READABLE = tuple(fmt.name for fmt in INSTANCE_FORMATS if fmt.reader is not None)
_EXTENSIONS = {ext: fmt.name for fmt in INSTANCE_FORMATS for ext in fmt.extensions}


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
extension '.txt'; allowed extensions: .param, .eprime-param, .json, .dzn, .cnf, .xc, .fzn, \
.xml, .xml.lzma, .xml.xz, .xml.gz
    """
    suffix = _suffix(check_path(path, "instance"))
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


def _suffix(path: Path) -> str:
    """The extension that tells the format: ``.xml.gz`` whole, else the last one.

    >>> _suffix(Path("q-8.XML.lzma")), _suffix(Path("a.b.json")), _suffix(Path("x.gz"))
    ('.xml.lzma', '.json', '.gz')
    """
    name = path.name.lower()
    if compression_of(name) is not None:
        return "".join(path.suffixes[-2:]).lower()
    return path.suffix.lower()


def _stem(path: Path) -> str:
    """The file's name without the extension that tells its format.

    >>> _stem(Path("sets/q-8.xml.lzma")), _stem(Path("q-8.xml"))
    ('q-8', 'q-8')
    """
    suffix = _suffix(path)
    return path.name[: len(path.name) - len(suffix)] if suffix else path.name


def read_instance(path: str | os.PathLike, *, diagonals: int | None = None) -> Instance:
    """Read an instance file; its format is told by the extension (see :data:`FORMATS`).

    Parameters
    ----------
    path : str or os.PathLike
        An Essence' parameter file (``.param``, ``.eprime-param``, or no extension
        and text that opens with ``letting``), an Excluded Diagonals file (the same
        extensions, text that opens with ``n =``), a JSON file (``.json``), MiniZinc
        data (``.dzn``) or an XCSP3 instance (``.xml``, ``.xml.lzma``, ``.xml.xz``,
        ``.xml.gz``) that states n-queens.
    diagonals : int, optional
        For an Excluded Diagonals file, and only there: how many of its diagonals,
        from the first, make the instance (0 up to the number it lists). Such a file
        is refused without it.

    Returns
    -------
    Instance
        Named after the file's stem (``blocked-8.param`` gives ``"blocked-8"``), and d
        for an Excluded Diagonals file (``diag-10-4-1.param`` with d = 6 gives
        ``"diag-10-4-1-d6"``).

    Raises
    ------
    InvalidInputError
        Naming the file, and the line where the file is wrong.

    Examples
    --------
    >>> import pathlib, tempfile, cpqueens
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "blocked-6.param").write_text('''letting n = 6
    ... letting blocks = [[3, 3]]
    ... letting queens = [[1, 2]]''')
    >>> cpqueens.read_instance(folder / "blocked-6.param")
    Instance(n=6, fixed=((0, 1),), blocked=((2, 2),), name='blocked-6')
    >>> _ = (folder / "eight.dzn").write_text("n = 8;")
    >>> cpqueens.read_instance(folder / "eight.dzn")
    Instance(n=8, name='eight')
    """
    source = os.fspath(check_path(path, "instance"))
    format_of(source, reading=True)  # an extension that is no instance: refused unread
    data = read_bytes(source, what="an instance file", limit=MAX_INSTANCE_FILE)
    return instance_from_bytes(data, source, diagonals=diagonals)


def instance_from_bytes(data: bytes, source: str, *, diagonals: int | None = None) -> Instance:
    """The instance in ``data``, the bytes of the file named ``source`` (whose
    extension tells the format, and ``diagonals`` the instance of an Excluded
    Diagonals file, as for :func:`read_instance`): the one reading of every instance
    file, on disk or in an archive.

    >>> instance_from_bytes(b"letting n = 6", "archive.zip/six.param")
    Instance(n=6, name='six')
    """
    fmt = by_name(format_of(source, reading=True))
    target = Path(source)
    if fmt.takes_bytes:  # XML: the parser reads the encoding the file declares
        if diagonals is not None:
            raise _not_diagonals(source)
        instance = _reader(fmt)(decompress(data, source, limit=MAX_INSTANCE_FILE), source)
        return instance.renamed(_stem(target))
    text = decode(data, source)
    if fmt.name == "essence" and looks_like_diagonals(text):
        return parse_diagonals(text, source, diagonals, stem=target.stem)
    if diagonals is not None:
        raise _not_diagonals(source)
    if target.suffix == "" and not looks_like_essence(text):
        raise located(
            source,
            None,
            "a file without an extension is read as Essence' and must open with "
            "'letting' (or, an Excluded Diagonals file, with 'n ='); name it .param, "
            ".json or .dzn",
        )
    return _reader(fmt)(text, source).renamed(target.stem)


def _reader(fmt: InstanceFormat) -> Callable[[Any, str], Instance]:
    """The reader of a readable format."""
    assert fmt.reader is not None
    return fmt.reader


def _not_diagonals(source: str) -> InvalidInputError:
    return located(
        source,
        None,
        "diagonals= takes the first D diagonals of an Excluded Diagonals file (n = ..., "
        "numdiags = ..., diags = [...]); this file is not one",
    )


def format_instance(instance: Instance, fmt: str) -> str:
    """The text of ``instance`` in the format ``fmt`` (a key of :data:`FORMATS`).

    >>> import cpqueens
    >>> print(format_instance(cpqueens.Instance(4, blocked=[(0, 0)]), "json"), end="")
    {"n": 4, "blocks": [[0, 0]], "queens": []}
    """
    if not isinstance(instance, Instance):
        raise InvalidTypeError(f"instance must be an Instance, got {type(instance).__name__}")
    if fmt not in FORMATS:
        raise InvalidInputError(f"unknown instance format {fmt!r}; formats: {', '.join(FORMATS)}")
    return by_name(fmt).writer(instance)


def parse_instance(
    text: str, fmt: str, source: str = "<text>", *, diagonals: int | None = None
) -> Instance:
    """Read an instance from ``text`` in a readable format (essence, json or dzn);
    ``diagonals`` as for :func:`read_instance`, an Excluded Diagonals file being essence.

    >>> parse_instance("letting n = 4 $ a comment", "essence")
    Instance(n=4)
    >>> parse_instance("n = 4 numdiags = 1 diags = [[0, 1]]", "essence", diagonals=1)
    Instance(n=4, diagonals=((0, 1),))
    """
    if not isinstance(text, str):
        raise InvalidTypeError(f"text must be a str, got {type(text).__name__}")
    if fmt not in READABLE:
        raise InvalidInputError(
            f"cannot read instances in format {fmt!r}; readable: {', '.join(READABLE)}"
        )
    reader = _reader(by_name(fmt))
    if fmt == "essence" and looks_like_diagonals(text):
        return parse_diagonals(text, source, diagonals)
    if diagonals is not None:
        raise _not_diagonals(source)
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
        ``.dzn`` (data for ``queens.mzn``), ``.cnf`` (DIMACS, for SAT solvers),
        ``.xc`` (exact cover, for Knuth's DLX programs), ``.fzn`` (FlatZinc, for any
        FlatZinc solver; columns from 0) or ``.xml`` (XCSP3, for ACE and the XCSP
        competitions' solvers; ``.xml.lzma``, ``.xml.xz`` or ``.xml.gz`` compressed).
    format : str, optional
        One of :data:`FORMATS`, for a path whose extension says nothing.

    Returns
    -------
    pathlib.Path
        The path written.

    Examples
    --------
    >>> import pathlib, tempfile, cpqueens
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> instance = cpqueens.Instance(6, fixed={0: 1}, blocked=[(2, 2)])
    >>> path = cpqueens.write_instance(instance, folder / "six.json")
    >>> path.name, path.read_text()
    ('six.json', '{"n": 6, "blocks": [[2, 2]], "queens": [[0, 1]]}\\n')
    >>> print(cpqueens.write_instance(instance, folder / "six.param").read_text(), end="")
    $ 6-queens: 1 blocked square, 1 given queen; [row, column] from 1
    letting n = 6
    letting blocks = [
      [3, 3]
    ]
    letting queens = [
      [1, 2]
    ]
    >>> cpqueens.read_instance(path) == instance.renamed("six")
    True
    """
    if format is None:
        fmt = format_of(path)
    elif format not in FORMATS:
        raise InvalidInputError(
            f"unknown instance format {format!r}; formats: {', '.join(FORMATS)}"
        )
    else:
        fmt = format
    text = format_instance(instance, fmt)
    if compression_of(os.fspath(path)) is not None:
        return write_atomic(path, compress(text.encode(), os.fspath(path)))
    return write_atomic(path, text)
