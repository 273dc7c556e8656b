"""What a configuration's files hold: a model file's content makes the configuration.

A campaign store reuses the runs of a configuration it already holds. A user's model
(``options = { model = "my.mzn" }``) edited between two runs is another solver, so
its content, not only its path, goes into the configuration's key.

>>> model_fingerprint({"solver": "gecode"})
()
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from ..disk.reading import read_bytes

#: The options that name a file whose content is part of the solver.
FILE_OPTIONS = ("model",)
#: A model file is text written by hand: far below this.
MAX_MODEL_FILE = 10 * 2**20


def model_fingerprint(options: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """The option and the SHA-256 of the file's bytes, for each option naming a file."""
    prints = []
    for option in FILE_OPTIONS:
        path = options.get(option)
        if isinstance(path, str):
            content = read_bytes(path, what=f"a {option} file", limit=MAX_MODEL_FILE)
            prints.append((option, hashlib.sha256(content).hexdigest()[:16]))
    return tuple(prints)
