"""ASARA's behaviour-cloning samples: a baseline's decisions in self-play games through the
core (the shared `collect` of training/imitation.py, which `clone` then fits). ASARA is
turn-based: in each unfinished game the seat to move decides."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from asara_env.asara.config import GameConfig
from asara_env.asara.core import (
    CoreState,
    init,
    is_terminal,
    scores,
    step,
    terminal_rewards,
)
from asara_env.asara.core.observation import observe
from training import imitation
from training.imitation import Decisions, Samples

from . import make_agent


@dataclass(frozen=True)
class AsaraSelfPlay:
    """ASARA's core as `training.imitation.collect` plays it (a `SelfPlay`)."""

    config: GameConfig

    def init(self, seeds: np.ndarray) -> CoreState:
        return init(self.config, len(seeds), seeds=seeds)

    def over(self, state: CoreState) -> bool:
        return bool(is_terminal(state).all())

    def decisions(self, state: CoreState) -> Decisions:
        live = np.flatnonzero(~is_terminal(state))
        seats = state.seat[live].astype(np.int64)
        return live, seats, observe(state, state.seat)[live], state.legal[live].copy()

    def step(
        self, state: CoreState, games: np.ndarray, seats: np.ndarray, actions: np.ndarray
    ) -> None:
        step(state, actions, games=games)

    def rewards(self, state: CoreState, reward: str) -> np.ndarray:
        return terminal_rewards(scores(state), reward)


def collect(
    config: GameConfig, expert: str, games: int, seed: int, reward: str = "win", batch: int = 256
) -> Samples:
    """Every decision of `games` self-play games of `expert` (game g seeded
    derived_seed(seed, g)); outcomes are the mover's terminal reward under `reward`."""
    agent = make_agent(expert, seed)
    return imitation.collect(AsaraSelfPlay(config), agent, expert, games, seed, reward, batch)
