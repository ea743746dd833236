"""ASARA's behaviour-cloning samples: a baseline's decisions in self-play games through the
core (the shared `collect` of training/imitation.py, which `clone` then fits). ASARA is
turn-based: in each unfinished game the seat to move decides."""

from __future__ import annotations

from typing import Any

import numpy as np

from asara_env.asara.config import GameConfig
from asara_env.games import load_core
from training import imitation
from training.evaluation.asara import make_agent
from training.imitation import CoreSelfPlay, Decisions, Samples


class AsaraSelfPlay(CoreSelfPlay):
    """ASARA's core as `training.imitation.collect` and the self-play trainer play it (a
    `SelfPlay`): in every unfinished game the seat to move decides."""

    def decisions(self, state: Any) -> Decisions:
        live = np.flatnonzero(~self.core.is_terminal(state))
        seats = state.seat[live].astype(np.int64)
        observations = self.core.observe(state, state.seat)[live]
        return live, seats, observations, state.legal[live].copy()

    def step(self, state: Any, games: np.ndarray, seats: np.ndarray, actions: np.ndarray) -> None:
        self.core.step(state, actions, games=games)


def self_play(config: GameConfig, backend: str = "numpy") -> AsaraSelfPlay:
    """ASARA's core on `backend` as self-play plays it, its games made of `config`."""
    return AsaraSelfPlay(config, load_core("asara", backend))


def collect(
    config: GameConfig, expert: str, games: int, seed: int, reward: str = "win", batch: int = 256
) -> Samples:
    """Every decision of `games` self-play games of `expert` (game g seeded
    derived_seed(seed, g)); outcomes are the mover's terminal reward under `reward`."""
    agent = make_agent(expert, seed)
    return imitation.collect(self_play(config), agent, expert, games, seed, reward, batch)
