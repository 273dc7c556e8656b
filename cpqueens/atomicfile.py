"""Write output files all at once: into a temporary file beside the target, then rename.

An interrupted run therefore leaves either the previous file or none, never half a
file. The temporary name keeps the target's suffix, because writers such as
matplotlib and networkx choose the format from it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .errors import InvalidInputError


def check_writable(path: str | os.PathLike[str], suffixes: tuple[str, ...]) -> Path:
    """Return ``path`` as a Path once its suffix is allowed and its folder is writable.

    Checked before any long computation, so that a typo costs nothing.

    >>> check_writable("out.x", (".png",))
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: unknown output format '.x' for 'out.x'; choose one of: .png
    """
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in suffixes:
        raise InvalidInputError(
            f"unknown output format {suffix or '(none)'!r} for {str(path)!r}; "
            f"choose one of: {', '.join(suffixes)}"
        )
    folder = target.parent
    if not folder.is_dir():
        raise InvalidInputError(
            f"cannot write {str(path)!r}: folder {str(folder)!r} does not exist"
        )
    if target.is_dir():
        raise InvalidInputError(f"cannot write {str(path)!r}: it is a folder")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise InvalidInputError(f"cannot write {str(path)!r}: permission denied")
    return target


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path to write; it replaces ``path`` only if the block succeeds."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(
        prefix=f".{target.stem}.", suffix=target.suffix, dir=target.parent or "."
    )
    os.close(handle)
    try:
        yield Path(temporary)
        # mkstemp makes the file private; give it the permissions a plain open() would.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` atomically."""
    payload = data.encode() if isinstance(data, str) else data
    with atomic_path(path) as temporary:
        temporary.write_bytes(payload)
