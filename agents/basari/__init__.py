"""BASARI agents: baselines on observations and masks (`baselines.py`), the batched arena
(`arena.py`). `make_basari_agent(name, seed)` builds one by name: a baseline (`BASARI_AGENTS`) or a
shipped model (`ppo_4p`; all names: `BASARI_AGENT_NAMES`)."""

from .baselines import (
    BASARI_AGENT_NAMES,
    BASARI_AGENTS,
    BasariAgent,
    PointsFirstAgent,
    RandomAgent,
    ValueAgent,
    ValueL1Agent,
    make_basari_agent,
)

__all__ = [
    "BASARI_AGENT_NAMES",
    "BASARI_AGENTS",
    "BasariAgent",
    "PointsFirstAgent",
    "RandomAgent",
    "ValueAgent",
    "ValueL1Agent",
    "make_basari_agent",
]
