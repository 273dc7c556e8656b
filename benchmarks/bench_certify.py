"""Certified answers, measured: proof size, the time to write it against the search
alone, and the time to check it, medians side by side in one run.

    python benchmarks/bench_certify.py                  # counts n = 8..12, the field's unsat files
    python benchmarks/bench_certify.py --sizes 13 --repeat 1
    python benchmarks/bench_certify.py --blocked 50 --instances 5   # unsat blocked n=50

For a count, "search" is ``solve(n, backend="propagate")`` (the same compiled
forward-checking search, no proof); "prove" is the tree built and its DRAT proof
written to a file; "check" is dratify (native engine) in its own process. The ratio
prove / search is what a proof costs beyond the search. For an unsatisfiable
instance, each producer that can (SAT solver; the search, when its proof is priced
under --max-proof-mb) writes its proof and dratify checks it (600 s at most).
"""

from __future__ import annotations

import argparse
import csv
import statistics
import tempfile
import time
from pathlib import Path

import cpqueens
from cpqueens.proofs.checker import check
from cpqueens.proofs.from_search import ProofTooLargeError, search_tree, solutions_of, write_proof
from cpqueens.proofs.statement import statement_clauses, write_formula

ROOT = Path(__file__).resolve().parent.parent


def count_row(n: int, repeat: int, folder: Path) -> dict:
    searches, proofs, checks = [], [], []
    size = 0
    for _ in range(repeat):
        start = time.perf_counter()
        cpqueens.solve(n, backend="propagate")
        searches.append(time.perf_counter() - start)
        instance = cpqueens.Instance(n)
        start = time.perf_counter()
        tree = search_tree(instance, 8 * 2**30)
        boards = solutions_of(tree)
        with open(folder / "p.drat", "w") as out:
            size = write_proof(tree, out)
        proofs.append(time.perf_counter() - start)
        with open(folder / "f.cnf", "w") as out:
            write_formula(out, instance, statement_clauses(instance), boards)
        verdict = check(folder / "f.cnf", folder / "p.drat", checker="dratify", engine="auto",
                        seconds=3600, memory_mb=16384)  # fmt: skip
        assert verdict.verdict == "proved", verdict
        checks.append(verdict.seconds)
        del tree
    search, prove = statistics.median(searches), statistics.median(proofs)
    return {"n": n, "count": len(boards), "MB": size / 2**20, "search s": search,
            "prove s": prove, "prove/search": prove / search,
            "check s": statistics.median(checks)}  # fmt: skip


def field_unsat() -> list[tuple[str, cpqueens.Instance]]:
    found = []
    for answers in sorted((ROOT / "tests" / "data" / "field").rglob("answers.csv")):
        with open(answers, newline="") as handle:
            for row in csv.DictReader(handle):
                if row["answer"] == "unsat":
                    options = {"diagonals": int(row["diagonals"])} if row.get("diagonals") else {}
                    found.append(
                        (
                            row["file"],
                            cpqueens.read_instance(answers.parent / row["file"], **options),
                        )
                    )
    for path in sorted((ROOT / "examples" / "campaigns" / "blocked-asp").glob("*.param")):
        instance = cpqueens.read_instance(path)
        if not cpqueens.solve(instance, backend="exactcover", limit=1).satisfiable:
            found.append((path.name, instance))
    return found


def blocked_unsat(n: int, how_many: int) -> list[tuple[str, cpqueens.Instance]]:
    """Random blocked instances of size n near the phase transition that are unsatisfiable."""
    found, seed = [], 0
    while len(found) < how_many and seed < 10_000:
        instance = cpqueens.random_blocked(n, int(n * n * 0.18), seed=seed)
        if not cpqueens.solve(instance, backend="exactcover", limit=1).satisfiable:
            found.append((f"blocked {n} seed {seed}", instance))
        seed += 1
    return found


def unsat_row(name: str, instance: cpqueens.Instance, producer: str, max_bytes: int) -> dict:
    try:
        certificate = cpqueens.certify(instance, question="decide", producer=producer,
                                       check_seconds=600, memory_mb=16384,
                                       max_proof_bytes=max_bytes)  # fmt: skip
    except ProofTooLargeError as error:
        return {"instance": name, "producer": producer, "verdict": "too large: " + str(error)[:60]}
    return {"instance": name, "producer": producer, "verdict": certificate.verdict,
            "MB": certificate.proof_bytes / 2**20, "prove s": certificate.seconds_to_prove,
            "check s": certificate.seconds_to_check}  # fmt: skip


def show(rows: list[dict]) -> None:
    if not rows:
        return
    keys = list(dict.fromkeys(key for row in rows for key in row))
    cells = [
        [f"{row[k]:.2f}" if isinstance(row.get(k), float) else str(row.get(k, "")) for k in keys]
        for row in rows
    ]
    widths = [max(len(k), *(len(c[i]) for c in cells)) for i, k in enumerate(keys)]
    print("  ".join(k.rjust(w) for k, w in zip(keys, widths, strict=True)))
    for row in cells:
        print("  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="8-12", help="counts to certify, e.g. 8-12 or 13")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--blocked", type=int, help="also unsatisfiable blocked instances of this n"
    )
    parser.add_argument("--instances", type=int, default=5)
    parser.add_argument("--no-field", action="store_true", help="skip the field's files")
    parser.add_argument("--max-proof-mb", type=int, default=512, help="for unsat instances")
    args = parser.parse_args()
    low, _, high = args.sizes.partition("-")
    sizes = range(int(low), int(high or low) + 1)
    cpqueens.certify(6)  # compile the kernels before anything is timed
    with tempfile.TemporaryDirectory() as scratch:
        show([count_row(n, args.repeat, Path(scratch)) for n in sizes])
    cases = [] if args.no_field else field_unsat()
    if args.blocked:
        cases += blocked_unsat(args.blocked, args.instances)
    print()
    for index, (name, instance) in enumerate(cases):
        rows = [
            unsat_row(name, instance, p, args.max_proof_mb * 2**20) for p in ("sat", "propagate")
        ]
        show(rows) if index == 0 else show_rows(rows)


def show_rows(rows: list[dict]) -> None:
    """Further rows, under the header the first ones printed."""
    for row in rows:
        print("  ".join(f"{v:.2f}" if isinstance(v, float) else str(v) for v in row.values()),
              flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
