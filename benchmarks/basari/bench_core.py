"""BASARI speed, side by side in one run: the reference engine, the vectorised core at
B = 1, 64, 1024, 4096, and the PettingZoo parallel environment.

    python -m benchmarks.basari.bench_core [--players 4] [--steps 200] [--json]

Random legal actions, uniform over each seat's legal ids. A *decision* is one seat's real
choice (a seat whose mask holds more than NOOP): every seat in SETUP and SELECT, the one
party to act in a BARTER. *Agent actions* count every seat's id, NOOPs included (B x P per
batched step). The core's time counts `step` (which checks every action against the mask),
`legal_action_mask` and `autoreset`; drawing the random actions is timed apart
("sampling"). Each batch size first plays 100 untimed steps so that its games are at
different points of play. The reference engine plays whole games one at a time
(`legal_actions` for every seat + `step`); the env plays whole games through
`parallel_env().step` (observations, masks, infos and rewards included).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

import numpy as np
from tqdm import tqdm

from asara_env import basari_v0
from asara_env.basari import reference as ref
from asara_env.basari.config import BasariConfig
from asara_env.basari.core import autoreset, init, legal_action_mask, step
from asara_env.basari.phases import Phase

BATCHES = (1, 64, 1024, 4096)


def sample(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """int[B, P]: one uniformly random legal id per seat."""
    ranks = np.cumsum(mask, axis=2, dtype=np.int16)
    pick = (rng.random(mask.shape[:2]) * ranks[..., -1]).astype(np.int16)
    return np.argmax(ranks > pick[..., None], axis=2)


def bench_core(config: BasariConfig, batch: int, steps: int, warmup: int = 100) -> dict[str, float]:
    state = init(config, batch, seeds=0)
    rng = np.random.default_rng(0)
    for _ in range(warmup):
        step(state, sample(legal_action_mask(state), rng))
        autoreset(state)
    t_core = t_sample = cpu_core = 0.0
    decisions = 0
    for _ in range(steps):
        t0, c0 = time.perf_counter(), time.process_time()
        mask = legal_action_mask(state)
        t1, c1 = time.perf_counter(), time.process_time()
        actions = sample(mask, rng)
        decisions += int(mask[:, :, 1:].any(axis=2).sum())
        t2, c2 = time.perf_counter(), time.process_time()
        step(state, actions)
        autoreset(state)
        t3, c3 = time.perf_counter(), time.process_time()
        t_core += (t1 - t0) + (t3 - t2)
        cpu_core += (c1 - c0) + (c3 - c2)
        t_sample += t2 - t1
    agent_actions = steps * batch * config.num_players
    return {
        "decisions_per_s": decisions / t_core,
        "decisions_per_cpu_s": decisions / max(cpu_core, 1e-9),
        "agent_actions_per_s": agent_actions / t_core,
        "sampling_us_per_decision": 1e6 * t_sample / decisions,
    }


def bench_reference(config: BasariConfig, seconds: float) -> dict[str, float]:
    decisions, start, seed = 0, time.perf_counter(), 0
    cpu = time.process_time()
    rng = np.random.default_rng(0)
    p = config.num_players
    while time.perf_counter() - start < seconds:
        game = ref.new_game(config, seed)
        while game.phase != Phase.OVER:
            masks = [ref.legal_actions(game, s) for s in range(p)]
            decisions += sum(int(m[1:].any()) for m in masks)
            ref.step(game, [int(rng.choice(np.flatnonzero(m))) for m in masks])
        seed += 1
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {"decisions_per_s": decisions / wall, "decisions_per_cpu_s": decisions / cpu}


def bench_env(num_players: int, seconds: float) -> dict[str, float]:
    env = basari_v0.parallel_env(num_players=num_players)
    rng = np.random.default_rng(0)
    steps = decisions = 0
    start, seed, cpu = time.perf_counter(), 0, time.process_time()
    while time.perf_counter() - start < seconds:
        obs, infos = env.reset(seed=seed)
        while env.agents:
            decisions += sum(info["acting"] for info in infos.values())
            actions = {
                a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents
            }
            obs, _, _, _, infos = env.step(actions)
            steps += 1
        seed += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {
        "steps_per_s": steps / elapsed,
        "decisions_per_s": decisions / elapsed,
        "decisions_per_cpu_s": decisions / cpu,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--steps", type=int, default=200, help="batched steps per batch size")
    parser.add_argument("--seconds", type=float, default=5.0, help="reference and env time")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    config = BasariConfig(num_players=args.players)
    core = {}
    for batch in tqdm(BATCHES, desc="core batch sizes", disable=args.json):
        steps = args.steps if batch > 1 else args.steps * 5
        core[batch] = bench_core(config, batch, steps)
    reference = bench_reference(config, args.seconds)
    env = bench_env(args.players, args.seconds)
    if args.json:
        out = {
            "core": {b: {k: round(v, 2) for k, v in r.items()} for b, r in core.items()},
            "reference": {k: round(v) for k, v in reference.items()},
            "env": {k: round(v) for k, v in env.items()},
            "load_average": os.getloadavg(),
        }
        print(json.dumps(out))
        return
    machine = f"{platform.machine()}, {os.cpu_count()} cores"
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"BASARI, {args.players} players, random legal actions, {machine}, load {load}")
    print("decisions/s per wall-clock second, and per CPU second of this process")
    ref_wall, ref_cpu = reference["decisions_per_s"], reference["decisions_per_cpu_s"]
    head = ("engine", "decisions/s", "x ref", "decisions/cpu-s", "x ref", "agent actions/s")
    print(f"{head[0]:>14} {head[1]:>12} {head[2]:>7} {head[3]:>16} {head[4]:>7} {head[5]:>16}")
    rows = [("reference", reference, "-")]
    rows += [(f"core B={b}", r, f"{r['agent_actions_per_s']:.0f}") for b, r in core.items()]
    rows += [("parallel env", env, "-")]
    for name, r, actions in rows:
        wall, cpu = r["decisions_per_s"], r["decisions_per_cpu_s"]
        print(
            f"{name:>14} {wall:12.0f} {wall / ref_wall:7.1f} {cpu:16.0f} {cpu / ref_cpu:7.1f} "
            f"{actions:>16}"
        )
    print(f"parallel env: {env['steps_per_s']:.0f} steps/s")
    sampling = ", ".join(f"B={b} {r['sampling_us_per_decision']:.2f}" for b, r in core.items())
    print(f"sampling (not counted), us per decision: {sampling}")


if __name__ == "__main__":
    main()
