"""ASARA for the self-play trainer (`asara-selfplay`, training/selfplay/): its batched core
as the trainer plays it, its rules options, shipped models and evaluation.

    asara-selfplay --players 2 --simulations 32 --iterations 100 --out runs/sp-2p

ASARA is turn-based: in every unfinished game the seat to move decides.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

import numpy as np

from asara_env import games
from asara_env.asara.actions import NUM_ACTIONS
from asara_env.asara.config import GameConfig
from asara_env.asara.core.observation import OBS_DIM
from commandline.asara.options import add_expansions_argument, check_rules
from commandline.command import run_main
from training.imitation import Decisions
from training.selfplay import run
from training.selfplay.spec import SelfPlaySpec

from . import shipped_model, spec_names
from .evaluate import win_rate


@dataclass(frozen=True)
class AsaraGames:
    """ASARA's core (`core`: the numpy or the compiled one) as the trainer plays it (a
    `training.imitation.SelfPlay`)."""

    config: GameConfig
    core: games.CoreVerbs

    def init(self, seeds: np.ndarray) -> Any:
        return self.core.init(self.config, len(seeds), seeds=seeds)

    def over(self, state: Any) -> bool:
        return bool(self.core.is_terminal(state).all())

    def decisions(self, state: Any) -> Decisions:
        live = np.flatnonzero(~self.core.is_terminal(state))
        seats = state.seat[live].astype(np.int64)
        observations = self.core.observe(state, state.seat)[live]
        return live, seats, observations, state.legal[live].copy()

    def step(self, state: Any, g: np.ndarray, seats: np.ndarray, actions: np.ndarray) -> None:
        self.core.step(state, actions, games=g)

    def rewards(self, state: Any, reward: str) -> np.ndarray:
        rewards: np.ndarray = self.core.terminal_rewards(self.core.scores(state), reward)
        return rewards


def _config(args: argparse.Namespace) -> GameConfig:
    return GameConfig(
        num_players=args.players, variant=args.variant, expansions=tuple(args.expansions)
    )


def _self_play(config: GameConfig, backend: str) -> AsaraGames:
    return AsaraGames(config, games.load_core("asara", backend))


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--variant",
        default="basic",
        choices=("basic", "pro"),
        help="the rules: basic or the professional variant (R7)",
    )
    add_expansions_argument(p)


SPEC = SelfPlaySpec(
    game="asara",
    prog="asara-selfplay",
    config=_config,
    self_play=_self_play,
    sizes=lambda config: (OBS_DIM, NUM_ACTIONS),
    shipped_model=shipped_model,
    start_model=lambda players: "ppo_2p" if players == 2 else "ppo_4p",
    eval_opponents=lambda players: ["ppo_2p" if players == 2 else "ppo_4p", "towers"],
    agent_names=spec_names,
    win_rate=win_rate,
    reward_schemes=("win", "rank", "margin"),
    add_arguments=_add_arguments,
    check=check_rules,
)


@run_main("asara-selfplay")
def main(argv: list[str] | None = None) -> None:
    """`asara-selfplay`."""
    run.main_of(SPEC, argv)


if __name__ == "__main__":
    main()
