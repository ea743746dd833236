"""ASARA's measuring: the tournament game and command lines (`tournament`:
`asara-tournament`, `asara-ladder`) and the evaluation of a model (`evaluate`, `asara-evaluate`).

Everything ASARA's training and measuring take from the `agents` package goes through this
package: the registry's answers for asara (`TrainingAgents`, training/game_agents.py) and
the functions below that are ASARA's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from agents.asara.arena import play_batch as _play_batch
from asara_env.asara.config import GameConfig
from asara_env.common.opponents import Actor
from training.game_agents import TrainingAgents
from training.game_agents import policy_agent as policy_agent

_AGENTS = TrainingAgents("asara")
agent_specs = _AGENTS.agent_specs
spec_names = _AGENTS.spec_names
baselines = _AGENTS.baselines
check = _AGENTS.check
make_agent = _AGENTS.make_agent
shipped_model = _AGENTS.shipped_model
shipped_players = _AGENTS.shipped_players


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
