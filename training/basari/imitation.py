"""BASARI's behaviour-cloning samples: a baseline's decisions in self-play games on the core
(the shared `collect` of training/imitation.py, which `clone` then fits).

BASARI's choices are simultaneous: every seat whose mask holds more than NOOP (its start
archway, its card, its barter steps: the decisions the learner is asked in `BasariVecEnv`)
decides, the others play NOOP.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from asara_env.basari.config import BasariConfig
from asara_env.basari.core import BasariState, init, observe, scores, step, terminal_rewards
from asara_env.basari.phases import Phase
from training import imitation
from training.imitation import Decisions, Samples

from . import make_agent


@dataclass(frozen=True)
class BasariSelfPlay:
    """BASARI's core as `training.imitation.collect` plays it (a `SelfPlay`)."""

    config: BasariConfig

    def init(self, seeds: np.ndarray) -> BasariState:
        return init(self.config, len(seeds), seeds=seeds)

    def over(self, state: BasariState) -> bool:
        return not (state.phase != Phase.OVER).any()

    def decisions(self, state: BasariState) -> Decisions:
        legal = state.legal
        g, s = np.nonzero(legal[:, :, 1:].any(axis=2))  # seats with a real decision
        return g, s, observe(state)[g, s], legal[g, s].astype(bool)

    def step(
        self, state: BasariState, games: np.ndarray, seats: np.ndarray, actions: np.ndarray
    ) -> None:
        joint = np.zeros(state.legal.shape[:2], np.int64)  # NOOP for the others
        joint[games, seats] = actions
        step(state, joint)

    def rewards(self, state: BasariState, reward: str) -> np.ndarray:
        return terminal_rewards(scores(state), reward)


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
    return imitation.collect(BasariSelfPlay(config), agent, expert, games, seed, reward, batch)
