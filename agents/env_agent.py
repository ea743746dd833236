"""Which agent of a PettingZoo env acts, and what it may see: the two questions behind
every agent's `act_env(env, agent_id=None)` (`agents.base.Agent`).

An AEC env (one with an `agent_selection`) names the agent to move; `agent_id` names
another one. A parallel env has no agent to move, so `agent_id` is required. The agent's
seat is its index in `env.possible_agents`; what it sees is `env.observe(agent)`, the
`{"observation", "action_mask"}` dict every env of the package gives (BASARI's parallel
env included). No PettingZoo import: an env is recognised by what it has.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray


def env_agent(env: Any, agent_id: str | None = None) -> tuple[str, int]:
    """(agent, seat): `agent_id`, or an AEC env's agent to move, and its index in
    `env.possible_agents`; a ValueError for an unknown agent or a parallel env without
    one named."""
    if agent_id is None:
        agent_id = getattr(env, "agent_selection", None)
        if agent_id is None:
            raise ValueError(
                "act_env: a parallel env has no agent to move: name one, "
                "act_env(env, agent_id='player_0')"
            )
    agents = list(env.possible_agents)
    if agent_id not in agents:
        raise ValueError(f"act_env: unknown agent {agent_id!r}; the env's agents are {agents}")
    return str(agent_id), agents.index(agent_id)


def env_observation(env: Any, agent: str) -> tuple[NDArray[Any], NDArray[np.bool_]]:
    """(observation, bool mask) of `agent` in `env` (`env.observe(agent)`); a ValueError if
    the agent has no legal action now."""
    observe = getattr(env, "observe", None)
    if observe is None:
        raise TypeError(f"act_env: {type(env).__name__} has no observe(agent)")
    seen = observe(agent)
    if not isinstance(seen, dict) or not {"observation", "action_mask"} <= set(seen):
        raise TypeError("act_env: needs observe(agent) as {'observation', 'action_mask'}")
    mask = np.asarray(seen["action_mask"]).astype(bool)
    if not mask.any():
        raise ValueError(
            f"act_env: {agent} has no legal action now (the game is over, or another agent "
            "is to move)"
        )
    return np.asarray(seen["observation"]), mask
