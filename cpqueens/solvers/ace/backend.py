"""ACE, the reference solver of the XCSP competitions, run on the XCSP3 file cpqueens writes.

The instance (its given queens and blocked squares included) is written with
:func:`cpqueens.instances.formats.xcsp.document.format_xcsp` into a private temporary folder, and
the jar is run directly, ``java -jar ACE-<version>.jar instance.xml -s=... -xe
-xc=false -npc -v=-1 [-t=...]``, as a process of its own
(:mod:`.ace_process`), never through pycsp3's solve helper, which leaves the JVM
running when it is killed. The jar is the one the ``pycsp3`` package ships (see
:mod:`.ace_runtime`; ``CPQUEENS_JAVA`` and ``CPQUEENS_ACE_JAR`` point elsewhere).

ACE prints each solution as it finds it (``-xe``); every one is read
(:mod:`.ace_output`), checked against the instance, and yielded at once, in the
order ACE finds them, so a ``limit`` stops ACE as soon as it is met (``-s=`` the
limit, and the JVM killed when the caller stops reading). Without a limit ACE lists
every solution (``-s=all``): its restarts and nogoods never list one twice, and a
solution printed twice is an error, not a count. The status line and ``d COMPLETE
EXPLORATION`` say whether the search ended; ``stats`` holds ACE's ``found``,
``wrong_decisions``, ``cpu_seconds`` and ``first_solution_seconds``.

``time_limit`` counts from the call, the JVM's start included: ACE is given its own
``-t`` a little short of what is left (it starts its clock once the JVM is up), and
the JVM and everything below it are killed half a second past the deadline,
whatever ACE does; the solutions printed until then are kept and the result is
marked timed out. Ctrl-C kills them too. ACE's memory counts in a campaign's
memory limit, which sums the whole process tree of a run.

What goes wrong in ACE is a :class:`~cpqueens.errors.SolverError` of one line: a
JVM that dies (its exit status and the last line it printed), an output that is
not an answer (no status line, a v line that is not an instantiation of ``q``, an
unfinished one, a status that contradicts the solutions printed, a count stated
that differs from the solutions printed), a board that does not solve the
instance, a solution printed twice. A claim of ``s UNSATISFIABLE`` on an instance
that has solutions cannot be seen from here: it comes out as no solution, which
:func:`cpqueens.crosscheck` reports as solutions missing.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ...board import Solution
from ...errors import BackendUnavailableError, SolverError
from ...programs.lines import LineProcess
from ...programs.process_trees import exit_words
from ..base import Backend
from ..guards import check_solution
from ..problem import Problem
from ..run import SearchRun
from .model import DEFAULT_OUTPUT, check_model_options, compile_model
from .output import AceOutputError, AceReader
from .runtime import INSTALL_JAVA, PACKAGE, ace_jar, jar_version, missing_piece, require_ace
from .startup import ClassArchive

#: Seconds the JVM may run past the deadline before it is killed.
GRACE = 0.5
#: Seconds of a time limit kept for the JVM's start, before ACE's own clock starts.
JVM_START = 1.0
#: The least time left (seconds) for a run to write the JVM's class-data archive.
ARCHIVE_AT = 10.0
#: The label of ACE's errors.
LABEL = "ACE"
_JAVA_TOO_OLD = "UnsupportedClassVersionError"


class AceBackend(Backend):
    """ACE (the XCSP competitions' reference solver) on cpqueens' XCSP3 file, in a JVM.

    >>> import cpqueens
    >>> ready = next(i for i in cpqueens.backends() if i.name == "ace").available
    >>> not ready or cpqueens.count(8, backend="ace") == 92
    True
    >>> result = cpqueens.solve(8, backend="ace", blocked=[(0, 0)], limit=1) if ready else None
    >>> not ready or (result.count, result.solutions[0][0] != 0) == (1, True)
    True

    See Also
    --------
    MiniZincBackend : another solver run as a program on a model of its own.
    """

    name = "ace"
    # The largest board taken: n = 1000 is a file of 30 kB, and ACE finds no
    # solution of it in 20 s (n = 300: 17 s).
    max_n = 1000
    summary = "ACE, the XCSP reference solver: cpqueens' XCSP3 file solved in a JVM"
    source = "ACE jar of the pycsp3 package, run with java -jar"
    requires = "pycsp3"
    install_hint = "pycsp3"
    lexicographic = False  # in the order ACE finds them
    #: CPU seconds a call costs before any search: the JVM's start and ACE's own.
    start_seconds = 0.8
    supports_blocked = True
    options = ("model", "base", "output")
    programs = (("java", INSTALL_JAVA),)

    def check_options(self, options: dict[str, Any]) -> None:
        check_model_options(options)

    def is_available(self) -> bool:
        return missing_piece(self.requires or PACKAGE) is None

    def require(self) -> None:
        reason = missing_piece(self.requires or PACKAGE)
        if reason is not None:
            raise BackendUnavailableError(reason)

    def solver_version(self) -> str | None:
        """``"ACE 2.6"``: ACE's version, as the name of the jar run tells it (None
        when there is no jar, or its name tells none)."""
        jar = ace_jar(self.requires or PACKAGE)
        version = None if jar is None else jar_version(jar)
        return None if version is None else f"{LABEL} {version}"

    def search(self, problem: Problem, run: SearchRun) -> Iterator[Solution]:
        from ...instances import Instance
        from ...instances.formats.xcsp.document import format_xcsp

        java, jar = require_ace(self.requires or PACKAGE)
        remaining = run.remaining()
        if remaining is not None and remaining <= 0:
            run.mark_timed_out()
            return
        archive = ClassArchive(java, jar)
        run.stats.update(solver=self.solver_version() or LABEL)
        ended_well = False
        try:
            with tempfile.TemporaryDirectory(prefix="cpqueens-ace-") as folder:
                if problem.options.get("model") is None:
                    fixed = {r: c for r, c in enumerate(problem.fixed) if c is not None}
                    instance = Instance(problem.n, fixed, problem.blocked)
                    Path(folder, "instance.xml").write_text(format_xcsp(instance))
                    file = "instance.xml"
                else:
                    compiled = compile_model(problem, folder, run.deadline)
                    if compiled is None:  # the model's compilation ran out of time
                        run.mark_timed_out()
                        return
                    file = compiled.name
                remaining = run.remaining()
                # Writing the archive adds a moment to the JVM's exit: not on a tight clock.
                jvm = archive.flags(may_write=remaining is None or remaining >= ARCHIVE_AT)
                argv = [java, *jvm, "-jar", str(jar), file, *_flags(problem.limit, remaining)]
                yield from _solutions(argv, folder, problem, run)
            ended_well = not run.timed_out
        finally:
            archive.settle(ended_well=ended_well)


def _flags(limit: int | None, remaining: float | None) -> list[str]:
    """ACE's options: every solution printed as found, in plain XCSP, no colours, no
    log; the solutions wanted; its own time limit, short of the one left."""
    flags = [f"-s={limit or 'all'}", "-xe", "-xc=false", "-npc", "-v=-1"]
    if remaining is not None:
        flags.append(f"-t={max(1, round(1000 * max(remaining - JVM_START, remaining / 2)))}")
    return flags


def _solutions(
    argv: list[str], folder: str, problem: Problem, run: SearchRun
) -> Iterator[Solution]:
    """Run ACE, yield each solution as it is printed, then judge how the run ended."""
    options = problem.options
    model = options.get("model")
    label = LABEL if model is None else f"{LABEL} with the PyCSP3 model {Path(model).name}"
    reader = AceReader(
        problem.n,
        array=options.get("output", DEFAULT_OUTPUT) if options.get("model") else "q",
        base=options.get("base", 0) if options.get("model") else 0,
    )
    seen: set[Solution] = set()
    kill_at = None if run.deadline is None else run.deadline + GRACE
    with LineProcess(argv, cwd=folder) as program:
        try:
            for line in program.lines(kill_at):
                values = reader.feed(line)
                if values is None:
                    continue
                solution = check_solution(values, problem, label)
                if solution in seen:
                    raise SolverError(f"{LABEL} printed the solution {solution} twice")
                seen.add(solution)
                yield solution
            if not program.killed:
                reader.finish()
                program.wait(kill_at)
        except AceOutputError as error:
            raise SolverError(f"{LABEL} printed {error}") from None
    run.stats.update(reader.stats)
    if program.killed and reader.status is None:
        run.mark_timed_out()  # at the deadline: what it printed is kept, the rest unknown
        return
    _judge_end(reader, program, problem, run, len(seen))


def _judge_end(
    reader: AceReader, program: LineProcess, problem: Problem, run: SearchRun, found: int
) -> None:
    """Mark ``run`` for how ACE ended, or raise the error that its ending is."""
    if reader.status is None:
        raise SolverError(f"{LABEL} {_failure(program, reader)}")
    if reader.status == "sat" and not found:
        raise SolverError(f"{LABEL} said s SATISFIABLE and printed no solution")
    if reader.status == "unsat" and found:
        raise SolverError(f"{LABEL} said s UNSATISFIABLE after printing {found} solution(s)")
    if reader.stated_count is not None and reader.stated_count != found:
        raise SolverError(
            f"{LABEL} states {reader.stated_count} solution(s) found and printed {found}"
        )
    if reader.status == "unsat" or reader.complete:
        return
    if problem.limit is not None and found >= problem.limit:
        run.complete = False  # stopped at the solutions asked for
    elif run.deadline is not None:
        run.mark_timed_out()  # stopped at its own time limit
    else:
        raise SolverError(
            f"{LABEL} stopped before the end of its search without a time limit "
            f"(s {reader.status.upper()}, no d COMPLETE EXPLORATION)"
        )


def _failure(program: LineProcess, reader: AceReader) -> str:
    """Why ACE ended without an answer, in words."""
    stderr = [line.strip() for line in program.stderr_tail().splitlines() if line.strip()]
    if any(_JAVA_TOO_OLD in line for line in stderr):
        return (
            "needs Java 17 or later, and this java is older (UnsupportedClassVersionError); "
            f"install it with: {INSTALL_JAVA}"
        )
    last = (stderr or reader.others or ["nothing"])[-1]
    if len(last) > 120:
        last = last[:117] + "..."
    return f"ended without an answer (no s line; {exit_words(program.returncode)}): {last}"
