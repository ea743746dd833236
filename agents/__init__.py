"""Baseline agents that act on observations and action masks (see agents/base.py).

`make_agent(name, seed)` builds one by its registry name (`AGENTS`).
"""

from .base import Agent, pick_best
from .heuristic import GreedyAgent, TallAgent, TowersAgent
from .policy_agent import PolicyAgent
from .random_agent import RandomAgent

AGENTS: dict[str, type[Agent]] = {
    a.name: a for a in (RandomAgent, GreedyAgent, TowersAgent, TallAgent)
}


def make_agent(name: str, seed: int | None = None) -> Agent:
    """The agent registered as `name`, seeded."""
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; known: {sorted(AGENTS)}")
    return AGENTS[name](seed)


__all__ = [
    "AGENTS",
    "Agent",
    "GreedyAgent",
    "PolicyAgent",
    "RandomAgent",
    "TallAgent",
    "TowersAgent",
    "make_agent",
    "pick_best",
]
