"""Training throughput: MaskablePPO on the batched-core VecEnv, beside the core's raw rate.

    python -m benchmarks.asara.bench_training [--players 2] [--steps 65536] [--envs 64] [--json]

Trains the default network and hyper-parameters (training/asara/train.py) for `--steps` learner
decisions against the `towers` baseline, without evaluation, and reports learner steps per
second and environment decisions per second (the learner's and the opponents'), then the
core's own rate at the same batch size with random legal actions (mask + step).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from asara_env import GameConfig
from asara_env.asara.core import autoreset, init, legal_action_mask, step
from training.asara.train import HYPER
from training.asara.vec_env import AsaraVecEnv
from training.policy import policy_kwargs


def training_rate(players: int, steps: int, envs: int) -> dict[str, float]:
    env = AsaraVecEnv(envs, players, "basic", ("towers",), seed=0)
    model = MaskablePPO(
        "MlpPolicy", env, policy_kwargs=policy_kwargs(), seed=0, device="cpu", **HYPER
    )
    start = time.perf_counter()
    model.learn(steps, progress_bar=True)
    seconds = time.perf_counter() - start
    return {"learner_steps_per_s": steps / seconds, "env_decisions_per_s": env.decisions / seconds}


def core_rate(players: int, batch: int, steps: int = 300) -> float:
    state, rng = init(GameConfig(num_players=players), batch, seeds=0), np.random.default_rng(0)
    start, decisions = time.perf_counter(), 0
    for _ in range(steps):
        mask = legal_action_mask(state)
        decisions += int(mask.any(axis=1).sum())
        step(state, np.argmax(np.where(mask, rng.random(mask.shape), -1), axis=1))
        autoreset(state)
    return decisions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--steps", type=int, default=65536)
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(2)
    result = training_rate(args.players, args.steps, args.envs)
    result["core_decisions_per_s"] = core_rate(args.players, args.envs)
    if args.json:
        print(json.dumps({k: round(v, 1) for k, v in result.items()}))
        return
    print(f"{args.players} players, {args.envs} games at once, MaskablePPO vs towers")
    for name, value in result.items():
        print(f"{name:>22}: {value:10.0f}")


if __name__ == "__main__":
    main()
