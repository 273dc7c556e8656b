"""What every command shares: exit statuses, one-line errors, Ctrl-C, output checks, options."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import click

from ..disk.writing import check_writable
from ..display.streaming import holds_columns, iter_json, write_pieces
from ..display.terminal import printable
from ..errors import CPQueensError, InvalidInputError
from ..solvers import REGISTRY
from . import ranges
from .failures import failure, one_line, show_traceback

#: Exit statuses beyond click's own (0 success, 2 usage error): 1 a disagreement,
#: 3 stopped by --time-limit (a run cut short, neither wrong nor bad input), 130 Ctrl-C.
DISAGREES, INTERRUPTED = 1, 130
TIMED_OUT = 3
#: Exit status of a check where something gave no answer (a run failed, an output
#: could not be read) and nothing answered wrong: no verdict, not a disagreement.
NO_ANSWER = 4
FORMATS = ("grid", "zero-plus", "x-dash", "letters", "json", "csv", "xcsp")
TREE_SUFFIXES = (
    ".graphml", ".gexf", ".json", ".dot", ".png", ".svg", ".pdf", ".html", ".sqlite",
)  # fmt: skip
BENCH_SUFFIXES = (".png", ".svg", ".csv", ".json")
REPORT_SUFFIXES = (".html", ".md")


class BadInput(click.ClickException):
    """Bad input found after parsing (a library refusal, an unwritable path): exit 2."""

    exit_code = 2


#: The signals that end a command as Ctrl-C does (what it started ended, its temporary
#: files removed), with the exit status a shell gives a process they end.
ENDING_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)

#: Seconds the clean-up after SIGTERM or SIGHUP may take before the process ends anyway.
ENDING_GRACE = 10.0


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised in the main thread as Ctrl-C is."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


#: The process that took the ending signals: a child forked from it (a process pool's
#: worker) that inherits the handler ends as the signal's default action would.
_TAKEN_BY: list[int] = []


_FORK_HOOK: list[bool] = []


def _give_back_in_child() -> None:
    for signum in ENDING_SIGNALS:
        if signal.getsignal(signum) is _terminated:
            signal.signal(signum, signal.SIG_DFL)


def _terminated(signum: int, frame: Any) -> None:
    if os.getpid() not in _TAKEN_BY:
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return

    # Should the clean-up hang, the signal's own action ends the process anyway.
    def end() -> None:
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    timer = threading.Timer(ENDING_GRACE, end)
    timer.daemon = True
    timer.start()
    raise Terminated(signum)


@contextlib.contextmanager
def ending_signals_interrupt() -> Iterator[None]:
    """While the command runs, SIGTERM and SIGHUP raise :class:`Terminated` (a
    KeyboardInterrupt): every program and process it started is ended and its
    temporary files are removed, as on Ctrl-C. A signal ignored (``nohup``) stays
    ignored; only the main thread can take signals."""
    taken: dict[int, Any] = {}
    _TAKEN_BY[:] = [os.getpid()]
    if not _FORK_HOOK:
        # A forked child (a process pool's worker) gets the signals' default action
        # back at once: a child stuck in C, which could never run a Python handler,
        # is still ended by SIGTERM.
        os.register_at_fork(after_in_child=_give_back_in_child)
        _FORK_HOOK.append(True)
    if threading.current_thread() is threading.main_thread():
        for signum in ENDING_SIGNALS:
            previous = signal.getsignal(signum)
            if previous is signal.SIG_DFL:
                taken[signum] = previous
                signal.signal(signum, _terminated)
    try:
        yield
    finally:
        for signum, previous in taken.items():
            signal.signal(signum, previous)


class Group(click.Group):
    """Turns every error into one line (exit 2 for bad input, see :mod:`.failures`)
    and Ctrl-C into a clean exit 130."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CPQueensError as error:
            raise BadInput(cli_words(one_line(str(error)))) from None
        except click.NoSuchOption as error:
            # "solve -1": a negative size reads like an option; it is a bad size.
            if re.fullmatch(r"-\d[\d_,]*", error.option_name or ""):
                raise BadInput(
                    f"board sizes must be positive integers, got {error.option_name}"
                ) from None
            raise
        except KeyboardInterrupt as error:
            finished = summarise(ctx.meta.get("cpqueens.finished", [])) or "nothing"
            how = f"ended by {error}" if isinstance(error, Terminated) else "interrupted"
            click.echo(f"\n{how}; finished: {finished}", err=True)
            if ctx.meta.get("cpqueens.output"):
                click.echo(f"{ctx.meta['cpqueens.output']} was not written", err=True)
            status = 128 + error.signum if isinstance(error, Terminated) else INTERRUPTED
            raise click.exceptions.Exit(status) from None
        except (click.exceptions.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except BrokenPipeError:
            # "cpqueens solve 12 --all | head": the reader has all it wants. Quietly,
            # as any filter does; what is still buffered goes nowhere.
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise click.exceptions.Exit(0) from None
        except Exception as error:
            # The one door: whatever else went wrong is one line (see failures.py).
            if show_traceback():
                raise
            words, status = failure(error)
            click.echo(f"Error: {cli_words(words)}", err=True)
            raise click.exceptions.Exit(status) from None


#: The library's words for its arguments, and the command line's for the same options.
_PYTHON_TO_CLI = (
    (re.compile(r"\bsolve\(n, backend='([\w-]+)', limit=1\)"), r"cpqueens solve N -b \1 --limit 1"),
    (re.compile(r"\bfixed=\{row: column\}"), "--fixed R:C"),
    (re.compile(r"\bunique=True\b"), "--unique"),
    (re.compile(r"\(certify=True\)"), "(--certify)"),
    (re.compile(r"\b(solutions_only|hide_failed)=True\b"), lambda m: "--" + m[1].replace("_", "-")),
    (re.compile(r"\bfixed=\.\.\."), "--fixed R:C"),
    (re.compile(r"\bstyle='(\w+)'"), r"--style \1"),
    (re.compile(r"\(question='decide'[^)]*\)"), "(drop --all)"),
    (
        re.compile(
            r"\b(limit|time_limit|max_depth|max_nodes|propagation|order|workers|seed|scheduler"
            r"|reference)="
            r"('?)([^\s,;)']*)\2"
        ),
        lambda m: f"--{m[1].replace('_', '-')} {m[3]}",
    ),
    (re.compile(r"\b(time_limit|max_depth|max_nodes)\b"), lambda m: "--" + m[1].replace("_", "-")),
)


def cli_words(message: str) -> str:
    """A library message in the command line's words: ``limit=k`` is ``--limit k`` there.

    >>> cli_words("give limit=k, or max_depth=... with propagation='forward'")
    'give --limit k, or --max-depth ... with --propagation forward'
    >>> cli_words("time_limit must be a positive number of seconds")
    '--time-limit must be a positive number of seconds'
    >>> cli_words("pass hide_failed=True, or draw it with style='icicle'")
    'pass --hide-failed, or draw it with --style icicle'
    """
    for pattern, replacement in _PYTHON_TO_CLI:
        message = pattern.sub(replacement, message)
    return message


def summarise(labels: list[str]) -> str:
    """Join labels, folding runs such as "n=4 x", "n=5 x", "n=6 x" into "n=4..6 x".

    >>> summarise(["check n=4", "check n=5", "check n=6", "tree n=5"])
    'check n=4..6, tree n=5'
    """
    runs: list[list] = []  # [prefix, first n, last n, suffix]
    for label in labels:
        match = re.fullmatch(r"(.*?n=)(\d+)(.*)", label)
        if match is None:
            runs.append([label, None, None, ""])
            continue
        prefix, n, suffix = match[1], int(match[2]), match[3]
        last = runs[-1] if runs else None
        if last and last[0] == prefix and last[3] == suffix and last[2] == n - 1:
            last[2] = n
        else:
            runs.append([prefix, n, n, suffix])
    return ", ".join(
        prefix
        if first is None
        else f"{prefix}{first}{'' if first == last else f'..{last}'}{suffix}"
        for prefix, first, last, suffix in runs
    )


def finished(label: str) -> None:
    """Record a finished piece of work, for the message shown on Ctrl-C."""
    click.get_current_context().meta.setdefault("cpqueens.finished", []).append(label)


def output_path(path: str | None, suffixes: tuple[str, ...]):
    """Check an output path up front, remembering it for the message shown on Ctrl-C."""
    if path is None:
        return None
    target = check_writable(path, suffixes)
    click.get_current_context().meta["cpqueens.output"] = str(target)
    return target


def say(quiet: bool, message: str) -> None:
    """A human-oriented line on stderr, so that stdout stays clean for pipes (its
    control characters shown, not obeyed: a message may quote a label or a file name)."""
    if not quiet:
        click.echo(printable(message, multiline=True), err=True)


#: Past this many characters, JSON is written compact: indenting puts every column of
#: a million-queen board on a line of its own (four times slower, twice the size).
COMPACT_JSON = 1_000_000


def emit_json(data: Any) -> None:
    """Print ``data`` as JSON: indented, with each list of plain numbers (a board) on
    one line; past :data:`COMPACT_JSON` characters, compact."""
    if holds_columns(data):
        # A huge board (Columns): compact, written piece by piece as it is made.
        stream = sys.stdout
        write_pieces(iter_json(data), stream)
        stream.write("\n")
        return
    text = json.dumps(data)
    click.echo(text if len(text) > COMPACT_JSON else indent_json(data))


def indent_json(data: Any) -> str:
    """JSON indented by two, but a list of numbers stays on one line.

    >>> print(indent_json({"n": 4, "solutions": [[1, 3, 0, 2], [2, 0, 3, 1]]}))
    {
      "n": 4,
      "solutions": [
        [1, 3, 0, 2],
        [2, 0, 3, 1]
      ]
    }
    """
    boards: list[str] = []

    def fold(value: Any) -> Any:
        if (
            isinstance(value, list)
            and value
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
        ):
            boards.append(json.dumps(value, separators=(", ", ": ")))
            return f"\u0000{len(boards) - 1}\u0000"
        if isinstance(value, list):
            return [fold(v) for v in value]
        if isinstance(value, dict):
            return {k: fold(v) for k, v in value.items()}
        return value

    text = json.dumps(fold(data), indent=2)
    return re.sub(r'"\\u0000(\d+)\\u0000"', lambda m: boards[int(m[1])], text)


def check_backend(name: str) -> str:
    backend = REGISTRY.get(name)
    if backend is None:
        raise InvalidInputError(
            f"unknown backend {name!r}; valid backends are: {', '.join(REGISTRY)}"
        )
    backend.require()
    return name


def backend_list(text: str | None, *, enumerating: bool = False) -> list[str]:
    """The backends named in ``text``, or every available one; each checked to be usable."""
    if text is None:
        return [
            name
            for name, backend in REGISTRY.items()
            # Every command that takes a default list times or checks whole searches.
            if backend.is_available()
            and backend.exhaustive
            and (backend.enumerates or not enumerating)
        ]
    names = ranges.parse_names(text, list(REGISTRY))
    for name in names:
        check_backend(name)
    return names


def _finders() -> str:
    """The registry's backends that find solutions without proving anything, in words."""
    names = [name for name, backend in REGISTRY.items() if not backend.exhaustive]
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names)


#: What the commands that time or compare whole searches take without --backends.
DEFAULT_SET_HELP = (
    f"Default: every installed backend that searches exhaustively ({_finders()} find "
    "solutions without proving anything: name them to include them); the run says which."
)


def note_once(
    quiet: bool, note: str | None, write: Callable[[str], None] | None = None
) -> Callable[[], None]:
    """A function that says ``note`` (if any) the first time it is called, and
    nothing after: called from the library's first progress callback, so the note
    comes once the call has been checked and a refusal stays one line. ``write``
    writes it instead of :func:`say` (a progress bar's :meth:`~cpqueens.parallel.progress.Bar.say`).

    >>> import contextlib, io
    >>> tell, said = note_once(False, "using 1 of 16 backends"), io.StringIO()
    >>> with contextlib.redirect_stderr(said):
    ...     tell(); tell()
    >>> said.getvalue()
    'using 1 of 16 backends\\n'
    """
    pending = [] if note is None else [note]

    def tell() -> None:
        while pending:
            message = pending.pop()
            if write is None:
                say(quiet, message)
            elif not quiet:
                # A progress bar's own writer puts the line above the bar, not onto it.
                write(printable(message, multiline=True))

    return tell


def default_set_note(chosen: list[str]) -> str:
    """The line that says which backends a default set holds and which it leaves out, why.

    >>> print(default_set_note(["stack"])[:40])
    using 1 of 17 backends: stack; left out:
    """
    left: dict[str, list[str]] = {}
    for name, backend in REGISTRY.items():
        if name in chosen:
            continue
        if not backend.is_available():
            why = "not installed: cpqueens backends says what installs them"
        elif not backend.exhaustive:
            why = "they find solutions and prove nothing"
        else:
            why = "they only count"
        left.setdefault(why, []).append(name)
    note = f"using {len(chosen)} of {len(REGISTRY)} backends: {', '.join(chosen)}"
    if left:
        note += "; left out: " + "; ".join(f"{', '.join(v)} ({k})" for k, v in left.items())
    return note


def quiet_option(function: Callable) -> Callable:
    return click.option(
        "-q", "--quiet", is_flag=True, help="Print only the result: no summary, no progress bar."
    )(function)


def output_options(function: Callable) -> Callable:
    """--parse, --expect, --base and --ignore: how a program's output is read and compared."""
    from ..checking.row import COMPARISONS
    from ..outputs.boards import STYLES

    for option in reversed(
        [
            click.option(
                "--parse",
                type=click.Choice(STYLES),
                default="auto",
                show_default=True,
                help="How to read the output (auto tries every reader).",
            ),
            click.option(
                "--expect",
                type=click.Choice(COMPARISONS),
                help="all: every solution is printed (the default; some for a SAT solver "
                "given --instance-format cnf, which prints one model); some: a few; "
                "count: only the number.",
            ),
            click.option(
                "--base",
                type=click.Choice(["0", "1"]),
                help="Numbered columns start at 0 or 1 (default: guessed).",
            ),
            click.option(
                "--ignore",
                multiple=True,
                metavar="REGEX",
                help="Leave out output lines this pattern matches (prose not even to be "
                "noted, a line that is no board). Repeatable.",
            ),
        ]
    ):
        function = option(function)
    return function


def json_option(function: Callable) -> Callable:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON, for scripts.")(
        function
    )


def certify_options(function: Callable) -> Callable:
    """``--certify`` and ``--keep-proof DIR``: the answer proved (see `cpqueens docs certify`)."""
    function = click.option(
        "--keep-proof",
        metavar="DIR",
        help="Keep the formula (.cnf) and the proof (.drat) in DIR, for another checker "
        "(implies --certify).",
    )(function)
    return click.option(
        "--certify",
        is_flag=True,
        help="Prove the answer with a DRAT proof that an independent checker accepts "
        "(backends propagate, exactcover and sat); exit status 1 when it is not proved.",
    )(function)


def report_certificate(certificate: Any, quiet: bool) -> None:
    """Say what the certificate proved, or that it proved nothing (then exit 1: a proof
    that fails is as loud as a wrong answer)."""
    if certificate is None:
        return
    if certificate.proved:
        say(quiet, f"proved: {certificate}")
        return
    click.echo(f"NOT PROVED: {certificate}", err=True)
    raise click.exceptions.Exit(DISAGREES)


def backend_options(function: Callable) -> Callable:
    return click.option(
        "-O",
        "--option",
        "backend_option",
        multiple=True,
        metavar="KEY=VALUE",
        help="A backend-specific option, e.g. -O tried=tested for stack (repeatable).",
    )(function)


#: The files --faults writes.
FAULT_SUFFIXES = (".csv", ".json")


def faults_option(function: Callable) -> Callable:
    return click.option(
        "--faults",
        "faults_file",
        metavar="FILE",
        help="Write every faulty board to FILE (.csv or .json): n, backend or program, "
        "the kind of fault, the board 0-based, and the line the program printed it on.",
    )(function)
