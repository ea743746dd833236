"""ASARA's training: the learner VecEnv (`vec_env`), the training run's `GameSpec`
(`train`, `asara-train`), behaviour-cloning samples (`imitation`), the tournament game and
command lines (`tournament`: `asara-tournament`, `asara-ladder`) and the evaluation of a
model (`evaluate`, `asara-evaluate`).

Everything ASARA's training takes from the `agents` package goes through the small
functions below, so that a change of the agents' layout is a change here only.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

import numpy as np

import agents.registry as registry
from agents.asara import AGENTS
from agents.asara.arena import play_batch as _play_batch
from agents.base import Agent
from agents.models import MODELS, model_path
from agents.policy_agent import PolicyAgent
from asara_env.asara.config import GameConfig
from asara_env.common.opponents import Actor


def agent_specs() -> Collection[str]:
    """Every agent spec: `spec in agent_specs()` checks one (options included); iterating
    gives the names a spec may start with."""
    return registry.agent_specs("asara")


def spec_names() -> list[str]:
    """The names an agent spec may start with (baselines, shipped models, search, policy)."""
    return registry.agent_names("asara")


def baselines() -> list[str]:
    """The baseline agents' names: the opponents a training run draws from."""
    return list(AGENTS)


def check(spec: str) -> str:
    """`spec` if it names an agent, else ValueError saying precisely what is wrong."""
    return registry.check_agent("asara", spec)


def make_agent(spec: str, seed: int | None = None) -> Agent[Any]:
    """The agent of `spec` (a registry name with optional options), seeded."""
    return registry.make_agent("asara", spec, seed)


def policy_agent(model: Any, seed: int | None = None) -> PolicyAgent:
    """A MaskablePPO model playing its most probable legal action."""
    return PolicyAgent(model, seed)


def play_batch(
    config: GameConfig,
    agents: Sequence[Actor],
    seating: np.ndarray,
    seeds: np.ndarray,
    batch_size: int = 256,
    progress: Any = False,
) -> np.ndarray:
    """int64[G, P]: final prestige of G games through the core (agents/asara/arena.py)."""
    return _play_batch(config, agents, seating, seeds, batch_size, progress)


def shipped_model(name: str) -> Path | None:
    """The file of the shipped model `name` (`ppo_2p`, `ppo_4p`), None for another name."""
    return model_path("asara", name) if name in MODELS["asara"] else None
