"""Train a BASARI learner seat with MaskablePPO on the batched core (`basari-train`).

    basari-train --players 4 --opponents value:0.7,points_first:0.3 --bc-expert value \\
        --snapshot-every 20000 --steps 200000 --envs 64 --seed 0 --out runs/basari_4p

The run is the driver shared with ASARA (training/run.py): `--opponents` with weights, the
self-play league (`--snapshot-every`, `--snapshot-weight`, `--max-snapshots`), behaviour
cloning of a baseline first (`--bc-expert`, `--bc-games`, `--bc-epochs`), the evaluation
curve (`--eval-every`, `--eval-games`, `--eval-opponents` -> eval.csv, TensorBoard,
learning_curve.png), checkpoints (`--checkpoint-every`), `--resume`, every hyper-parameter
as a flag, run.json.

The learner plays one seat of every game of a `BasariVecEnv` (its start archway, cards and
barter steps are its decisions; the opponents act on their rows at once). At the end the
model (final.zip) is played against every baseline at each of `--final-players`: one
learner seat and P - 1 copies of the baseline, `--final-games` seat-rotated games, win rate
with a 95% Wilson interval, written to eval.json (and run.json) and printed.
"""

from __future__ import annotations

import argparse
import json
import sys

import torch
from tqdm import tqdm

from agents.basari import AGENTS as BASARI_AGENTS
from agents.basari.arena import play_batch
from agents.policy_agent import PolicyAgent
from agents.registry import make_agent
from asara_env.basari.config import BasariConfig
from asara_env.common.outcome import win_shares

from . import run
from .basari_imitation import collect
from .basari_vec_env import BasariVecEnv
from .imitation import Samples
from .policy import Log1pFeatures
from .tournament import game_seeds, rotated_seating
from .tournament_stats import wilson_interval

HYPER = {  # MaskablePPO settings (documented defaults; see --help)
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


def evaluate(model: object, players: int, opponent: str, games: int, seed: int) -> dict:
    """The model's win rate in one seat against P - 1 copies of `opponent` (seats
    rotated: game g puts the learner in seat g mod P)."""
    config = BasariConfig(num_players=players)
    agents = [PolicyAgent(model, seed), make_agent("basari", opponent, seed + 1)]
    seating = rotated_seating(games, players)
    ranking = play_batch(config, agents, seating, game_seeds(seed, players, games), 256)
    wins = float(win_shares(ranking)[seating == 0].sum())
    low, high = wilson_interval(wins, games)
    return {
        "players": players,
        "opponent": opponent,
        "games": games,
        "win_rate": wins / games,
        "ci_low": low,
        "ci_high": high,
        "fair_share": 1 / players,
    }


def policy_kwargs() -> dict:
    """log1p of the observation (counts >= 0), then a shared 256-256 ReLU MLP."""
    return {
        "features_extractor_class": Log1pFeatures,
        "net_arch": NET_ARCH,
        "activation_fn": torch.nn.ReLU,
    }


def _make_env(args: argparse.Namespace, names: list, weights: list, seed: int) -> BasariVecEnv:
    return BasariVecEnv(args.envs, args.players, names, args.reward, seed, weights)


def _win_rate(model: object, args: argparse.Namespace, opponent: str, games: int, seed: int):
    r = evaluate(model, args.players, opponent, games, seed)
    return {k: r[k] for k in ("opponent", "games", "win_rate")} | {
        "low": r["ci_low"],
        "high": r["ci_high"],
    }


def _collect(args: argparse.Namespace, expert: str, games: int, seed: int) -> Samples:
    return collect(BasariConfig(num_players=args.players), expert, games, seed, args.reward)


def final_evaluation(model: object, args: argparse.Namespace, info: dict) -> dict:
    """Every baseline at every `--final-players` count; eval.json, printed table."""
    pairs = [(p, name) for p in args.final_players for name in BASARI_AGENTS]
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
    (args.out / "eval.json").write_text(json.dumps(report, indent=1) + "\n")
    for r in results:
        print(
            f"{r['players']}p vs {r['players'] - 1}x {r['opponent']:<12} win rate "
            f"{r['win_rate']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}] "
            f"(fair {r['fair_share']:.2f}, {r['games']} games)"
        )
    return {"baselines": results}


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--final-games", type=int, default=400, help="games per final table")
    p.add_argument("--final-players", type=int, nargs="+", default=[2, 3, 4])


def _check(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    bad = [n for n in args.final_players if n not in (2, 3, 4)]
    if bad:
        p.error(f"--final-players must be among 2 3 4, got {bad}")


SPEC = run.GameSpec(
    name="basari-train",
    description=__doc__.splitlines()[0],
    agents=BASARI_AGENTS,
    hyper=HYPER,
    defaults={
        "players": 4,
        "opponents": "value",
        "reward": "rank",
        "steps": 200_000,
        "envs": 64,
        "out": "runs/basari",
        "eval_every": 50_000,
        "eval_opponents": ["points_first", "value"],
        "checkpoint_every": 50_000,
    },
    make_env=_make_env,
    win_rate=_win_rate,
    collect=_collect,
    policy_kwargs=policy_kwargs,
    add_arguments=_add_arguments,
    check=_check,
    finish=final_evaluation,
)


def train(args: argparse.Namespace) -> object:
    """One BASARI training run (training/run.py); returns the trained model."""
    return run.train(SPEC, args)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    return run.parse_args(SPEC, argv)


def main(argv: list[str] | None = None) -> int:
    train(parse_args(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
