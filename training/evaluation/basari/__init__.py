"""BASARI's measuring: the tournament game and command lines (`tournament`:
`basari-tournament`, `basari-ladder`) and the evaluation of a model (`evaluate`, `basari-evaluate`).

Everything BASARI's training and measuring take from the `agents` package goes through this
package: the registry's answers for basari (`TrainingAgents`, training/game_agents.py) and
the functions below that are BASARI's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from agents.basari.arena import NegotiationStats, choose
from agents.basari.arena import play_batch as _play_batch
from asara_env.basari.config import BasariConfig
from asara_env.basari.core import BasariState
from asara_env.common.opponents import Actor
from asara_env.games import CoreVerbs
from training.game_agents import TrainingAgents
from training.game_agents import policy_agent as policy_agent

_AGENTS = TrainingAgents("basari")
agent_specs = _AGENTS.agent_specs
spec_names = _AGENTS.spec_names
baselines = _AGENTS.baselines
check = _AGENTS.check
make_agent = _AGENTS.make_agent
shipped_model = _AGENTS.shipped_model
shipped_players = _AGENTS.shipped_players


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


def choose_actions(
    state: BasariState,
    agents: Sequence[Actor],
    seating: np.ndarray,
    core: CoreVerbs | str | None = None,
) -> np.ndarray:
    """int64[B, P]: every deciding seat's action from its agent, NOOP elsewhere (observed
    by `core`: BASARI's verbs or a backend's name)."""
    return choose(state, agents, seating, core)


def new_stats(num_agents: int) -> NegotiationStats:
    """Empty negotiation figures of `num_agents` agents (the arena fills them)."""
    return NegotiationStats(num_agents)
