"""Check a DRAT proof with dratify, in a process of its own: the checker's verdict, as
one JSON line on standard output. Run as a script (never imported by cpqueens), so
nothing of cpqueens runs here: the formula and the proof are read from their files
and handed to dratify as they are.

    python _check_child.py FORMULA.cnf PROOF.drat ENGINE MEMORY_MB
"""

import json
import sys


def main(formula: str, proof: str, engine: str, memory_mb: str) -> None:
    import resource

    limit = int(memory_mb) * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    import dratify

    if engine in ("auto", "native"):
        try:
            import cdclkit_native

            dratify.register_native(cdclkit_native)
        except ImportError:
            if engine == "native":
                raise
    with open(formula, encoding="ascii") as handle:
        cnf = dratify.parse_dimacs(handle.read())
    with open(proof, encoding="ascii", errors="replace") as handle:
        text = handle.read()
    try:
        result = dratify.check_proof(cnf, text, engine=engine)
    except ValueError as error:  # a proof that is no DRAT at all: refused, with where
        print(
            json.dumps(
                {
                    "ok": False,
                    "reason": f"malformed proof: {error}",
                    "steps": 0,
                    "reached_empty": False,
                    "engine": engine,
                    "version": getattr(dratify, "__version__", ""),
                }
            )
        )
        return
    used = dratify.native_implementation() if engine != "python" else None
    print(
        json.dumps(
            {
                "ok": bool(result.ok),
                "reason": str(result.reason),
                "steps": int(result.steps),
                "reached_empty": bool(result.reached_empty),
                "engine": "python" if used is None else "native",
                "version": getattr(dratify, "__version__", ""),
            }
        )
    )


if __name__ == "__main__":
    main(*sys.argv[1:5])
