"""Behaviour-cloning samples for BASARI: a baseline's decisions in self-play games.

`collect` plays games with the expert in every seat on the batched core and records, for
every real decision (a seat whose mask holds more than NOOP: its start archway, its card,
its barter steps; the decisions the learner is asked in `BasariVecEnv`), the seat's
observation, mask and action, and the terminal reward that seat went on to get (the
training reward scheme). `training.imitation.clone` fits a MaskablePPO policy to them.
"""

from __future__ import annotations

import numpy as np
from tqdm import tqdm

from agents.base import Agent
from agents.registry import make_agent
from asara_env.basari.config import BasariConfig
from asara_env.basari.core import init, observe, scores, step, terminal_rewards
from asara_env.basari.phases import Phase
from asara_env.common.seeding import derived_seeds

from .imitation import Samples


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
    agent = make_agent("basari", expert, seed)
    parts = []
    for start in tqdm(range(0, games, batch), desc=f"{expert} games", unit="batch"):
        seeds = derived_seeds(seed, np.arange(start, min(start + batch, games)))
        parts.append(_play(config, agent, seeds, reward))
    return Samples(
        *(np.concatenate([getattr(p, f) for p in parts]) for f in Samples.__annotations__)
    )


def _play(config: BasariConfig, agent: Agent[object], seeds: np.ndarray, reward: str) -> Samples:
    state = init(config, len(seeds), seeds=np.asarray(seeds, np.uint64))
    obs, masks, actions, games, seats = [], [], [], [], []
    while (state.phase != Phase.OVER).any():
        legal = state.legal
        g, s = np.nonzero(legal[:, :, 1:].any(axis=2))  # seats with a real decision
        o, m = observe(state)[g, s], legal[g, s].astype(bool)
        a = agent.act_batch(o, m)
        for log, item in zip((obs, masks, actions, games, seats), (o, m, a, g, s)):
            log.append(item)
        joint = np.zeros(legal.shape[:2], np.int64)  # NOOP for the others
        joint[g, s] = a
        step(state, joint)
    rewards = terminal_rewards(scores(state), reward)
    outcome = rewards[np.concatenate(games), np.concatenate(seats)].astype(np.float32)
    return Samples(
        np.concatenate(obs).astype(np.float32),
        np.concatenate(masks),
        np.concatenate(actions).astype(np.int64),
        outcome,
    )
