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
from typing import Any, cast

import numpy as np

from agents.basari import BASARI_AGENT_NAMES, BASARI_AGENTS, BasariAgent, make_basari_agent
from agents.basari.arena import NegotiationStats, choose
from agents.basari.arena import play_batch as _play_batch
from agents.models import BASARI_MODELS, model_path
from agents.policy_agent import PolicyAgent
from asara_env.basari.config import BasariConfig
from asara_env.basari.core import BasariState
from asara_env.common.opponents import Actor

Agent = BasariAgent | PolicyAgent  # until the agents share one base (the agents rework)


def agent_specs() -> Collection[str]:
    """Every agent name: the baselines and the shipped models."""
    return BASARI_AGENT_NAMES


def spec_names() -> list[str]:
    """The names an agent may have (baselines, shipped models)."""
    return list(BASARI_AGENT_NAMES)


def baselines() -> list[str]:
    """The baseline agents' names: the opponents a training run draws from."""
    return list(BASARI_AGENTS)


def check(spec: str) -> str:
    """`spec` if it names an agent, else ValueError naming the agents."""
    if spec not in BASARI_AGENT_NAMES:
        raise ValueError(f"unknown BASARI agent {spec!r}; known: {sorted(BASARI_AGENT_NAMES)}")
    return spec


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """The BASARI agent named `spec` (a baseline or a shipped model), seeded."""
    return make_basari_agent(spec, seed)


def policy_agent(model: Any, seed: int | None = None) -> Agent:
    """A MaskablePPO model playing its most probable legal action."""
    return PolicyAgent(model, seed)


def _as_arena_agents(agents: Sequence[Actor]) -> list[BasariAgent]:
    # agents/basari/arena.py types its agents as BasariAgent, yet plays any `Actor`
    # (PolicyAgent snapshots and models included); the agents' one typed base will make
    # this cast go
    return cast(list[BasariAgent], list(agents))


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
    arena_agents = _as_arena_agents(agents)
    return _play_batch(config, arena_agents, seating, seeds, batch_size, progress, stats)


def choose_actions(state: BasariState, agents: Sequence[Actor], seating: np.ndarray) -> np.ndarray:
    """int64[B, P]: every deciding seat's action from its agent, NOOP elsewhere."""
    return choose(state, _as_arena_agents(agents), seating)


def new_stats(num_agents: int) -> NegotiationStats:
    """Empty negotiation figures of `num_agents` agents (the arena fills them)."""
    return NegotiationStats(num_agents)


def shipped_model(name: str) -> Path | None:
    """The file of the shipped model `name` (`ppo_4p`), None for another name."""
    return model_path(name, BASARI_MODELS) if name in BASARI_MODELS else None
