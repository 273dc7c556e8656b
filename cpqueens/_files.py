"""Writing files all at once: a run that is interrupted leaves no half-written file."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .errors import InvalidInputError


def suffix_of(path: str | os.PathLike, allowed: tuple[str, ...], what: str) -> str:
    """Return the lower-case extension of ``path`` when it is one of ``allowed``."""
    suffix = Path(path).suffix.lower()
    if suffix not in allowed:
        raise InvalidInputError(
            f"cannot tell the {what} format of {str(path)!r} from its extension "
            f"{suffix or '(none)'!r}; allowed extensions: {', '.join(allowed)}"
        )
    return suffix


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; move it onto ``path`` once written.

    The temporary file lives in the same folder, so the final ``os.replace`` is a
    rename within one file system: readers see either the old file or the whole
    new one. On any error the temporary file is removed and ``path`` is untouched.
    """
    target = Path(path)
    folder = target.parent
    if not folder.is_dir():
        raise FileNotFoundError(
            f"cannot write {str(target)!r}: folder {str(folder)!r} does not exist"
        )
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    os.close(handle)
    try:
        yield Path(temporary)
        # mkstemp creates the file private (0600); give it the mode of the file it
        # replaces, or the usual mode of a new file.
        mode = target.stat().st_mode & 0o777 if target.exists() else 0o644
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def check_writable(path: str | os.PathLike, allowed: tuple[str, ...], what: str = "output") -> Path:
    """Return ``path`` once its extension is allowed and its folder exists and is writable.

    Checked before any long computation, so that a typo in an output path costs nothing.

    >>> check_writable("out.x", (".png",))
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: cannot tell the output format of 'out.x' from its \
extension '.x'; allowed extensions: .png
    """
    suffix_of(path, allowed, what)
    target = Path(path)
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


def write_atomic(path: str | os.PathLike, data: str | bytes) -> Path:
    """Write ``data`` (text as UTF-8) to ``path`` whole or not at all."""
    payload = data.encode() if isinstance(data, str) else data
    with atomic_path(path) as temporary:
        temporary.write_bytes(payload)
    return Path(path)
