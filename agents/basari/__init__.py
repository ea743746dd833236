"""BASARI's agents, and their table for the registry (agents/registry.py).

Baselines acting on observations and masks (`AGENTS`): `random` (the shared uniform agent,
agents/base.py) and the heuristics of `baselines.py` (`points_first`, `value`,
`value_l1`), which read the observation through `view.py` and value cards, gems and
barters with `valuation.py`. The batched arena and its negotiation figures are
`arena.py`. Build them by spec: `agents.make_agent("basari", "value", seed)`, or the
shipped models `ppo_2p`, `ppo_3p` and `ppo_4p`, each trained for its player count
(agents/models.py). The shared search's verbs for BASARI: `search_verbs.py`.
"""

from agents.base import Agent, RandomAgent
from agents.spec import GameAgents

from .baselines import BasariAgent, PointsFirstAgent, ValueAgent, ValueL1Agent
from .search_verbs import VERBS

AGENTS: dict[str, type[Agent[object]]] = {
    a.name: a for a in (RandomAgent, PointsFirstAgent, ValueAgent, ValueL1Agent)
}
GAME_AGENTS = GameAgents(baselines=AGENTS, search=VERBS)

__all__ = [
    "AGENTS",
    "GAME_AGENTS",
    "BasariAgent",
    "PointsFirstAgent",
    "ValueAgent",
    "ValueL1Agent",
]
