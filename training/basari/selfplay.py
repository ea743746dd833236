"""BASARI for the self-play trainer (`basari-selfplay`, training/selfplay/): its batched
core as the trainer plays it, its rules option, shipped models and evaluation.

    basari-selfplay --players 4 --simulations 32 --iterations 100 --out runs/sp-basari-4p

BASARI's choices are simultaneous: every seat whose mask holds more than NOOP decides
(each by its own search, which treats the others' simultaneous choices as the shared
search does), the others play NOOP, and the joint action steps the game.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

import numpy as np

from asara_env import games
from asara_env.basari.config import START_MODES, BasariConfig
from asara_env.basari.core import obs_size
from asara_env.basari.phases import Phase
from commandline.command import run_main
from training.imitation import Decisions
from training.selfplay import run
from training.selfplay.spec import SelfPlaySpec

from . import shipped_model, spec_names
from .evaluate import evaluate


@dataclass(frozen=True)
class BasariGames:
    """BASARI's core (`core`: the numpy or the compiled one) as the trainer plays it (a
    `training.imitation.SelfPlay`)."""

    config: BasariConfig
    core: games.CoreVerbs

    def init(self, seeds: np.ndarray) -> Any:
        return self.core.init(self.config, len(seeds), seeds=seeds)

    def over(self, state: Any) -> bool:
        return not (state.phase != Phase.OVER).any()

    def decisions(self, state: Any) -> Decisions:
        legal = state.legal
        g, s = np.nonzero(legal[:, :, 1:].any(axis=2))  # seats with a real decision
        return g, s, self.core.observe(state)[g, s], legal[g, s].astype(bool)

    def step(self, state: Any, g: np.ndarray, seats: np.ndarray, actions: np.ndarray) -> None:
        joint = np.zeros(state.legal.shape[:2], np.int64)  # NOOP for the others
        joint[g, seats] = actions
        self.core.step(state, joint)

    def rewards(self, state: Any, reward: str) -> np.ndarray:
        rewards: np.ndarray = self.core.terminal_rewards(self.core.scores(state), reward)
        return rewards


def _config(args: argparse.Namespace) -> BasariConfig:
    return BasariConfig(num_players=args.players, start_mode=args.start_mode)


def _self_play(config: BasariConfig, backend: str) -> BasariGames:
    return BasariGames(config, games.load_core("basari", backend))


def _sizes(config: BasariConfig) -> tuple[int, int]:
    return obs_size(config.n_archways), config.n_actions


def _win_rate(model: Any, config: BasariConfig, opponent: str, games: int, seed: int) -> Any:
    return evaluate(model, config.num_players, opponent, games, seed, config.start_mode)


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--start-mode",
        choices=START_MODES,
        default="choose",
        help="choose: every player picks a start archway (B3.4); random: each one drawn at random",
    )


SPEC = SelfPlaySpec(
    game="basari",
    prog="basari-selfplay",
    config=_config,
    self_play=_self_play,
    sizes=_sizes,
    shipped_model=shipped_model,
    start_model=lambda players: f"ppo_{players}p",
    eval_opponents=lambda players: [f"ppo_{players}p", "value"],
    agent_names=spec_names,
    win_rate=_win_rate,
    reward_schemes=("win", "rank", "margin"),
    add_arguments=_add_arguments,
)


@run_main("basari-selfplay")
def main(argv: list[str] | None = None) -> None:
    """`basari-selfplay`."""
    run.main_of(SPEC, argv)


if __name__ == "__main__":
    main()
