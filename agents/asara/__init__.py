"""ASARA's agents, and their table for the registry (agents/registry.py).

- Baselines acting on observations and masks (`AGENTS`): `random` (the shared uniform
  agent, agents/base.py) and the three heuristics of `heuristic.py` (`greedy`, `towers`,
  `tall`), which read the observation through `features.py`.
- Search agents simulating the game from what their seat knows (`SEARCH_AGENTS`, with the
  options of `SEARCH_OPTIONS` and `ISMCTS_OPTIONS`): `flatmc` (`search.py`, flat Monte
  Carlo) and `ismcts` (`ismcts.py`, information-set MCTS), e.g.
  `flatmc:sims=256:playout=towers` or `flatmc:256`.
- The arena (`arena.py`): batched games through the core, one game through the AEC env.

Build them by spec: `agents.make_agent("asara", "flatmc:128:playout=towers", seed)`.
"""

from agents.base import Agent, RandomAgent
from agents.models import MODELS
from agents.spec import (
    MAX_BATCH,
    MAX_SECONDS,
    MAX_SIMS,
    MAX_WAVE,
    AgentKind,
    GameAgents,
    Option,
)
from asara_env.asara.core.outcome import REWARD_SCHEMES
from asara_env.common.backend import BACKENDS

from .heuristic import GreedyAgent, HeuristicAgent, TallAgent, TowersAgent
from .ismcts import EXPANSIONS, ISMCTSAgent
from .search import NET, FlatMCAgent, SearchAgent
from .search_verbs import VERBS

AGENTS: dict[str, type[Agent[object]]] = {
    a.name: a for a in (RandomAgent, GreedyAgent, TowersAgent, TallAgent)
}
SEARCH_AGENTS: dict[str, type[SearchAgent]] = {a.name: a for a in (FlatMCAgent, ISMCTSAgent)}
# what a search agent's playouts may be played by: "random" (uniform, without an agent),
# a baseline or a shipped model
PLAYOUTS = tuple(sorted({"random", *AGENTS, *MODELS["asara"]}))
SEARCH_OPTIONS: dict[str, Option] = {
    # playouts (flatmc) or iterations (ismcts) per decision
    "sims": Option("int", low=1, high=MAX_SIMS),
    "seconds": Option("float", low=0, low_open=True, high=MAX_SECONDS),  # instead of sims
    "playout": Option("str", choices=PLAYOUTS),
    # the reward scheme searched for, or a network's value head at the horizon ("net": the
    # prior's network; or a shipped model by name)
    "value": Option("str", choices=(*REWARD_SCHEMES, NET, *MODELS["asara"])),
    "backend": Option("str", choices=BACKENDS),  # the core the simulations are stepped on
    "batch": Option("int", low=1, high=MAX_BATCH),  # games per core batch
    "horizon": Option("int", low=0),  # decisions per playout before `estimate`
}
ISMCTS_OPTIONS: dict[str, Option] = {
    **SEARCH_OPTIONS,
    "c": Option("float", low=0),  # the exploration constant
    "wave": Option("int", low=1, high=MAX_WAVE),  # iterations per game stepped as one batch
    "expand": Option("str", choices=EXPANSIONS),
    "widen": Option("float", low=0, low_open=True, high=1),  # progressive widening
    "prior": Option("str", choices=tuple(MODELS["asara"])),  # PUCT priors from a model's policy
}
GAME_AGENTS = GameAgents(
    baselines=AGENTS,
    configurable={
        "flatmc": AgentKind(FlatMCAgent, SEARCH_OPTIONS, main="sims"),
        "ismcts": AgentKind(ISMCTSAgent, ISMCTS_OPTIONS, main="sims"),
    },
    search=VERBS,
)

__all__ = [
    "AGENTS",
    "GAME_AGENTS",
    "ISMCTS_OPTIONS",
    "SEARCH_AGENTS",
    "SEARCH_OPTIONS",
    "FlatMCAgent",
    "GreedyAgent",
    "HeuristicAgent",
    "ISMCTSAgent",
    "SearchAgent",
    "TallAgent",
    "TowersAgent",
]
