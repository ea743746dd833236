"""The core's and the AEC env's speed at two revisions of the code, side by side in one run.

    python -m benchmarks.compare_revisions BEFORE_REV [AFTER_REV] [--rounds 3] [--peers]

Each revision is checked out into a temporary git worktree (AFTER defaults to the working
tree itself). The two are benchmarked alternately, round after round (A B A B ...), with
ASARA's bench_core.py and bench_env.py run from each tree in a fresh process, so that a
machine that slows down or speeds up meanwhile affects both alike; the medians are
printed. `--peers` runs bench_peers.py instead (every game's core at one game and its
one-game env, beside the peers), with each row's ratio to PettingZoo's connect four in
the same process (`... / connect_four_v3`).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from tqdm import tqdm

ROOT = Path(__file__).resolve().parents[1]
CORE = ["benchmarks/asara/bench_core.py", "--json", "--steps", "60", "--players", "4"]
ENV = ["benchmarks/asara/bench_env.py", "--json", "--seconds", "2"]
PEERS = ["benchmarks/bench_peers.py", "--json", "--rounds", "1", "--seconds", "1.5"]
PEERS += ["--batches", "1"]
PEER = "PettingZoo connect_four_v3"  # the row every env row is divided by under --peers


def run_json(tree: Path, script: list[str]) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, *script],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def rates(result: dict[str, Any], prefix: str) -> dict[str, float]:
    """Flatten a benchmark's JSON (decisions per second by setting) into name -> rate."""
    flat: dict[str, float] = {}
    for key, value in result.items():
        if isinstance(value, dict):
            flat |= rates(value, f"{prefix}{key}.")
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            flat[f"{prefix}{key}"] = float(value)
    return flat


def with_peer_ratios(result: dict[str, Any]) -> dict[str, Any]:
    """A bench_peers result with every env row's rate divided by PEER's added."""
    env = result.get("env", {})
    if isinstance(env, dict) and PEER in env:
        peer = env[PEER]
        result["env"] = env | {f"{k} / connect_four_v3": v / peer for k, v in env.items()}
    return result


def worktree(rev: str, into: Path) -> Path:
    subprocess.run(["git", "worktree", "add", "--detach", str(into), rev], cwd=ROOT, check=True)
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after", nargs="?", help="default: the working tree")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--peers", action="store_true", help="run bench_peers.py instead")
    args = parser.parse_args()
    scripts = [(PEERS, "peers.")] if args.peers else [(CORE, "core."), (ENV, "env.")]
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"before": worktree(args.before, Path(tmp) / "before")}
        trees["after"] = worktree(args.after, Path(tmp) / "after") if args.after else ROOT
        seen: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
        try:
            for _ in tqdm(range(args.rounds), desc="rounds"):
                for name, tree in trees.items():
                    for script, prefix in scripts:
                        result = with_peer_ratios(run_json(tree, script))
                        for key, rate in rates(result, prefix).items():
                            seen[name].setdefault(key, []).append(rate)
        finally:
            for tree in trees.values():
                if tree != ROOT:
                    subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT)
    print(f"{'benchmark':<60} {'before':>12} {'after':>12} {'after/before':>13}")
    for key in sorted(seen["before"]):
        b = statistics.median(seen["before"][key])
        a = statistics.median(seen["after"].get(key, [float("nan")]))
        digits = 2 if max(abs(a), abs(b)) < 100 else 0
        print(f"{key:<60} {b:>12,.{digits}f} {a:>12,.{digits}f} {a / b:>13.2f}")


if __name__ == "__main__":
    main()
