"""Decisions per second of the vectorised core, side by side with the reference engine.

    python -m benchmarks.asara.bench_core [--players 4] [--variant pro] [--json]

For each batch size B, random legal actions are played for a fixed number of batched
steps; a decision is one game's step. The core's time counts `legal_action_mask` and
`step` (finished games are reset automatically); sampling the random actions from the mask
is timed apart and reported as "sampling". Each batch size first plays 100 untimed
steps so that the games are at different points of play. The reference engine plays
whole games one at a time (legal_actions + step).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from typing import Any

import numpy as np
from tqdm import tqdm

from asara_env import GameConfig
from asara_env.asara.core import autoreset, init, legal_action_mask, step
from asara_env.asara.reference import engine
from asara_env.asara.reference.rules import legal_actions

BATCHES = (1, 64, 1024, 4096)


def sample(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row (0 for rows without one)."""
    ranks = np.cumsum(mask, axis=1, dtype=np.int16)
    pick = (rng.random(len(mask)) * ranks[:, -1]).astype(np.int16)
    return np.argmax(ranks > pick[:, None], axis=1)


def bench_core(config: GameConfig, batch: int, steps: int, warmup: int = 100) -> dict[str, Any]:
    state = init(config, batch, seeds=0)
    rng = np.random.default_rng(0)
    for _ in range(warmup):  # let the games drift apart, as in long training runs
        step(state, sample(legal_action_mask(state), rng))
        autoreset(state)
    t_core = t_sample = 0.0
    decisions = 0
    for _ in range(steps):
        t0 = time.perf_counter()
        mask = legal_action_mask(state)
        t1 = time.perf_counter()
        actions = sample(mask, rng)
        t2 = time.perf_counter()
        live = int(mask.any(axis=1).sum())
        step(state, actions)
        autoreset(state)
        t3 = time.perf_counter()
        t_core += (t1 - t0) + (t3 - t2)
        t_sample += t2 - t1
        decisions += live
    return {"decisions_per_s": decisions / t_core, "sampling_s_per_decision": t_sample / decisions}


def bench_reference(config: GameConfig, seconds: float) -> float:
    decisions, start, seed = 0, time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        state = engine.new_game(config, seed)
        chooser = np.random.default_rng(seed)
        while not state.is_over:
            actions = legal_actions(state)
            engine.step(state, actions[int(chooser.integers(len(actions)))])
            decisions += 1
        seed += 1
    return decisions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--variant", default="pro")
    parser.add_argument("--expansions", default="", help="e.g. genie,gifts (R9)")
    parser.add_argument("--steps", type=int, default=200, help="batched steps per batch size")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    expansions = tuple(e for e in args.expansions.split(",") if e)
    config = GameConfig(num_players=args.players, variant=args.variant, expansions=expansions)
    core = {}
    for batch in tqdm(BATCHES, desc="batch sizes", disable=args.json):
        steps = args.steps if batch > 1 else args.steps * 5
        core[str(batch)] = bench_core(config, batch, steps)
    reference = bench_reference(config, seconds=5.0)
    if args.json:
        rates = {b: round(r["decisions_per_s"], 1) for b, r in core.items()}
        print(json.dumps({"core": rates, "reference": round(reference, 1)}))
        return
    machine = f"{platform.machine()}, {os.cpu_count()} cores"
    rules = "".join(f" + {e}" for e in expansions)
    print(f"{args.players} players, {args.variant}{rules}, random legal actions, {machine}")
    print(f"{'engine':>16} {'decisions/s':>12} {'sampling us/decision':>21}")
    print(f"{'reference':>16} {reference:12.0f} {'-':>21}")
    for batch, r in core.items():
        sampling = r["sampling_s_per_decision"] * 1e6
        print(f"{'core B=' + batch:>16} {r['decisions_per_s']:12.0f} {sampling:21.2f}")


if __name__ == "__main__":
    main()
