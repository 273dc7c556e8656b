"""``python -m cpqueens``: the command line (see :mod:`cpqueens.cli`)."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
