"""A campaign written back as a spec (TOML) from its runs, to run it again.

:func:`spec_text` reads what a results file holds of each campaign: the question,
the limits and repeats, the instances (as generator tables when they are every
combination of their values, else one table each, or their files) and the solvers.

>>> rows = [{"campaign": "c", "question": "count", "time_limit": 5.0, "memory_limit_mb": 500,
...          "repeat": 0, "instance_hash": "h", "generator": "plain", "params": {"n": 6},
...          "solver": "stack", "backend": "stack", "options": {}}]
>>> print(spec_text(rows), end="")
[campaign]
name = "c"
question = "count"
time_limit = 5.0
memory_limit_mb = 500
repeats = 1
<BLANKLINE>
[[instances]]
generator = "plain"
n = [6]
<BLANKLINE>
[[solvers]]
label = "stack"
backend = "stack"
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from .runs import Row, distinct, first_runs


def _toml(value: Any) -> str:
    """A TOML value (strings as JSON writes them, which TOML reads as basic strings).

    >>> _toml({"solver": "glucose4", "workers": 1}), _toml([1, 2]), _toml(True)
    ('{ solver = "glucose4", workers = 1 }', '[1, 2]', 'true')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    return "[" + ", ".join(_toml(v) for v in value) + "]"


#: A generator's spec keys for its instances' ``params``: ``seed`` is listed as ``seeds``.
_SPEC_KEY = {"seed": "seeds"}


def _instance_tables(rows: Sequence[Row]) -> list[dict[str, Any]]:
    """The [[instances]] tables that make these instances: one per generator and fixed
    options when the instances are every combination of their values, else one per
    instance; the files in one (one a number of diagonals taken of Excluded Diagonals
    files)."""
    groups: dict[tuple, list[dict[str, Any]]] = defaultdict(list)
    files: dict[int | None, list[str]] = defaultdict(list)
    for row in first_runs(rows, "instance_hash").values():
        params = dict(row.get("params") or {})
        if row.get("generator"):
            fixed = tuple(sorted((k, v) for k, v in params.items() if isinstance(v, bool)
                                 or k == "min_free"))  # fmt: skip
            groups[(row["generator"], fixed)].append(params)
        elif row.get("file"):
            files[params.get("diagonals")].append(row["file"])
    tables = []
    for (generator, fixed), members in groups.items():
        keys = [k for k in members[0] if k not in dict(fixed)]
        values = {k: sorted({m[k] for m in members}) for k in keys}
        combinations = 1
        for options in values.values():
            combinations *= len(options)
        lists = [values] if combinations == len(members) else [
            {k: [m[k]] for k in keys} for m in members
        ]  # fmt: skip
        for listed in lists:
            table = {"generator": generator}
            table.update({_SPEC_KEY.get(k, k): v for k, v in listed.items()})
            tables.append({**table, **dict(fixed)})
    for d, paths in sorted(files.items(), key=lambda item: (item[0] is not None, item[0])):
        tables.append({"files": sorted(paths)} | ({} if d is None else {"diagonals": [d]}))
    return tables


def spec_text(rows: Sequence[Row]) -> str:
    """The campaign(s) of the runs written back as a spec (TOML), from what the results
    file holds: the question, limits and repeats, the instances (as generator tables,
    or their files) and the solvers. A spec's ``seed``, a command's ``format`` and
    ``parse`` are not kept in the file, and so are not written."""
    by_campaign: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        by_campaign[row.get("campaign") or "campaign"].append(row)
    texts = []
    for name, runs in by_campaign.items():
        head = {"name": name, "question": runs[0]["question"]}
        lines = ["[campaign]"]
        for key in ("time_limit", "memory_limit_mb"):
            values = distinct(runs, key)
            head[key] = values[-1]
            if len(values) > 1:  # the same campaign run again under other limits
                lines.append(f"# runs under {key} = {', '.join(map(_toml, values))}")
        head["repeats"] = max(int(row["repeat"]) for row in runs) + 1
        lines += [f"{key} = {_toml(value)}" for key, value in head.items()]
        for table in _instance_tables(runs):
            lines += ["", "[[instances]]", *(f"{k} = {_toml(v)}" for k, v in table.items())]
        for label, row in first_runs(runs, "solver").items():
            lines += ["", "[[solvers]]", f"label = {_toml(label)}"]
            if row.get("backend"):
                lines.append(f"backend = {_toml(row['backend'])}")
                if row.get("options"):
                    lines.append(f"options = {_toml(row['options'])}")
            else:
                lines.append(f"command = {_toml(row.get('command') or '')}")
        texts.append("\n".join(lines) + "\n")
    return "\n".join(texts)
