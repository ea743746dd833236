"""BASARI's training: the learner VecEnv (`vec_env`), the training run's `GameSpec`
(`train`, `basari-train`), behaviour-cloning samples (`imitation`), the tournament game and
command line (`tournament`: `basari-tournament`) and the evaluation of a model (`evaluate`,
`basari-evaluate`).

Everything BASARI's training takes from the `agents` package goes through the small
functions below, so that a change of the agents' layout is a change here only.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

import numpy as np

import agents.registry as registry
from agents.basari import AGENTS
from agents.basari.arena import NegotiationStats, choose
from agents.basari.arena import play_batch as _play_batch
from agents.base import Agent
from agents.models import MODELS, model_path
from agents.policy_agent import PolicyAgent
from asara_env.basari.config import BasariConfig
from asara_env.basari.core import BasariState
from asara_env.common.opponents import Actor


def agent_specs() -> Collection[str]:
    """Every agent spec: `spec in agent_specs()` checks one; iterating gives the names."""
    return registry.agent_specs("basari")


def spec_names() -> list[str]:
    """The names an agent spec may start with (baselines, shipped models, policy)."""
    return registry.agent_names("basari")


def baselines() -> list[str]:
    """The baseline agents' names: the opponents a training run draws from."""
    return list(AGENTS)


def check(spec: str) -> str:
    """`spec` if it names an agent, else ValueError saying precisely what is wrong."""
    return registry.check_agent("basari", spec)


def make_agent(spec: str, seed: int | None = None) -> Agent[Any]:
    """The BASARI agent of `spec` (a baseline, a shipped model or a policy), seeded."""
    return registry.make_agent("basari", spec, seed)


def policy_agent(model: Any, seed: int | None = None) -> PolicyAgent:
    """A MaskablePPO model playing its most probable legal action."""
    return PolicyAgent(model, seed)


def play_batch(
    config: BasariConfig,
    agents: Sequence[Actor],
    seating: np.ndarray,
    seeds: np.ndarray,
    batch_size: int = 256,
    progress: Any = False,
    stats: NegotiationStats | None = None,
) -> np.ndarray:
    """int64[G, P]: the B10 ranking scores of G games through the core (agents/basari)."""
    return _play_batch(config, agents, seating, seeds, batch_size, progress, stats)


def choose_actions(state: BasariState, agents: Sequence[Actor], seating: np.ndarray) -> np.ndarray:
    """int64[B, P]: every deciding seat's action from its agent, NOOP elsewhere."""
    return choose(state, agents, seating)


def new_stats(num_agents: int) -> NegotiationStats:
    """Empty negotiation figures of `num_agents` agents (the arena fills them)."""
    return NegotiationStats(num_agents)


def shipped_model(name: str) -> Path | None:
    """The file of the shipped model `name` (`ppo_4p`), None for another name."""
    return model_path("basari", name) if name in MODELS["basari"] else None
