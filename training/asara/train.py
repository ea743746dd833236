"""Train a MaskablePPO agent on the batched core (console script `asara-train`).

The run itself (league, evaluation curve, checkpoints, resume, run.json) is the driver
shared with BASARI, training/ppo/run.py; this module is ASARA's `GameSpec` for it.

    asara-train --players 2 --opponents 'towers*0.6+tall*0.2+greedy*0.2' \\
        --bc-expert towers --steps 2000000 --out runs/2p

- Environment: `training.asara.vec_env.AsaraVecEnv` (`--envs` games at once in the core); the
  learner plays a random seat per game, opponents are drawn per game from `--opponents`
  (a mixture NAME*WEIGHT+..., docs/agents.md). Reward: `--reward` (win / rank / margin,
  see asara_env/asara/env.py).
- Self-play league: every `--snapshot-every` steps the current policy is frozen and added
  to the opponents with weight `--snapshot-weight` (at most `--max-snapshots`, the oldest
  dropped).
- Warm start: `--bc-expert NAME` clones that baseline's play first (`--bc-games`,
  `--bc-epochs`; see training/asara/imitation.py and training/imitation.py); by default
  200 games of towers (`--bc-expert none`: from scratch).
- Defaults for a first run that learns from its first step: opponents towers and random
  half and half (the clone beats random at once, towers not yet), reward `margin` (the
  points behind or ahead of the best opponent, never the same for every game as `win`
  against an opponent never beaten is). The shipped models' commands name their own.
- Network and hyper-parameters: `training.policy.policy_kwargs()` (log1p features, 512-256
  ReLU MLPs for policy and value) and the defaults of `HYPER` below (overridable).
- Output in `--out`: TensorBoard logs (`tb/`), checkpoints (`checkpoints/`), `eval.csv`
  (win rate against each baseline every `--eval-every` steps, seats rotated, through the
  shared evaluation of training/evaluation/evaluate.py) with `learning_curve.png`, and `final.zip`.
- `--resume PATH.zip` continues a run from a checkpoint: `--steps` more learner steps
  with the checkpoint's hyper-parameters, on new games; league snapshots start afresh.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from asara_env.asara.config import GameConfig
from commandline.asara.options import add_rules_arguments, check_rules, config_of
from commandline.command import run_main
from training.evaluation.asara import baselines, policy_agent
from training.evaluation.asara.evaluate import win_rate
from training.ppo import run, run_args
from training.ppo.spec import GameSpec

if TYPE_CHECKING:  # torch and stable-baselines3: imported once the arguments are checked
    from sb3_contrib import MaskablePPO

    from training.imitation import Samples

    from .vec_env import AsaraVecEnv

HYPER: dict[str, Any] = {  # MaskablePPO settings (documented defaults; see --help)
    "learning_rate": 1e-4,
    "n_steps": 128,
    "batch_size": 1024,
    "n_epochs": 4,
    "gamma": 1.0,
    "gae_lambda": 0.95,
    "clip_range": 0.1,
    "ent_coef": 0.003,
    "vf_coef": 0.5,
}


def _make_env(
    config: GameConfig, args: argparse.Namespace, names: list[str], weights: list[float], seed: int
) -> AsaraVecEnv:
    from .vec_env import AsaraVecEnv

    return AsaraVecEnv(args.envs, config, names, weights, args.reward, seed)


def _collect(config: GameConfig, expert: str, games: int, seed: int, reward: str) -> Samples:
    from .imitation import collect

    return collect(config, expert, games, seed, reward)


def _policy_kwargs() -> dict[str, Any]:
    from training.policy import policy_kwargs

    return policy_kwargs()


SPEC = GameSpec(
    game="asara",
    name="asara-train",
    description="Train a MaskablePPO agent on the batched core.",
    opponents=baselines(),
    hyper=HYPER,
    defaults={
        "players": 2,
        # a beatable opponent beside the strong ones, the score margin as the reward and a
        # clone of towers to start from: a learning signal from the first step
        "opponents": "towers*0.5+random*0.5",
        "reward": "margin",
        "bc_expert": "towers",
        "bc_games": 200,
        "bc_epochs": 5,
        "steps": 1_000_000,
        "envs": 64,
        "eval_every": 100_000,
        "eval_games": 100,
        "eval_opponents": ["towers", "random"],
        "checkpoint_every": 200_000,
    },
    config=config_of,
    make_env=_make_env,
    win_rate=win_rate,
    collect=_collect,
    policy_kwargs=_policy_kwargs,
    policy_agent=policy_agent,
    add_arguments=add_rules_arguments,
    check=check_rules,
)


def train(args: argparse.Namespace) -> MaskablePPO:
    """One ASARA training run (training/ppo/run.py)."""
    return run.train(SPEC, args)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The arguments of `asara-train`."""
    return run_args.parse_args(SPEC, argv)


@run_main("asara-train")
def main(argv: list[str] | None = None) -> None:
    """`asara-train`."""
    train(parse_args(argv))


if __name__ == "__main__":
    main()
