"""Training throughput: MaskablePPO on the batched-core VecEnv, beside the core's raw rate.

    python -m benchmarks.asara.bench_training [--players 2] [--steps 65536] [--envs 64]
        [--policy masked sb3] [--json]

Trains the default network and hyper-parameters (training/asara/train.py) for `--steps` learner
decisions against the `towers` baseline, without evaluation, once per `--policy` (`masked`:
the training scripts' `training.policy.MaskedPolicy`; `sb3`: sb3-contrib's own
`MlpPolicy`), and reports learner steps per second, environment decisions per second (the
learner's and the opponents'), and the share of the time spent in the environment (its
`step_wait` and `reset`, opponents included) against PPO's side (rollout forward passes,
the masked distribution, the updates); then the core's own rate at the same batch size
with random legal actions (mask + step).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from asara_env import GameConfig
from asara_env.asara.core import autoreset, init, legal_action_mask, step
from training.asara.train import HYPER
from training.asara.vec_env import AsaraVecEnv
from training.policy import MaskedPolicy, policy_kwargs

POLICIES: dict[str, Any] = {"masked": MaskedPolicy, "sb3": "MlpPolicy"}


class TimedVecEnv(AsaraVecEnv):
    """AsaraVecEnv that adds up the seconds spent in its step_wait and reset."""

    seconds = 0.0

    def step_wait(self) -> Any:
        start = time.perf_counter()
        try:
            return super().step_wait()
        finally:
            self.seconds += time.perf_counter() - start

    def reset(self) -> Any:
        start = time.perf_counter()
        try:
            return super().reset()
        finally:
            self.seconds += time.perf_counter() - start


def training_rate(players: int, steps: int, envs: int, policy: str) -> dict[str, float]:
    env = TimedVecEnv(envs, GameConfig(num_players=players), ("towers",), seed=0)
    model = MaskablePPO(
        POLICIES[policy], env, policy_kwargs=policy_kwargs(), seed=0, device="cpu", **HYPER
    )
    start = time.perf_counter()
    model.learn(steps, progress_bar=True)
    seconds = time.perf_counter() - start
    return {
        "learner_steps_per_s": steps / seconds,
        "env_decisions_per_s": env.decisions / seconds,
        "env_share": env.seconds / seconds,
    }


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
    parser.add_argument("--policy", nargs="+", choices=list(POLICIES), default=list(POLICIES))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(2)
    result: dict[str, Any] = {
        p: training_rate(args.players, args.steps, args.envs, p) for p in args.policy
    }
    result["core_decisions_per_s"] = core_rate(args.players, args.envs)
    if args.json:
        print(json.dumps(result))
        return
    print(f"{args.players} players, {args.envs} games at once, MaskablePPO vs towers")
    for policy in args.policy:
        rates = result[policy]
        print(
            f"{policy:>7} policy: {rates['learner_steps_per_s']:8.0f} learner steps/s, "
            f"{rates['env_decisions_per_s']:8.0f} env decisions/s, "
            f"environment {rates['env_share']:.0%} of the time, PPO {1 - rates['env_share']:.0%}"
        )
    print(f"core alone: {result['core_decisions_per_s']:.0f} decisions/s")


if __name__ == "__main__":
    main()
