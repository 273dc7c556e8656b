"""A stand-in for a competition solver, for the tests: an XCSP3 or a FlatZinc solver.

It reads the instance file cpqueens wrote (an XCSP3 ``.xml`` or a ``.fzn``: the rows'
domains, the blocked squares, the given queens; no cpqueens inside), solves it by
brute force and answers as that format's solvers do: XCSP's ``s`` and ``v
<instantiation>`` lines, or FlatZinc's solutions and ``----------``/``==========``.
With ``-a`` it prints every solution. ``--fault`` makes it misbehave in one of the
ways a cross-check and a campaign must catch.

usage: fake_solver.py (xcsp | fzn) [-a] [-t MS] [--fault FAULT] [--pidfile PATH] FILE
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import subprocess
import sys
import time

FAULTS = ("none", "unsat", "unknown", "malformed", "crash", "hang", "late", "signal")


def read_fzn(text: str) -> tuple[int, list[set[int]]]:
    """The board size and each row's allowed columns, from a .fzn file cpqueens wrote."""
    n = int(re.search(r"array \[1\.\.(\d+)\] of var int: q", text)[1])
    allowed = [set() for _ in range(n)]
    for row, low, high in re.findall(r"var (-?\d+)\.\.(-?\d+): q_(\d+);", text):
        allowed[int(high)] = set(range(int(row), int(low) + 1))
    for row, column in re.findall(r"int_ne\(q_(\d+), (-?\d+)\)", text):
        allowed[int(row)].discard(int(column))
    return n, allowed


def read_xcsp(text: str) -> tuple[int, list[set[int]]]:
    """The same, from an XCSP3 file cpqueens wrote (its array q, the blocked squares
    as ne(q[r],c) or as the arguments of a group, the given queens instantiated)."""
    n = int(re.search(r'<array id="q" size="\[(\d+)\]">', text)[1])
    allowed = [set(range(n)) for _ in range(n)]
    blocked = re.findall(r"ne\(q\[(\d+)\],(-?\d+)\)", text)
    blocked += re.findall(r"<args> q\[(\d+)\] (-?\d+) </args>", text)
    for row, column in blocked:
        allowed[int(row)].discard(int(column))
    given = re.search(r"<list> ([^<]*) </list>\s*<values> ([^<]*) </values>", text)
    if given:
        rows = [int(word[2:-1]) for word in given[1].split()]
        for row, column in zip(rows, map(int, given[2].split()), strict=True):
            allowed[row] = {column}
    return n, allowed


def solutions(n: int, allowed: list[set[int]]) -> list[tuple[int, ...]]:
    found = []
    for board in itertools.permutations(range(n)):
        if all(board[r] in allowed[r] for r in range(n)) and len(
            {r + c for r, c in enumerate(board)}
        ) == n == len({r - c for r, c in enumerate(board)}):
            found.append(board)
    return found


def answer(fmt: str, n: int, boards: list[tuple[int, ...]], every: bool, fault: str) -> str:
    shown = boards if every else boards[:1]
    if fmt == "xcsp":
        if fault == "unsat":
            return "s UNSATISFIABLE"
        if fault == "unknown":
            return "c stopped\ns UNKNOWN"
        if fault == "malformed":
            return "s SATISFIABLE\nv <instantiation> <list> q[] </list> <values> 1 x </values>"
        lines = ["s SATISFIABLE" if boards else "s UNSATISFIABLE"]
        for board in shown:
            values = " ".join(map(str, board))
            lines.append(
                f"v <instantiation> <list> q[] </list> <values> {values} </values> </instantiation>"
            )
        return "\n".join(lines)
    if fault == "unsat":
        return "=====UNSATISFIABLE====="
    if fault == "unknown":
        return "=====UNKNOWN====="
    if fault == "malformed":
        return f"q = array1d(1..{n}, [0, 1]);\n----------"
    if not boards:
        return "=====UNSATISFIABLE====="
    lines = []
    for board in shown:
        lines += [f"q = array1d(1..{n}, [{', '.join(map(str, board))}]);", "----------"]
    if every:
        lines.append("==========")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("format", choices=("xcsp", "fzn"))
    parser.add_argument("file")
    parser.add_argument("-a", action="store_true")
    parser.add_argument("-t", type=int)
    parser.add_argument("--fault", choices=FAULTS, default="none")
    parser.add_argument("--pidfile")
    parser.add_argument("--late", type=float, default=2.0)
    args = parser.parse_args()
    with open(args.file) as handle:
        text = handle.read()
    n, allowed = read_xcsp(text) if args.format == "xcsp" else read_fzn(text)
    boards = solutions(n, allowed)
    if args.fault == "hang":
        # A child of its own, which must not outlive the limit either.
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        if args.pidfile:
            with open(args.pidfile, "w") as handle:
                handle.write(f"{os.getpid()} {child.pid}")
        time.sleep(600)
    if args.fault == "late":
        time.sleep(args.late)
    if args.fault == "crash":
        print("partial output")
        sys.stdout.flush()
        print("Exception in thread main: java.lang.NullPointerException", file=sys.stderr)
        sys.exit(1)
    if args.fault == "signal":
        os.kill(os.getpid(), 9)
    print(answer(args.format, n, boards, args.a, args.fault))


if __name__ == "__main__":
    main()
