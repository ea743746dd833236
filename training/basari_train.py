"""Train a BASARI learner seat with MaskablePPO on the batched core, then evaluate it.

    python -m training.basari_train --players 4 --opponents value --steps 200000 \\
        --envs 64 --seed 0 --out runs/basari_4p

The learner plays one seat of every game of a `BasariVecEnv` (its start archway, cards and
barter steps are its decisions; the opponents act on their rows at once). At the end the
model is saved (final.zip) and played against each baseline: one learner seat and P - 1
copies of the baseline, seats rotated, win rate with a 95% Wilson interval, written to
eval.json and printed. Progress: SB3's progress bar.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from agents.basari import BASARI_AGENTS, make_basari_agent
from agents.basari.arena import play_batch
from agents.policy_agent import PolicyAgent
from asara_env.basari.config import BasariConfig
from asara_env.common.outcome import win_shares

from .basari_tournament import DEFAULT_AGENTS
from .basari_vec_env import BasariVecEnv
from .tournament import game_seeds, wilson_interval


def evaluate(model: object, players: int, opponent: str, games: int, seed: int) -> dict:
    """The model's win rate in one seat against P - 1 copies of `opponent` (seats
    rotated: game g puts the learner in seat g mod P)."""
    config = BasariConfig(num_players=players)
    agents = [PolicyAgent(model, seed), make_basari_agent(opponent, seed + 1)]
    seating = np.ones((games, players), np.int64)
    seating[np.arange(games), np.arange(games) % players] = 0
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


def train(args: argparse.Namespace) -> dict:
    from sb3_contrib import MaskablePPO

    args.out.mkdir(parents=True, exist_ok=True)
    env = BasariVecEnv(args.envs, args.players, args.opponents, args.reward, args.seed)
    if args.resume:
        model = MaskablePPO.load(args.resume, env=env, device="cpu")
    else:
        model = MaskablePPO(
            "MlpPolicy",
            env,
            n_steps=args.n_steps,
            batch_size=args.batch_size,
            gamma=1.0,
            learning_rate=args.learning_rate,
            ent_coef=0.01,
            seed=args.seed,
            device="cpu",
            policy_kwargs={"net_arch": [256, 256]},
            verbose=0,
        )
    start = time.perf_counter()
    model.learn(args.steps, progress_bar=not args.no_progress, reset_num_timesteps=not args.resume)
    seconds = time.perf_counter() - start
    model.save(args.out / "final.zip")
    results = [
        evaluate(model, p, name, args.eval_games, args.seed + 7)
        for p in args.eval_players
        for name in DEFAULT_AGENTS
    ]
    report = {
        "args": {k: str(v) for k, v in vars(args).items()},
        "seconds": seconds,
        "num_timesteps": model.num_timesteps,
        "env_decisions": env.decisions,
        "eval": results,
    }
    (args.out / "eval.json").write_text(json.dumps(report, indent=1) + "\n")
    print(f"{model.num_timesteps} learner steps in {seconds:.0f} s; model in {args.out}/final.zip")
    for r in results:
        print(
            f"{r['players']}p vs {r['players'] - 1}x {r['opponent']:<12} win rate "
            f"{r['win_rate']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}] "
            f"(fair {r['fair_share']:.2f}, {r['games']} games)"
        )
    return report


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="basari-train", description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    parser.add_argument(
        "--opponents",
        type=lambda t: t.split(","),
        default=["value"],
        help=f"comma-separated, among {sorted(BASARI_AGENTS)}",
    )
    parser.add_argument("--steps", type=int, default=200_000, help="learner decisions")
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--n-steps", type=int, default=64)
    parser.add_argument("--batch-size", type=int, default=1024)
    parser.add_argument("--learning-rate", type=float, default=3e-4)
    parser.add_argument("--reward", choices=("win", "rank", "margin"), default="rank")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--eval-players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--resume", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=Path("runs/basari"))
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    unknown = [o for o in args.opponents if o not in BASARI_AGENTS]
    if unknown:
        parser.error(f"unknown opponent(s) {unknown}; known: {sorted(BASARI_AGENTS)}")
    return args


def main(argv: list[str] | None = None) -> int:
    train(parse_args(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
