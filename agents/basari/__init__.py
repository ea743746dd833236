"""BASARI agents: baselines on observations and masks (`baselines.py`), the batched arena
(`arena.py`). `make_basari_agent(name, seed)` builds one by name (`BASARI_AGENTS`)."""

from .baselines import (
    BASARI_AGENTS,
    BasariAgent,
    PointsFirstAgent,
    RandomAgent,
    ValueAgent,
    ValueL1Agent,
    make_basari_agent,
)

__all__ = [
    "BASARI_AGENTS",
    "BasariAgent",
    "PointsFirstAgent",
    "RandomAgent",
    "ValueAgent",
    "ValueL1Agent",
    "make_basari_agent",
]
