"""Evaluate a saved ASARA model against the baselines (console script `asara-evaluate`):
ASARA's `EvaluateCommand` for the shared evaluation (training/evaluation/evaluate.py).

    asara-evaluate --model ppo_2p --players 2 --games 2000
    asara-evaluate --model ppo_4p --players 4 --variant pro --opponents towers,ppo_2p

Game g of an evaluation seeded s is the reference game `derived_seed(s, g)` at every player
count (the seeds of the evaluations in docs/performance.md).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from asara_env.asara.actions import NUM_ACTIONS
from asara_env.asara.config import GameConfig
from asara_env.asara.core.observation import OBS_DIM
from asara_env.common.seeding import derived_seeds
from commandline.command import run_main
from training.evaluation import evaluate as shared
from training.evaluation.tournament import Rows

from . import policy_agent, shipped_model, shipped_players
from .tournament import COMMAND as TOURNAMENT
from .tournament import game

BASELINES = ("towers", "tall", "greedy", "random")  # strongest first


def _game_seeds(seed: int, players: int, games: int) -> np.ndarray:
    return derived_seeds(seed, np.arange(games))


COMMAND = shared.EvaluateCommand(
    tournament=TOURNAMENT,
    prog="asara-evaluate",
    opponents=BASELINES,
    default_players=2,
    default_games=2000,
    shipped_model=shipped_model,
    shipped_players=shipped_players,
    policy_agent=policy_agent,
    spaces=lambda players: (OBS_DIM, NUM_ACTIONS),
    game_seeds=_game_seeds,
)


def win_rate(
    model: Any, config: GameConfig, opponent: str, games: int, seed: int, bar: Any = None
) -> dict[str, Any]:
    """The model against copies of `opponent` with the rules of `config` (the shared
    `win_rate`: win rate, Wilson interval, mean prestige as `mean_points`)."""
    players = config.num_players
    return shared.win_rate(COMMAND, game(config), model, players, opponent, games, seed, bar)


def evaluate(
    model: Any,
    players: int,
    variant: str,
    games: int,
    opponents: Sequence[str],
    seed: int,
    expansions: Sequence[str] = (),
    progress: bool = False,
) -> Rows:
    """One `win_rate` row per opponent, with a progress bar on stderr if `progress`."""
    rules = game(GameConfig(num_players=players, variant=variant, expansions=tuple(expansions)))
    return shared.evaluate(COMMAND, rules, model, players, list(opponents), games, seed, progress)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The arguments of `asara-evaluate`."""
    return shared.parse_args(COMMAND, argv)


@run_main("asara-evaluate")
def main(argv: list[str] | None = None) -> int:
    """`asara-evaluate`."""
    return shared.run_command(COMMAND, argv)


if __name__ == "__main__":
    sys.exit(main())
