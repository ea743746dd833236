"""Evaluate a saved BASARI model against the baselines (console script `basari-evaluate`):
BASARI's `EvaluateCommand` for the shared evaluation (training/evaluation/evaluate.py), with
the same flags as `asara-evaluate`; the rules flag is `--start-mode`.

    basari-evaluate --model ppo_4p --players 4 --games 400
    basari-evaluate --model runs/basari/final.zip --players 2 --opponents value,points_first

Game g of an evaluation seeded s at P players is the reference game
`training.evaluation.tournament.game_seeds(s, P, G)[g]` (the seeds of `basari-train`'s final
evaluation and the figures of docs/performance.md).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from asara_env.basari.config import BasariConfig
from asara_env.basari.core import obs_size
from commandline.command import run_main
from training.evaluation import evaluate as shared
from training.evaluation.tournament import game_seeds

from . import baselines, policy_agent, shipped_model, shipped_players
from .tournament import COMMAND as TOURNAMENT
from .tournament import game


def _spaces(players: int) -> tuple[int, int]:
    config = BasariConfig(num_players=players)
    return obs_size(config.n_archways), config.n_actions


COMMAND = shared.EvaluateCommand(
    tournament=TOURNAMENT,
    prog="basari-evaluate",
    opponents=tuple(baselines()),
    default_players=4,
    default_games=400,
    shipped_model=shipped_model,
    shipped_players=shipped_players,
    policy_agent=policy_agent,
    spaces=_spaces,
    game_seeds=game_seeds,
)


def win_rate(
    model: Any, config: BasariConfig, opponent: str, games: int, seed: int, bar: Any = None
) -> dict[str, Any]:
    """The model's win rate in one seat against P - 1 copies of `opponent` with the rules
    of `config` (seats rotated: game g puts the model in seat g mod P), with its
    interval, the fair share and its mean points. `model`: a MaskablePPO model or the
    path of one."""
    players = config.num_players
    if isinstance(model, str) or hasattr(model, "__fspath__"):
        model, _ = shared.load_model(COMMAND, str(model), players)
    return shared.win_rate(COMMAND, game(config), model, players, opponent, games, seed, bar)


def evaluate(
    model: Any, players: int, opponent: str, games: int, seed: int, start_mode: str = "choose"
) -> dict[str, Any]:
    """`win_rate` at `players` players in `start_mode`."""
    config = BasariConfig(num_players=players, start_mode=start_mode)
    return win_rate(model, config, opponent, games, seed)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The arguments of `basari-evaluate`."""
    return shared.parse_args(COMMAND, argv)


@run_main("basari-evaluate")
def main(argv: list[str] | None = None) -> int:
    """`basari-evaluate`."""
    return shared.run_command(COMMAND, argv)


if __name__ == "__main__":
    sys.exit(main())
