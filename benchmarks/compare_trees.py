"""Both games' benchmarks in two checked-out trees, side by side in one run.

    python -m benchmarks.compare_trees BEFORE_DIR [AFTER_DIR] [--rounds 5] [--clock cpu]
        [--only core,env,basari,peers] [--out samples.json [--force]]

compare_revisions.py's companion for two directories instead of two git revisions (a tree
with uncommitted work, a checkout kept for a proof), with BASARI's benchmark added. AFTER_DIR
defaults to this tree. As there, each benchmark runs from each tree in a fresh process
(cwd and PYTHONPATH the tree, OMP_NUM_THREADS=1), the trees alternated round after round
(before, after, before, after, ...) so that a machine that slows down affects both alike,
and the medians and after/before ratios are printed:

- core.*    benchmarks/asara/bench_core.py --json --steps 60 --players 4 (ASARA core, reference)
- env.*     benchmarks/asara/bench_env.py --json --seconds 2 (ASARA AEC env, every rules set)
- basari.*  benchmarks/basari/bench_core.py --json --steps 60 --seconds 2 (core, reference,
            parallel env)
- peers.*   benchmarks/bench_peers.py --json --rounds 1 --seconds 1.5 --batches 1 (every
            game's core at one game and one-game env beside the peers; each env row also
            as its ratio to PettingZoo's connect four in the same process); only when
            `--only` names it. Under `--clock cpu` the pgx rows count the CPU of JAX's own
            threads too.

`--clock cpu` runs each script with `time.perf_counter` replaced by `time.process_time`:
every rate is then per CPU-second of the benchmark's own (single-threaded) process and its
time-bounded loops run for CPU-seconds, so other load on a shared machine changes the
results far less than wall-clock rates (the default, as compare_revisions.py). Each run's
wall and CPU seconds and the load average are kept in `--out` with every sample.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from asara_env.common.files import atomic_write_text
from benchmarks.compare_revisions import PEERS, with_peer_ratios

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = {
    # prefix: (the script where current trees have it, then where older trees had it; arguments)
    "core.": (
        ("benchmarks/asara/bench_core.py", "benchmarks/bench_core.py"),
        ["--json", "--steps", "60", "--players", "4"],
    ),
    "env.": (
        ("benchmarks/asara/bench_env.py", "benchmarks/bench_env.py"),
        ["--json", "--seconds", "2"],
    ),
    "basari.": (
        ("benchmarks/basari/bench_core.py", "benchmarks/bench_basari.py"),
        ["--json", "--steps", "60", "--seconds", "2"],
    ),
    "peers.": (("benchmarks/bench_peers.py",), PEERS[1:]),
}


def script_in(tree: Path, scripts: tuple[str, ...]) -> str | None:
    """The first of `scripts` that `tree` holds, None if none."""
    return next((s for s in scripts if (tree / s).exists()), None)


CPU_CLOCK = (  # python -c CPU_CLOCK SCRIPT ARGS...: the script timed by its process's CPU clock
    "import os, runpy, sys, time; time.perf_counter = time.process_time; "
    "sys.argv = sys.argv[1:]; sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0]))); "
    "runpy.run_path(sys.argv[0], run_name='__main__')"
)


def run_json(tree: Path, argv: list[str], clock: str, runs: list[dict[str, Any]]) -> Any:
    """The JSON a benchmark prints last, run from `tree`; appends its usage to `runs`."""
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    out = subprocess.run(
        [sys.executable, *argv] if clock == "wall" else [sys.executable, "-c", CPU_CLOCK, *argv],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    runs.append(
        {
            "tree": str(tree),
            "script": argv[0],
            "wall_s": round(time.perf_counter() - start, 2),
            "cpu_s": round(cpu, 2),
            "load1": round(os.getloadavg()[0], 2),
        }
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def rates(result: dict[str, Any], prefix: str) -> dict[str, float]:
    """Flatten a benchmark's JSON (rates by setting) into name -> number."""
    flat: dict[str, float] = {}
    for key, value in result.items():
        if isinstance(value, dict):
            flat |= rates(value, f"{prefix}{key}.")
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            flat[f"{prefix}{key}"] = float(value)
    return flat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path, nargs="?", default=ROOT, help="default: this tree")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--only", default="core,env,basari", help="which of core,env,basari")
    parser.add_argument("--out", type=Path, help="write every sample and run as JSON")
    parser.add_argument("--force", action="store_true", help="let --out replace a file")
    args = parser.parse_args()
    if args.out is not None and args.out.exists() and not args.force:
        parser.error(f"argument --out: {args.out} exists: --force to replace it, or name another")
    chosen = {k: v for k, v in BENCHMARKS.items() if k.rstrip(".") in args.only.split(",")}
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    for tree in trees.values():
        missing = [scripts[0] for scripts, _ in chosen.values() if not script_in(tree, scripts)]
        if missing:
            parser.error(f"{tree} has no {', '.join(missing)}")
    seen: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
    runs: list[dict[str, Any]] = []
    for r in range(args.rounds):
        for name, tree in trees.items():
            for prefix, (scripts, extra) in chosen.items():
                script = script_in(tree, scripts)
                assert script is not None  # checked above
                result = with_peer_ratios(run_json(tree, [script, *extra], args.clock, runs))
                for key, rate in rates(result, prefix).items():
                    seen[name].setdefault(key, []).append(rate)
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"round {r + 1}/{args.rounds} done (load {load})", file=sys.stderr, flush=True)
    print(f"clock: {args.clock}; medians of {args.rounds} rounds")
    print(f"{'benchmark':<60} {'before':>12} {'after':>12} {'after/before':>13}")
    for key in sorted(seen["before"]):
        b = statistics.median(seen["before"][key])
        a = statistics.median(seen["after"].get(key, [float("nan")]))
        print(f"{key:<60} {b:>12,.2f} {a:>12,.2f} {a / b if b else float('nan'):>13.2f}")
    if args.out:
        trees_out = {k: str(v) for k, v in trees.items()}
        doc = {"trees": trees_out, "clock": args.clock, "samples": seen, "runs": runs}
        atomic_write_text(args.out, json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
