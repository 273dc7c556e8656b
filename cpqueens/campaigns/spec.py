"""A campaign's description: its question and limits, its instances, its solvers.

A spec is a TOML file (read with :mod:`tomllib`) or the same thing as a dict::

    [campaign]
    name = "blocked"             # optional: the spec file's stem by default
    question = "decide"          # decide | count | all
    time_limit = 10              # seconds of wall time per run
    memory_limit_mb = 2000
    repeats = 1
    seed = 1                     # optional: randomised backends get seed + repeat
    certify = true               # optional: every "unsat" and every count proved (DRAT)

    [[instances]]                # generated: every combination of the listed values
    generator = "blocked"        # blocked | completion | plain
    n = [20, 24]
    blocked = [240, 280, 320]    # "completion": queens = [...]; also min_free, from_solution
    seeds = [1, 2, 3]

    [[instances]]                # files read by read_instance, relative to the spec's folder
    files = "instances/*.param"  # Excluded Diagonals files: diagonals = [d, ...] too

    [[solvers]]
    label = "glucose"
    backend = "sat"
    options = { solver = "glucose4" }

    [[solvers]]
    label = "mine"
    command = "./mysolver {instance}"   # run in the spec's folder
    format = "json"                     # json | param | dzn | cnf | xc | fzn | xcsp

    [[solvers]]
    flatzinc = "fzn-gecode"   # = command "fzn-gecode {flags} {instance}", format "fzn"

Every error names the key, the value and what is allowed.

>>> spec = load_spec({
...     "campaign": {"question": "decide", "time_limit": 5},
...     "instances": [{"generator": "blocked", "n": [8], "blocked": [10, 20], "seeds": [1]}],
...     "solvers": [{"backend": "exactcover"}],
... })
>>> [item.label for item in spec.instances], [s.label for s in spec.solvers]
(['blocked-n8-b10-s1', 'blocked-n8-b20-s1'], ['exactcover'])
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import tomllib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..arguments import check_flag, check_int, check_n, check_seconds
from ..disk.globbing import match_files
from ..disk.reading import MEGABYTE, read_text
from ..disk.structured import load_toml
from ..errors import CPQueensError, InvalidInputError, InvalidTypeError
from ..instances import Instance, random_blocked, random_completion, read_instance
from ..instances.bundles import is_bundle, read_instances
from .fingerprints import model_fingerprint
from .pricing import Recipe, check_board, largest_board, price
from .program_solvers import read_program

QUESTIONS = ("decide", "count", "all")
GENERATORS = ("blocked", "completion", "plain")
#: The longest time limit of a run (seconds): a week.
MAX_TIME_LIMIT = 7 * 24 * 3600
#: The largest spec file read: a spec is a page of settings, not data.
MAX_SPEC_FILE = 10 * MEGABYTE
_CAMPAIGN_KEYS = ("name", "question", "time_limit", "memory_limit_mb", "repeats", "seed",
                  "certify")  # fmt: skip
_GENERATED_KEYS = {
    "blocked": ("generator", "n", "blocked", "seeds", "min_free"),
    "completion": ("generator", "n", "queens", "seeds", "from_solution"),
    "plain": ("generator", "n"),
}
_SOLVER_KEYS = ("label", "backend", "options", "command", "flatzinc", "format", "parse")
#: The parameter each generator varies besides n (for the transition plot's densities).
DENSITY_OF = {"blocked": "blocked", "completion": "queens"}


@dataclass(frozen=True)
class CampaignInstance:
    """One instance of a campaign, and where it came from.

    ``source`` is what made it: ``{"generator": ..., "n": ..., ...}`` for a generated
    one (every parameter), ``{"file": path}`` for one read from a file.
    """

    label: str
    instance: Instance
    source: dict[str, Any]

    @property
    def key(self) -> str:
        """A hash of the board (size, given queens, blocked squares): the same board
        from two sources is one instance."""
        return instance_key(self.instance)


@dataclass(frozen=True)
class SolverConfig:
    """A solver as a campaign runs it: a backend with options, or an external command."""

    label: str
    backend: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    command: str | None = None
    format: str = "json"
    parse: str = "auto"
    folder: str | None = None  # where a command runs (the spec's folder)
    files: tuple[tuple[str, str], ...] = ()  # the content hash of each model file

    @property
    def key(self) -> str:
        """What makes a configuration: the backend and its options, or the command and
        how it is fed and read. Another option is another configuration; the label
        is a name only."""
        if self.backend is not None:
            body: dict[str, Any] = {"backend": self.backend, "options": self.options}
            if self.files:  # absent for the rest: their keys stay what they were
                body["files"] = self.files
        else:
            body = {"command": self.command, "format": self.format, "parse": self.parse}
        return hashlib.sha256(_canonical(body).encode()).hexdigest()[:16]

    def describe(self) -> str:
        if self.backend is not None:
            options = " ".join(f"{k}={v!r}" for k, v in sorted(self.options.items()))
            return f"backend {self.backend}" + (f" ({options})" if options else "")
        return f"command {self.command!r} ({self.format})"


@dataclass(frozen=True)
class CampaignSpec:
    """A campaign: what to ask, of which solvers, on which instances, under which limits."""

    name: str
    question: str
    time_limit: float
    memory_limit_mb: int
    repeats: int
    instances: tuple[CampaignInstance, ...]
    solvers: tuple[SolverConfig, ...]
    seed: int | None = None
    #: Prove every unsatisfiable and counted answer (see :mod:`.certificates`).
    certify: bool = False
    raw: dict[str, Any] = field(default_factory=dict, compare=False)


def board_json(instance: Instance) -> str:
    """An instance's board (its size, given queens and blocked squares, not its name)
    as canonical JSON: what the results store keeps of it, and what its key hashes.

    An Excluded Diagonals instance keeps its diagonals too: a board of its own.

    >>> board_json(Instance(4, fixed={1: 3}, blocked=[(0, 1)], name="x"))
    '{"blocked":[[0,1]],"fixed":[[1,3]],"n":4}'
    >>> board_json(Instance(2, diagonals=[(0, 1)]))
    '{"blocked":[[0,0]],"diagonals":[[0,1]],"fixed":[],"n":2}'
    """
    diagonals = {} if instance.diagonals is None else {"diagonals": instance.diagonals}
    return _canonical({"n": instance.n, "fixed": instance.fixed, "blocked": instance.blocked,
                       **diagonals})  # fmt: skip


def instance_key(instance: Instance) -> str:
    """The content hash of an instance: its size, given queens and blocked squares.

    >>> instance_key(Instance(4)) == instance_key(Instance(4, name="other"))
    True
    """
    return hashlib.sha256(board_json(instance).encode()).hexdigest()[:16]


def load_spec(spec: str | os.PathLike | Mapping[str, Any]) -> CampaignSpec:
    """Read a campaign from a TOML file's path or from a dict of the same shape.

    An error names the file (when there is one), the table (``[[solvers]] 'glucose'``
    by its label, or ``[[solvers]] #2`` by its place when it has none; ``[[instances]]
    #1``), the key and the value.
    """
    if isinstance(spec, Mapping):
        return _read(dict(spec), Path.cwd(), "campaign")
    if not isinstance(spec, (str, os.PathLike)):
        raise InvalidTypeError(
            f"a campaign spec is a TOML file's path or a dict, got {type(spec).__name__}"
        )
    path = Path(spec)
    text = read_text(spec, what="a campaign spec", limit=MAX_SPEC_FILE)
    try:
        raw = load_toml(text, os.fspath(spec))
    except tomllib.TOMLDecodeError as error:
        raise InvalidInputError(f"{os.fspath(spec)}: not a TOML file: {error}") from None
    with _about(os.fspath(spec)):
        return _read(raw, path.resolve().parent, path.stem)


def _read(raw: dict[str, Any], folder: Path, stem: str) -> CampaignSpec:
    _only(raw, ("campaign", "instances", "solvers"), "the spec")
    head = raw.get("campaign", {})
    if not isinstance(head, Mapping):
        raise InvalidInputError("[campaign] must be a table")
    _only(head, _CAMPAIGN_KEYS, "[campaign]")
    question = head.get("question", "decide")
    if question not in QUESTIONS:
        raise InvalidInputError(
            f"[campaign] question must be one of: {', '.join(QUESTIONS)}; got {question!r}"
        )
    time_limit = check_seconds(head.get("time_limit", 10), "[campaign] time_limit")
    if time_limit > MAX_TIME_LIMIT:  # a campaign's runs end: inf is no limit for one
        raise InvalidInputError(
            f"[campaign] time_limit is at most {MAX_TIME_LIMIT} s (a week), got {time_limit!r}"
        )
    memory = check_int(head.get("memory_limit_mb", 2000), "[campaign] memory_limit_mb", 1)
    repeats = check_int(head.get("repeats", 1), "[campaign] repeats", 1)
    seed = head.get("seed")
    if seed is not None:
        seed = check_int(seed, "[campaign] seed")
    name = head.get("name", stem)
    if not isinstance(name, str) or not name:
        raise InvalidInputError(f"[campaign] name must be a non-empty string, got {name!r}")
    solvers = _solvers(_tables(raw, "solvers"), folder, question)
    recipes = [
        _recipe(table, f"[[instances]] #{number}", folder)
        for number, table in enumerate(_tables(raw, "instances"), 1)
    ]
    price(recipes, solvers, repeats)  # before anything is built
    instances = _instances(recipes, folder, largest_board(solvers))
    return CampaignSpec(
        name=name,
        question=question,
        time_limit=time_limit,
        memory_limit_mb=memory,
        repeats=repeats,
        seed=seed,
        certify=check_flag(head.get("certify", False), "[campaign] certify"),
        instances=instances,
        solvers=solvers,
        raw=raw,
    )


def _recipe(table: Mapping[str, Any], where: str, folder: Path) -> Recipe:
    """An ``[[instances]]`` table, every key checked, nothing built yet."""
    if "files" in table:
        _only(table, ("files", "diagonals"), where)  # Excluded Diagonals files: their first d
        whole = lambda d: check_int(d, "diagonals", 0)  # noqa: E731
        ds = _int_list(table, "diagonals", where, whole, required=False)
        files = tuple(_matching(table["files"], folder, where))
        return Recipe(where, None, counts=tuple(ds), files=files)
    if "generator" not in table:
        raise InvalidInputError(f"{where}: give either generator = ... or files = ...")
    generator = table["generator"]
    if generator not in GENERATORS:
        raise InvalidInputError(
            f"{where}: generator must be one of: {', '.join(GENERATORS)}; got {generator!r}"
        )
    _only(table, _GENERATED_KEYS[generator], where)
    sizes = tuple(_int_list(table, "n", where, check_n))
    if generator == "plain":
        return Recipe(where, generator, sizes)
    count_key = DENSITY_OF[generator]
    counts = _int_list(table, count_key, where, lambda value: check_int(value, count_key, 0))
    seeds = _int_list(
        table, "seeds", where, lambda value: check_int(value, "seeds"), required=False
    )
    extra: dict[str, Any] = {}
    if generator == "blocked" and "min_free" in table:
        extra["min_free"] = check_int(table["min_free"], f"{where} min_free", 1)
    if generator == "completion" and "from_solution" in table:
        extra["from_solution"] = check_flag(table["from_solution"], f"{where} from_solution")
    return Recipe(where, generator, sizes, tuple(counts), tuple(seeds or [1]), extra)


def _instances(
    recipes: list[Recipe], folder: Path, largest: tuple[int, str]
) -> tuple[CampaignInstance, ...]:
    found: dict[str, CampaignInstance] = {}
    for recipe in recipes:
        if recipe.generator is None:
            items = _from_files(recipe, folder, largest)
        else:
            items = _generated(recipe)
        for item in items:
            found.setdefault(item.key, item)  # the same board twice is run once
    if not found:
        raise InvalidInputError("the campaign has no instance")
    return tuple(found.values())


def _generated(recipe: Recipe) -> Iterator[CampaignInstance]:
    generator = recipe.generator
    if generator == "plain":
        for n in recipe.sizes:
            yield CampaignInstance(f"plain-n{n}", Instance(n), {"generator": "plain", "n": n})
        return
    count_key = DENSITY_OF[generator]
    letter = "b" if generator == "blocked" else "q"
    make = random_blocked if generator == "blocked" else random_completion
    for n, count, seed in itertools.product(recipe.sizes, recipe.counts, recipe.seeds):
        label = f"{generator}-n{n}-{letter}{count}-s{seed}"
        try:
            instance = make(n, count, seed=seed, **recipe.extra)
        except (InvalidInputError, InvalidTypeError) as error:
            raise InvalidInputError(f"{recipe.where}: {label}: {error}") from None
        source = {"generator": generator, "n": n, count_key: count, "seed": seed, **recipe.extra}
        yield CampaignInstance(label, instance, source)


def _matching(pattern: object, folder: Path, where: str) -> list[str]:
    """The files the glob patterns of ``files = ...`` match, each pattern at least one."""
    patterns = [pattern] if isinstance(pattern, str) else pattern
    if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
        raise InvalidInputError(f"{where}: files must be a glob pattern or a list of them")
    found = []
    for text in patterns:
        full = text if os.path.isabs(text) else str(folder / text)
        paths = match_files(full)  # never into a linked folder: a link cannot loop
        if not paths:
            raise InvalidInputError(f"{where}: no file matches {text!r} (in {folder})")
        found += paths
    return found


def _from_files(
    recipe: Recipe, folder: Path, largest: tuple[int, str]
) -> Iterator[CampaignInstance]:
    for path, d in itertools.product(recipe.files, recipe.counts or [None]):
        shown = os.path.relpath(path, folder)
        with _about(recipe.where):
            if is_bundle(path):  # a folder or an archive: every instance file in it
                bundle = read_instances(path, diagonals=d)
                labels = [os.path.relpath(source, folder) for source in bundle.sources]
                found = list(zip(labels, bundle, strict=True))
            else:
                found = [(shown, read_instance(path, diagonals=d))]
            for label, instance in found:
                check_board(instance.n, label, largest)
        for label, instance in found:
            source = {"file": label} if d is None else {"file": label, "diagonals": d}
            yield CampaignInstance(label if d is None else f"{label}-d{d}", instance, source)


def _solvers(
    tables: list[Mapping[str, Any]], folder: Path, question: str
) -> tuple[SolverConfig, ...]:
    from ..solvers import get_backend

    made: dict[str, SolverConfig] = {}
    for number, table in enumerate(tables, 1):
        label = table.get("label")
        named = isinstance(label, str) and label
        where = f"[[solvers]] {label!r}" if named else f"[[solvers]] #{number}"
        _only(table, _SOLVER_KEYS, where)
        backend, command, flatzinc = (table.get(key) for key in ("backend", "command", "flatzinc"))
        if [backend, command, flatzinc].count(None) != 2:
            raise InvalidInputError(
                f"{where}: give exactly one of backend = ..., command = ... or flatzinc = ..."
            )
        options = table.get("options", {})
        if not isinstance(options, Mapping):
            raise InvalidInputError(f"{where}: options must be a table, got {options!r}")
        if backend is not None:
            if "format" in table or "parse" in table:
                raise InvalidInputError(f"{where}: format and parse are for a command only")
            if isinstance(options.get("model"), str) and not os.path.isabs(options["model"]):
                # A model file (minizinc's model=) is named from the spec's folder.
                options = {**options, "model": str(folder / options["model"])}
            with _about(where):  # the usual errors, naming every backend or option
                engine = get_backend(backend)
                engine.check_options(dict(options))
            if question != "decide" and not engine.exhaustive:
                raise InvalidInputError(
                    f"{where}: {backend} finds solutions and cannot {question} them; "
                    'it takes part in question = "decide" campaigns only'
                )
            config = SolverConfig(label=table.get("label", backend), backend=backend,
                                  options=dict(options),
                                  files=model_fingerprint(options))  # fmt: skip
        else:
            with _about(where):
                command, fmt, parse = read_program(table)
            config = SolverConfig(label=table.get("label", command.split()[0]), command=command,
                                  format=fmt, parse=parse, folder=str(folder))  # fmt: skip
        if not isinstance(config.label, str) or not config.label:
            raise InvalidInputError(f"{where}: label must be a non-empty string")
        if config.label in made:
            raise InvalidInputError(f"{where}: the label {config.label!r} is used twice")
        made[config.label] = config
    if not made:
        raise InvalidInputError("the campaign has no solver")
    return tuple(made.values())


@contextmanager
def _about(where: str) -> Iterator[None]:
    """Put ``where`` (the file, the table) before the message of an error raised inside,
    keeping its type (an unknown backend stays an :class:`UnknownBackendError`)."""
    try:
        yield
    except CPQueensError as error:
        error.args = (f"{where}: {error}", *error.args[1:])
        raise


def _tables(raw: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    tables = raw.get(key, [])
    if not isinstance(tables, list) or not all(isinstance(t, Mapping) for t in tables):
        raise InvalidInputError(f"{key} must be a list of tables ([[{key}]] in TOML)")
    return tables


def _only(table: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    unknown = [key for key in table if key not in allowed]
    if unknown:
        raise InvalidInputError(
            f"{where}: unknown key {unknown[0]!r}; allowed keys: {', '.join(allowed)}"
        )


def _int_list(
    table: Mapping[str, Any],
    key: str,
    where: str,
    check: Callable[[object], int],
    *,
    required: bool = True,
) -> list[int]:
    """The integers of ``table[key]`` (one, or a list), each checked by ``check`` (a
    shared checker of :mod:`cpqueens.arguments`), its error naming ``where``."""
    if key not in table:
        if required:
            raise InvalidInputError(f"{where}: {key} = [...] is missing")
        return []
    values = table[key] if isinstance(table[key], list) else [table[key]]
    with _about(where):
        return [check(value) for value in values]


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=list)
