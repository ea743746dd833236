"""Agents for every game.

The shared modules import no game: `base.py` (the `Agent` base of every agent, the uniform
`RandomAgent`), `registry.py` (`make_agent(game, spec, seed)`, `agent_names(game)`: the
one spec grammar `name:key=value:...` and its errors), `arena.py` (the batched arena
loop), `models.py` (the shipped models of each game, by name) and `policy_agent.py` (a
trained MaskablePPO policy as an agent of any game), and `search/`, the search of every
game (its agents `flatmc`, `ismcts` and `gumbel` join every game's specs). Each
game's own agents, its table for the registry and its arena are in `agents/<game>/`
(`agents/asara/`, `agents/basari/`), imported when the game is first named.
"""

from .base import Agent, RandomAgent, ScoringAgent, pick_best
from .registry import (
    agent_names,
    agent_specs,
    check_agent,
    check_spec,
    games,
    is_agent,
    make_agent,
    parse_spec,
    unknown_agents_error,
)

__all__ = [
    "Agent",
    "RandomAgent",
    "ScoringAgent",
    "agent_names",
    "agent_specs",
    "check_agent",
    "check_spec",
    "games",
    "is_agent",
    "make_agent",
    "parse_spec",
    "pick_best",
    "unknown_agents_error",
]
