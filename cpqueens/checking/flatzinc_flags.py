"""The standard flags of a FlatZinc solver, chosen from the question asked and the time limit.

Every FlatZinc solver (``fzn-gecode``, ``fzn-chuffed``, OR-Tools' ``fzn-cp-sat``...)
takes the flags the MiniZinc specification names for them: ``-a`` prints every
solution, ``-n N`` the first N, ``-t MS`` stops the search after MS milliseconds.
``{flags}`` in a command (:class:`cpqueens.Command` with ``instance_format="fzn"``,
a campaign's ``command``, :class:`cpqueens.FlatZincSolver`) stands for them:

* ``all`` and ``count``: ``-a``, so that the solver prints every solution and, once
  its search is over, ``==========``;
* ``decide`` (and ``some``, a cross-check of one or a few solutions): nothing, the
  specification's default of one solution;
* a time limit: ``-t`` and its milliseconds, so that the solver stops itself and
  says what it found (cpqueens still kills it, and everything it started, when
  the limit is past).

>>> flatzinc_flags("all"), flatzinc_flags("decide", 2.5)
(['-a'], ['-t', '2500'])
>>> flatzinc_flags("count", 10)
['-a', '-t', '10000']
"""

from __future__ import annotations

from ..errors import InvalidInputError

#: What ``{flags}`` stands for in a command.
FLAGS = "{flags}"
#: The questions flags are chosen for: a campaign's (decide, count, all) and a
#: cross-check's comparisons (all, some, count).
QUESTIONS = ("all", "count", "decide", "some")


def flatzinc_flags(question: str, time_limit: float | None = None) -> list[str]:
    """The FlatZinc flags that ask ``question`` within ``time_limit`` seconds (None:
    no limit); see the module's description.

    Raises
    ------
    InvalidInputError
        For a question that is none of :data:`QUESTIONS`.
    """
    if question not in QUESTIONS:
        raise InvalidInputError(
            f"the FlatZinc flags are chosen for one of: {', '.join(QUESTIONS)}; got {question!r}"
        )
    flags = ["-a"] if question in ("all", "count") else []
    if time_limit is not None:
        # At least one millisecond: -t 0 means no limit to a FlatZinc solver.
        flags += ["-t", str(max(1, int(time_limit * 1000)))]
    return flags


def expand_flags(template: list[str], flags: list[str]) -> list[str]:
    """``template`` with ``{flags}`` replaced: an argument that is ``{flags}`` alone
    becomes the flags (none, one or several arguments); inside a longer argument it
    becomes them joined by spaces.

    >>> expand_flags(["fzn-gecode", "{flags}", "q.fzn"], ["-a", "-t", "100"])
    ['fzn-gecode', '-a', '-t', '100', 'q.fzn']
    >>> expand_flags(["fzn-gecode", "{flags}", "q.fzn"], [])
    ['fzn-gecode', 'q.fzn']
    """
    expanded: list[str] = []
    for part in template:
        if part == FLAGS:
            expanded += flags
        else:
            expanded.append(part.replace(FLAGS, " ".join(flags)))
    return expanded
