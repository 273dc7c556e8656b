"""Cross-check a solver written in C (examples/queens.c) against cpqueens.

Run with ``python examples/crosscheck_c_solver.py``; it needs a C compiler (cc,
gcc or clang). The solver is compiled twice: as written, and with
``-DFORGET_DIAGONAL``, which drops one diagonal check, to show a failing check.
The same from the terminal::

    cc -O2 -o queens examples/queens.c
    cpqueens crosscheck 1-10 --command "./queens {n}"
    cpqueens crosscheck 1-12 --command "./queens {n} --count" --reference stack
    ./queens 8 | cpqueens verify 8
"""

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import cpqueens

SOURCE = Path(__file__).resolve().parent / "queens.c"


def build(folder: Path, *flags: str) -> Path:
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        sys.exit("no C compiler (cc, gcc or clang) on PATH")
    target = folder / ("queens" + "".join(flags).replace("-D", "-"))
    subprocess.run([compiler, "-O2", *flags, "-o", str(target), str(SOURCE)], check=True)
    return target


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as folder:
        solver = build(Path(folder))
        broken = build(Path(folder), "-DFORGET_DIAGONAL")
        report = cpqueens.crosscheck(
            range(1, 10),
            {
                "queens.c": cpqueens.Command([str(solver), "{n}"]),
                "queens.c --count": cpqueens.Command([str(solver), "{n}", "--count"]),
                "queens.c -DFORGET_DIAGONAL": cpqueens.Command([str(broken), "{n}"]),
            },
        )
    print(report)
    for label in ("queens.c", "queens.c -DFORGET_DIAGONAL"):
        print(f"{label} agrees:", all(row.agrees for row in report.rows if row.backend == label))
