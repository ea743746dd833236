"""Baseline agents that act on observations and action masks (see agents/base.py).

`make_agent(name, seed)` builds one by its registry name: a baseline of `AGENTS` or a
shipped model of `MODELS` (agents/models.py); `agent_names()` lists both.
"""

from .base import Agent, pick_best
from .heuristic import GreedyAgent, TallAgent, TowersAgent
from .models import MODELS, make_model_agent
from .policy_agent import PolicyAgent
from .random_agent import RandomAgent

AGENTS: dict[str, type[Agent]] = {
    a.name: a for a in (RandomAgent, GreedyAgent, TowersAgent, TallAgent)
}


def agent_names() -> list[str]:
    """Every name `make_agent` takes: the baselines, then the shipped models."""
    return sorted(AGENTS) + sorted(MODELS)


def unknown_agents_error(names: list[str]) -> str | None:
    """None if every name is known; otherwise a message naming the unknown ones and the
    agents and shipped models that exist."""
    unknown = [n for n in names if n not in AGENTS and n not in MODELS]
    if not unknown:
        return None
    return (
        f"unknown agent(s) {unknown}; known agents: {sorted(AGENTS)}, "
        f"shipped models: {sorted(MODELS)}"
    )


def make_agent(name: str, seed: int | None = None) -> Agent:
    """The agent registered as `name` (a baseline or a shipped model), seeded."""
    if name in MODELS:
        return make_model_agent(name, seed)
    error = unknown_agents_error([name])
    if error:
        raise ValueError(error)
    return AGENTS[name](seed)


__all__ = [
    "AGENTS",
    "MODELS",
    "Agent",
    "GreedyAgent",
    "PolicyAgent",
    "RandomAgent",
    "TallAgent",
    "TowersAgent",
    "agent_names",
    "make_agent",
    "make_model_agent",
    "pick_best",
    "unknown_agents_error",
]
