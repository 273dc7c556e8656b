"""Time and memory of building the explicit decision tree and of reading it back.

    PYTHONPATH=. python benchmarks/bench_tree.py                 # n = 8, 10, 12
    PYTHONPATH=. python benchmarks/bench_tree.py --sizes 6-11 --repeat 5 --rejected
    PYTHONPATH=. python benchmarks/bench_tree.py --sizes 10 --export
    PYTHONPATH=. python benchmarks/bench_tree.py --sizes 12 --against /tmp/before
    PYTHONPATH=. python benchmarks/bench_tree.py --compact      # the compact tree's goals
    PYTHONPATH=. python benchmarks/bench_tree.py --steps        # import, build, draw, write
    PYTHONPATH=. python benchmarks/bench_tree.py --writers      # each file format's cost

Every measure runs in a fresh Python process, so its peak memory is its own: the
figures printed are the process's peak resident size (``VmHWM``) less its size
just before the work, and, in a run of its own under ``tracemalloc`` (which slows
Python down), the peak of the Python objects the work allocated. Each row gives
the median of ``--repeat`` runs of: ``decision_tree`` (build), the size estimate
alone, ``solve(n, backend="tree")``, the same search without the graph ("x
search" is build time over search time, measured in the same run), and
``read_tree`` of the tree's node-link JSON (read), of which the check that it is
the whole tree (check) is timed again on its own.

``--compact`` measures the compact tree instead (:func:`cpqueens.compact_tree`), each
build in a fresh process after a warm-up build of n=8 (numba's compiled searches
loaded from its cache), against the goals: the plain tree of n=13 in under 5 s and
40 bytes a node, of n=14 in under 30 s and 1.2 GB (the process's peak resident size
less its size before the build), the trees of n=12 under forward checking and arc
consistency, in row and first-fail order, in under 10 s each; a tree of more than
10^7 nodes (n=14 cut at depth 10) drawn as an icicle and as a pixel tree (PNG) in
under 10 s each, and the plain tree of n=12 written as the HTML explorer and as a
CP-Profiler database. Each figure is the median of ``--repeat`` runs.

``--steps`` times what ``cpqueens tree N -o FILE`` does, step by step, each case in
``--repeat`` fresh processes (5 unless told), as medians: ``import cpqueens``, the
first build of the compact tree (numba's compiled search loaded from its cache), the
drawing (matplotlib imported and the figure made) and the write (the figure's
``savefig``, timed inside ``draw_tree``), for n=5 and n=8 drawn node by node to SVG
and n=12 drawn as an icicle to PNG.

``--writers`` writes the trees of ``--sizes`` (10 to 13 unless told; ``--propagation``
for another search) in every file format, each write in a fresh process, and prints
what it took a node, measured beside the price :mod:`cpqueens.trees.files.costs` puts
on it before writing: bytes on disk, microseconds, and bytes of memory beside the tree
(the process's peak resident size during the write less its size before, the peak
reset first). A write priced past ``--budget`` seconds or 4 GB is not run (shown
"priced at ...").

Times are wall-clock seconds; with ``--cpu`` they are the CPU seconds of the
process, steadier on a machine busy with other work.

``--against FOLDER`` measures another copy of cpqueens too (a folder holding a
``cpqueens`` package, such as ``git archive HEAD cpqueens | tar -x -C FOLDER``):
the runs of the two alternate, so that a machine busy with other work slows both
alike, and a third row gives the ratios, this copy over the other.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
#: The clock of the timings: the wall clock, or with --cpu the process's CPU time.
clock = time.perf_counter
SUFFIXES = (".graphml", ".gexf", ".json", ".dot")


def parse_sizes(text: str) -> list[int]:
    if "-" in text:
        low, high = text.split("-")
        return list(range(int(low), int(high) + 1))
    return [int(part) for part in text.split(",")]


def memory_mb() -> tuple[float, float]:
    """The process's resident size now and at its peak, in MB."""
    try:
        fields = dict(
            line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines()
        )
        return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024
    except (OSError, KeyError):  # not Linux: ru_maxrss is the peak (kB on Linux, bytes on macOS)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        return peak, peak


def whole_tree_check():
    """The check that a graph is a whole tree, wherever this copy of cpqueens keeps it."""
    try:
        from cpqueens.trees.files.replay import check_tree
    except ImportError:
        from cpqueens.trees.files.readwrite import _check_tree as check_tree
    return check_tree


class Measure:
    """The time and memory of one piece of work, and with ``traced`` its Python objects' peak."""

    def __init__(self, traced: bool):
        self.traced = traced

    def __enter__(self) -> Measure:
        import gc
        import tracemalloc

        gc.collect()
        self.before, _ = memory_mb()
        if self.traced:
            tracemalloc.start()
        self.start = clock()
        return self

    def __exit__(self, *exc) -> None:
        import tracemalloc

        self.seconds = clock() - self.start
        self.traced_mb = 0.0
        if self.traced:
            self.traced_mb = tracemalloc.get_traced_memory()[1] / 2**20
            tracemalloc.stop()
        _, peak = memory_mb()
        self.memory = peak - self.before
        self.peak = peak


def child(phase: str, n: int, rejected: bool, export: bool, file: str, traced: bool) -> None:
    """Measure one piece of work in this process and print its figures as JSON."""
    import networkx  # noqa: F401  (loaded before the baseline is taken)

    import cpqueens
    from cpqueens.trees.explicit.size import estimate_tree_size

    small = cpqueens.decision_tree(4)  # every module a build needs, loaded
    figures: dict = {}
    if phase == "write":
        G = cpqueens.decision_tree(n, include_rejected=rejected, max_nodes=50_000_000)
        cpqueens.export_tree(G, file, max_bytes=10**13)
        figures["nodes"] = G.number_of_nodes()
    elif phase == "build":
        if not traced:
            start = clock()
            estimate_tree_size(n, (None,) * n, include_rejected=rejected)
            figures["estimate"] = clock() - start
            start = clock()
            cpqueens.solve(n, backend="tree")
            figures["search"] = clock() - start
        with Measure(traced) as measure:
            G = cpqueens.decision_tree(n, include_rejected=rejected, max_nodes=50_000_000)
        figures.update(
            nodes=G.number_of_nodes(),
            build=measure.seconds,
            build_mb=measure.memory,
            build_traced_mb=measure.traced_mb,
            build_peak=measure.peak,
        )
        if export and not traced:
            figures.update(export_figures(G))
    else:  # read
        with tempfile.TemporaryDirectory() as folder:  # every module a read needs, loaded
            cpqueens.read_tree(cpqueens.export_tree(small, Path(folder) / "small.json"))
        with Measure(traced) as measure:
            G = cpqueens.read_tree(file)
        figures.update(
            read=measure.seconds,
            read_mb=measure.memory,
            read_traced_mb=measure.traced_mb,
            read_peak=measure.peak,
        )
        if not traced:
            check_tree = whole_tree_check()
            start = clock()
            check_tree(G)
            figures["check"] = clock() - start
    print(json.dumps(figures))


def export_figures(G) -> dict:
    """The time to write and read back each file format, and the file's size."""
    import cpqueens

    figures = {}
    with tempfile.TemporaryDirectory() as folder:
        for suffix in SUFFIXES:
            start = clock()
            # Measured whatever its price: the bound is the library's, not the benchmark's.
            path = cpqueens.export_tree(G, Path(folder) / f"tree{suffix}", max_bytes=10**13)
            figures[f"write{suffix}"] = clock() - start
            figures[f"size{suffix}"] = path.stat().st_size / 1e6
            start = clock()
            cpqueens.read_tree(path)
            figures[f"read{suffix}"] = clock() - start
    return figures


#: The compact tree's goals: (label, what is built, measure, goal, unit).
COMPACT_GOALS = (
    ("plain n=13 build", {"n": 13}, "build", 5.0, "s"),
    ("plain n=13 bytes/node", {"n": 13}, "bytes/node", 40.0, "B"),
    ("plain n=14 build", {"n": 14}, "build", 30.0, "s"),
    ("plain n=14 peak memory", {"n": 14}, "memory", 1.2, "GB"),
    ("forward n=12 build", {"n": 12, "propagation": "forward"}, "build", 10.0, "s"),
    ("arc n=12 build", {"n": 12, "propagation": "arc"}, "build", 10.0, "s"),
    ("forward first-fail n=12", {"n": 12, "propagation": "forward", "order": "first-fail"},
     "build", 10.0, "s"),
    ("arc first-fail n=12", {"n": 12, "propagation": "arc", "order": "first-fail"},
     "build", 10.0, "s"),
    ("icicle of n=14 to depth 10", {"n": 14, "max_depth": 10, "draw": "icicle"}, "draw", 10.0,
     "s"),
    ("pixel tree of n=14 to depth 10", {"n": 14, "max_depth": 10, "draw": "pixel"}, "draw",
     10.0, "s"),
    ("explorer of n=12 (.html)", {"n": 12, "export": ".html"}, "export", None, "s"),
    ("CP-Profiler db of n=12 (.sqlite)", {"n": 12, "export": ".sqlite"}, "export", None, "s"),
)  # fmt: skip


def compact_child(spec: dict) -> None:
    """Build (and draw or export) one compact tree in this process; print its figures."""
    import cpqueens

    spec = dict(spec)
    draw, export = spec.pop("draw", None), spec.pop("export", None)
    cpqueens.compact_tree(8, propagation=spec.get("propagation", "none"))  # compiled, loaded
    figures: dict = {}
    with Measure(False) as measure:
        tree = cpqueens.compact_tree(**spec)
    figures.update(
        nodes=tree.number_of_nodes(),
        build=measure.seconds,
        memory=measure.memory / 1024,
        **{"bytes/node": tree.nbytes / tree.number_of_nodes()},
    )
    with tempfile.TemporaryDirectory() as folder:
        if draw:
            cpqueens.draw_tree(cpqueens.compact_tree(5), Path(folder) / "warm.png", style=draw)
            start = clock()
            cpqueens.draw_tree(tree, Path(folder) / "tree.png", style=draw)
            figures["draw"] = clock() - start
        if export:
            start = clock()
            cpqueens.export_tree(tree, Path(folder) / f"tree{export}", max_bytes=10**13)
            figures["export"] = clock() - start
    print(json.dumps(figures))


def compact_goals(args) -> int:
    """Run every goal of the compact tree ``--repeat`` times, each in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(HERE)}
    print(f"{'':<34}{'median':>10}{'goal':>10}   nodes        runs")
    for label, spec, key, goal, unit in COMPACT_GOALS:
        runs = []
        for _ in range(args.repeat):
            command = [sys.executable, __file__, "--compact-child", json.dumps(spec)]
            command += ["--cpu"] * args.cpu
            done = subprocess.run(command, capture_output=True, text=True, env=env)
            if done.returncode:
                print(f"{label:<34} failed: {done.stderr.strip().splitlines()[-1]}")
                break
            runs.append(json.loads(done.stdout))
        if len(runs) < args.repeat:
            continue
        value = statistics.median(run[key] for run in runs)
        shown = f"{value:.2f} {unit}"
        verdict = "" if goal is None else ("met" if value < goal else "NOT met")
        goal_text = "-" if goal is None else f"{goal:g} {unit}"
        each = ", ".join(f"{run[key]:.2f}" for run in runs)
        print(f"{label:<34}{shown:>10}{goal_text:>10}   {runs[0]['nodes']:<12,} {each}  {verdict}")
    return 0


#: The cases of --steps: (n, style, picture format).
STEP_CASES = ((5, "traditional", ".svg"), (8, "traditional", ".svg"), (12, "icicle", ".png"))
STEPS = ("import", "build", "draw", "write")


def steps_child(n: int, style: str, suffix: str) -> None:
    """Time one picture's steps in this fresh process and print them as JSON."""
    start = clock()
    import cpqueens

    figures = {"import": clock() - start}
    start = clock()
    tree = cpqueens.compact_tree(n)
    figures["build"] = clock() - start
    start = clock()  # matplotlib's import is part of the drawing, as in a fresh `cpqueens tree`
    import matplotlib.figure

    # The write is the figure's savefig, wherever draw_tree calls it: timed inside.
    saving = [0.0]
    savefig = matplotlib.figure.Figure.savefig

    def timed_savefig(self, *args, **kwargs):
        begun = clock()
        try:
            return savefig(self, *args, **kwargs)
        finally:
            saving[0] += clock() - begun

    matplotlib.figure.Figure.savefig = timed_savefig
    with tempfile.TemporaryDirectory() as folder:
        cpqueens.draw_tree(tree, Path(folder) / f"tree{suffix}", style=style)
        whole = clock() - start
    figures.update(draw=whole - saving[0], write=saving[0], nodes=len(tree) - 1)
    print(json.dumps(figures))


def steps(args) -> int:
    """Run every case of --steps in fresh processes; print the medians of each step."""
    env = {**os.environ, "PYTHONPATH": str(HERE)}
    repeat = args.repeat if args.repeat_given else 5
    print(f"medians of {repeat} fresh processes, in seconds")
    print(f"{'case':<34}" + "".join(f"{step:>9}" for step in (*STEPS, "total")))
    for n, style, suffix in STEP_CASES:
        runs = []
        for _ in range(repeat):
            command = [sys.executable, __file__, "--steps-child", f"{n},{style},{suffix}"]
            command += ["--cpu"] * args.cpu
            done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
            runs.append(json.loads(done.stdout))
        medians = [statistics.median(run[step] for run in runs) for step in STEPS]
        total = statistics.median(sum(run[step] for step in STEPS) for run in runs)
        label = f"n={n} {style} {suffix} ({runs[0]['nodes']:,} nodes)"
        print(f"{label:<34}" + "".join(f"{value:9.3f}" for value in (*medians, total)))
    return 0


#: The file formats --writers measures.
WRITER_SUFFIXES = (".sqlite", ".html", ".json", ".graphml", ".gexf", ".dot")
#: The most memory a write --writers runs may be priced at.
WRITER_MEMORY = 4e9


def writer_child(n: int, suffix: str, propagation: str) -> None:
    """Write one tree in one format in this fresh process; print what it took as JSON."""
    import gc

    import cpqueens

    with tempfile.TemporaryDirectory() as folder:
        small = cpqueens.compact_tree(5, propagation=propagation)
        cpqueens.export_tree(small, Path(folder) / f"warm{suffix}")  # its modules loaded
        tree = cpqueens.compact_tree(n, propagation=propagation)
        gc.collect()
        before, _ = memory_mb()
        with contextlib.suppress(OSError):  # the peak resident size starts again here (Linux)
            Path("/proc/self/clear_refs").write_text("5")
        start = clock()
        path = cpqueens.export_tree(tree, Path(folder) / f"tree{suffix}", max_bytes=10**13)
        seconds = clock() - start
        _, peak = memory_mb()
        print(json.dumps({"nodes": len(tree), "disk": path.stat().st_size, "seconds": seconds,
                          "memory": max(0.0, peak - before) * 2**20}))  # fmt: skip


def writers(args) -> int:
    """Each format's bytes, seconds and memory a node: measured, and as priced."""
    import cpqueens
    from cpqueens.trees.files.costs import write_price

    env = {**os.environ, "PYTHONPATH": str(HERE)}
    sizes = parse_sizes(args.sizes) if args.sizes_given else list(range(10, 14))
    print(f"per node: measured / priced ({args.propagation} propagation, from a CompactTree)")
    print(f"{'n':>3} {'format':<9}{'nodes':>11}{'bytes':>16}{'µs':>16}{'memory bytes':>18}")
    for n in sizes:
        tree = cpqueens.compact_tree(n, propagation=args.propagation)
        for suffix in WRITER_SUFFIXES:
            price = write_price(tree, suffix)
            nodes = len(tree)
            head = f"{n:>3} {suffix:<9}{nodes:>11,}"
            if price.seconds > args.budget or price.memory > WRITER_MEMORY:
                print(f"{head}   not run: priced at {price.words()}")
                continue
            command = [sys.executable, __file__, "--writer-child", f"{n},{suffix}"]
            command += ["--propagation", args.propagation] + ["--cpu"] * args.cpu
            done = subprocess.run(command, capture_output=True, text=True, env=env)
            if done.returncode:
                print(f"{head}   refused: {done.stderr.strip().splitlines()[-1][:110]}")
                continue
            run = json.loads(done.stdout)
            cells = (
                (run["disk"] / nodes, price.disk / nodes, "{:7.1f}"),
                (run["seconds"] / nodes * 1e6, price.seconds / nodes * 1e6, "{:7.2f}"),
                (run["memory"] / nodes, price.memory / nodes, "{:8.0f}"),
            )
            print(head + "".join(f"{fmt.format(a)} /{fmt.format(b)}" for a, b, fmt in cells))
    return 0


def run_child(root: Path, phase: str, n: int, args, file: Path, traced: bool = False) -> dict:
    command = [sys.executable, __file__, "--child", phase, "--sizes", str(n), "--file", str(file)]
    command += ["--rejected"] * args.rejected + ["--export"] * args.export + ["--traced"] * traced
    command += ["--cpu"] * args.cpu
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
    return json.loads(done.stdout)


COLUMNS = (
    # (heading, key, format): the medians shown for each copy of cpqueens
    ("build s", "build", "{:.3f}"),
    ("search s", "search", "{:.3f}"),
    ("x search", "x search", "{:.1f}"),
    ("estimate s", "estimate", "{:.3f}"),
    ("read s", "read", "{:.3f}"),
    ("check s", "check", "{:.3f}"),
    ("build MB", "build_mb", "{:.0f}"),
    ("read MB", "read_mb", "{:.0f}"),
    ("traced build MB", "build_traced_mb", "{:.0f}"),
    ("traced read MB", "read_traced_mb", "{:.0f}"),
    ("bytes/node", "bytes/node", "{:,.0f}"),
    ("peak RSS MB", "peak", "{:.0f}"),
)


def medians(runs: list[dict], traced: list[dict]) -> dict:
    def median(key: str, runs: list[dict] = runs) -> float:
        return statistics.median(run[key] for run in runs if key in run)

    row = {key: median(key) for _, key, _ in COLUMNS if any(key in run for run in runs)}
    row["x search"] = row["build"] / row["search"]
    row["bytes/node"] = row["build_mb"] * 2**20 / runs[0]["nodes"]
    row["peak"] = max(median("build_peak"), median("read_peak"))
    for key in ("build_traced_mb", "read_traced_mb"):
        row[key] = median(key, traced)
    for suffix in SUFFIXES:
        for key in ("write", "read", "size"):
            if key + suffix in runs[0]:
                row[key + suffix] = median(key + suffix)
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", help="e.g. 8,10,12 or 6-11 (default 8,10,12)")
    parser.add_argument("--repeat", type=int, help="runs of each measure (default 3)")
    parser.add_argument("--traced-repeat", type=int, default=1, help="runs under tracemalloc")
    parser.add_argument("--rejected", action="store_true", help="include rejected attempts")
    parser.add_argument("--export", action="store_true", help="also time each file format")
    parser.add_argument("--against", type=Path, help="another copy of cpqueens to compare with")
    parser.add_argument("--cpu", action="store_true", help="time in CPU seconds, not wall")
    parser.add_argument("--child", choices=("write", "build", "read"), help=argparse.SUPPRESS)
    parser.add_argument("--file", help=argparse.SUPPRESS)
    parser.add_argument("--traced", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--compact", action="store_true", help="the compact tree's goals")
    parser.add_argument("--compact-child", help=argparse.SUPPRESS)
    parser.add_argument("--steps", action="store_true", help="import, build, draw, write")
    parser.add_argument("--steps-child", help=argparse.SUPPRESS)
    parser.add_argument("--writers", action="store_true", help="each file format's cost")
    parser.add_argument("--writer-child", help=argparse.SUPPRESS)
    parser.add_argument("--propagation", default="none", help="--writers: the search")
    parser.add_argument(
        "--budget", type=float, default=120.0, help="--writers: the most seconds a write is priced"
    )
    args = parser.parse_args()
    args.sizes_given, args.repeat_given = args.sizes is not None, args.repeat is not None
    args.sizes = args.sizes or "8,10,12"
    args.repeat = args.repeat or 3
    global clock
    if args.cpu:
        clock = time.process_time
    if args.steps_child:
        n, style, suffix = args.steps_child.split(",")
        steps_child(int(n), style, suffix)
        return 0
    if args.steps:
        return steps(args)
    if args.writer_child:
        n, suffix = args.writer_child.split(",")
        writer_child(int(n), suffix, args.propagation)
        return 0
    if args.writers:
        return writers(args)
    if args.compact_child:
        compact_child(json.loads(args.compact_child))
        return 0
    if args.compact:
        return compact_goals(args)
    if args.child:
        n = parse_sizes(args.sizes)[0]
        child(args.child, n, args.rejected, args.export, args.file, args.traced)
        return 0
    copies = {"this copy": HERE}
    if args.against:
        copies[str(args.against)] = args.against.resolve()
    width = max(map(len, copies)) + 2

    def line(label: str, cells) -> str:
        return f"{label:<{width}}" + "".join(
            f"{cell:>{len(heading) + 3}}"
            for (heading, _, _), cell in zip(COLUMNS, cells, strict=True)
        )

    print(line("", (heading for heading, _, _ in COLUMNS)))
    for n in parse_sizes(args.sizes):
        with tempfile.TemporaryDirectory() as folder:
            file = Path(folder) / f"tree-{n}.json"
            nodes = run_child(HERE, "write", n, args, file)["nodes"]
            runs: dict[str, list[dict]] = {label: [] for label in copies}
            traced: dict[str, list[dict]] = {label: [] for label in copies}
            for _ in range(args.repeat):  # the copies alternate, run by run
                for label, root in copies.items():
                    build = run_child(root, "build", n, args, file)
                    runs[label].append({**build, **run_child(root, "read", n, args, file)})
            for _ in range(args.traced_repeat):
                for label, root in copies.items():
                    build = run_child(root, "build", n, args, file, traced=True)
                    traced[label].append({**build, **run_child(root, "read", n, args, file, True)})
        rows = {label: medians(runs[label], traced[label]) for label in copies}
        seconds = "CPU seconds" if args.cpu else "seconds"
        print(f"n={n}: {nodes:,} graph nodes, medians of {args.repeat} runs, in {seconds}")
        for label, row in rows.items():
            print(line(label, (fmt.format(row[key]) for _, key, fmt in COLUMNS)))
        if args.against:
            mine, other = rows.values()
            print(line("ratio", (f"{mine[key] / other[key]:.2f}" for _, key, _ in COLUMNS)))
        if args.export:
            row = rows["this copy"]
            for suffix in SUFFIXES:
                print(
                    f"    {suffix:<9} write {row['write' + suffix]:7.2f} s   read "
                    f"{row['read' + suffix]:7.2f} s   {row['size' + suffix]:8.1f} MB"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
