"""BASARI's behaviour-cloning samples: a baseline's decisions in self-play games on the core
(the shared `collect` of training/imitation.py, which `clone` then fits).

BASARI's choices are simultaneous: every seat whose mask holds more than NOOP (its start
archway, its card, its barter steps: the decisions the learner is asked in `BasariVecEnv`)
decides, the others play NOOP.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from asara_env.basari.config import BasariConfig
from asara_env.games import load_core
from training import imitation
from training.evaluation.basari import make_agent
from training.imitation import CoreSelfPlay, Decisions, Samples


class BasariSelfPlay(CoreSelfPlay):
    """BASARI's core as `training.imitation.collect` and the self-play trainer play it (a
    `SelfPlay`): every seat with a real decision decides, the others play NOOP."""

    def decisions(self, state: Any) -> Decisions:
        legal = state.legal
        g, s = np.nonzero(legal[:, :, 1:].any(axis=2))  # seats with a real decision
        return g, s, self.core.observe(state)[g, s], legal[g, s].astype(bool)

    def step(self, state: Any, games: np.ndarray, seats: np.ndarray, actions: np.ndarray) -> None:
        joint = np.zeros(state.legal.shape[:2], np.int64)  # NOOP for the others
        joint[games, seats] = actions
        self.core.step(state, joint)


def self_play(config: BasariConfig, backend: str = "numpy") -> BasariSelfPlay:
    """BASARI's core on `backend` as self-play plays it, its games made of `config`."""
    return BasariSelfPlay(config, load_core("basari", backend))


def collect(
    config: BasariConfig,
    expert: str,
    games: int,
    seed: int,
    reward: str = "win",
    batch: int = 256,
) -> Samples:
    """Every real decision of `games` self-play games of `expert` (game g seeded
    derived_seed(seed, g)); outcomes are the deciding seat's terminal reward."""
    agent = make_agent(expert, seed)
    return imitation.collect(self_play(config), agent, expert, games, seed, reward, batch)
