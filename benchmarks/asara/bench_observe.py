"""Decisions per second of ASARA's core with and without observations, this checkout's
`observe` against an earlier revision's, alternated in one run.

    python -m benchmarks.asara.bench_observe [--players 4] [--variant pro]
        [--baseline REV|PATH] [--rounds 3] [--batches 1,64,4096] [--clock wall|cpu] [--json]

A worker process plays random legal actions at each batch size B (after 100 untimed
steps, so that the games are at different points of play) and times, batched step by
batched step: the step alone (legal mask + step + autoreset, as benchmarks/asara/bench_core.py
counts it), drawing the random actions from the mask (apart), and the observation of the
seat to move in every game, `observe(state, state.seat)`, fresh and, where the revision
has it, into a buffer reused across steps (`out=`). A decision is one live game's step.
The headline is the cost ratio (step + observe) / step, measured inside one worker.

With --baseline, each round runs one worker on this checkout and one on the baseline's
`asara_env` (a revision extracted with `git archive`, or a checkout's path), one after the
other, so that both see the same machine load; the load average is printed beside the
figures. Run with OMP_NUM_THREADS=1 on a shared machine; there --clock cpu (each
process's CPU time) is less disturbed by the other jobs than the wall clock.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
STEPS = {1: 3000, 64: 400, 1024: 60, 4096: 25}  # timed batched steps per batch size


def sample(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row (0 for rows without one)."""
    ranks = np.cumsum(mask, axis=1, dtype=np.int16)
    pick = (rng.random(len(mask)) * ranks[:, -1]).astype(np.int16)
    return np.argmax(ranks > pick[:, None], axis=1)


def worker(
    players: int, variant: str, expansions: tuple[str, ...], batches: list[int], clock: str
) -> dict[str, Any]:
    """Seconds per decision of each part, per batch size, for the `asara_env` importable."""
    now = time.process_time if clock == "cpu" else time.perf_counter
    from asara_env import GameConfig
    from asara_env.asara.core import autoreset, init, legal_action_mask, step
    from asara_env.asara.core.observation import OBS_DIM, observe

    has_out = "out" in inspect.signature(observe).parameters
    config = GameConfig(num_players=players, variant=variant, expansions=expansions)
    result = {}
    for batch in batches:
        state, rng = init(config, batch, seeds=0), np.random.default_rng(0)
        for _ in range(100):
            step(state, sample(legal_action_mask(state), rng))
            autoreset(state)
        buffer = np.empty((batch, OBS_DIM), np.float32)
        times = dict.fromkeys(("step", "sampling", "observe", "observe_out"), 0.0)
        decisions = 0
        for _ in range(STEPS.get(batch, max(25, 100_000 // batch))):
            t0 = now()
            mask = legal_action_mask(state)
            t1 = now()
            actions = sample(mask, rng)
            t2 = now()
            live = int(mask.any(axis=1).sum())
            step(state, actions)
            autoreset(state)
            t3 = now()
            observe(state, state.seat)
            t4 = now()
            if has_out:
                observe(state, state.seat, out=buffer)
            t5 = now()
            times["step"] += (t1 - t0) + (t3 - t2)
            times["sampling"] += t2 - t1
            times["observe"] += t4 - t3
            times["observe_out"] += t5 - t4 if has_out else t4 - t3
            decisions += live
        result[str(batch)] = {k: v / decisions for k, v in times.items()}
    return result


def baseline_tree(baseline: str, into: str) -> str:
    """A folder whose `asara_env` is the baseline's: a checkout's path, or a revision."""
    if Path(baseline).is_dir():
        return str(Path(baseline).resolve())
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", baseline, "asara_env"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", into], input=archive, check=True)
    return into


def run_worker(tree: str, args: argparse.Namespace) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": tree, "OMP_NUM_THREADS": "1"}
    command = [sys.executable, __file__, "--worker", "--players", str(args.players)]
    command += ["--variant", args.variant, "--expansions", args.expansions]
    command += ["--batches", args.batches, "--clock", args.clock]
    done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


def rates(t: dict[str, Any]) -> dict[str, Any]:
    """decisions/s of the step, with sampling, with observe, and the cost ratios."""
    step, sampling, obs = t["step"], t["sampling"], t["observe_out"]
    return {
        "step": 1 / step,
        "step+observe": 1 / (step + obs),
        "ratio": (step + obs) / step,
        "ratio_with_sampling": (step + sampling + obs) / (step + sampling),
        "fresh_ratio": (step + t["observe"]) / step,
        "observe_us": obs * 1e6,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--variant", default="pro")
    parser.add_argument("--expansions", default="", help="e.g. genie,gifts (R9)")
    parser.add_argument("--batches", default="1,64,4096")
    parser.add_argument("--baseline", help="a git revision, or a checkout's path")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--clock", choices=("wall", "cpu"), default="wall", help="cpu: the process's CPU time"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    batches = [int(b) for b in args.batches.split(",")]
    expansions = tuple(e for e in args.expansions.split(",") if e)
    if args.worker:
        print(json.dumps(worker(args.players, args.variant, expansions, batches, args.clock)))
        return
    load = [os.getloadavg()]
    with tempfile.TemporaryDirectory() as scratch:
        trees = {"this": str(ROOT)}
        if args.baseline:
            trees["baseline"] = baseline_tree(args.baseline, scratch)
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
        for _ in range(args.rounds):  # alternated: this, baseline, this, baseline, ...
            for name, tree in trees.items():
                runs[name].append({b: rates(t) for b, t in run_worker(tree, args).items()})
    load.append(os.getloadavg())
    median = {
        name: {
            b: {k: statistics.median(r[b][k] for r in rounds) for k in rounds[0][b]}
            for b in rounds[0]
        }
        for name, rounds in runs.items()
    }
    if args.json:
        print(json.dumps({"median": median, "rounds": runs, "load": load}))
        return
    rules = "".join(f" + {e}" for e in expansions)
    print(f"{args.players} players, {args.variant}{rules}, random legal actions;")
    print(f"{platform.machine()}, {os.cpu_count()} cores, {platform.python_version()},")
    before, after = (", ".join(f"{x:.2f}" for x in averages) for averages in load)
    print(f"numpy {np.__version__}; load average (1, 5, 15 min) {before} before, {after} after;")
    print(f"median of {args.rounds} alternated rounds; decisions per {args.clock}-clock second")
    head = f"{'revision':>9} {'B':>5} {'step':>10} {'step+obs':>10} {'obs us':>9}"
    print(head + f" {'(s+o)/s':>8} {'w/ sampl':>8} {'fresh':>6}")
    for name, by_batch in median.items():
        label = name if name == "this" else str(args.baseline)[:9]
        for b, r in by_batch.items():
            print(
                f"{label:>9} {b:>5} {r['step']:10.0f} {r['step+observe']:10.0f}"
                f" {r['observe_us'] * int(b):9.1f} {r['ratio']:8.2f}"
                f" {r['ratio_with_sampling']:8.2f} {r['fresh_ratio']:6.2f}"
            )
    print("obs us: microseconds per batched observe; (s+o)/s: cost of step + observe over")
    print("the step's; w/ sampl: the same with the random actions' sampling in the step;")
    print("fresh: observe into a new array each step (the baseline always does).")


if __name__ == "__main__":
    main()
