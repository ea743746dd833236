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
from typing import Any, cast

import numpy as np

from agents import AGENT_SPECS, AGENTS, Agent, PolicyAgent, agent_names, check_agent
from agents import make_agent as _make_agent
from agents.arena import play_batch as _play_batch
from agents.models import MODELS, model_path
from asara_env.asara.config import GameConfig
from asara_env.common.opponents import Actor


def agent_specs() -> Collection[str]:
    """Every agent spec: `spec in agent_specs()` checks one (options included); iterating
    gives the names a spec may start with."""
    return AGENT_SPECS


def spec_names() -> list[str]:
    """The names an agent spec may start with (baselines, shipped models, search, policy)."""
    return agent_names()


def baselines() -> list[str]:
    """The baseline agents' names: the opponents a training run draws from."""
    return list(AGENTS)


def check(spec: str) -> str:
    """`spec` if it names an agent, else ValueError saying precisely what is wrong."""
    return check_agent(spec)


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """The agent of `spec` (a registry name with optional options), seeded."""
    return _make_agent(spec, seed)


def policy_agent(model: Any, seed: int | None = None) -> Agent:
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
    """int64[G, P]: final prestige of G games through the core (agents/arena.py)."""
    # agents/arena.py types its agents as `Agent`, yet plays any `Actor` (the ladder's
    # timed agents); the agents' one typed base will make this cast go
    arena_agents = cast(list[Agent], list(agents))
    return _play_batch(config, arena_agents, seating, seeds, batch_size, progress)


def shipped_model(name: str) -> Path | None:
    """The file of the shipped model `name` (`ppo_2p`, `ppo_4p`), None for another name."""
    return model_path(name, MODELS) if name in MODELS else None
