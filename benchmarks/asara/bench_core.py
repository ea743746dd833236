"""Decisions per second of the vectorised core on each backend, side by side with the
reference engine.

    python -m benchmarks.asara.bench_core [--players 4] [--variant pro] [--observe]
        [--backend numpy numba] [--batches 1 64 1024 4096] [--json]

For each backend and batch size B, random legal actions are played for a fixed number of
batched steps; a decision is one game's step. The core's time counts `legal_action_mask`
and `step` (finished games are reset automatically), and with `--observe` the observation
of the seat to move written into a reused buffer at every step; sampling the random
actions from the mask is timed apart and reported as "sampling". Each batch size first
plays 100 untimed steps so that the games are at different points of play (the compiled
kernels are loaded or compiled then). The reference engine plays whole games one at a time
(legal_actions + step). The compiled core's start-up (import, first calls cold and cached)
follows, measured in fresh processes. JSON keys: "core" the numpy backend's rates by B,
"core_numba" the compiled one's, "reference", "start_up".
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
from asara_env.asara.core.observation import OBS_DIM
from asara_env.asara.reference import engine
from asara_env.asara.reference.rules import legal_actions
from asara_env.common.sampling import random_legal
from asara_env.games import load_core
from benchmarks.backends import (
    add_backend_argument,
    backends,
    compile_seconds,
    print_compile_seconds,
)

BATCHES = (1, 64, 1024, 4096)


def sample(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row (0 for rows without one)."""
    return random_legal(mask, rng)


def bench_core(
    config: GameConfig,
    batch: int,
    steps: int,
    backend: str = "numpy",
    observe: bool = False,
    warmup: int = 100,
) -> dict[str, Any]:
    core = load_core("asara", backend)
    state = core.init(config, batch, seeds=0)
    rng = np.random.default_rng(0)
    out = np.empty((batch, OBS_DIM), np.float32)
    for _ in range(warmup):  # let the games drift apart, as in long training runs
        core.step(state, sample(core.legal_action_mask(state), rng))
        core.autoreset(state)
        core.observe(state, out=out)
    t_core = t_sample = 0.0
    decisions = 0
    for _ in range(steps):
        t0 = time.perf_counter()
        mask = core.legal_action_mask(state)
        t1 = time.perf_counter()
        actions = sample(mask, rng)
        t2 = time.perf_counter()
        live = int(mask.any(axis=1).sum())
        core.step(state, actions)
        core.autoreset(state)
        if observe:
            core.observe(state, out=out)
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
    parser.add_argument("--batches", type=int, nargs="+", default=list(BATCHES))
    parser.add_argument("--observe", action="store_true", help="observe at every step too")
    parser.add_argument("--no-reference", action="store_true", help="skip the reference")
    parser.add_argument("--no-start-up", action="store_true", help="skip the start-up times")
    add_backend_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    expansions = tuple(e for e in args.expansions.split(",") if e)
    config = GameConfig(num_players=args.players, variant=args.variant, expansions=expansions)
    chosen = backends(args.backend)
    core: dict[str, dict[str, dict[str, Any]]] = {b: {} for b in chosen}
    runs = [(b, n) for b in chosen for n in args.batches]
    for backend, batch in tqdm(runs, desc="backends x batch sizes", disable=args.json):
        steps = args.steps if batch > 1 else args.steps * 5
        core[backend][str(batch)] = bench_core(config, batch, steps, backend, args.observe)
    reference = None if args.no_reference else bench_reference(config, seconds=5.0)
    start_up = None if args.no_start_up or "numba" not in chosen else compile_seconds()
    if args.json:
        result: dict[str, Any] = {
            ("core" if b == "numpy" else f"core_{b}"): {
                n: round(r["decisions_per_s"], 1) for n, r in rates.items()
            }
            for b, rates in core.items()
        }
        result |= {"reference": reference and round(reference, 1), "start_up": start_up}
        print(json.dumps(result))
        return
    machine = f"{platform.machine()}, {os.cpu_count()} cores"
    rules = "".join(f" + {e}" for e in expansions)
    seen = " + observe" if args.observe else ""
    print(f"{args.players} players, {args.variant}{rules}, random legal actions{seen}, {machine}")
    heads = "".join(f" {b + ' decisions/s':>20} {'sampling us':>11}" for b in chosen)
    print(f"{'engine':>10}{heads}")
    if reference is not None:
        print(f"{'reference':>10} {reference:20.0f}")
    for batch in map(str, args.batches):
        cells = "".join(
            f" {core[b][batch]['decisions_per_s']:20.0f}"
            f" {core[b][batch]['sampling_s_per_decision'] * 1e6:11.2f}"
            for b in chosen
        )
        print(f"{'B=' + batch:>10}{cells}")
    if start_up is not None:
        print_compile_seconds(start_up)


if __name__ == "__main__":
    main()
