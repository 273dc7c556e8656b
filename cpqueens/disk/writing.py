"""Writing files all at once: a run that is interrupted leaves no half-written file.

A file is written to a hidden temporary ``.part`` file next to it and renamed into
place once whole (:func:`atomic_path`). The target is checked before any work
(:func:`check_target`), errors name the path the caller gave, never the ``.part``
file, and the ``.part`` file is removed on every way out: an exception, Ctrl-C,
and the signals that end a process (``SIGTERM``, ``SIGHUP``), after which the
process still ends the usual way.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import InvalidInputError, InvalidTypeError

#: The signals whose default action ends the process: a ``.part`` file being written
#: when one arrives is removed first.
TERMINATING = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)


def check_path(path: object, what: str = "output") -> Path:
    """Return ``path`` as a :class:`~pathlib.Path` when it is a str or a str path-like.

    >>> check_path("tree.dot").name
    'tree.dot'
    >>> check_path(8)
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidTypeError: the output path must be a str or an os.PathLike, got int
    """
    text = os.fspath(path) if isinstance(path, os.PathLike) else path
    if not isinstance(text, str):
        raise InvalidTypeError(
            f"the {what} path must be a str or an os.PathLike, got {type(path).__name__}"
        )
    return Path(text)


def suffix_of(path: str | os.PathLike, allowed: tuple[str, ...], what: str) -> str:
    """Return the lower-case extension of ``path`` when it is one of ``allowed``."""
    suffix = check_path(path, what).suffix.lower()
    if suffix not in allowed:
        raise InvalidInputError(
            f"cannot tell the {what} format of {str(path)!r} from its extension "
            f"{suffix or '(none)'!r}; allowed extensions: {', '.join(allowed)}"
        )
    return suffix


def check_target(path: str | os.PathLike) -> Path:
    """Return ``path`` once a file may be written there: its folder exists and is
    writable, and it is not itself a folder or a file that may not be written.

    >>> check_target("/no/such/folder/tree.dot")
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: cannot write '/no/such/folder/tree.dot': folder \
'/no/such/folder' does not exist
    """
    target = check_path(path)
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


def check_folder(path: str | os.PathLike, what: str = "files") -> Path:
    """Return ``path`` once files may be written into it as a folder of their own:
    it is a folder or does not exist yet, and is no symbolic link (the files would
    land wherever it points).

    >>> import os, pathlib, tempfile
    >>> here = pathlib.Path(tempfile.mkdtemp())
    >>> os.symlink(tempfile.gettempdir(), here / "pictures")
    >>> check_folder(here / "pictures", "the pictures")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cpqueens.errors.InvalidInputError: cannot write the pictures into '.../pictures': it is \
a symbolic link (to '...'); remove it or write elsewhere
    """
    folder = check_path(path)
    if folder.is_symlink():
        raise InvalidInputError(
            f"cannot write {what} into {str(path)!r}: it is a symbolic link "
            f"(to {os.readlink(folder)!r}); remove it or write elsewhere"
        )
    if folder.exists() and not folder.is_dir():
        raise InvalidInputError(f"cannot write {what} into {str(path)!r}: it is not a folder")
    return folder


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
    return check_target(path)


# The .part files being written, and the handlers that were in place before
# atomic_path put its own; both touched on the main thread only.
_parts: set[str] = set()
_previous: dict[int, Any] = {}
_depth = 0


def _on_termination(signum: int, frame: Any) -> None:
    """Remove the ``.part`` files, then let the signal do what it did before."""
    previous = _previous.get(signum, signal.SIG_DFL)
    if callable(previous):
        # The program's own handler decides; if it raises (SystemExit, say), the
        # exception unwinds through atomic_path, which removes the .part file.
        previous(signum, frame)
        return
    for part in list(_parts):
        with contextlib.suppress(OSError):
            os.unlink(part)
    # The default action: end the process, with the status the signal gives.
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


@contextlib.contextmanager
def _cleanup_on_termination() -> Iterator[bool]:
    """Install :func:`_on_termination` while a ``.part`` file is written; yield whether
    it is in place (only the main thread may set signal handlers)."""
    global _depth
    if not TERMINATING or threading.current_thread() is not threading.main_thread():
        yield False
        return
    if _depth == 0:
        for signum in TERMINATING:
            previous = signal.getsignal(signum)
            # An ignored signal stays ignored; a handler set outside Python cannot
            # be put back, so it is left alone.
            if previous is not signal.SIG_IGN and previous is not None:
                _previous[signum] = previous
                signal.signal(signum, _on_termination)
    _depth += 1
    try:
        yield True
    finally:
        _depth -= 1
        if _depth == 0:
            for signum, previous in _previous.items():
                if signal.getsignal(signum) is _on_termination:
                    signal.signal(signum, previous)
            _previous.clear()


def _new_part(target: Path, guarded: bool) -> str:
    """Create the hidden ``.part`` file next to ``target``, registered for removal on a
    terminating signal before the signal can be handled."""
    blocked = guarded and hasattr(signal, "pthread_sigmask")
    if blocked:
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, TERMINATING)
    try:
        temporary = _create_part(target)
        if guarded:
            _parts.add(temporary)
        return temporary
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        raise InvalidInputError(f"cannot write {str(target)!r}: {reason}") from None
    finally:
        if blocked:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)


#: The mode a new file is asked for; the process's umask takes its bits away
#: (0644 under the usual umask 022, 0600 under 077), as for any file a program creates.
NEW_FILE_MODE = 0o666
# Opened as a new file only: never an existing one, never through a symbolic link.
_EXCLUSIVE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)


def _create_part(target: Path) -> str:
    """Create a new, empty ``.<name>.<random>.part`` file beside ``target``, with the
    mode a new file gets (:data:`NEW_FILE_MODE` less the umask, applied by the system
    itself, so the umask is never read or changed); no wider than ``target``'s own
    when it exists, so that a private file is never readable while it is rewritten."""
    try:
        mode = NEW_FILE_MODE & target.stat().st_mode
    except FileNotFoundError:
        mode = NEW_FILE_MODE
    for _ in range(100):
        temporary = os.path.join(target.parent, f".{target.name}.{secrets.token_hex(4)}.part")
        try:
            handle = os.open(temporary, _EXCLUSIVE, mode)
        except FileExistsError:
            continue
        os.close(handle)
        return temporary
    raise FileExistsError(errno.EEXIST, "no free name for a temporary file", str(target))


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; move it onto ``path`` once written.

    The target is checked first (:func:`check_target`), before anything is written.
    The temporary file lives in the same folder, so the final ``os.replace`` is a
    rename within one file system: readers see either the old file or the whole
    new one. A new file has the mode the umask leaves of 0666 (as a shell's ``>``
    gives it); a file replaced keeps its mode. On any error, and when ``SIGTERM`` or
    ``SIGHUP`` ends the process
    while the main thread writes, the temporary file is removed and ``path`` is
    untouched. An ``OSError`` met while writing names ``path``, not the temporary.

    >>> import pathlib, tempfile
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "numbers.txt"
    >>> with atomic_path(target) as temporary:
    ...     _ = temporary.write_text("1 2 3")
    >>> target.read_text(), [p.name for p in target.parent.iterdir()]
    ('1 2 3', ['numbers.txt'])
    """
    target = check_target(path)
    with _cleanup_on_termination() as guarded:
        temporary = _new_part(target, guarded)
        try:
            yield Path(temporary)
            # A new file keeps the mode the umask gave it; a file replaced, its own.
            if target.exists():
                os.chmod(temporary, target.stat().st_mode & 0o7777)
            os.replace(temporary, target)
        except OSError as error:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
            if temporary not in (str(error.filename), str(error.filename2)):
                raise
            # Name the user's path, not the hidden temporary file.
            raise OSError(error.errno, error.strerror, str(target)) from error
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
            raise
        finally:
            _parts.discard(temporary)


def write_atomic(path: str | os.PathLike, data: str | bytes) -> Path:
    """Write ``data`` (text as UTF-8) to ``path`` whole or not at all."""
    payload = data.encode() if isinstance(data, str) else data
    with atomic_path(path) as temporary:
        temporary.write_bytes(payload)
    return Path(path)
