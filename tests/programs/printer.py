"""A stand-in for an n-queens solver written in another language, for the tests.

It solves the board on its own (no cpqueens) and prints the solutions the way
real programs do; ``--fault`` makes it misbehave in one of the ways a
cross-check must catch.

usage: printer.py N [--style STYLE] [--fault FAULT] [--pidfile PATH]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

# The styles "article000" to "article003" print as the programs of the source articles
# do, in the order of their files: Queen8, CodeProject tree, non-recursive, Python
# random (docs/backends.md names them).
STYLES = (
    "grid",
    "compact",
    "article000",
    "article001",
    "article002",
    "article003",
    "numbers1",
    "numbers0",
    "csv",
    "json",
    "jsonlines",
    "python",
    "leetcode",
    "onehot",
    "count",
)
FAULTS = (
    "none",
    "drop",
    "repeat",
    "attack",
    "hang",
    "crash",
    "prose",
    "silent",
    "miscount",
    "flood",  # its boards, then the last line again and again, as fast as it can
    "trickle",  # its boards, then a line every 50 ms, for ever
    "noisy",  # 2 MiB on standard error first, then its boards as usual
    # Every board right, then one wrong line:
    "tail-minus",  # "-1 -1 -1 ..."
    "tail-short-row",  # a grid row too short: "Q..."
    "tail-letters",  # a row of letters: "abcde..."
    "tail-decimal",  # "0 1.5 2 ..."
    "tail-stray",  # "0 1 2 x ..."
    "tail-json-zeros",  # "[0, 0, 0, ...]"
    "tail-count",  # a stated count one too many
)


def tail(fault: str, n: int, count: int) -> str:
    """The one wrong line a ``tail-*`` fault prints after every right board."""
    return {
        "tail-minus": " ".join(["-1"] * n),
        "tail-short-row": "Q" + "." * max(n - 3, 1),
        "tail-letters": "abcdefghijklmnopqrstuvwxyz"[:n],
        "tail-decimal": " ".join(["0", "1.5", *map(str, range(2, n))]),
        "tail-stray": " ".join(["0", "1", "2", "x", *map(str, range(4, n))]),
        "tail-json-zeros": json.dumps([0] * n),
        "tail-count": str(count + 1),
    }[fault]


def solutions(n: int) -> list[tuple[int, ...]]:
    """Every solution, as the column of the queen in each row, by plain backtracking."""
    found: list[tuple[int, ...]] = []
    columns: list[int] = []

    def place(row: int) -> None:
        if row == n:
            found.append(tuple(columns))
            return
        for column in range(n):
            if all(c != column and abs(c - column) != row - r for r, c in enumerate(columns)):
                columns.append(column)
                place(row + 1)
                columns.pop()

    place(0)
    return found


def grid(board: tuple[int, ...], queen: str, empty: str, sep: str = " ") -> str:
    return "\n".join(
        sep.join(queen if c == col else empty for c in range(len(board))) for col in board
    )


def show(style: str, n: int, boards: list[tuple[int, ...]], count: int) -> str:
    if style == "grid":
        return "\n\n".join(grid(b, "Q", ".") for b in boards)
    if style == "compact":
        return "\n".join(f"Solution {k}:\n{grid(b, 'Q', '.', '')}" for k, b in enumerate(boards, 1))
    if style == "article000":
        # Column by column (the transpose of each board), "0 " and "+ " cells, numbered.
        out = []
        for k, b in enumerate(boards, 1):
            out.append(f"第{k}种走法 ")
            for i in range(n):
                out.append("".join("0 " if b[j] == i else "+ " for j in range(n)))
        out.append(f"\n{n}皇后问题有{count}种摆放方法。")
        return "\n".join(out)
    if style == "article001":
        # Letters from the last row up, as the C# program walks up its parent chain.
        return "\n".join("".join(chr(ord("a") + c) for c in reversed(b)) for b in boards)
    if style == "article003":
        return "".join(grid(b, "x ", "- ", "") + "\n" for b in boards[:1]) + "\n"
    if style == "numbers1":
        return (
            "\n".join(
                f"Solution {k}: " + " ".join(str(c + 1) for c in b) for k, b in enumerate(boards, 1)
            )
            + f"\nTotal: {count}"
        )
    if style == "numbers0":
        return "\n".join(", ".join(map(str, b)) for b in boards)
    if style == "csv":
        header = ",".join(["solution", *(f"row{r}" for r in range(n))])
        return "\n".join(
            [header, *(f"{k}," + ",".join(map(str, b)) for k, b in enumerate(boards, 1))]
        )
    if style == "json":
        return json.dumps(
            {"n": n, "count": count, "solutions": [list(b) for b in boards]}, indent=2
        )
    if style == "jsonlines":
        return "\n".join(json.dumps({"solution": list(b)}) for b in boards)
    if style == "python":
        return str(boards)
    if style == "leetcode":
        return json.dumps([[("." * c) + "Q" + ("." * (n - c - 1)) for c in b] for b in boards])
    if style == "onehot":
        return "\n\n".join(grid(b, "1", "0", "") for b in boards)
    raise SystemExit(f"unknown style {style}")


def keep_printing(line: str, slowly: bool) -> None:
    """Print ``line`` for ever: flat out, or one line every 50 ms (each one flushed)."""
    while True:
        print(line, flush=slowly)
        if slowly:
            time.sleep(0.05)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("n", type=int)
    parser.add_argument("--style", choices=STYLES, default="grid")
    parser.add_argument("--fault", choices=FAULTS, default="none")
    parser.add_argument("--pidfile")
    args = parser.parse_args()
    n, fault = args.n, args.fault
    boards = solutions(n)
    count = len(boards)
    if fault == "drop":
        boards = boards[:-1]
    elif fault == "repeat":
        boards = boards + boards[:1]
    elif fault == "attack" and boards:
        boards = [tuple(range(n)), *boards[1:]]
    elif fault == "miscount":
        count += 1
    if fault == "prose":
        print("Here are the solutions! I found many of them, trust me.")
        return
    if fault == "silent":
        return
    if fault == "noisy":
        # Far more than a pipe holds: a reader that left stderr alone would block it here.
        for _ in range(2048):
            sys.stderr.write("warning: " + "x" * 1014 + "\n")
        sys.stderr.flush()
    if args.style in ("article002", "count"):
        print(count)
        if args.style == "article002":
            # The article's program waits for a key; with no input it goes on at once.
            print("Press any key to continue...")
            sys.stdin.read(1)
    else:
        print(show(args.style, n, boards, count))
    if fault.startswith("tail-"):
        print(tail(fault, n, count))
    sys.stdout.flush()
    if fault in ("flood", "trickle"):
        last = (show(args.style, n, boards, count).splitlines() or ["no solution"])[-1]
        keep_printing(last, fault == "trickle")
    if fault == "hang":
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        if args.pidfile:
            with open(args.pidfile, "w") as handle:
                handle.write(str(child.pid))
        time.sleep(600)
    if fault == "crash":
        print("Traceback (most recent call last):", file=sys.stderr)
        print('  File "solver.py", line 12, in place', file=sys.stderr)
        print("IndexError: list index out of range", file=sys.stderr)
        sys.exit(3)


if __name__ == "__main__":
    main()
