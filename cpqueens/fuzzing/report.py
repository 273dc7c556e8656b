"""What a hunt found: :class:`FuzzFailure` records and the :class:`FuzzReport` holding them."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..display.terminal import printable
from ..instances import Instance
from ..instances.formats.jsonfile import json_record, parse_json


@dataclass(frozen=True)
class FuzzFailure:
    """One failure, shrunk: the smallest instance found that fails the same way.

    Attributes
    ----------
    kind : str
        ``"invalid board"``, ``"wrong decision"``, ``"wrong count"``, ``"missing
        solutions"``, ``"extra solutions"``, ``"relation"``, ``"crash"``, ``"timeout"``,
        ``"garbage"`` (output that answers nothing) or ``"endless output"``.
    instance : Instance
        The shrunk instance.
    original : Instance
        The instance as first found failing.
    expected, observed : str
        What was expected and what the target answered, short.
    reproduce : str
        The command line or Python call that shows the target's answer again.
    seed : int
        The hunt's seed; ``index`` is the instance's place in its draws.
    relation : str or None
        For a relation: which one, e.g. ``"symmetry: a quarter turn"``; ``partner``
        is then the second instance of the two that disagree.
    seen : int
        How many failures shrank to this one.
    flaky : bool
        True when the failure did not show again when run again: it is reported as
        found, not shrunk.
    confirmed : bool
        False when the run again did not finish (it ran out of time, or the budget
        ended): the failure is reported as found, neither confirmed nor flaky.
    minimal : bool
        False when shrinking stopped early (the budget ended first).
    found_after, shrink_seconds : float
        Seconds from the hunt's start to the first sight of it, and spent shrinking it.

    Examples
    --------
    The failures of a :func:`cpqueens.fuzz` report; a solver that never finds a
    board fails first on n=4, shrunk to n=1:

    >>> import cpqueens
    >>> def no_boards(instance):
    ...     return []
    >>> report = cpqueens.fuzz(no_boards, budget=10, max_n=4, families=["plain"],
    ...                        max_failures=1)
    >>> (failure,) = report.failures
    >>> failure.kind, failure.instance, failure.original
    ('wrong decision', Instance(n=1), Instance(n=4))
    >>> failure.expected, failure.observed, failure.reproduce
    ('satisfiable', 'unsatisfiable', 'no_boards(cpqueens.Instance(1))')
    >>> failure.minimal, failure.flaky, failure.wrong
    (True, False, True)
    """

    kind: str
    instance: Instance
    original: Instance
    expected: str
    observed: str
    reproduce: str
    seed: int
    index: int = 0
    family: str = ""
    relation: str | None = None
    partner: Instance | None = None
    seen: int = 1
    flaky: bool = False
    minimal: bool = True
    found_after: float = 0.0
    shrink_seconds: float = 0.0
    confirmed: bool = True

    @property
    def kind_words(self) -> str:
        """The kind, with the relation broken, if any."""
        return self.kind + (f" ({self.relation})" if self.relation else "")

    @property
    def flags(self) -> str:
        """What the reader must know of how far it was confirmed and shrunk."""
        if self.flaky:
            return " (flaky: did not show again)"
        if not self.confirmed:
            return " (not confirmed: the run again did not finish)"
        return "" if self.minimal else " (shrinking stopped by the budget)"

    @property
    def wrong(self) -> bool:
        """True for a failure that is not a time-out: a wrong answer, a crash, garbage."""
        return self.kind != "timeout"

    @property
    def key(self) -> tuple:
        """Failures with the same key are one failure (seen several times)."""
        return (self.kind, (self.relation or "").split(":")[0], self.instance)

    @property
    def size(self) -> tuple[int, int, int]:
        """How large the failing instance is: parts (blocked squares and given queens),
        then n, then how far its squares are from the corner; for a relation, the
        larger of its two instances (the one answered wrong may be either)."""

        def measure(instance: Instance) -> tuple[int, int, int]:
            parts = instance.fixed + instance.blocked
            return (len(parts), instance.n, sum(r + c for r, c in parts))

        if self.partner is None:
            return measure(self.instance)
        return max(measure(self.instance), measure(self.partner))

    def to_dict(self) -> dict[str, Any]:
        out = {
            "kind": self.kind,
            "instance": instance_dict(self.instance),
            "original": instance_dict(self.original),
            "expected": self.expected,
            "observed": self.observed,
            "reproduce": self.reproduce,
            "seed": self.seed,
            "index": self.index,
            "family": self.family,
            "relation": self.relation,
            "partner": None if self.partner is None else instance_dict(self.partner),
            "seen": self.seen,
            "flaky": self.flaky,
            "confirmed": self.confirmed,
            "minimal": self.minimal,
            "found_after": round(self.found_after, 3),
            "shrink_seconds": round(self.shrink_seconds, 3),
        }
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FuzzFailure:
        partner = data.get("partner")
        return cls(
            kind=data["kind"],
            instance=instance_of(data["instance"]),
            original=instance_of(data["original"]),
            expected=data["expected"],
            observed=data["observed"],
            reproduce=data["reproduce"],
            seed=data["seed"],
            index=data.get("index", 0),
            family=data.get("family", ""),
            relation=data.get("relation"),
            partner=None if partner is None else instance_of(partner),
            seen=data.get("seen", 1),
            flaky=data.get("flaky", False),
            confirmed=data.get("confirmed", True),
            minimal=data.get("minimal", True),
            found_after=data.get("found_after", 0.0),
            shrink_seconds=data.get("shrink_seconds", 0.0),
        )


def instance_dict(instance: Instance) -> dict[str, Any]:
    """An instance as the JSON instance files hold it (0-based squares)."""
    return json_record(instance)


def instance_of(data: Mapping[str, Any]) -> Instance:
    """An instance read back from a report, checked as a JSON instance file is."""
    return parse_json(json.dumps(data), "a hunt's report")


@dataclass
class FuzzReport:
    """The outcome of :func:`cpqueens.fuzz`.

    Attributes
    ----------
    target : str
        The label of the solver hunted.
    question : str
        ``"all"``, ``"decide"`` or ``"count"``.
    seed : int
        The hunt's seed: the same seed draws the same instances in the same order.
    reference : str or None
        The reference backend (None: relations only).
    tried : int
        Instances tried (resumed hunts count the earlier ones too).
    by_family : dict
        ``{family: {n: instances tried}}``.
    failures : list of FuzzFailure
        Distinct failures, smallest first: wrong answers (a wrong decision, count or
        board, missing or extra solutions, a broken relation), crashes, garbage and
        endless output.
    timeouts : list of FuzzFailure
        Runs that gave no answer within the time limit, nor within
        :data:`~cpqueens.fuzzing.hunt.CONFIRM_FACTOR` times it when run again: slow,
        not wrong, and kept apart.
    seconds : float
        Wall time of this run of the hunt.
    load : tuple
        ``(others, cores, slowdown)``: the processes of others that wanted a core
        while the hunt ran (on average), the machine's cores, and the factor each run's
        time limit was multiplied by for them (:class:`~cpqueens.fuzzing.hunt.Load`).
    exhausted : str or None
        Why the hunt ended before its budget because nothing was left to try (a
        program told only ``{n}``: every size was tried).

    Examples
    --------
    A hunt stopped at its first failure (``max_failures=1``):

    >>> import cpqueens
    >>> def no_boards(instance):
    ...     return []
    >>> report = cpqueens.fuzz(no_boards, budget=10, seed=0, max_n=4, families=["plain"],
    ...                        max_failures=1)
    >>> report.ok, report.target, report.question, report.seed
    (False, 'no_boards', 'all', 0)
    >>> report.tried, report.by_family, len(report.failures), report.timeouts
    (1, {'plain': {4: 1}}, 1, [])
    >>> report.to_dict()["failures"][0]["instance"]
    {'n': 1, 'blocks': [], 'queens': []}
    """

    target: str
    question: str
    seed: int
    reference: str | None
    tried: int = 0
    by_family: dict[str, dict[int, int]] = field(default_factory=dict)
    failures: list[FuzzFailure] = field(default_factory=list)
    timeouts: list[FuzzFailure] = field(default_factory=list)
    seconds: float = 0.0
    load: tuple[float, int, float] = (0.0, 1, 1.0)
    exhausted: str | None = None

    @property
    def ok(self) -> bool:
        """True when no wrong answer (or crash) was found; time-outs are apart."""
        return not self.failures

    def __str__(self) -> str:
        head = (
            f"{self.target}: {len(self.failures)} distinct failure(s)"
            + (f" and {len(self.timeouts)} time-out(s)" if self.timeouts else "")
            + f" in {self.tried:,} instances ({self.question}, seed {self.seed}, "
            f"reference {self.reference or 'none, relations only'})"
        )
        lines = [printable(head)]
        others, cores, factor = self.load
        if factor > 1:
            lines.append(
                f"machine busy: {others:.1f} other processes wanted its {cores} core(s), so "
                f"each run was allowed {factor:.1f} times its time limit"
            )
        if self.exhausted:
            lines.append(printable(self.exhausted))
        if self.by_family:
            tried = ", ".join(
                f"{family} {sum(sizes.values()):,} (n = {_span(sizes)})"
                for family, sizes in sorted(self.by_family.items())
            )
            lines.append(f"tried: {tried}")
        for number, failure in enumerate(self.failures + self.timeouts, 1):
            if number == len(self.failures) + 1:
                lines.append("time-outs (slow, not wrong: no answer, even given "
                             "more time once):")  # fmt: skip
            seen = f", seen {failure.seen} times" if failure.seen > 1 else ""
            lines.append(printable(f"{number}. {failure.kind_words}{seen}{failure.flags}"))
            lines.append(printable(f"   instance: {failure.instance!r}"))
            if failure.partner is not None:
                lines.append(printable(f"   and:      {failure.partner!r}"))
            lines.append(printable(f"   expected: {failure.expected}"))
            lines.append(printable(f"   observed: {failure.observed}"))
            lines.append(printable(f"   reproduce: {failure.reproduce}"))
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "question": self.question,
            "seed": self.seed,
            "reference": self.reference,
            "tried": self.tried,
            "by_family": self._sizes(),
            "seconds": round(self.seconds, 3),
            "load": {"others": self.load[0], "cores": self.load[1], "slowdown": self.load[2]},
            "exhausted": self.exhausted,
            "failures": [failure.to_dict() for failure in self.failures],
            "timeouts": [failure.to_dict() for failure in self.timeouts],
        }

    def _sizes(self) -> dict[str, dict[str, int]]:
        return {
            family: {str(n): k for n, k in sorted(sizes.items())}
            for family, sizes in self.by_family.items()
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)


def _span(sizes: Mapping[int, int]) -> str:
    low, high = min(sizes), max(sizes)
    return str(low) if low == high else f"{low}..{high}"
