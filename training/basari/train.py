"""Train a BASARI learner seat with MaskablePPO on the batched core (`basari-train`).

    basari-train --players 4 --opponents 'value*0.7+points_first*0.3' --bc-expert value \\
        --snapshot-every 20000 --steps 200000 --envs 64 --seed 0 --out runs/basari_4p

The run is the driver shared with ASARA (training/ppo/run.py): `--opponents` with weights, the
self-play league (`--snapshot-every`, `--snapshot-weight`, `--max-snapshots`), behaviour
cloning of a baseline first (`--bc-expert`, `--bc-games`, `--bc-epochs`), the evaluation
curve (`--eval-every`, `--eval-games`, `--eval-opponents` -> eval.csv, TensorBoard,
learning_curve.png), checkpoints (`--checkpoint-every`), `--resume`, every hyper-parameter
as a flag, run.json.

The learner plays one seat of every game of a `BasariVecEnv` (its start archway, cards and
barter steps are its decisions; the opponents act on their rows at once). At the end the
model (final.zip) is played against every baseline at each of `--final-players`: one
learner seat and P - 1 copies of the baseline, `--final-games` seat-rotated games, win rate
with a 95% Wilson interval (training/evaluation/basari/evaluate.py), written to eval.json (and
run.json) and printed.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from tqdm import tqdm

from asara_env.basari.config import BasariConfig
from commandline.command import add_players_argument, bounded_int, player_counts, run_main
from commandline.outputs import atomic_write_text
from training.evaluation.basari import baselines, policy_agent
from training.evaluation.basari.evaluate import evaluate, win_rate
from training.ppo import run, run_args
from training.ppo.spec import GameSpec

if TYPE_CHECKING:  # torch and stable-baselines3: imported once the arguments are checked
    from training.imitation import Samples

    from .vec_env import BasariVecEnv

HYPER: dict[str, Any] = {  # MaskablePPO settings (documented defaults; see --help)
    "learning_rate": 3e-4,
    "n_steps": 64,
    "batch_size": 1024,
    "n_epochs": 10,
    "gamma": 1.0,
    "gae_lambda": 0.95,
    "clip_range": 0.2,
    "ent_coef": 0.01,
    "vf_coef": 0.5,
}
NET_ARCH = [256, 256]  # shared policy and value MLP (ReLU after log1p features)


def policy_kwargs() -> dict[str, Any]:
    """log1p of the observation (counts >= 0), then a shared 256-256 ReLU MLP."""
    import torch

    from training.policy import Log1pFeatures

    return {
        "features_extractor_class": Log1pFeatures,
        "net_arch": NET_ARCH,
        "activation_fn": torch.nn.ReLU,
    }


def _config(args: argparse.Namespace) -> BasariConfig:
    return BasariConfig(num_players=args.players)


def _make_env(
    config: BasariConfig,
    args: argparse.Namespace,
    names: list[str],
    weights: list[float],
    seed: int,
) -> BasariVecEnv:
    from .vec_env import BasariVecEnv

    return BasariVecEnv(args.envs, config, names, args.reward, seed, weights)


def _collect(config: BasariConfig, expert: str, games: int, seed: int, reward: str) -> Samples:
    from .imitation import collect

    return collect(config, expert, games, seed, reward)


def final_evaluation(model: Any, args: argparse.Namespace, info: dict[str, Any]) -> dict[str, Any]:
    """Every baseline at every `--final-players` count; eval.json, printed table."""
    pairs = [(p, name) for p in args.final_players for name in baselines()]
    results = [
        evaluate(model, p, name, args.final_games, args.seed + 7)
        for p, name in tqdm(pairs, desc="final evaluation", unit="table")
    ]
    report = {
        "args": info["args"],
        "seconds": info["seconds"],
        "num_timesteps": info["num_timesteps"],
        "eval": results,
    }
    atomic_write_text(args.out / "eval.json", json.dumps(report, indent=1) + "\n")
    for r in results:
        print(
            f"{r['players']}p vs {r['players'] - 1}x {r['opponent']:<12} win rate "
            f"{r['win_rate']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}] "
            f"(fair {r['fair_share']:.2f}, {r['games']} games)"
        )
    return {"baselines": results}


def _add_arguments(p: argparse.ArgumentParser) -> None:
    games = bounded_int(1, run_args.MAX_GAMES, "a positive int")
    p.add_argument("--final-games", type=games, default=400, help="games per final table")
    counts = list(player_counts("basari"))
    help = "the player counts of the final evaluation"
    add_players_argument(p, "basari", counts, help, many=True, flag="--final-players")


SPEC = GameSpec(
    game="basari",
    name="basari-train",
    description="Train a BASARI learner seat with MaskablePPO on the batched core.",
    opponents=baselines(),
    hyper=HYPER,
    defaults={
        "players": 4,
        "opponents": "value*0.5+random*0.5",
        "reward": "rank",
        "steps": 200_000,
        "envs": 64,
        "eval_every": 50_000,
        "eval_opponents": ["points_first", "value"],
        "checkpoint_every": 50_000,
    },
    config=_config,
    make_env=_make_env,
    win_rate=win_rate,
    collect=_collect,
    policy_kwargs=policy_kwargs,
    policy_agent=policy_agent,
    add_arguments=_add_arguments,
    finish=final_evaluation,
)


def train(args: argparse.Namespace) -> Any:
    """One BASARI training run (training/ppo/run.py); returns the trained model."""
    return run.train(SPEC, args)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The arguments of `basari-train`."""
    return run_args.parse_args(SPEC, argv)


@run_main("basari-train")
def main(argv: list[str] | None = None) -> int:
    """`basari-train`."""
    train(parse_args(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
